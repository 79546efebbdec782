"""Why a move was refused, told apart: "too late" or a plain mistake.

Both players act at once, so a move can be right on the table the player knew
and wrong by the time it lands: the other player got there first. That
deserves its own answer ("too late: left is now a nine"), not the rule the
player seemed to break. The match knows the table the player knew (the
snapshot at the intent's `based_on` sequence), so the test is exact: the move
was legal then and is not now.
"""

from __future__ import annotations

from voicespit.engine.actions import PILE_NAMES, Action, Play, PlayCard, Slap
from voicespit.engine.cards import with_article
from voicespit.engine.state import Phase
from voicespit.errors import ChoiceNeededError, VoiceSpitError
from voicespit.match.events import IntentRefused
from voicespit.match.intents import Resolver, State

TOO_LATE = "too late"


def refusal_for_action(action: Action, player: int, reason: str, now: State,
                       before: State | None, last_slap: tuple[int, int] | None = None
                       ) -> tuple[Action, str, bool]:
    """(action, reason, too_late) for an action the engine refused with `reason`.

    `last_slap` is (player, pile) of the slap that settled the last round.
    """
    if reason.startswith(TOO_LATE):
        # The engine's own race (the slap) already says who was first.
        return action, reason, True
    if before is not None and action in before.legal_actions(player):
        if isinstance(action, Slap) and last_slap is not None and last_slap[0] != player:
            # The next round may already be on, so the engine no longer says it.
            slapped = last_slap[1]
            return action, (f"{TOO_LATE}: your opponent slapped {PILE_NAMES[slapped]} first; "
                             f"you take {PILE_NAMES[1 - slapped]}"), True
        return action, _too_late_reason(action, reason, now, before), True
    return action, reason, False


def refusal_for_resolver(resolver: Resolver, player: int, error: VoiceSpitError, now: State,
                         before: State | None) -> tuple[Action | None, str, bool]:
    """(action, reason, too_late) for a command that found no single move on the table now.

    If the same command finds a legal move on the table the player knew, the
    other player beat them to it. A command that fits several moves now was not
    late: its message (the choices) stands, whatever the table the player knew.
    """
    message = str(error)
    if before is not None and not isinstance(error, ChoiceNeededError):
        try:
            guess = resolver(before)
        except VoiceSpitError:
            guess = None
        if guess is not None and guess in before.legal_actions(player):
            return guess, _too_late_reason(guess, message, now, before), True
    return None, message, False


def is_beaten_to_a_pile(refusal: IntentRefused) -> bool:
    """Whether a refused card lost the race for its pile (not, say, to the round's end)."""
    action = refusal.action
    return refusal.too_late and isinstance(action, Play | PlayCard) \
        and refusal.reason.startswith(_beaten_prefix(action.pile))


def _beaten_prefix(pile: int) -> str:
    return f"{TOO_LATE}: {PILE_NAMES[pile]} is now "


def _too_late_reason(action: Action, reason: str, now: State, before: State) -> str:
    phase = now.phase
    if isinstance(action, Play | PlayCard):
        top = now.pile_top(action.pile)
        # Beaten to the pile: say its new top, even when that card also ended play.
        if top is not None and (phase is Phase.PLAY or top is not before.pile_top(action.pile)):
            return _beaten_prefix(action.pile) + with_article(top.rank)
    if phase is Phase.READY:
        return f"{TOO_LATE}: that round is over"  # not the engine's "say ready first"
    # Not the engine's instruction as well ("...: slap the smaller pile", "...: it is
    # time to spit"): "Slap now!" or the countdown is announced next anyway.
    if phase is Phase.ROUND_OVER:
        return f"{TOO_LATE}: the round is over"
    if phase is Phase.STALEMATE:
        return f"{TOO_LATE}: nobody can play"
    if phase is Phase.GAME_OVER:
        return f"{TOO_LATE}: the game is over"
    return f"{TOO_LATE}: {reason}"
