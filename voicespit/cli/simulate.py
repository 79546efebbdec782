"""`voicespit simulate`: complete games at full speed.

Without `--human-pace`: computer-versus-computer games on the engine alone, no
clock (the engine's throughput and referee check). With `--human-pace`: real-time
matches on a fake clock, a simulated human against the opponent (see
`voicespit.simulation.realtime`); the JSON line adds the opponent's win rate,
both players' seconds per card and the contested plays.
"""

from __future__ import annotations

import argparse
import json

from voicespit.cli.arguments import fraction, non_negative_int, positive_float, seed_value
from voicespit.engine import Rules
from voicespit.opponent.adaptive import AdaptivePace
from voicespit.opponent.pace import NAMED_PACES, FixedPace, Pace
from voicespit.opponent.simulated_human import HumanModel
from voicespit.simulation.full_speed import SimulationResult, simulate
from voicespit.simulation.realtime import simulate_realtime


def opponent_pace(text: str) -> str:
    """`adaptive`, a pace name, or seconds per card."""
    if text == "adaptive" or text in NAMED_PACES:
        return text
    try:
        seconds = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a pace; give adaptive, {', '.join(NAMED_PACES)} "
            "or seconds per card") from None
    if not 0 <= seconds < float("inf"):
        raise argparse.ArgumentTypeError(f"{text} seconds per card must be 0 or more")
    return text


def build_pace(opponent: str, target_win_rate: float) -> Pace:
    if opponent == "adaptive":
        return AdaptivePace(target_win_rate)
    if opponent in NAMED_PACES:
        return FixedPace.named(opponent)
    return FixedPace(float(opponent))


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--games", type=non_negative_int, default=100, metavar="N",
                        help="matches to play (default 100)")
    parser.add_argument("--seed", type=seed_value, default=0, metavar="N",
                        help="seed for the shuffles and the interleaving (default 0)")
    parser.add_argument("--game", choices=("spit", "speed"), default="spit")
    parser.add_argument("--variant", action="append", default=[], metavar="KEY=VALUE",
                        help="a rule variant, e.g. stockpiles=4 (repeatable)")
    parser.add_argument("--check", action="store_true",
                        help="after every action verify the cards (engine-only: also the "
                             "legal actions and refusals)")
    parser.add_argument("--memory", action="store_true",
                        help="also measure peak memory (engine-only)")
    parser.add_argument("--json", action="store_true", help="print only the JSON summary line")
    realtime = parser.add_argument_group(
        "real time", "a simulated human plays seat 0 against the opponent on a fake clock")
    realtime.add_argument("--human-pace", type=positive_float, metavar="SECONDS",
                          help="the simulated human's mean seconds per card")
    realtime.add_argument("--opponent", type=opponent_pace, default="adaptive",
                          metavar="PACE", help="adaptive (default), "
                          f"{'|'.join(NAMED_PACES)}, or seconds per card")
    realtime.add_argument("--target-win-rate", type=fraction, default=0.5, metavar="X",
                          help="what share of games the adaptive opponent aims to win "
                               "(default 0.5)")


def run(args: argparse.Namespace) -> int:
    rules = Rules.for_game(args.game, args.variant)
    result: SimulationResult
    if args.human_pace is None:
        result = simulate(rules, args.games, args.seed, check=args.check,
                          measure_memory=args.memory)
        label = "computer against computer"
    else:
        pace = build_pace(args.opponent, args.target_win_rate)
        result = simulate_realtime(rules, args.games, args.seed, HumanModel(args.human_pace),
                                   pace, check=args.check)
        label = f"human at {args.human_pace:g} s per card against {pace.name}"
    summary = result.as_json()
    if not args.json:
        variants = rules.variant_text() or "no variants"
        print(f"{args.game} ({variants}), {label}: {result.games} games, {result.rounds} rounds, "
              f"{result.actions} actions in {result.seconds:.2f} s; errors {result.errors}")
        for message in result.error_messages[:5]:
            print(f"  error: {message}")
    print(json.dumps(summary))
    return 1 if result.errors else 0
