"""One player's session: the greeting, games one after another, and leaving.

Everything the player says or types arrives here as a command (or a key); moves
become intents for the match, questions are answered from the table as it is,
and the session's own questions ("Quit this game?", "Play again?") wait for a
yes or a no. Input arrives on the keyboard and recognizer threads and match
events on the referee thread, so all session state sits behind one lock.

Nothing the player says is met with silence: a command that does nothing is
answered with what was understood and why ("Yes? There is no question to
answer."), and "Say again?" is kept for when nothing usable was heard.
"""

from __future__ import annotations

import enum
import functools
import json
import logging
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from voicespit.app.game_in_play import GameInPlay
from voicespit.app.keys import Binding, CardKey, GoKey, KeysHelpKey, StopKey, binding_for, key_help
from voicespit.app.misses import CLIPPING_HEARD, MissLog, clipping_without_words
from voicespit.app.preferences import (
    AtTheLimitError,
    step_detail,
    step_rate,
    step_voice,
    step_volume,
)
from voicespit.app.spoken_rules import RULES_ENDING, rules_in_words
from voicespit.app.stats import GameTally
from voicespit.app.table_commands import heard_source, table_record
from voicespit.app.tutorial import Tutorial, TutorialFactory
from voicespit.audio.announcer import Announcer
from voicespit.audio.speaker import Speaker
from voicespit.engine import Rules
from voicespit.engine.cards import Card
from voicespit.engine.events import GameOver
from voicespit.match.events import MatchQuit, PaceChanged, Paused, Stamped
from voicespit.match.intents import Control, ControlIntent, State
from voicespit.match.referee import Match
from voicespit.match.settings import MatchSettings
from voicespit.narration.announcement import Announcement, Cue, Priority, Verbosity
from voicespit.narration.answers import sentence
from voicespit.narration.narrator import heard_words
from voicespit.opponent.pace import Pace
from voicespit.profile import Profile
from voicespit.speech.language.commands import Command, Group, Verb
from voicespit.speech.language.grammar import GAME_WORDS, phrase_for
from voicespit.speech.language.help import HelpPages, overview, topic_help
from voicespit.speech.language.parser import CommandError, parse, parse_typed, words_of

log = logging.getLogger(__name__)
HUMAN = 0
TALKED_OVER = "I was talking: say it again."
NO_GAME = "no game is on: say new game to start"
TABLE_QUERIES = {Verb.PILES: "piles", Verb.MY_CARDS: "my cards", Verb.COUNT: "count",
                 Verb.SCORE: "score", Verb.OPPONENT_CARDS: "opponent's cards",
                 Verb.FACE_DOWN: "face down", Verb.HINT: "what fits"}
"""The information commands answered from the table (with Verb.PILE: "left"/"right")."""
CONTROLS = {Verb.PAUSE: Control.PAUSE, Verb.RESUME: Control.RESUME,
            Verb.FASTER: Control.FASTER, Verb.SLOWER: Control.SLOWER}


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
class SessionHooks:
    """What the session tells the rest of the app."""

    leave: Callable[[], None] = lambda: None
    """The player has left: stop reading input, save, exit."""
    table_changed: Callable[[State], None] = lambda state: None
    """A match event changed the table (runs on the referee thread: be quick)."""
    profile_changed: Callable[[Profile], None] = lambda profile: None
    """Save the profile (after each game and each setting changed by voice)."""
    extra_help: list[str] = field(default_factory=list)
    """Short sentences appended to the spoken help."""
    keys_in_help: bool = False
    """The spoken help also says what the keys do in the game being played (typing only)."""


class Session:
    def __init__(self, rules: Rules, announcer: Announcer, speaker: Speaker,
                 make_match: MatchFactory, pace: Pace, profile: Profile,
                 hooks: SessionHooks | None = None, *, echo_plays: bool = False,
                 tutorials: TutorialFactory | None = None,
                 rules_for: Callable[[str], Rules] = Rules.for_game,
                 match_settings: MatchSettings | None = None) -> None:
        """`echo_plays`: at full detail, say each spoken move back ("Heard seven on
        left.") before what it did. `rules_for`: the rules of a game the player asks
        for by name ("play speed"), with the variants that apply to it.
        `match_settings`: how `make_match`'s matches run (the rules told say so)."""
        self.rules = rules
        self.rules_for = rules_for
        self.announcer = announcer
        self.speaker = speaker
        self.make_match = make_match
        self.pace = pace
        self.profile = profile
        self.hooks = hooks or SessionHooks()
        self.tutorials = tutorials or TutorialFactory()
        self.match_settings = match_settings or MatchSettings()
        self.help = HelpPages()
        self.echo_plays = echo_plays
        self.mode = Mode.MENU
        self.question: Question | None = None
        self.game: GameInPlay | None = None
        self.games_started = 0
        self.setup = ""
        """How the game takes commands, in whole sentences: the answer to "how do you hear me"."""
        self.misses = MissLog()
        """Spoken commands missed since the last one heard, and why (`app.misses`)."""
        self._lock = threading.RLock()

    # ------------------------------------------------------------ speaking

    def say(self, text: str, priority: Priority = Priority.HIGH, topic: str = "session") -> None:
        self.announcer.present(Announcement(text, topic, priority))

    def _refuse(self, said: str, reason: str) -> None:
        """A command that does nothing: what was understood, and why."""
        self.announcer.present(Announcement(heard_words(said) + sentence(reason), "refusal",
                                            Priority.URGENT, Cue.REFUSED, about=HUMAN))

    def greet(self, summary: str, *, by_voice: bool, details: str = "",
              tutorial: bool = False) -> None:
        """Two short sentences: how commands reach the game, and how to start. The rest
        (`details`) waits for "how do you hear me". When the tutorial starts at once
        (`tutorial`), its coach says what to do: "Type new game" would be the wrong
        first instruction."""
        self.setup = details or sentence(summary)
        start = "Say new game to start." if by_voice \
            else "Type new game or press space to start."
        self.say(f"VoiceSpit {self._game_name}, {summary}." + ("" if tutorial else f" {start}"))

    def _rules_words(self) -> list[str]:
        settings = self.match_settings
        return rules_in_words(self.rules, auto_spit=settings.auto_spit,
                              countdown_from=settings.countdown_from)

    def _setup_words(self) -> str:
        narrator = self.announcer.narrator
        return (f"{self.setup} Detail: {narrator.verbosity.value}. "
                f"Speech: {self.speaker.rate} words a minute.")

    # --------------------------------------------------------------- input

    def handle_text(self, text: str, *, spoken: bool = False) -> None:
        """A line the player typed, or what the recognizer heard."""
        if spoken:
            log.debug("heard: %s", text)
        binding = None if spoken else binding_for(text)
        if binding is not None:
            self.handle_binding(binding)
            return
        try:
            command = parse(text) if spoken else parse_typed(text)
        except CommandError:
            if spoken:
                self.handle_unheard(text)
            else:
                self.announcer.not_understood(text, typed=True)
            return
        with self._lock:
            if spoken:
                self.profile.commands_heard += 1
                self.misses.heard()
        self.handle_command(command, spoken=spoken)

    def handle_unheard(self, heard: str = "",
                       measured: Mapping[str, float] | None = None) -> None:
        """The recognizer heard speech but could not make a command of it; `heard` is
        whatever words it made out ("" when none), `measured` its measurements of the
        utterance (how far it stood above the room, how much was clipped), which choose
        the hint after several misses."""
        log.debug("heard nothing usable: %r", heard)
        if clipping_without_words(measured):
            self.say(CLIPPING_HEARD, topic="hint")
            return
        with self._lock:
            self.profile.commands_misheard += 1
            hint = self.misses.missed(measured)
        words = " ".join(word for word in words_of(heard) if not word.startswith("["))
        self.announcer.not_understood(words)
        if (tutorial := self._tutorial()) is not None:
            tutorial.not_heard()  # the coach offers its own other ways to say it
        elif hint is not None:
            self.say(hint, topic="hint")

    def _tutorial(self) -> Tutorial | None:
        """The tutorial's coach while the tutorial round is on."""
        game = self.game
        return game.tutorial if game is not None and not game.ended else None

    def handle_dropped(self) -> None:
        """The listener lost a command because the game was speaking over it: never in
        silence, the player is asked to say it again."""
        self.say(TALKED_OVER, topic="talked over")

    def handle_binding(self, binding: Binding) -> None:
        if isinstance(binding, CardKey):
            self._card_key(binding)
        elif isinstance(binding, GoKey):
            self._go()
        elif isinstance(binding, StopKey):
            self._stop()
        elif isinstance(binding, KeysHelpKey):
            with self._lock:
                rules = self.rules
                self.say(self.help.start(key_help(rules.game, slap=rules.slap,
                                                  stockpiles=rules.stockpiles)))
        else:
            self.handle_command(binding)

    def _card_key(self, key: CardKey) -> None:
        with self._lock:
            game = self._game_on()
            if game is None:
                self._refuse(str(key), NO_GAME)
                return
        game.press(key)  # outside the lock: it takes the match's

    def handle_command(self, command: Command, *, spoken: bool = False) -> None:
        tutorial = self._tutorial()
        if tutorial is not None and tutorial.intercept(command):
            return  # the coach answered it (outside the lock: it may ask the match)
        game = self.game
        # Read outside the lock, like any snapshot: which card "move three" meant.
        meant = heard_source(command, game.match, HUMAN) if game is not None else None
        with self._lock:
            if self.mode is Mode.CLOSED:
                return
            game = self.game
            informing = game if command.verb in TABLE_QUERIES or command.verb is Verb.PILE \
                else None
            if informing is not None and self._game_on() is None:
                informing = None
                self._refuse(phrase_for(command), NO_GAME)
            elif informing is None:
                self._route(command, spoken, meant)
        if informing is not None:
            # Outside the lock: a snapshot takes the match's lock (see `_on_event`).
            self._inform(informing, command)
            if tutorial is not None:
                tutorial.answered(command)

    def _route(self, command: Command, spoken: bool, meant: Card | None) -> None:
        verb, said = command.verb, phrase_for(command)
        if verb in (Verb.YES, Verb.NO):
            self._answer(verb is Verb.YES, said)
        elif verb is Verb.HELP and command.topic is not None:
            self.say(self.help.start(topic_help(list(Group)[command.topic], self.rules.game,
                                                slap=self.rules.slap)))
        elif verb is Verb.HELP:
            rules = self.rules
            keys = key_help(rules.game, slap=rules.slap, stockpiles=rules.stockpiles) \
                if self.hooks.keys_in_help else []
            self.say(self.help.start([*overview(rules.game, slap=rules.slap),
                                      *self.hooks.extra_help, *keys]))
        elif verb in (Verb.MORE, Verb.STOP):
            self.say(self.help.more() if verb is Verb.MORE else self.help.stop())
        elif verb is Verb.REPEAT:
            self._repeat()
        elif verb is Verb.SETUP:
            self.say(self._setup_words())
        elif verb is Verb.RULES:
            self.say(self.help.start(self._rules_words(), RULES_ENDING, name="Rules"))
        elif verb in (Verb.NEW_GAME, Verb.TUTORIAL):
            self._new_game_requested(said, tutorial=verb is Verb.TUTORIAL,
                                     game=None if command.game is None
                                     else GAME_WORDS[command.game])
        elif verb is Verb.QUIT:
            self._ask(Question.QUIT_GAME if self._game_on() is not None else Question.LEAVE)
        elif verb is Verb.READY and self._game_on() is None:
            # "I'm ready" with no game on (at the start, or after "Play again?") means
            # "let's play", as the go key does; refused, it sent the player off to find
            # the words "new game".
            self._new_game_requested(said)
        elif verb in (Verb.SPEAK_FASTER, Verb.SPEAK_SLOWER):
            self._change(said, functools.partial(step_rate, self.speaker, self.profile,
                                                 verb is Verb.SPEAK_FASTER))
        elif verb in (Verb.LOUDER, Verb.QUIETER):
            self._change(said, functools.partial(step_volume, self.speaker, self.profile,
                                                 verb is Verb.LOUDER))
        elif verb is Verb.VOICE:
            self._change(said, functools.partial(step_voice, self.speaker, self.profile))
        elif verb in (Verb.MORE_DETAIL, Verb.LESS_DETAIL):
            self._change(said, functools.partial(step_detail, self.announcer.narrator,
                                                 self.profile, verb is Verb.MORE_DETAIL))
        elif self.mode is not Mode.PLAYING or self.game is None:
            self._refuse(said, NO_GAME)
        elif self.game.ended:
            self._refuse(said, "the game is over: say new game to play again")
        elif verb in CONTROLS:
            self.game.match.post(ControlIntent(HUMAN, CONTROLS[verb], said))
        else:
            self.game.move(command, meant, echo=spoken and self.echo_plays)

    # ------------------------------------------------------------ the game

    def _game_on(self) -> GameInPlay | None:
        """The game being played, if one is."""
        game = self.game
        return game if self.mode is Mode.PLAYING and game is not None and not game.ended \
            else None

    @property
    def _game_name(self) -> str:
        return "Speed" if self.rules.game == "speed" else "Spit"

    def _inform(self, game: GameInPlay, command: Command) -> None:
        state = game.match.snapshot()
        query = TABLE_QUERIES.get(command.verb)
        if command.verb is Verb.PILE:
            query = "left" if command.pile == 0 else "right"
        if query is not None:
            self.announcer.answer(query, state, HUMAN)

    def _repeat(self) -> None:
        if self.question is not None:
            self.say(self.question.value, Priority.URGENT, topic="question")
        else:
            self.announcer.present(self.announcer.narrator.repeat())

    def _new_game_requested(self, said: str = "", tutorial: bool = False,
                            game: str | None = None) -> None:
        if self._game_on() is not None:
            self._refuse(said, "a game is on: say quit to stop it first")
            return
        self.question = None
        if game is not None and game != self.rules.game:
            self._switch_to(game)
        self._start_game(tutorial)

    def _switch_to(self, game: str) -> None:
        """Play `game` from now on: this game and the ones after it, until asked again."""
        self.rules = self.rules_for(game)
        self.announcer.narrator.help_text = " ".join(overview(game, slap=self.rules.slap))

    def announcement_finished(self, sequence: int) -> None:
        """The speaker has finished with the current match's events up to `sequence`."""
        game = self.game
        if game is not None and not game.ended:
            game.match.announcement_finished(sequence)

    def _start_game(self, tutorial: bool = False) -> None:
        self._retire_game()
        # The new match numbers its events from one: old speech and counts must go.
        self.speaker.silence()
        self.speaker.begin_match()
        if tutorial:
            # The tutorial is a round of Spit: with the variant, it teaches choosing a pile.
            spit = self.rules if self.rules.game == "spit" else self.rules_for("spit")
            coach = self.tutorials(
                functools.partial(self.say, priority=Priority.NORMAL, topic="tutorial"),
                lambda: self._tutorial_finished(game), slap=spit.slap)
            match = coach.match
        else:
            coach = None
            self.games_started += 1
            match = self.make_match(self.rules, self.games_started)
            self.pace.start_game()
        self.announcer.narrator.coached = coach is not None
        game = GameInPlay(match, GameTally(HUMAN, match.clock.now()), tutorial=coach)
        self.game = game
        self.mode = Mode.PLAYING
        match.subscribe(functools.partial(self._on_event, game), inline=True)
        if coach is not None:
            coach.begin()  # after the narration's subscription: the coach speaks after it
        else:
            # The deal that follows ends with "Say ready.": the prompt is the last word.
            self.say(f"New game of {self._game_name}, against the computer at "
                     f"{self._pace_words()}.")
        match.start()

    def _tutorial_finished(self, game: GameInPlay) -> None:
        """The coach has said its last words (on the referee thread): back to the menu."""
        with self._lock:
            if game is self.game and not game.ended:
                game.ended = True
                self.mode = Mode.MENU
                self._retire_game()

    def _pace_words(self) -> str:
        if self.pace.name == "adaptive":
            return "a pace that follows yours"
        return f"{self.pace.name} pace" if not self.pace.name[0].isdigit() \
            else f"{self.pace.seconds_per_card:.1f} seconds a card"

    def _on_event(self, game: GameInPlay, stamped: Stamped) -> None:
        """Runs on the referee thread for every event of `game`'s match, in order.

        The referee holds its match's lock here, so the session's lock is taken
        only briefly and the session never calls a locking match method (snapshot,
        close) while holding its own: the two locks are always taken match first.
        """
        if game is not self.game:
            return  # a retired game's last words: the player has moved on
        state = game.match.state
        event = stamped.event
        log.debug("event %s", stamped)
        echo = game.echo_before(stamped)
        if echo is not None and self.announcer.narrator.verbosity is Verbosity.FULL:
            self.say(echo, Priority.NORMAL, topic="echo")
        self.announcer.announce(stamped, state)
        if log.isEnabledFor(logging.DEBUG):
            log.debug("table %s", json.dumps(table_record(state, HUMAN)))
        game.tally.observe(stamped)
        self.hooks.table_changed(state)
        if isinstance(event, Paused) and game.ask_when_paused:
            game.ask_when_paused = False
            with self._lock:
                if self.question is Question.QUIT_GAME:
                    self.say(self.question.value, Priority.URGENT, topic="question")
        if isinstance(event, GameOver | MatchQuit):
            with self._lock:
                if game is self.game and not game.ended:
                    self._game_ended(game, event, stamped.time)
        elif isinstance(event, PaceChanged) and game.ended:
            # The adaptive pace settles after the game's end, after "Play again?": the
            # question must stay the last thing said.
            with self._lock:
                if game is self.game and self.question is not None:
                    self.say(self.question.value, Priority.URGENT, topic="question")

    def _game_ended(self, game: GameInPlay, event: GameOver | MatchQuit, at: float) -> None:
        game.ended = True
        if game.tutorial is not None:
            self.mode = Mode.MENU
            if isinstance(event, MatchQuit):
                self.say("Tutorial stopped. Say new game to play, or tutorial to start again.")
            return
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
            if self.game.tutorial is not None:
                self.game.tutorial.stop()
            threading.Thread(target=self.game.match.close, name="retire-match",
                             daemon=True).start()

    # ------------------------------------------------------------ questions

    def _ask(self, question: Question) -> None:
        """Ask, so that the question is the last thing said."""
        self.question = question
        game = self.game
        if question is Question.QUIT_GAME and game is not None and not game.match.is_paused:
            # Nothing moves while the player decides; the question follows "Paused.".
            game.ask_when_paused = game.resume_on_no = True
            game.match.post(ControlIntent(HUMAN, Control.PAUSE))
            return
        self.say(question.value, Priority.URGENT, topic="question")

    def _answer(self, yes: bool, said: str = "") -> None:
        question, self.question = self.question, None
        if question is None:
            self._refuse(said, "there is no question to answer")
        elif question is Question.QUIT_GAME:
            game = self._game_on()
            if game is None:
                self._refuse(said, "the game is over already")
            elif yes:
                game.match.post(ControlIntent(HUMAN, Control.QUIT))
            elif game.resume_on_no:
                # The narration of the resume says it ("Go on.").
                game.resume_on_no = False
                game.match.post(ControlIntent(HUMAN, Control.RESUME))
            else:
                self.say("Still paused: say continue to play on.")
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
                game.move(Command(Verb.SPIT), None, echo=False)

    def _stop(self) -> None:
        with self._lock:
            if self.question is not None:
                self._answer(False)
            elif (game := self._game_on()) is not None:
                verb = Verb.RESUME if game.match.is_paused else Verb.PAUSE
                game.match.post(ControlIntent(HUMAN, CONTROLS[verb], phrase_for(Command(verb))))
            else:
                self._refuse("escape", NO_GAME)

    # ------------------------------------------------------------- settings

    def _change(self, said: str, change: Callable[[], str]) -> None:
        """A setting changed by voice: say the new value, or why there is no step further."""
        try:
            text = change()
        except AtTheLimitError as limit:
            self._refuse(said, str(limit))
            return
        self.hooks.profile_changed(self.profile)
        self.say(text)

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

