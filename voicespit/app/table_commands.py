"""Commands that name a place on the table, resolved against the table as last heard.

A stockpile number or a card key means what the last announcement said was
there. When the table has changed since (an automatic fill moved the card, a
draw reordered the hand), the command still plays the card the player meant,
from wherever it lies now, rather than whatever card has taken its place.
"""

from __future__ import annotations

from voicespit.app.keys import CardKey
from voicespit.engine import actions as act
from voicespit.engine.actions import Action
from voicespit.engine.cards import Card
from voicespit.engine.spit import SpitState
from voicespit.engine.state import Phase
from voicespit.match.intents import State
from voicespit.match.referee import Match
from voicespit.speech.language.commands import Command, Verb
from voicespit.speech.language.parser import IllegalCommandError, resolve


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
    """A card key's play now; `meant` is the card at its place on the table as last heard.

    With nothing there as heard (face down, empty, past the end of the hand) and a card
    there now, that card came after the last announcement: never play a card not said.
    """
    if meant is None and state.phase is Phase.PLAY and key.card_in(state, player) is not None:
        raise IllegalCommandError("you have not heard that card yet: say my cards")
    return key.resolve(state, player, meant)



def table_record(state: State, player: int) -> dict[str, object]:
    """The table as it truly is, for the log (and for tests that judge what was said
    against it): the phase, the pile tops, the player's cards by place (Spit: each
    stockpile's face-up top, "-" face down, "" empty; Speed: the hand), and which of
    them the rules let the player play now ("2:nine": stockpile three's nine; Speed:
    "nine")."""
    piles = [top.rank_name if (top := state.pile_top(pile)) is not None else ""
             for pile in range(2)]
    playable = sorted({action.card.rank_name if isinstance(action, act.PlayCard)
                       else f"{action.stock}:{_top_name(state, player, action.stock)}"
                       for action in state.legal_actions(player)
                       if isinstance(action, act.Play | act.PlayCard)})
    if isinstance(state, SpitState):
        mine = [_top_name(state, player, slot) if cards else ""
                for slot, cards in enumerate(state.stocks[player])]
    else:
        mine = sorted(card.rank_name for card in state.hands[player])
    return {"phase": state.phase.value, "piles": piles, "mine": mine, "playable": playable}


def _top_name(state: State, player: int, slot: int) -> str:
    top = state.stock_top(player, slot) if isinstance(state, SpitState) else None
    return "-" if top is None else top.rank_name
