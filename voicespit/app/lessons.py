"""What the tutorial says: each lesson in short sentences, told from the table in front of you.

Pure: functions of the state (and of what happened) to sentences, and to the
command the next step asks for. `voicespit.app.tutorial` decides when to say
them. Every phrase a player is asked to say comes from the grammar.
"""

from __future__ import annotations

from voicespit.engine import actions as act
from voicespit.engine.actions import PILE_NAMES, Action
from voicespit.engine.cards import RANK_COUNT, RANK_NAMES, with_article
from voicespit.engine.spit import SpitState
from voicespit.engine.state import Phase
from voicespit.match.events import IntentRefused
from voicespit.match.intents import State
from voicespit.narration.answers import as_said
from voicespit.speech.language.commands import Command, Verb
from voicespit.speech.language.grammar import STUCK_WORDS, sample_phrases
from voicespit.speech.language.help import said
from voicespit.speech.language.parser import command_in

PLAYER = 0

INTRODUCTION = ["Tutorial: one round of Spit against a patient opponent.",
                "At each step I tell you what to say; say it when I stop.",
                f"To leave, say {said(Command(Verb.QUIT))}.",
                f"To hear a step again, say {said(Command(Verb.HELP))}."]
START = ["Those are your face-up cards, stockpile one first.",
         "In the middle go two piles, left and right.",
         "To start, you both turn a spit card onto them."]
RULE = ["A card goes on a pile when it is one above or one below the top card.",
        "An ace sits next to both the king and the two."]
TURNED_UP = "The card under it turned face up by itself."
FILLED = "A stockpile was empty, so a card from your tallest one moved into it."
HINT_OFFER = f"For a hint, say {said(Command(Verb.HINT))}."
"""The hint is asked for with the words that ask for it in a real game too."""
ALONE = ["Now find your cards yourself.",
         f"Say {said(Command(Verb.MY_CARDS))} and {said(Command(Verb.PILES))} to hear the table.",
         HINT_OFFER]
WAIT = "None of your cards fits now, so your opponent plays. Listen."
FIRST_STALEMATE = ["Nobody can play: no face-up card fits a pile.",
                   "Then you both turn a new spit card onto the piles.",
                   "In a real game that happens by itself after a countdown; here, you say it."]
SECOND_STALEMATE = ["Nobody can play again.", f"Spit does the same as {said(Command(Verb.FLIP))}."]
SLAP = ["Now you both slap a pile: the first hand on a pile takes it.",
        "Take the smaller pile: it has fewer cards to get rid of."]
CHOOSE = ["In this game nobody slaps: the first one out chooses a pile, and that is you.",
          "Take the smaller pile: it has fewer cards to get rid of."]
"""The end of the round with `slap = false`, when the choice is the player's."""
OPPONENT_CHOOSES = "In this game nobody slaps: your opponent went out first and chooses a pile."
FINISH = ["That was a whole round of Spit.",
          "Each round, you add the pile you took to your cards and deal again.",
          "The first to get rid of every card wins the game.",
          "The tutorial is over.",
          f"Say {said(Command(Verb.NEW_GAME))} to play a real game."]


def table(state: SpitState) -> list[str]:
    """The stockpiles and the spit cards, just dealt."""
    return ["Those are your five stockpiles, numbered one to five from your left.",
            "Stockpile one holds one card and stockpile five holds five.",
            "Only the top card of each is face up.",
            f"Your other {len(state.spit_cards[PLAYER])} cards are your spit cards, face down."]


def round_over(first_out: int | None) -> str:
    if first_out == PLAYER:
        return "You played every card of your stockpiles, so the round is over."
    if first_out is not None:
        return "Your opponent played all their stockpile cards, so the round is over."
    return "Nobody can play and no spit cards are left, so the round is over."


def instruction(command: Command, words: str | None = None) -> str:
    """"Say seven on left.": the sentence that ends a step."""
    return f"Say {words or said(command)}."


def best_play(state: SpitState, plays: list[Action]) -> act.Play:
    """The play to suggest: the one that uncovers a card from the tallest stockpile, then
    the left pile (a hidden card is a card that cannot be played)."""
    chosen = max(plays, key=lambda action: (len(state.stocks[PLAYER][action.stock]),
                                            -action.pile) if isinstance(action, act.Play)
                 else (-1, 0))
    assert isinstance(chosen, act.Play)
    return chosen


def hint(state: SpitState, play: act.Play) -> tuple[str, Command]:
    """Which card fits where, and the command that plays it."""
    card = state.stock_top(PLAYER, play.stock)
    top = state.pile_top(play.pile)
    assert card is not None and top is not None
    return (f"{PILE_NAMES[play.pile].capitalize()} shows {with_article(top.rank)}, and your "
            f"{RANK_NAMES[card.rank]} fits on it."), Command.play(card.rank, play.pile)


def why_refused(refused: IntentRefused, state: State) -> list[str]:
    """The rule behind a refusal, told with the table as it is."""
    if state.phase is Phase.READY:
        return ["Cards go on the piles once the round has started."]
    if state.phase is not Phase.PLAY:
        return []
    # What was asked, not the wording of the reason (which names the move still possible).
    asked = command_in(refused.said)
    verb = asked.verb if asked is not None else None
    if isinstance(refused.action, act.Spit) or verb is Verb.SPIT:
        return ["Spit is only for when nobody can play."]
    if isinstance(refused.action, act.Slap | act.ChoosePile) or verb is Verb.SLAP:
        taking = "slap" if state.rules.slap else "choose"
        return [f"You {taking} a pile only when the round is over."]
    return [f"{PILE_NAMES[pile].capitalize()} shows {with_article(top.rank)}: "
            f"{with_article((top.rank - 1) % RANK_COUNT)} or "
            f"{with_article((top.rank + 1) % RANK_COUNT)} goes on it."
            for pile in state.piles_in_use if (top := state.pile_top(pile)) is not None]


def pile_sizes(state: State) -> tuple[str, Command]:
    """How big the piles are, and the slap (or choice) that takes the smaller one."""
    sizes = [len(pile) for pile in state.piles]
    if sizes[0] == sizes[1]:
        return (f"Both piles have {sizes[0]} cards, so either will do.",
                Command(Verb.SLAP, pile=0))
    smaller = 0 if sizes[0] < sizes[1] else 1
    return (f"Left has {sizes[0]} cards and right has {sizes[1]}.",
            Command(Verb.SLAP, pile=smaller))


def bigger_pile(pile: int) -> str:
    return f"{PILE_NAMES[pile].capitalize()} is the bigger pile: you would take more cards."


def ways_to_say(command: Command) -> list[str]:
    """Every sentence of the grammar for `command`; "ready" too where it does what spit does.
    Not "stuck" and the like: they are spit only for a player with nothing to play."""
    ways = [as_said(sentence) for sentence, meant in sample_phrases()
            if meant == command and sentence not in STUCK_WORDS]
    if command in (Command(Verb.SPIT), Command(Verb.FLIP)):
        ways.append(said(Command(Verb.READY)))
    return ways


def another_way(way: str) -> list[str]:
    return ["I missed that again.", f"{way.capitalize()} does the same."]


SLOWER = ["I missed that again. Say it a little slower."]
NOTHING_FITS = ["None of your cards fits now. Wait for your opponent to play."]
