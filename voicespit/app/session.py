"""One player's session: the greeting, games one after another, and leaving.

Everything the player says or types arrives here as a command (or a key); moves
become intents for the match, questions are answered from the table as it is,
and the session's own questions ("Quit this game?", "Play again?") wait for a
yes or a no. Input arrives on the keyboard and recognizer threads and match
events on the referee thread, so all session state sits behind one lock.
"""

from __future__ import annotations

import enum
import functools
import threading
from collections.abc import Callable
from dataclasses import dataclass, field

from voicespit.app.keys import KEY_HELP, Binding, CardKey, GoKey, KeysHelpKey, StopKey, binding_for
from voicespit.app.stats import GameTally
from voicespit.audio.announcer import Announcer
from voicespit.audio.reports import MAX_RATE, MIN_RATE, RATE_STEP
from voicespit.audio.speaker import Speaker
from voicespit.engine import Rules
from voicespit.engine.actions import Action
from voicespit.engine.events import GameOver
from voicespit.intents import ActionIntent, Control, ControlIntent, State
from voicespit.match import Match
from voicespit.match_events import MatchQuit, Stamped
from voicespit.narration import Announcement, Priority, Verbosity
from voicespit.opponent.pace import Pace
from voicespit.profile import Profile
from voicespit.speech.commands import Command, Group, Verb
from voicespit.speech.grammar import HELP_TOPIC_WORDS, help_text
from voicespit.speech.parser import CommandError, parse, resolve

HUMAN = 0
TALKED_OVER = "I was talking: say it again."
VERBOSITY_ORDER = (Verbosity.TERSE, Verbosity.NORMAL, Verbosity.FULL)


class Mode(enum.Enum):
    MENU = "menu"
    """No game on: waiting for "new game"."""
    PLAYING = "playing"
    CLOSED = "closed"
    """The player left; nothing more is said."""


class Question(enum.Enum):
    QUIT_GAME = "Quit this game? Say yes or no."
    LEAVE = "Leave VoiceSpit? Say yes or no."
    PLAY_AGAIN = "Play again? Say yes or no."


MatchFactory = Callable[[Rules, int], Match]
"""Builds game number N's match (with its opponent attached), not yet started."""


@dataclass
class _Game:
    match: Match
    tally: GameTally
    ended: bool = False


@dataclass
class SessionHooks:
    """What the session tells the rest of the app."""

    leave: Callable[[], None] = lambda: None
    """The player has left: stop reading input, save, exit."""
    table_changed: Callable[[State], None] = lambda state: None
    """A match event changed the table (runs on the referee thread: be quick)."""
    profile_changed: Callable[[Profile], None] = lambda profile: None
    """Save the profile (after each game and each setting changed by voice)."""
    extra_help: list[str] = field(default_factory=list)
    """Sentences appended to the spoken help (e.g. the keyboard's keys)."""


class Session:
    def __init__(self, rules: Rules, announcer: Announcer, speaker: Speaker,
                 make_match: MatchFactory, pace: Pace, profile: Profile,
                 hooks: SessionHooks | None = None, help_text: str = "") -> None:
        self.rules = rules
        self.announcer = announcer
        self.speaker = speaker
        self.make_match = make_match
        self.pace = pace
        self.profile = profile
        self.hooks = hooks or SessionHooks()
        self.help_text = help_text
        self.mode = Mode.MENU
        self.question: Question | None = None
        self.game: _Game | None = None
        self.games_started = 0
        self._lock = threading.RLock()

    # ------------------------------------------------------------ speaking

    def say(self, text: str, priority: Priority = Priority.HIGH, topic: str = "session") -> None:
        self.announcer.present(Announcement(text, topic, priority))

    def greet(self, how_to_talk: str) -> None:
        self.say(f"VoiceSpit: {self._game_name}. {how_to_talk} Say new game to start, or help.")

    # --------------------------------------------------------------- input

    def handle_text(self, text: str, *, spoken: bool = False) -> None:
        """A line the player typed, or what the recognizer heard."""
        binding = None if spoken else binding_for(text)
        if binding is not None:
            self.handle_binding(binding)
            return
        try:
            command = parse(text)
        except CommandError:
            if spoken:
                self.handle_unheard()
            else:
                self.announcer.not_understood()
            return
        with self._lock:
            if spoken:
                self.profile.commands_heard += 1
        self.handle_command(command)

    def handle_unheard(self) -> None:
        """The recognizer heard speech but could not make a command of it."""
        with self._lock:
            self.profile.commands_misheard += 1
        self.announcer.not_understood()

    def handle_dropped(self) -> None:
        """The listener lost a command because the game was speaking over it: never in
        silence, the player is asked to say it again."""
        self.say(TALKED_OVER, topic="talked over")

    def handle_binding(self, binding: Binding) -> None:
        if isinstance(binding, CardKey):
            with self._lock:
                game = self._live_game()
                if game is None:
                    return
            game.match.post(ActionIntent(HUMAN, resolver=functools.partial(
                _resolve_key, binding), said=f"key: {binding}"))
        elif isinstance(binding, GoKey):
            self._go()
        elif isinstance(binding, StopKey):
            self._stop()
        elif isinstance(binding, KeysHelpKey):
            self.say(KEY_HELP)
        else:
            self.handle_command(binding)

    def handle_command(self, command: Command) -> None:
        with self._lock:
            if self.mode is Mode.CLOSED:
                return
            game = self.game
            if command.group is Group.INFO and command.verb is not Verb.HELP \
                    and self.mode is Mode.PLAYING and game is not None:
                informing = game
            else:
                informing = None
                self._route(command)
        if informing is not None:
            # Outside the lock: a snapshot takes the match's lock (see `_on_event`).
            self._inform(informing, command)

    def _route(self, command: Command) -> None:
        verb = command.verb
        if verb in (Verb.YES, Verb.NO):
            self._answer(verb is Verb.YES)
        elif verb is Verb.HELP and command.topic is not None:
            self.say(help_text(HELP_TOPIC_WORDS[command.topic]))
        elif verb is Verb.HELP:
            self.say(" ".join([self.help_text, *self.hooks.extra_help]).strip())
        elif verb is Verb.NEW_GAME:
            self._new_game_requested()
        elif verb is Verb.QUIT:
            self._ask(Question.QUIT_GAME if self.mode is Mode.PLAYING else Question.LEAVE)
        elif verb in (Verb.SPEAK_FASTER, Verb.SPEAK_SLOWER):
            self._change_rate(verb is Verb.SPEAK_FASTER)
        elif verb in (Verb.MORE_DETAIL, Verb.LESS_DETAIL):
            self._change_verbosity(verb is Verb.MORE_DETAIL)
        elif self.mode is not Mode.PLAYING or self.game is None:
            self.say("No game is on. Say new game to start.")
        elif verb in (Verb.PAUSE, Verb.RESUME, Verb.FASTER, Verb.SLOWER):
            self._control(self.game, verb)
        else:
            self._move(self.game, command)

    # ------------------------------------------------------------ the game

    def _game_on(self) -> _Game | None:
        """The game being played, if one is."""
        game = self.game
        return game if self.mode is Mode.PLAYING and game is not None and not game.ended \
            else None

    @property
    def _game_name(self) -> str:
        return "Speed" if self.rules.game == "speed" else "Spit"

    def _live_game(self) -> _Game | None:
        game = self._game_on()
        if game is None:
            self.say("No game is on. Say new game to start.")
        return game

    def _move(self, game: _Game, command: Command) -> None:
        if game.ended:
            self.say("The game is over. Say new game to play again.")
            return
        if command.verb is Verb.READY:
            game.match.post(ControlIntent(HUMAN, Control.READY))
            return
        resolver = functools.partial(_resolve_command, command)
        game.match.post(ActionIntent(HUMAN, resolver=resolver, said=str(command)))

    def _control(self, game: _Game, verb: Verb) -> None:
        control = {Verb.PAUSE: Control.PAUSE, Verb.RESUME: Control.RESUME,
                   Verb.FASTER: Control.FASTER, Verb.SLOWER: Control.SLOWER}[verb]
        game.match.post(ControlIntent(HUMAN, control))

    def _inform(self, game: _Game, command: Command) -> None:
        state = game.match.snapshot()
        query = {Verb.PILES: "piles", Verb.MY_CARDS: "my cards", Verb.COUNT: "count",
                 Verb.SCORE: "score", Verb.REPEAT: "repeat"}.get(command.verb)
        if command.verb is Verb.PILE:
            query = "left" if command.pile == 0 else "right"
        if query is not None:
            self.announcer.answer(query, state, HUMAN)

    def _new_game_requested(self) -> None:
        if self._game_on() is not None:
            self.say("A game is on. Say quit to stop it first.")
            return
        self.question = None
        self._start_game()

    def announcement_finished(self, sequence: int) -> None:
        """The speaker has finished with the current match's events up to `sequence`."""
        game = self.game
        if game is not None and not game.ended:
            game.match.announcement_finished(sequence)

    def _start_game(self) -> None:
        self._retire_game()
        # The new match numbers its events from one: old speech and counts must go.
        self.speaker.silence()
        self.speaker.begin_match()
        self.games_started += 1
        match = self.make_match(self.rules, self.games_started)
        game = _Game(match, GameTally(HUMAN, match.clock.now()))
        self.game = game
        self.mode = Mode.PLAYING
        self.pace.start_game()
        match.subscribe(functools.partial(self._on_event, game), inline=True)
        self.say(f"New game of {self._game_name}, against the computer at {self._pace_words()}. "
                 "Say ready when you are.")
        match.start()

    def _pace_words(self) -> str:
        if self.pace.name == "adaptive":
            return "a pace that follows yours"
        return f"{self.pace.name} pace" if not self.pace.name[0].isdigit() \
            else f"{self.pace.seconds_per_card:.1f} seconds a card"

    def _on_event(self, game: _Game, stamped: Stamped) -> None:
        """Runs on the referee thread for every event of `game`'s match, in order.

        The referee holds its match's lock here, so the session's lock is taken
        only briefly and the session never calls a locking match method (snapshot,
        close) while holding its own: the two locks are always taken match first.
        """
        if game is not self.game:
            return  # a retired game's last words: the player has moved on
        state = game.match.state
        self.announcer.announce(stamped, state)
        game.tally.observe(stamped)
        self.hooks.table_changed(state)
        event = stamped.event
        if isinstance(event, GameOver | MatchQuit):
            with self._lock:
                if game is self.game and not game.ended:
                    self._game_ended(game, event, stamped.time)

    def _game_ended(self, game: _Game, event: GameOver | MatchQuit, at: float) -> None:
        game.ended = True
        game.tally.finish(event, at)
        game.tally.add_to(self.profile)
        self.profile.opponent_seconds_per_card = self.pace.seconds_per_card
        self.hooks.profile_changed(self.profile)
        if self.mode is Mode.CLOSED:
            return
        if isinstance(event, MatchQuit):
            self.mode = Mode.MENU
            self.say("Game stopped. Say new game to play again, or quit to leave.")
            return
        self.say(game.tally.summary(self.profile))
        self._ask(Question.PLAY_AGAIN)

    def _retire_game(self) -> None:
        """Stop the current game's match without waiting on it (its referee may be
        waiting for the session lock, which the caller holds)."""
        if self.game is not None:
            threading.Thread(target=self.game.match.close, name="retire-match",
                             daemon=True).start()

    # ------------------------------------------------------------ questions

    def _ask(self, question: Question) -> None:
        self.question = question
        if question is Question.QUIT_GAME and self.game is not None:
            # Nothing moves while the player decides.
            self.game.match.post(ControlIntent(HUMAN, Control.PAUSE))
        self.say(question.value, Priority.URGENT, topic="question")

    def _answer(self, yes: bool) -> None:
        question, self.question = self.question, None
        if question is None:
            self.say("There is no question to answer.")
        elif question is Question.QUIT_GAME:
            game = self.game
            if game is None or game.ended:
                return
            if yes:
                game.match.post(ControlIntent(HUMAN, Control.QUIT))
            else:
                # The narration of the resume says it ("Go on.").
                game.match.post(ControlIntent(HUMAN, Control.RESUME))
        elif question is Question.PLAY_AGAIN:
            if yes:
                self._start_game()
            else:
                self.mode = Mode.MENU
                self.say("Say new game to play, or quit to leave.")
        elif yes:
            self.leave()
        else:
            self.say("Staying. Say new game to play.")

    def _go(self) -> None:
        with self._lock:
            if self.question is not None:
                self._answer(True)
            elif (game := self._game_on()) is None:
                self._new_game_requested()
            else:
                self._move(game, Command(Verb.SPIT))

    def _stop(self) -> None:
        with self._lock:
            if self.question is not None:
                self._answer(False)
            elif (game := self._game_on()) is not None:
                self._control(game, Verb.RESUME if game.match.is_paused else Verb.PAUSE)

    # ------------------------------------------------------------- settings

    def _change_rate(self, faster: bool) -> None:
        rate = self.speaker.rate + (RATE_STEP if faster else -RATE_STEP)
        rate = max(MIN_RATE, min(MAX_RATE, rate))
        if rate == self.speaker.rate:
            self.say("That is as fast as I speak." if faster else "That is as slow as I speak.")
            return
        self.speaker.set_rate(rate)
        self.profile.settings["rate"] = str(rate)
        self.hooks.profile_changed(self.profile)
        self.say(f"Speaking {'faster' if faster else 'slower'}: {rate} words a minute.")

    def _change_verbosity(self, more: bool) -> None:
        narrator = self.announcer.narrator
        index = VERBOSITY_ORDER.index(narrator.verbosity) + (1 if more else -1)
        if not 0 <= index < len(VERBOSITY_ORDER):
            self.say("That is already the most detail." if more else "That is already the least.")
            return
        narrator.verbosity = VERBOSITY_ORDER[index]
        self.profile.settings["verbosity"] = narrator.verbosity.value
        self.hooks.profile_changed(self.profile)
        self.say(f"Detail: {narrator.verbosity.value}.")

    # ---------------------------------------------------------------- leave

    def leave(self) -> None:
        """Stop any game, say goodbye and tell the app to exit."""
        with self._lock:
            if self.mode is Mode.CLOSED:
                return
            game = self.game
            if game is not None and not game.ended:
                game.match.post(ControlIntent(HUMAN, Control.QUIT))
            self.say("Goodbye.", Priority.URGENT)
            self.mode = Mode.CLOSED
        self.hooks.leave()

    def close(self) -> None:
        """Stop the current game's match and wait for it (call without the lock held)."""
        with self._lock:
            game = self.game
        if game is not None:
            game.match.close()


def _resolve_command(command: Command, state: State) -> Action:
    return resolve(command, state, HUMAN)


def _resolve_key(key: CardKey, state: State) -> Action:
    return key.resolve(state, HUMAN)

