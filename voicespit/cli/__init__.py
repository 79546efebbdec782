"""`voicespit` and its subcommands: argument parsing only.

Each subcommand lives in its own module with `configure(parser)` and
`run(args) -> int`; this module only routes. Errors a user can cause end in a
one-line message and a non-zero exit, never a traceback.

May import every layer; nothing imports it but `__main__`.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence
from typing import Protocol

from voicespit.errors import VoiceSpitError

SUBCOMMANDS: dict[str, tuple[str, str]] = {
    # name: (module, one-line help)
    "play": ("voicespit.cli.play", "play Spit or Speed by voice or keyboard (the default)"),
    "config": ("voicespit.cli.config", "where the settings file is, and the settings in force"),
    "simulate": ("voicespit.cli.simulate", "play computer-versus-computer games at full speed"),
    "models": ("voicespit.cli.models", "install and list speech models (Vosk, or another Whisper)"),
    "narrate": ("voicespit.cli.narrate", "render a computer-versus-computer game to a stereo WAV"),
    "recognize": ("voicespit.cli.recognize", "recognize spoken commands in WAV files or a corpus"),
}


class _Subcommand(Protocol):
    def configure(self, parser: argparse.ArgumentParser) -> None: ...
    def run(self, args: argparse.Namespace) -> int: ...


class UsageError(VoiceSpitError):
    """A bad flag value: reported on one line with exit status 2."""


def build_parser() -> tuple[argparse.ArgumentParser, dict[str, _Subcommand]]:
    parser = argparse.ArgumentParser(
        prog="voicespit",
        description="Spit and Speed by voice: an offline, audio-only card game.",
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    modules: dict[str, _Subcommand] = {}
    for name, (module_name, help_text) in SUBCOMMANDS.items():
        module: _Subcommand = importlib.import_module(module_name)
        sub = subparsers.add_parser(name, help=help_text, description=help_text)
        module.configure(sub)
        modules[name] = module
    return parser, modules


def main(argv: Sequence[str] | None = None) -> int:
    parser, modules = build_parser()
    arguments = list(sys.argv[1:] if argv is None else argv)
    default = "play" if "play" in modules else "simulate"
    # Bare `voicespit` (or only flags) means the default command.
    starts_with_flag = bool(arguments) and arguments[0].startswith("-")
    if not arguments or (starts_with_flag and arguments[0] not in ("-h", "--help")):
        arguments.insert(0, default)
    args = parser.parse_args(arguments)
    try:
        return modules[args.command].run(args)
    except VoiceSpitError as error:
        print(f"voicespit: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("voicespit: stopped", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # The reader went away (`voicespit narrate ... | head`): nothing more to say to it.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141
