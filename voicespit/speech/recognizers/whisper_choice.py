"""Choosing a command from Whisper's sentence scores, or refusing to guess.

The recognizer scores every written form of every sentence of the grammar on
the utterance's window of audio (`WindowScores`); this module pools the forms of
each command and says which command is best,
by how much it leads the runner-up, and what margin that lead needs. Kept
apart from the recognizer so that the tuning benchmark replays exactly the
game's rule over recorded scores (`benchmarks/whisper_replay.py`).
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Collection, Sequence
from dataclasses import dataclass

import numpy as np

from voicespit.speech.language.commands import Command
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
    first_word_deficit: float = 0.0
    """`SentenceScores.first_word_deficit`: how much likelier Whisper's own first word is
    than any command's first word (0: a recording made before it was kept)."""
    first_token: int = -1
    """`SentenceScores.first_token`: Whisper's own likeliest first token (-1: unknown)."""

    def bounded(self, values: np.ndarray) -> np.ndarray:
        """Scores of this window no lower than `within` behind its best: a pruned
        command counts as close as it could have been, so no lead is overstated."""
        return np.asarray(np.maximum(values, float(self.pooled.max()) - self.within))


def command_key(sentence: str) -> str:
    """What names the command `sentence` means, the same for every sentence meaning it
    (the sentence itself when the parser takes none): how `CommandTable` groups them."""
    return _keyed(sentence)[0]


def _keyed(sentence: str) -> tuple[str, Command | None]:
    """`command_key` and the command itself, parsed once."""
    command = command_in(sentence)
    return (repr(command) if command is not None else sentence), command


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
    talk: Sequence[bool] = ()
    """Per group, whether it is a talk word (`grammar.TALK_WORDS`): scored so that one
    said alone is refused, never a command (empty: none)."""
    talk_forms: tuple[int, ...] = ()
    """The written forms of the talk words (`talk`'s groups' members), found once."""

    @classmethod
    def build(cls, sentences: Sequence[str], sentence_of: Sequence[int],
              talk: Collection[str] = ()) -> CommandTable:
        """`talk`: the sentences that are talk words, each a group of its own."""
        groups: dict[str, list[int]] = {}
        commands: dict[str, Command | None] = {}
        for form, owner in enumerate(sentence_of):
            sentence = sentences[owner]
            # A talk word is its own group, whatever a typist's shorthand makes of it.
            key, command = (sentence, None) if sentence in talk else _keyed(sentence)
            groups.setdefault(key, []).append(form)
            commands[key] = command
        return cls(sentences, sentence_of, [np.asarray(members) for members in groups.values()],
                   list(commands.values()), [key in talk for key in groups],
                   tuple(form for key, members in groups.items() if key in talk
                         for form in members))

    def talk_leads(self, window: WindowScores) -> int | None:
        """The talk word's group when one scored above every command (None: none did)."""
        if not any(self.talk):
            return None
        best = int(np.argmax(window.pooled))
        return best if self.talk[best] and np.isfinite(window.pooled[best]) else None

    def is_talk(self, form: int) -> bool:
        """Whether written form `form` writes a talk word."""
        return form in self.talk_forms

    def talk_sentences(self) -> list[str]:
        """The talk words, as the table's sentences."""
        if not self.talk:
            return []
        return [self.sentences[self.sentence_of[int(members[0])]]
                for members, talk in zip(self.groups, self.talk, strict=True) if talk]

    def as_decided(self, window: WindowScores) -> WindowScores:
        """The scores a choice is made on, as the recognizer makes it: the window itself
        when a talk word leads (the choice is that word, refused), else `without_talk`."""
        return window if self.talk_leads(window) is not None else self.without_talk(window)

    def without_talk(self, window: WindowScores) -> WindowScores:
        """The window's scores with the talk words taken out: a command's lead is over the
        other commands. A talk word refuses when it beats them all (`talk_leads`); as a
        rival it would also narrow every lead near it, and cost the commands it sounds
        like ("four right" for "alright") more than its veto does."""
        if not self.talk_forms:
            return window
        totals = window.totals.copy()
        totals[list(self.talk_forms)] = -np.inf
        pooled = window.pooled.copy()
        pooled[np.asarray(self.talk, dtype=bool)] = -np.inf
        return dataclasses.replace(window, totals=totals, pooled=pooled)

    def talk_only(self, window: WindowScores) -> WindowScores:
        """The window's scores with the commands taken out: the choice among the talk
        words, when the talk word refuses although a command scored higher."""
        totals = np.full_like(window.totals, -np.inf)
        forms = list(self.talk_forms)
        totals[forms] = window.totals[forms]
        pooled = np.where(np.asarray(self.talk, dtype=bool), window.pooled, -np.inf)
        return dataclasses.replace(window, totals=totals, pooled=pooled)

    def talk_scored(self, window: WindowScores) -> bool:
        """Whether a talk word has a score in `window` (not pruned far behind)."""
        return bool(self.talk_forms) and bool(np.isfinite(window.totals[list(self.talk_forms)]).any())

    def group_with(self, form: int) -> int:
        """The index of the group written form `form` belongs to."""
        return next(index for index, members in enumerate(self.groups) if form in members)

    def group_of(self, command: Command) -> int | None:
        """The index of `command`'s group (None: no sentence listened for means it)."""
        return next((index for index, known in enumerate(self.commands) if known == command),
                    None)

    def pool(self, totals: np.ndarray) -> np.ndarray:
        """Per command, the log of the summed probability of its forms."""
        return np.asarray([log_sum(totals[members]) for members in self.groups])


@dataclass(frozen=True, slots=True)
class Choice:
    """The best command of a window, and how sure."""

    form: int
    """The best written form of the best command."""
    sentence: str
    margin: float
    """Pooled log-probability of the best command minus the runner-up's."""
    deficit_per_token: float
    confidence: float
    """The best command's share of the probability."""
    runner_up: Command | None = None
    """The second-best command (None: none, or a sentence the parser does not take)."""
    close_rivals: int = 0
    """Other commands within `CLOSE` of the best."""
    first_word_deficit: float = 0.0
    """The window's `WindowScores.first_word_deficit`."""


CLOSE = 2.0
"""Log-probability behind the best within which another command counts as a close rival."""


def choose(window: WindowScores, table: CommandTable) -> Choice:
    """The best command of the window's scores, and its lead.

    A pruned command counts as the pruning distance behind (`WindowScores.bounded`),
    so the lead is at most that.
    """
    return choice_of(window, table)


def choice_of(window: WindowScores, table: CommandTable, group: int | None = None) -> Choice:
    """Command `group` (an index of `table.groups`; None: the best) as the window's
    choice: its best written form, and its lead over the best other command (below zero
    when another command scored higher, as when PocketSphinx breaks a near tie)."""
    pooled = window.bounded(window.pooled)
    totals = window.bounded(window.totals)
    # One ranking for the choice and its rival: pruned commands tie at the bound, and
    # which of them is named the runner-up must not depend on which command was asked for.
    order = np.argsort(-pooled)
    if group is None:
        group = int(order[0])
    members = table.groups[group]
    best = int(members[np.argmax(totals[members])])
    others = order[order != group]
    rival = int(others[0]) if len(others) else None
    rival_score = pooled[rival] if rival is not None else -np.inf
    # A window with nothing scored (all -inf) must refuse, not compare infinities.
    lead = float(np.nan_to_num(pooled[group] - rival_score, nan=0.0))
    # Rounded: a pruned rival trails by exactly the pruning distance, which rounding
    # error must not put on either side of a threshold of the same size.
    lead = round(lead, 6)
    # The share among the commands scored (a pruned one's probability is negligible,
    # and its bound would count hundreds of them as close).
    finite = window.pooled[np.isfinite(window.pooled)]
    confidence = min(1.0, float(1.0 / np.exp(finite - pooled[group]).sum())) \
        if len(finite) else 0.0
    deficit = float(window.deficits[best])
    runner_up_command = table.commands[rival] if rival is not None else None
    rivals = int((pooled > pooled[group] - CLOSE).sum()) - 1
    return Choice(best, table.sentences[table.sentence_of[best]], lead, deficit, confidence,
                  runner_up_command, rivals, window.first_word_deficit)


def averaged(windows: Sequence[WindowScores], table: CommandTable) -> WindowScores:
    """The mean of several windows' scores of the same written forms (a second look
    at one utterance on a shifted window): a form pruned in any of them stays pruned,
    and the commands are pooled again."""
    totals = np.asarray([window.totals for window in windows], dtype=np.float64)
    deficits = np.asarray([window.deficits for window in windows], dtype=np.float64)
    scored = np.isfinite(totals).all(axis=0)
    mean = np.where(scored, np.where(scored, totals, 0.0).mean(axis=0), -np.inf)
    deficit = np.where(scored, np.where(scored, deficits, 0.0).mean(axis=0), np.inf)
    return WindowScores(mean, deficit, table.pool(mean),
                        within=min(window.within for window in windows),
                        first_word_deficit=float(np.mean([window.first_word_deficit
                                                          for window in windows])),
                        first_token=windows[0].first_token)


def log_sum(values: np.ndarray) -> float:
    """log(sum(exp(values))), ignoring -inf."""
    finite = values[np.isfinite(values)]
    if not len(finite):
        return -math.inf
    top = float(finite.max())
    return top + math.log(float(np.exp(finite - top).sum()))


@dataclass(frozen=True)
class CrossCheck:
    """How PocketSphinx's grammar decode of the same audio moves the margin Whisper's
    best command needs.

    The two engines fail differently (Whisper hears real people best, PocketSphinx
    hears espeak-ng's "flip" that Whisper takes for a bare "three"), so their agreement
    is evidence, and a move Whisper alone hears is the one that plays a card not said.
    PocketSphinx refuses half of real voices' commands (its garbage path wins), so
    "heard nothing" must not count against Whisper the way a different command does.
    """

    agreed_margin: float
    """Margin needed when PocketSphinx heard the same command."""
    disputed_move_margin: float
    """Margin needed for a move when PocketSphinx heard another command (inf: refused)."""
    disputed_margin: float
    """The same for a command that is not a move (a question, pause, yes or no)."""
    unheard_move_margin: float
    """Margin needed for a move when PocketSphinx heard no command at all."""
    longer_move_margin: float = math.inf
    """Margin needed for a move when PocketSphinx heard another command of more words:
    Whisper's pull on a short window towards a one-word answer ("two" for "move two to
    four"); on the tuning splits Whisper was never right in that case."""

    def needed(self, best: str, heard: str, margin: float) -> float:
        """The margin Whisper's `best` sentence needs, given the sentence PocketSphinx
        `heard` ("" for none), where `margin` is what Whisper alone asks."""
        command, other = command_in(best), command_in(heard)
        if other is not None and other == command:
            return self.agreed_margin
        is_move = command is not None and command.is_action
        if other is None:
            return self.unheard_move_margin if is_move else margin
        if not is_move:
            return self.disputed_margin
        if len(heard.split()) > len(best.split()):
            return max(self.longer_move_margin, self.disputed_move_margin)
        return self.disputed_move_margin
