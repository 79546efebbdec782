"""A whole session in one process on a fake clock, and a player who plays it by words.

The session, match, opponent, parser and narration are the real ones; only time
is fake and the speaker records instead of sounding (every announcement counts
as heard at once). `WordPlayer` looks at the table as the player would know it
and says commands the way a player would ("seven on left", "slap right").
"""

from __future__ import annotations

import io
import random
from collections.abc import Callable

from voicespit.app.build import MatchFactory, pace_from
from voicespit.app.session import Session, SessionHooks
from voicespit.app.tutorial import TutorialFactory
from voicespit.audio.announcer import Announcer, TextMirror
from voicespit.audio.speaker import RecordingSpeaker
from voicespit.clock import FakeClock
from voicespit.engine import Phase, Rules
from voicespit.engine import actions as act
from voicespit.engine.actions import PILE_NAMES
from voicespit.engine.cards import RANK_NAMES, Card
from voicespit.engine.speed import SpeedState
from voicespit.match.intents import State
from voicespit.match.settings import MatchSettings
from voicespit.narration.announcement import Verbosity
from voicespit.narration.narrator import Narrator
from voicespit.profile import Profile
from voicespit.speech.language.help import overview


class Harness:
    def __init__(self, game: str = "spit", variants: tuple[str, ...] = (), pace: str = "brisk",
                 seed: int = 3, wait_for_announcements: bool = True,
                 verbosity: Verbosity = Verbosity.NORMAL, echo_plays: bool = False,
                 tutorial_seed: int | None = None) -> None:
        self.clock = FakeClock()
        self.out = io.StringIO()
        self.rules = Rules.for_game(game, variants)
        self.speaker = RecordingSpeaker()
        self.announcer = Announcer(Narrator(verbosity,
                                            " ".join(overview(game, slap=self.rules.slap))),
                                   self.speaker, TextMirror(self.out))
        self.pace = pace_from(pace, 0.5, None)
        match_settings = MatchSettings(wait_for_announcements=wait_for_announcements)
        factory = MatchFactory(match_settings, self.pace, seed, make_clock=lambda: self.clock)
        self.profile = Profile()
        self.saved: list[Profile] = []
        self.left = False
        hooks = SessionHooks(leave=self._leave, keys_in_help=True,
                             profile_changed=lambda profile: self.saved.append(profile))
        self.session = Session(self.rules, self.announcer, self.speaker, factory, self.pace,
                               self.profile, hooks, echo_plays=echo_plays,
                               tutorials=TutorialFactory(
                                   match_settings, lambda: self.clock,
                                   **({} if tutorial_seed is None else {"seed": tutorial_seed})),
                               match_settings=match_settings)
        self.speaker.on_announcement_finished(self.session.announcement_finished)

    def _leave(self) -> None:
        self.left = True

    def type(self, text: str) -> None:
        self.session.handle_text(text)

    def run(self, seconds: float) -> None:
        self.clock.advance(seconds)

    @property
    def text(self) -> str:
        return self.out.getvalue()

    def lines(self) -> list[str]:
        return self.text.splitlines()

    def lines_since(self, mark: int) -> list[str]:
        return self.lines()[mark:]


ASK_AGAIN_AFTER = 4
"""Turns after which a player whose "ready" or slap the round is still waiting for says
it again, as a player does who was not heard (a countdown takes fewer)."""


class WordPlayer:
    """Plays seat 0 by saying commands every `delay` seconds of game time.

    `say` is how the words reach the game: typed, or spoken and recognized.
    `mistakes` is the share of turns on which it names a card that fits nowhere;
    `unheld` the share on which it names a rank it does not hold at all (always
    on its first play).
    """

    def __init__(self, harness: Harness, say: Callable[[str], None], *, delay: float = 1.5,
                 mistakes: float = 0.05, unheld: float = 0.0, seed: int = 1) -> None:
        self.harness = harness
        self.say = say
        self.delay = delay
        self.mistakes = mistakes
        self.unheld = unheld
        self.rng = random.Random(seed)
        self.said: list[str] = []
        self.unheld_said: list[str] = []
        """The plays it chose of ranks it did not hold."""
        self._asked: dict[tuple[Phase, int], int] = {}
        """The turn on which "ready" or a slap was last said, by phase and round."""
        self._turns = 0
        self._last_choice: str | None = None
        self._repeats = 0
        """How many turns in a row chose the same command as the one before."""

    def start(self) -> None:
        self.harness.clock.call_later(self.delay, self._turn)

    def _turn(self) -> None:
        game = self.harness.session.game
        if game is None or game.ended:
            return
        self._turns += 1
        choice = self.choose(game.match.snapshot())
        repeated = choice is not None and choice == self._last_choice
        self._repeats = self._repeats + 1 if repeated else 0
        self._last_choice = choice
        words = choice
        if choice and self._repeats and choice.split()[0] in RANK_NAMES:
            # Not done last time: say it another way, as people do, with more words
            # each time ("play seven on left", "put the seven on the left").
            rank, _, pile = choice.split()
            words = (f"play {choice}", f"put the {rank} on the {pile}")[(self._repeats - 1) % 2]
        if words:
            self.said.append(words)
            self.say(words)
        jitter = self.rng.uniform(0.7, 1.3)
        self.harness.clock.call_later(self.delay * jitter, self._turn)

    def _due(self, phase: Phase, round_number: int) -> bool:
        """Whether to say "ready" (or slap) now: not yet said this round, or said
        `ASK_AGAIN_AFTER` turns ago and the round still waiting for it (not heard)."""
        said = self._asked.get((phase, round_number))
        if said is not None and self._turns - said < ASK_AGAIN_AFTER:
            return False
        self._asked[(phase, round_number)] = self._turns
        return True

    def choose(self, state: State) -> str | None:
        phase = state.phase
        if phase is Phase.READY and self._due(phase, state.round):
            return "ready"
        if phase is Phase.ROUND_OVER and self._due(phase, state.round):
            sizes = [len(pile) for pile in state.piles]
            return f"slap {PILE_NAMES[0 if sizes[0] <= sizes[1] else 1]}"
        if phase is not Phase.PLAY:
            return None
        plays = [a for a in state.legal_actions(0) if isinstance(a, act.Play | act.PlayCard)]
        # With `unheld` set, the first play it makes names a rank it does not hold.
        if self.rng.random() < self.unheld or (self.unheld and not self.unheld_said):
            missing = sorted(set(range(len(RANK_NAMES))) - {card.rank for card in held(state)})
            if missing:
                pile = self.rng.choice(sorted(state.piles_in_use))
                words = f"{RANK_NAMES[self.rng.choice(missing)]} on {PILE_NAMES[pile]}"
                self.unheld_said.append(words)
                return words
        if self.rng.random() < self.mistakes:
            wrong = self._misfit(state)
            if wrong is not None:
                return wrong
        if not plays:
            return None
        action = self.rng.choice(plays)
        if isinstance(action, act.PlayCard):
            card = action.card
        else:
            assert not isinstance(state, SpeedState)
            top = state.stock_top(0, action.stock)
            assert top is not None
            card = top
        return f"{RANK_NAMES[card.rank]} on {PILE_NAMES[action.pile]}"

    def _misfit(self, state: State) -> str | None:
        """A card the player holds, named onto a pile it does not fit."""
        accepts = state.rules.accepts
        cards = held(state)
        for pile in state.piles_in_use:
            top = state.pile_top(pile)
            for card in cards:
                if top is not None and not accepts[top.index][card.index]:
                    return f"{RANK_NAMES[card.rank]} on {PILE_NAMES[pile]}"
        return None


def held(state: State) -> list[Card]:
    """The cards seat 0 can name: its hand in Speed, its face-up stockpile tops in Spit."""
    if isinstance(state, SpeedState):
        return list(state.hands[0])
    return [top for slot in range(len(state.stocks[0]))
            if (top := state.stock_top(0, slot)) is not None]
