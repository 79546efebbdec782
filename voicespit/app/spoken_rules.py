"""The rules of the game being played, told in short sentences ("how do I play").

A sighted newcomer learns Spit by watching a hand or two; a blind one asks. The
help names the commands and the tutorial walks through one round, but neither says
what the game is: what a round is for, when it ends, how it is won. These sentences
do, for the rules in force (RULES.md, with this game's variants: four stockpiles,
choosing instead of slapping, alternating colours, points, smaller side piles) and
for what the game does by itself (turning up, filling a slot, the spit countdown),
so that what the player hears is what will happen. The moves are told with the
words that make them, from the grammar.

Pure: functions of the rules to sentences, read out a page at a time by `HelpPages`.
"""

from __future__ import annotations

from voicespit.engine.cards import DECK
from voicespit.engine.rules import Rules
from voicespit.engine.speed import HAND_SIZE
from voicespit.speech.language.commands import Command, Verb
from voicespit.speech.language.help import said

_NUMBERS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine",
            "ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen",
            "seventeen", "eighteen", "nineteen", "twenty")
HALF_DECK = len(DECK) // 2
SPEED_MIDDLE_CARDS = 2
"""Speed's two face-down cards in the middle, which start the piles."""
RULES_ENDING = f"That is all of the rules. Say {said(Command(Verb.RULES))} to hear them again."


def rules_in_words(rules: Rules, *, auto_spit: bool = True, countdown_from: int = 3) -> list[str]:
    """The rules of `rules.game` with its variants, one idea a sentence, in play order.
    `auto_spit`: whether the game turns up new cards by itself when nobody can play, after
    counting down from `countdown_from` (the match's settings)."""
    if rules.game == "speed":
        return _speed(rules, _stuck(auto_spit, countdown_from,
                                    "each of you turns a side pile card onto a pile"))
    return _spit(rules, _stuck(auto_spit, countdown_from,
                               "each of you turns a spit card onto a pile"))


def _spit(rules: Rules, stuck: str) -> list[str]:
    stockpiles = rules.stockpiles
    laid_out = stockpiles * (stockpiles + 1) // 2
    play = said(Command.play(6, 0))
    sentences = [
        "Spit is a race: you and your opponent play at the same time, as fast as you can.",
        f"Each of you has {_number(stockpiles)} stockpiles of one to {_number(stockpiles)} "
        "cards, the top card of each face up.",
        f"The other {_number(HALF_DECK - laid_out)} of your {_number(HALF_DECK)} cards are "
        "your spit cards, face down.",
        "In the middle are two piles, left and right, each started with a spit card.",
        _start(),
        *_fitting(rules),
        f"Play a card by saying it and the pile, like {play}.",
        _after_a_play(rules),
        stuck,
        "A round ends when someone has played all their stockpiles, or when nobody can "
        "play and the spit cards have run out.",
    ]
    if rules.slap:
        sentences += [
            f"Then slap the smaller pile: say {said(Command(Verb.SLAP, pile=0))} or "
            f"{said(Command(Verb.SLAP, pile=1))}.",
            "If you both slap the same pile, the first to slap takes it, and the other "
            "player takes the other pile.",
        ]
    else:
        sentences += [
            "Then whoever went out first chooses a pile to take, and the other player takes "
            "the other pile.",
            f"When the choice is yours, say {said(Command(Verb.SLAP, pile=0))} or "
            f"{said(Command(Verb.SLAP, pile=1))}.",
        ]
    sentences += [
        "Each of you shuffles the pile you took with the cards you have left, and deals "
        "a new layout.",
        f"With fewer than {_number(laid_out)} cards you have no spit cards, and only one pile "
        "in the middle is used.",
    ]
    if rules.scoring == "points":
        sentences += [
            "At the end of each round, every card you still have is a point against you.",
            f"When someone reaches {_number(rules.target_score)} points, the lowest score wins.",
        ]
    else:
        sentences.append("The first to get rid of every card, spit cards and stockpiles, "
                         "wins.")
    return sentences


def _speed(rules: Rules, stuck: str) -> list[str]:
    side = rules.side_pile_size
    draw_pile = (len(DECK) - 2 * side - SPEED_MIDDLE_CARDS) // 2 - HAND_SIZE
    sentences = [
        "Speed is a race: you and your opponent play at the same time, as fast as you can.",
        f"Each of you holds a hand of {_number(HAND_SIZE)} cards, with "
        f"{_number(draw_pile)} more in your draw pile.",
        f"In the middle are two piles, left and right; at the ends, two side piles of "
        f"{_number(side)} cards face down.",
        _start(),
        *_fitting(rules),
        f"Play a card from your hand by saying it and the pile, like "
        f"{said(Command.play(6, 0))}.",
        "After each play you draw back up to five by yourself, while your draw pile lasts."
        if rules.auto_turn_up else
        f"After each play, say {said(Command(Verb.DRAW))} to take a card from your draw "
        "pile; you never hold more than five.",
        stuck,
        "When the side piles run out, the middle piles are shuffled into new side piles.",
    ]
    if rules.scoring == "points":
        sentences += [
            "The first to play every card, hand and draw pile, wins the deal.",
            "The winner scores a point for each card left in the other player's draw pile.",
            f"The first to {_number(rules.target_score)} points wins the match.",
        ]
    else:
        sentences.append("The first to play every card, hand and draw pile, wins.")
    return sentences


def _start() -> str:
    return f"Each round starts when you say {said(Command(Verb.READY))}."


def _fitting(rules: Rules) -> list[str]:
    sentences = ["A card goes on a pile when it is one above or one below the top card.",
                 "An ace sits next to both the king and the two."]
    if rules.alternating_colours:
        sentences.append("It must also be the other colour from the top card: red on "
                         "black, black on red.")
    return sentences


def _after_a_play(rules: Rules) -> str:
    if rules.auto_turn_up and rules.auto_fill:
        return ("After a play, the card under it turns face up by itself, and an empty "
                "stockpile is filled from your others.")
    if rules.auto_turn_up:
        return ("After a play, the card under it turns face up by itself; to fill an empty "
                f"stockpile, say {said(Command(Verb.MOVE, stock=2, target=1))}.")
    return ("After a play, to turn up the card under it, say "
            f"{said(Command(Verb.FLIP, stock=2))}; an empty stockpile is filled from your others."
            if rules.auto_fill else
            f"After a play, to turn up the card under it, say "
            f"{said(Command(Verb.FLIP, stock=2))}, and to "
            f"fill an empty stockpile, say {said(Command(Verb.MOVE, stock=2, target=1))}.")


def _stuck(auto_spit: bool, countdown_from: int, what_happens: str) -> str:
    """What happens when nobody can play (`what_happens`), and what starts it."""
    if not auto_spit:
        return f"When nobody can play, say {said(Command(Verb.SPIT))}, and {what_happens}."
    if countdown_from > 0:
        return (f"When nobody can play, I count down from {_number(countdown_from)}, "
                f"and {what_happens}.")
    return f"When nobody can play, {what_happens} at once."


def _number(count: int) -> str:
    return _NUMBERS[count] if 0 <= count < len(_NUMBERS) else str(count)
