"""Commands that name a place on the table, resolved against the table as last heard.

A stockpile number or a card key means what the last announcement said was
there. When the table has changed since (an automatic fill moved the card, a
draw reordered the hand), the command still plays the card the player meant,
from wherever it lies now, rather than whatever card has taken its place.
"""

from __future__ import annotations

from voicespit.app.keys import CardKey
from voicespit.engine.actions import Action
from voicespit.engine.cards import Card
from voicespit.engine.spit import SpitState
from voicespit.intents import State
from voicespit.match import Match
from voicespit.speech.commands import Command, Verb
from voicespit.speech.parser import resolve


def heard_source(command: Command, match: Match, player: int) -> Card | None:
    """For "move three to two": the card the player last heard on stockpile three."""
    if command.verb is not Verb.MOVE or command.stock is None:
        return None
    heard = match.heard_snapshot()
    return heard.stock_top(player, command.stock) if isinstance(heard, SpitState) else None


def resolve_command(command: Command, state: State, player: int,
                    meant: Card | None = None) -> Action:
    """`command`'s action now; a move takes `meant` from the stockpile it lies on now."""
    if command.verb is Verb.MOVE and meant is not None and isinstance(state, SpitState):
        slot = next((slot for slot in range(len(state.stocks[player]))
                     if state.stock_top(player, slot) == meant), None)
        if slot is not None and slot != command.stock and command.target is not None \
                and slot != command.target:
            return resolve(Command(Verb.MOVE, stock=slot, target=command.target), state, player)
    return resolve(command, state, player)


def resolve_key(key: CardKey, meant: Card | None, state: State, player: int = 0) -> Action:
    return key.resolve(state, player, meant)

