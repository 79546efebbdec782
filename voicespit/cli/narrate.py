"""`voicespit narrate`: a computer-versus-computer game heard, as a stereo WAV and a transcript."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from voicespit.audio.narrate import narrate_game
from voicespit.audio.reports import MAX_RATE, MIN_RATE, SpeechSettings
from voicespit.cli.arguments import seed_value
from voicespit.engine import Rules
from voicespit.narration.announcement import Verbosity


def _rate(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if not MIN_RATE <= value <= MAX_RATE:
        raise argparse.ArgumentTypeError(
            f"{value} is outside {MIN_RATE}..{MAX_RATE} words a minute")
    return value


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--seed", type=seed_value, default=7, metavar="N",
                        help="seed for the deal and the players (default 7)")
    parser.add_argument("--out", type=Path, required=True, metavar="FILE.wav",
                        help="the stereo WAV file to write")
    parser.add_argument("--game", choices=("spit", "speed"), default="spit")
    parser.add_argument("--variant", action="append", default=[], metavar="KEY=VALUE",
                        help="a rule variant, e.g. stockpiles=4 (repeatable)")
    parser.add_argument("--verbosity", choices=[v.value for v in Verbosity], default="normal")
    parser.add_argument("--rate", type=_rate, default=SpeechSettings.rate, metavar="WPM",
                        help=f"speech rate in words a minute (default {SpeechSettings.rate})")


def run(args: argparse.Namespace) -> int:
    rules = Rules.for_game(args.game, args.variant)
    out: Path = args.out
    if out.parent and not out.parent.exists():
        print(f"voicespit: no directory {out.parent} for {out.name}", file=sys.stderr)
        return 2
    result = narrate_game(rules, args.seed, out, sys.stdout, Verbosity(args.verbosity),
                          SpeechSettings(rate=args.rate))
    spoken = result.history
    minutes, seconds = divmod(result.seconds, 60)
    print(f"narrate: {args.game} seed {args.seed}: {len(result.events)} events, "
          f"{len(result.lines)} announcements ({spoken['spoken']} spoken in full, "
          f"{spoken['cut']} cut short, {spoken['dropped'] + spoken['expired']} dropped as stale); "
          f"{result.plays} cards played, {result.too_late} moves too late, "
          f"{result.mistakes} refused as mistakes; "
          f"{int(minutes)} min {seconds:04.1f} s -> {out}"
          + (f" (speech rendered again {result.speech_retries} times)"
             if result.speech_retries else ""))
    return 0
