"""One game being played: its match, its tally, and the player's moves posted to it.

Moves are posted so that they mean what the player last heard: a key or "move three
to two" names the card the last announcement put at that place (resolved on the
match's thread, see `voicespit.app.table_commands`). A spoken move can be echoed
("Heard seven on left.") just before what it did.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from voicespit.app.keys import CardKey
from voicespit.app.stats import GameTally
from voicespit.app.table_commands import resolve_command, resolve_key
from voicespit.app.tutorial import Tutorial
from voicespit.engine.actions import Action
from voicespit.engine.cards import Card
from voicespit.match.events import IntentRefused, Stamped
from voicespit.match.intents import ActionIntent, Control, ControlIntent, State
from voicespit.match.referee import Match
from voicespit.speech.language.commands import Command, Verb
from voicespit.speech.language.grammar import phrase_for

HUMAN = 0


@dataclass
class GameInPlay:
    match: Match
    tally: GameTally
    ended: bool = False
    ask_when_paused: bool = False
    """"Quit this game?" waits for "Paused." so that the question is the last word."""
    resume_on_no: bool = False
    """The session paused the match to ask: "no" resumes it (a pause of the player's stays)."""
    echo: str = ""
    """A spoken command the match has just resolved, to say back before what it did.
    Referee thread only."""
    tutorial: Tutorial | None = None
    """The coach, when this is the tutorial round (it never counts in the profile)."""

    def press(self, key: CardKey) -> None:
        """A card key: the card the player last heard at its place (takes the match's lock)."""
        heard = self.match.heard_snapshot()
        meant = key.card_in(heard, HUMAN)
        self.match.post(ActionIntent(HUMAN, resolver=functools.partial(resolve_key, key, meant),
                                     said=key.words(heard)))

    def move(self, command: Command, meant: Card | None, *, echo: bool) -> None:
        """A move or round command; `echo`: note it, to be said back once it is done."""
        if command.verb is Verb.READY:
            self.match.post(ControlIntent(HUMAN, Control.READY, phrase_for(command)))
            return
        resolver = functools.partial(self._resolve, command, meant, echo)
        self.match.post(ActionIntent(HUMAN, resolver=resolver, said=phrase_for(command)))

    def _resolve(self, command: Command, meant: Card | None, echo: bool, state: State) -> Action:
        """Runs on the match's thread when the command lands."""
        action = resolve_command(command, state, HUMAN, meant)
        if echo:
            self.echo = phrase_for(command)
        return action

    def echo_before(self, stamped: Stamped) -> str | None:
        """The words to say back before this event, if it is the first thing an echoed
        command did (a refusal drops the echo: it names the command itself)."""
        if not self.echo:
            return None
        event = stamped.event
        if isinstance(event, IntentRefused):
            self.echo = ""
        elif getattr(event, "player", None) == HUMAN:
            words, self.echo = self.echo, ""
            return f"Heard {words}."
        return None
