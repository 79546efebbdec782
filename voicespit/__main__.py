"""`python -m voicespit` is the same as the `voicespit` command."""

import sys

from voicespit.cli import main

sys.exit(main())
