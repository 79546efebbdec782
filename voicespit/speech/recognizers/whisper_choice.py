"""Choosing a command from Whisper's sentence scores, or refusing to guess.

The recognizer scores every written form of every sentence of the grammar on
one or more windows of the same audio (`WindowScores`); this module pools the
forms of each command, averages the windows, and says which command is best,
by how much it leads the runner-up, and what margin that lead needs. Kept
apart from the recognizer so that the tuning benchmark replays exactly the
game's rule over recorded scores (`benchmarks/whisper_replay.py`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from voicespit.speech.language.commands import Command, Verb
from voicespit.speech.language.grammar import SLOTS
from voicespit.speech.language.parser import command_in


@dataclass(frozen=True, slots=True)
class WindowScores:
    """One window's scores: per written form, and pooled per command."""

    totals: np.ndarray
    """Per written form: log-probability plus bonus (-inf: pruned)."""
    deficits: np.ndarray
    """Per written form: the deficit per token (inf: pruned)."""
    pooled: np.ndarray
    """Per command: the log of the summed probability of its forms."""
    within: float = float("inf")
    """The pruning distance the window was scored with: anything further behind its
    best is known only to be at least that far behind."""

    def bounded(self, values: np.ndarray) -> np.ndarray:
        """Scores of this window no lower than `within` behind its best: a pruned
        command counts as close as it could have been, so no lead is overstated."""
        return np.asarray(np.maximum(values, float(self.pooled.max()) - self.within))


@dataclass(frozen=True)
class CommandTable:
    """Which sentence each written form writes, and which forms mean one command."""

    sentences: Sequence[str]
    sentence_of: Sequence[int]
    """Per written form, the index of its sentence."""
    groups: Sequence[np.ndarray]
    """Per command, the indices of its written forms."""
    commands: Sequence[Command | None]
    """Per group, the command (None: a sentence the parser does not take)."""

    @classmethod
    def build(cls, sentences: Sequence[str], sentence_of: Sequence[int]) -> CommandTable:
        groups: dict[str, list[int]] = {}
        commands: dict[str, Command | None] = {}
        for form, owner in enumerate(sentence_of):
            command = command_in(sentences[owner])
            key = repr(command) if command is not None else sentences[owner]
            groups.setdefault(key, []).append(form)
            commands[key] = command
        return cls(sentences, sentence_of, [np.asarray(members) for members in groups.values()],
                   list(commands.values()))

    def pool(self, totals: np.ndarray) -> np.ndarray:
        """Per command, the log of the summed probability of its forms."""
        return np.asarray([log_sum(totals[members]) for members in self.groups])


@dataclass(frozen=True, slots=True)
class Choice:
    """The best command over the windows, and how sure."""

    form: int
    """The best written form of the best command."""
    sentence: str
    margin: float
    """Pooled log-probability of the best command minus the runner-up's."""
    slot_lead: float
    """The best command's lead over the nearest command one slot away from it (the same
    play with another rank or pile): at least `margin`."""
    confusable_lead: float
    """Its lead over the nearest play differing only in a rank Whisper confuses with
    its own (`CONFUSABLE_RANKS`): at least `slot_lead`."""
    deficit_per_token: float
    confidence: float
    """The best command's share of the probability."""

    def is_sure(self, margin: float, slot_margin: float | None,
                confusable_margin: float | None = None) -> bool:
        """Leads every command by `margin`, those one slot away by `slot_margin`, and
        the same play with a confusable rank by `confusable_margin`."""
        return self.margin >= margin \
            and (slot_margin is None or self.slot_lead >= slot_margin) \
            and (confusable_margin is None or self.confusable_lead >= confusable_margin)


def choose(windows: Sequence[WindowScores], table: CommandTable) -> Choice:
    """The best command of the windows' averaged scores, and its leads.

    A command pruned in a window counts as its pruning distance behind there
    (`WindowScores.bounded`), so leads are at most that.
    """
    pooled = np.mean([window.bounded(window.pooled) for window in windows], axis=0)
    totals = np.mean([window.bounded(window.totals) for window in windows], axis=0)
    order = np.argsort(-pooled)
    best_group = table.groups[order[0]]
    best = int(best_group[np.argmax(totals[best_group])])
    runner_up = pooled[order[1]] if len(order) > 1 else -np.inf
    # A window with nothing scored (all -inf) must refuse, not compare infinities.
    lead = float(np.nan_to_num(pooled[order[0]] - runner_up, nan=0.0))
    best_command = table.commands[order[0]]
    neighbour = next((pooled[group] for group in order[1:]
                      if one_slot_apart(best_command, table.commands[group])), -np.inf)
    slot_lead = float(np.nan_to_num(pooled[order[0]] - neighbour, nan=0.0))
    twin = next((pooled[group] for group in order[1:]
                 if confusable_ranks(best_command, table.commands[group])), -np.inf)
    confusable_lead = float(np.nan_to_num(pooled[order[0]] - twin, nan=0.0))
    # Rounded: a rival pruned in every window trails by exactly the average pruning
    # distance, which rounding error must not put on either side of a threshold.
    lead, slot_lead, confusable_lead = (round(value, 6) for value in
                                        (lead, slot_lead, confusable_lead))
    # The share among the commands scored in every window (a pruned one's probability
    # is negligible, and its bound would count hundreds of them as close).
    scored = np.mean([window.pooled for window in windows], axis=0)
    finite = scored[np.isfinite(scored)]
    confidence = min(1.0, float(1.0 / np.exp(finite - pooled[order[0]]).sum())) \
        if len(finite) else 0.0
    deficits = [value for window in windows if math.isfinite(value := float(window.deficits[best]))]
    deficit = float(np.mean(deficits)) if deficits else math.inf
    return Choice(best, table.sentences[table.sentence_of[best]], lead, slot_lead,
                  confusable_lead, deficit, confidence)


def one_slot_apart(first: Command | None, second: Command | None) -> bool:
    """The same verb with exactly one slot filled differently: the same play with another
    rank or pile, or another stockpile. The confusions that play a card not said."""
    if first is None or second is None or first.verb is not second.verb:
        return False
    differing = [slot for slot in SLOTS if getattr(first, slot) != getattr(second, slot)]
    return len(differing) == 1


CONFUSABLE_RANKS = (frozenset({0, 7}),)
"""Ace and eight: the rank pair Whisper takes for each other with a wide lead
(espeak-ng's "ace on left" as "eight on left" by 2.3 to 4.5, which played an eight
in a whole match by voice). Five and nine too cost real voices 1 to 2 points of
accuracy for no fewer wrong moves on the tuning splits, so they are not here."""


def confusable_ranks(first: Command | None, second: Command | None) -> bool:
    """The same play but for a rank in one of the `CONFUSABLE_RANKS` pairs."""
    if not one_slot_apart(first, second) or first is None or second is None \
            or first.verb is not Verb.PLAY or first.rank is None or second.rank is None:
        return False
    return frozenset({first.rank, second.rank}) in CONFUSABLE_RANKS


def log_sum(values: np.ndarray) -> float:
    """log(sum(exp(values))), ignoring -inf."""
    finite = values[np.isfinite(values)]
    if not len(finite):
        return -math.inf
    top = float(finite.max())
    return top + math.log(float(np.exp(finite - top).sum()))
