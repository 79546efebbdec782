"""`voicespit config`: where the settings file is, and what the settings come to."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from voicespit.app.build import validate_pace, validate_variants
from voicespit.config import DEFAULT_FILE, describe, load_settings, settings_file, user_config_path


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--path", action="store_true",
                        help="print where your own settings file goes")
    parser.add_argument("--show", action="store_true",
                        help="print every setting as the game would use it")
    parser.add_argument("--config", type=Path, metavar="FILE", help="check this file instead")


def run(args: argparse.Namespace) -> int:
    if args.path or not args.show:
        path = user_config_path()
        print(path)
        if not args.path:
            state = "exists" if path.exists() else "does not exist yet"
            print(f"(it {state}; every setting and its default is in {DEFAULT_FILE})")
        return 0
    settings = load_settings(settings_file(args.config), validators=(validate_pace, validate_variants))
    print(json.dumps(describe(settings), indent=2))
    return 0
