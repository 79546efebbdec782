"""The spoken tutorial: one guided round of Spit against a patient opponent.

Someone who has never seen the cards learns the game from what it says: what
the stockpiles and the spit piles are, how a card goes on a pile, that the card
beneath turns over by itself, "turn over" and "spit" when nobody can play, and
the slap at the end (with `slap = false`, choosing the pile instead: the round is
played with the variant the player's games have). Each step ends with the one command to say ("Say seven on
left."), waits for it, and explains a mistake in terms of the table in front
of the player. After two guided plays the player finds the cards alone, with a
hint on "what can I say" or after a quiet while.

It drives the real `Match` (the rules, the referee, the narration are the
game's own) with a fixed deal, `TUTORIAL_SEED`, chosen so that every lesson
happens for a player who follows it (`tests/tutorial_player.py` searches for
one and a test keeps it true), and a `PatientOpponent`. The coach speaks when
the player has *heard* a change (it observes the match), so its words follow
the game's own; it holds its lock only for its own state, never while asking
the match anything.
"""

from __future__ import annotations

import dataclasses
import enum
import functools
import random
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from voicespit.app import lessons
from voicespit.app.patient import PLAYER, PatientOpponent, player_plays
from voicespit.clock import Clock, RealClock, Timer
from voicespit.engine import Rules
from voicespit.engine.actions import Action
from voicespit.engine.events import (
    CardMoved,
    CardPlayed,
    CardSpat,
    CardTurnedUp,
    Event,
    GameOver,
    LayoutDealt,
    PileTaken,
    RoundOver,
    Stalemate,
)
from voicespit.engine.spit import SpitState
from voicespit.engine.state import Phase
from voicespit.match.events import IntentRefused, MatchEvent, MatchQuit
from voicespit.match.hearing import Perception
from voicespit.match.intents import ActionIntent, State
from voicespit.match.referee import Match
from voicespit.match.settings import MatchSettings
from voicespit.speech.language.commands import Command, Verb
from voicespit.speech.language.grammar import phrase_for
from voicespit.speech.language.help import said
from voicespit.speech.language.parser import resolve

TUTORIAL_SEED = 37
"""The deal of the tutorial round (see the module docstring)."""
GUIDED_PLAYS = 2
"""Plays the coach names before the player finds them alone."""
HINT_SECONDS = 20.0
"""A player finding their own cards hears a hint after this long without a play."""
MISSES_BEFORE_ANOTHER_WAY = 2
"""Unheard tries of one instruction before the coach offers another way to say it."""
SLAP_WINDOW_SECONDS = 600.0
"""The slap waits for the player (the computer's hand lands only after this)."""
_NEWS = (CardPlayed, CardSpat, CardTurnedUp, CardMoved, Stalemate, RoundOver, LayoutDealt,
         PileTaken, GameOver, MatchQuit, IntentRefused)
"""The events the coach answers: the table changed, the round moved on, or a move failed."""


class Step(enum.Enum):
    TABLE = "table"
    """The deal is on the table: learn the stockpiles, then say "my cards"."""
    START = "start"
    """Say spit to start the round."""
    GUIDED = "guided"
    """The coach names each play."""
    ALONE = "alone"
    """The player finds the plays; hints on request or after a quiet while."""
    SLAP = "slap"
    DONE = "done"


Say = Callable[[str], None]


class Tutorial:
    """The coach of one tutorial round. Build it with `TutorialFactory`."""

    def __init__(self, match: Match, say: Say, finished: Callable[[], None],
                 hint_seconds: float = HINT_SECONDS) -> None:
        self.match = match
        self._say = say
        self._finished = finished
        self.hint_seconds = hint_seconds
        self.step = Step.TABLE
        self.lessons: list[str] = []
        """The lessons taught, in order (for tests and for choosing the deal)."""
        self._plays = 0
        self._stalemates = 0
        self._step_words = ""
        """The current step's instruction, said again on "what can I say"."""
        self._asked: Command | None = None
        """The command the current instruction asks for."""
        self._ways: list[str] = []
        """The ways of saying it offered so far, the one asked for now last."""
        self._misses = 0
        self._hint_timer: Timer | None = None
        self._told_to_wait = False
        self._finish_pending = False
        self._lock = threading.Lock()

    # ------------------------------------------------------- the session's side

    def begin(self) -> None:
        """Say what is coming; call after the session subscribed, before the match starts."""
        self.match.observe(self._on_heard)
        self._speak(lessons.INTRODUCTION)

    def intercept(self, command: Command) -> bool:
        """Take the commands the coach answers itself (True), see the rest go by (False).

        Call from any thread, holding no lock the match's referee may wait for.
        """
        if self.step is Step.DONE:
            return False
        if command.verb is Verb.HELP and command.topic is None:
            self._help(self.match.snapshot())
            return True
        if command.verb is Verb.HINT and self.step in (Step.GUIDED, Step.ALONE):
            # While cards are played, the coach's hint (the card, the pile and the words
            # that play it); otherwise the game's own answer from the table.
            state = self.match.snapshot()
            if state.phase is Phase.PLAY:
                self._help(state)
                return True
        if command.verb is Verb.SLAP:
            self._slap(command, self.match.snapshot())
            return True
        return False

    def answered(self, command: Command) -> None:
        """The session has said its answer to `command` (call from any thread): the
        coach's word on it comes after the answer, never before it."""
        if command.verb is Verb.MY_CARDS and self.step is Step.TABLE:
            # On the referee thread, like everything the coach says.
            self.match.clock.call_later(0.0, self._cards_heard)

    def not_heard(self) -> None:
        """Speech came but no command (call from any thread): after a second miss, offer
        another way to say what was asked ("seven left" for "seven on left", "ready" for
        "spit"), since a recognizer that misses one phrasing often hears another."""
        with self._lock:
            if self.step is Step.DONE or self._asked is None:
                return
            self._misses += 1
            if self._misses % MISSES_BEFORE_ANOTHER_WAY:
                return
            others = [way for way in lessons.ways_to_say(self._asked) if way not in self._ways]
            if not others:
                self._ways = self._ways[:1]
                self._speak(lessons.SLOWER, lessons.instruction(self._asked, self._ways[0]))
                return
            self._ways.append(others[0])
            self._speak(lessons.another_way(others[0]),
                        lessons.instruction(self._asked, others[0]))

    def stop(self) -> None:
        """The tutorial round was left (quit, or a new game): say nothing more."""
        with self._lock:
            self._stand_down()

    def _cards_heard(self) -> None:
        with self._lock:
            if self.step is Step.TABLE:
                self._learned("start")
                self.step = Step.START
                self._speak(lessons.START, self._asking(Command(Verb.SPIT)))

    # --------------------------------------------------------- what was heard

    def _on_heard(self, perception: Perception) -> None:
        state = perception.state
        if not isinstance(state, SpitState):
            return
        events = [stamped.event for stamped in perception.events
                  if isinstance(stamped.event, _NEWS)
                  and (not isinstance(stamped.event, IntentRefused)
                       or stamped.event.player == PLAYER)]
        if not events:
            return  # nothing the player needs a word about (a countdown, "ready", the pace)
        with self._lock:
            if self.step is Step.DONE:
                return
            self._coach(events, state)
            finished, self._finish_pending = self._finish_pending, False
        if finished:
            # Outside the coach's lock: the session takes its own lock to end the game.
            self._finished()

    def _coach(self, events: Sequence[Event | MatchEvent], state: SpitState) -> None:
        kinds = {type(event) for event in events}
        if MatchQuit in kinds:
            self._stand_down()
        elif GameOver in kinds or any(isinstance(event, PileTaken) and event.player == PLAYER
                                      for event in events):
            self._finish()
        elif self.step is Step.TABLE and any(isinstance(event, LayoutDealt)
                                             and event.player == PLAYER for event in events):
            self._learned("table")
            self._speak(lessons.table(state), self._asking(Command(Verb.MY_CARDS)))
        elif RoundOver in kinds:
            self._teach_slap(next(e for e in events if isinstance(e, RoundOver)), state)
        else:
            self._coach_round(events, kinds, state)

    def _coach_round(self, events: Sequence[Event | MatchEvent], kinds: set[type],
                     state: SpitState) -> None:
        lead = self._news(events)
        refused = [event for event in events if isinstance(event, IntentRefused)
                   and not event.too_late]
        if refused:
            lead += lessons.why_refused(refused[-1], state)
        if Stalemate in kinds or (refused and state.phase is Phase.STALEMATE):
            self._teach_stalemate(lead, again=Stalemate not in kinds)
        elif state.phase is Phase.PLAY:
            if self.step in (Step.TABLE, Step.START):
                self.step = Step.GUIDED
            self._coach_play(lead, state)
        elif lead or refused:
            self._speak(lead, self._step_words)

    # ---------------------------------------------------------------- lessons

    def _coach_play(self, lead: list[str], state: SpitState) -> None:
        plays = player_plays(state)
        self._cancel_hint()
        if not plays:
            if not self._told_to_wait:
                self._told_to_wait = True
                lead.append(lessons.WAIT)
            if lead:
                self._speak(lead)
            return
        self._told_to_wait = False
        if self.step is Step.GUIDED:
            if "play" not in self.lessons:
                self._learned("play")
                lead += lessons.RULE
            self._speak(lead, self._hint(state, plays, lead))
            return
        offer = self._asking(Command(Verb.HINT), lessons.HINT_OFFER)
        if lead:
            self._speak([line for line in lead if line != lessons.HINT_OFFER], offer)
        self._step_words = offer
        self._hint_timer = self.match.clock.call_later(self.hint_seconds, self._auto_hint)

    def _news(self, events: Sequence[Event | MatchEvent]) -> list[str]:
        """What the player's own play taught, and the move to finding cards alone."""
        mine = [event for event in events if getattr(event, "player", None) == PLAYER]
        if not any(isinstance(event, CardPlayed) for event in mine):
            return []
        self._plays += 1
        news: list[str] = []
        if self.step is Step.GUIDED:
            news.append("Well done.")
        if any(isinstance(event, CardMoved) for event in mine) and "fill" not in self.lessons:
            self._learned("fill")
            news.append(lessons.FILLED)
        elif any(isinstance(event, CardTurnedUp) for event in mine) \
                and "turned up" not in self.lessons:
            self._learned("turned up")
            news.append(lessons.TURNED_UP)
        if self.step is Step.GUIDED and self._plays >= GUIDED_PLAYS:
            self._learned("alone")
            self.step = Step.ALONE
            news += lessons.ALONE
        return news

    def _teach_stalemate(self, lead: list[str], again: bool) -> None:
        if not again:
            self._stalemates += 1
        words: list[str] = []
        if self._stalemates == 1:
            command = Command(Verb.FLIP)
            if not again:
                self._learned("turn over")
                words = lessons.FIRST_STALEMATE
        else:
            command = Command(Verb.SPIT)
            if not again and "spit" not in self.lessons:
                self._learned("spit")
                words = lessons.SECOND_STALEMATE
            elif not again:
                words = ["Nobody can play."]
        self._speak(lead + words, self._asking(command))
        self._told_to_wait = False

    def _teach_slap(self, over: RoundOver, state: SpitState) -> None:
        self._learned("slap")
        self.step = Step.SLAP
        self._cancel_hint()
        if not state.rules.slap and state.chooser != PLAYER:
            self._speak([lessons.round_over(over.first_out), lessons.OPPONENT_CHOOSES])
            return
        sizes, slap = lessons.pile_sizes(state)
        taking = lessons.SLAP if state.rules.slap else lessons.CHOOSE
        self._speak([lessons.round_over(over.first_out), *taking, sizes], self._asking(slap))

    def _finish(self) -> None:
        self._learned("done")
        self._stand_down()
        self._finish_pending = True
        self._speak(lessons.FINISH)

    # ----------------------------------------------------- hints and mistakes

    def _hint(self, state: SpitState, plays: list[Action], lead: list[str]) -> str:
        """Add which card fits where to `lead`; the instruction that plays it."""
        explained, command = lessons.hint(state, lessons.best_play(state, plays))
        lead.append(explained)
        return self._asking(command)

    def _help(self, state: State) -> None:
        with self._lock:
            plays = player_plays(state)
            playing = self.step in (Step.GUIDED, Step.ALONE) and state.phase is Phase.PLAY
            if playing and plays and isinstance(state, SpitState):
                self._learned("hint")
                lead: list[str] = []
                self._speak(lead, self._hint(state, plays, lead))
            elif playing:
                self._speak(lessons.NOTHING_FITS)
            else:
                self._speak([], self._step_words)

    def _auto_hint(self) -> None:
        with self._lock:
            self._hint_timer = None
            state = self.match.state  # a timer of the match's clock: the referee thread
            plays = player_plays(state)
            if self.step is Step.ALONE and plays and isinstance(state, SpitState):
                lead: list[str] = []
                self._speak(lead, self._hint(state, plays, lead))

    def _slap(self, command: Command, state: State) -> None:
        assert command.pile is not None
        with self._lock:
            sizes = [len(pile) for pile in state.piles]
            if state.phase is Phase.ROUND_OVER and \
                    sizes[command.pile] > sizes[1 - command.pile]:
                told, slap = lessons.pile_sizes(state)
                self._speak([lessons.bigger_pile(command.pile), told], self._asking(slap))
                return
        self.match.post(ActionIntent(PLAYER, resolver=functools.partial(_resolved, command),
                                     said=phrase_for(command)))

    # ----------------------------------------------------------------- speech

    def _speak(self, sentences: list[str], instruction: str = "") -> None:
        """Say the sentences, then the instruction, which is what "help" says again."""
        if instruction:
            self._step_words = instruction
        words = " ".join([*sentences, instruction]).strip()
        if words:
            self._say(words)

    def _asking(self, command: Command, words: str = "") -> str:
        """The instruction to say `command` ("Say seven on left."), remembered as asked for."""
        if command != self._asked:
            self._asked, self._ways, self._misses = command, [said(command)], 0
        return words or lessons.instruction(command, self._ways[-1])

    def _stand_down(self) -> None:
        self.step = Step.DONE
        self._cancel_hint()

    def _learned(self, lesson: str) -> None:
        self.lessons.append(lesson)

    def _cancel_hint(self) -> None:
        if self._hint_timer is not None:
            self._hint_timer.cancel()
            self._hint_timer = None


def _resolved(command: Command, state: State) -> Action:
    return resolve(command, state, PLAYER)


@dataclass
class TutorialFactory:
    """Builds the tutorial's match (the fixed deal, the patient opponent) and its coach."""

    match_settings: MatchSettings = dataclasses.field(default_factory=MatchSettings)
    make_clock: Callable[[], Clock] = RealClock
    seed: int = TUTORIAL_SEED
    hint_seconds: float = HINT_SECONDS

    def __call__(self, say: Say, finished: Callable[[], None], *, slap: bool = True) -> Tutorial:
        """`slap`: the round ends in a slap (False: the first out chooses a pile, as in the
        player's games with `slap = false`)."""
        # The player says spit at a stalemate (that is a lesson) and slaps first.
        settings = dataclasses.replace(self.match_settings, auto_spit=False, auto_start=False,
                                       slap_window_seconds=SLAP_WINDOW_SECONDS)
        rules = Rules.for_game("spit", () if slap else ("slap=false",))
        match = Match(rules, self.make_clock(), seed=f"tutorial:{self.seed}",
                      settings=settings)
        PatientOpponent(match, random.Random(f"tutorial opponent:{self.seed}"))
        return Tutorial(match, say, finished, self.hint_seconds)
