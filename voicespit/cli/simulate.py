"""`voicespit simulate`: complete computer-versus-computer games with no delays."""

from __future__ import annotations

import argparse
import json

from voicespit.cli.arguments import non_negative_int, seed_value
from voicespit.engine import Rules
from voicespit.simulation import simulate


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--games", type=non_negative_int, default=100, metavar="N",
                        help="matches to play (default 100)")
    parser.add_argument("--seed", type=seed_value, default=0, metavar="N",
                        help="seed for the shuffles and the interleaving (default 0)")
    parser.add_argument("--game", choices=("spit", "speed"), default="spit")
    parser.add_argument("--variant", action="append", default=[], metavar="KEY=VALUE",
                        help="a rule variant, e.g. stockpiles=4 (repeatable)")
    parser.add_argument("--check", action="store_true",
                        help="after every action verify the cards, the legal actions and refusals")
    parser.add_argument("--memory", action="store_true", help="also measure peak memory")
    parser.add_argument("--json", action="store_true", help="print only the JSON summary line")


def run(args: argparse.Namespace) -> int:
    rules = Rules.for_game(args.game, args.variant)
    result = simulate(rules, args.games, args.seed, check=args.check, measure_memory=args.memory)
    summary = result.as_json()
    if not args.json:
        variants = rules.variant_text() or "no variants"
        print(f"{args.game} ({variants}): {result.games} games, {result.rounds} rounds, "
              f"{result.actions} actions in {result.seconds:.2f} s; errors {result.errors}")
        for message in result.error_messages[:5]:
            print(f"  error: {message}")
    print(json.dumps(summary))
    return 1 if result.errors else 0
