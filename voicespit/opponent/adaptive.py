"""The adaptive pace: as fast as the human, then nudged by who is winning.

Two slow-moving parts multiply into the opponent's seconds per card:

- the human's pace: the mean of their last `pace_memory` measured reaction
  times (15: it meets a new player within their first few cards and follows
  one who speeds up or tires within a match), leaving out *lapses*, plays
  slower than `lapse_cap` times the median of those times: a card that went
  unnoticed for half a minute says nothing about how fast the player answers
  the cards they hear. The median makes this hold from the first plays on, so
  one lapse among the first plays no longer sets the pace for the rest of the
  match (the issue measured 4.2 s a card against a player answering in 1.5 s).
  A player who really slows down is followed once they are slow for half the
  window (the median moves); a slowdown of less than `lapse_cap` at once.
  Before the first play the pace is `initial_seconds` (the default, or the
  profile's);
- a ratio steered by results. After every round the opponent reports its
  *outlook*, its chance of winning the game as the table now stands (in Spit
  the human's share of the cards; at the game's end 1 or 0). The ratio's log
  moves by `result_step` times the change of that outlook: gaining ground
  slows the opponent, losing ground quickens it, a little at a time. Over one
  game the changes add up to exactly (result - 0.5), and each game also adds
  (0.5 - target), so the ratio comes to rest where the opponent wins games at
  the target rate; between games it never moves, and no single round moves
  it by more than the ground that round gained.

The product is held between `floor` and `ceiling`; the ratio stops growing at
a limit (no wind-up), so it answers at once when results turn.
"""

from __future__ import annotations

import math
import random
import statistics
from collections import deque

from voicespit.opponent.pace import DEFAULT_SPREAD, STEP, reaction_delay


class AdaptivePace:
    """A pace that follows the human and steers toward `target_win_rate`.

    One instance can serve many matches in a row (a practice session): what it
    has learned carries over.
    """

    def __init__(self, target_win_rate: float = 0.5, *, initial_seconds: float = 3.0,
                 floor: float = 0.5, ceiling: float = 15.0, spread: float = DEFAULT_SPREAD,
                 pace_memory: int = 15, lapse_cap: float = 3.0,
                 result_step: float = 0.15) -> None:
        if not 0.0 < target_win_rate < 1.0:
            raise ValueError("the target win rate must be between 0 and 1")
        if not 0.0 < floor <= initial_seconds <= ceiling:
            raise ValueError("need 0 < floor <= initial_seconds <= ceiling")
        self.target_win_rate = target_win_rate
        self.floor = floor
        self.ceiling = ceiling
        self.spread = spread
        self._initial = initial_seconds
        self._recent: deque[float] = deque(maxlen=pace_memory)
        self._lapse_cap = lapse_cap
        self._step = result_step
        self._human: float | None = None
        self._log_ratio = 0.0
        self._outlook = 0.5

    @property
    def name(self) -> str:
        return "adaptive"

    @property
    def human_seconds_per_card(self) -> float | None:
        """The current estimate of the human's pace (None before the first play)."""
        return self._human

    @property
    def ratio(self) -> float:
        """Opponent seconds per card over the human's, before the floor and ceiling."""
        return math.exp(self._log_ratio)

    @property
    def seconds_per_card(self) -> float:
        base = self._initial if self._human is None else self._human
        return min(self.ceiling, max(self.floor, base * math.exp(self._log_ratio)))

    def delay(self, rng: random.Random) -> float:
        return reaction_delay(self.seconds_per_card, self.spread, rng)

    def observe_reaction(self, seconds: float) -> None:
        recent = self._recent
        recent.append(seconds)
        cap = self._lapse_cap * statistics.median(recent)
        # No unwinding here: the limits bind the product, and a lapse moving the
        # human's pace for a moment must not cut the ratio the results have set.
        noticed = [value for value in recent if value <= cap]
        self._human = sum(noticed) / len(noticed)

    def start_game(self) -> None:
        self._outlook = 0.5
        self._log_ratio += self._step * (0.5 - self.target_win_rate)
        self._unwind()

    def observe_outlook(self, opponent_chance: float) -> None:
        self._log_ratio += self._step * (opponent_chance - self._outlook)
        self._outlook = opponent_chance
        self._unwind()

    def change(self, faster: bool) -> float:
        self._log_ratio += -math.log(STEP) if faster else math.log(STEP)
        self._unwind()
        return self.seconds_per_card

    def _unwind(self) -> None:
        """Keep the ratio where the floor or ceiling would bind it, not beyond."""
        base = self._initial if self._human is None else self._human
        lowest, highest = math.log(self.floor / base), math.log(self.ceiling / base)
        self._log_ratio = min(highest, max(lowest, self._log_ratio))
