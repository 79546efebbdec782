"""The computer opponent: which move to make (`strategy`), and when (`pace`, `adaptive`).

`Opponent` plays seat 1 of a `Match`; `SimulatedHuman` is a stand-in for a
voice player in tests and benchmarks. Both are `ReactingPlayer`s.

May import: `match`, `engine`, and the cross-cutting modules.
"""

from voicespit.opponent.adaptive import AdaptivePace
from voicespit.opponent.pace import NAMED_PACES, FixedPace, Pace
from voicespit.opponent.player import Opponent
from voicespit.opponent.simulated_human import HumanModel, SimulatedHuman
from voicespit.opponent.strategy import Strategy, random_choice, sensible_choice

__all__ = [
    "NAMED_PACES", "AdaptivePace", "FixedPace", "HumanModel", "Opponent", "Pace",
    "SimulatedHuman", "Strategy", "random_choice", "sensible_choice",
]
