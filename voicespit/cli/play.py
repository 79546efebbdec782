"""`voicespit play` (also plain `voicespit`): play Spit or Speed by voice or keyboard."""

from __future__ import annotations

import argparse
from pathlib import Path

from voicespit.app.build import rules_from, validate_pace, validate_variants
from voicespit.app.runner import App, LaunchOptions
from voicespit.cli.arguments import positive_int, seed_value
from voicespit.cli.logs import keep_native_messages_off_the_terminal, start_logging
from voicespit.config import LISTEN_MODES, load_settings, settings_file, user_config_path


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--game", choices=("spit", "speed"), help="which game (default: spit)")
    parser.add_argument("--variant", action="append", default=[], metavar="KEY=VALUE",
                        help="a rule variant, e.g. stockpiles=4 (repeatable)")
    parser.add_argument("--pace", metavar="PACE",
                        help="opponent pace: adaptive, gentle, relaxed, brisk, fast, or seconds")
    parser.add_argument("--input", choices=("auto", "mic", "keyboard", "wav"),
                        help="where commands come from (default: auto)")
    parser.add_argument("--script", type=Path, metavar="FILE",
                        help="with --input wav: lines of 'SECONDS FILE.wav' to speak")
    parser.add_argument("--recognizer", choices=("auto", "vosk", "whisper", "pocketsphinx"))
    parser.add_argument("--listen", choices=LISTEN_MODES,
                        help="when to listen (default auto: all the time, the game's own "
                             "voice cancelled, but not while it speaks if no canceller can "
                             "run or the room echoes it back too loudly; always: all the "
                             "time, never falling back; echo_guard: never while the game "
                             "speaks; headphones: all the time, nothing to cancel; "
                             "push_to_talk: for one command after the talk key)")
    parser.add_argument("--voice", metavar="NAME", help="text-to-speech voice")
    parser.add_argument("--rate", type=positive_int, metavar="WPM",
                        help="speech rate in words a minute")
    parser.add_argument("--verbosity", choices=("full", "normal", "terse"))
    parser.add_argument("--seed", type=seed_value, metavar="N",
                        help="deal the same games every time")
    parser.add_argument("--config", type=Path, metavar="FILE",
                        help=f"settings file (default: {user_config_path()})")
    parser.add_argument("--profile", metavar="NAME", help="whose statistics to use")
    parser.add_argument("--no-audio", action="store_true",
                        help="no sound at all: every announcement is printed")
    parser.add_argument("--verbose", action="store_true",
                        help="also print the technical details of devices and recognizers "
                             "on stderr")
    parser.add_argument("--log", type=Path, metavar="FILE",
                        help="write a detailed log to FILE: every event and every line said")
    parser.add_argument("--tutorial", action="store_true",
                        help="begin with a spoken tutorial: one guided round of Spit")


def overrides_from(args: argparse.Namespace) -> dict[str, dict[str, object]]:
    """The flags that were given, as {section: {key: value}} over the config files."""
    table: dict[str, dict[str, object]] = {}
    for section, key, value in (
        ("game", "game", args.game), ("opponent", "pace", args.pace),
        ("input", "input", args.input), ("input", "recognizer", args.recognizer),
        ("input", "listen", args.listen), ("output", "voice", args.voice),
        ("output", "rate", args.rate), ("output", "verbosity", args.verbosity),
        ("play", "profile", args.profile),
    ):
        if value is not None:
            table.setdefault(section, {})[key] = value
    if args.no_audio:
        table.setdefault("output", {})["audio"] = False
    return table


def run(args: argparse.Namespace) -> int:
    app = build_app(args)
    keep_native_messages_off_the_terminal(verbose=args.verbose, log_file=args.log)
    return app.run()


def build_app(args: argparse.Namespace) -> App:
    """The game the flags describe, not yet started (raises VoiceSpitError on bad settings)."""
    start_logging(verbose=args.verbose, log_file=args.log)
    settings = load_settings(settings_file(args.config), overrides_from(args),
                             validators=(validate_pace, validate_variants))
    rules = rules_from(settings, args.variant)
    if settings.input.input == "wav" and args.script is None:
        raise SystemExit("voicespit: --input wav needs --script FILE")
    flagged = frozenset(key for key in ("rate", "voice", "verbosity")
                        if getattr(args, key) is not None)
    return App(settings, rules, LaunchOptions(seed=args.seed, script=args.script,
                                              tutorial=args.tutorial,
                                              variants=tuple(args.variant), flagged=flagged))
