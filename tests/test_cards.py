"""Cards, ranks and the corner turn (RULES.md: Players and deck)."""

import pickle

import pytest

from voicespit.engine.cards import DECK, Card, parse_rank, ranks_adjacent, with_article


def test_a_deck_has_52_distinct_cards_of_13_ranks_and_4_suits() -> None:
    assert len({(card.rank, card.suit) for card in DECK}) == 52
    assert {card.rank for card in DECK} == set(range(13))


def test_ranks_one_apart_are_adjacent_and_the_ace_turns_the_corner() -> None:
    ace, two, king, queen, seven, eight = 0, 1, 12, 11, 6, 7
    assert ranks_adjacent(seven, eight) and ranks_adjacent(eight, seven)
    assert ranks_adjacent(ace, king) and ranks_adjacent(ace, two)
    assert ranks_adjacent(king, queen)
    assert not ranks_adjacent(king, two)
    assert not ranks_adjacent(seven, seven)
    assert not ranks_adjacent(seven, 8)


def test_card_names_parse_back_and_repr_is_pasteable() -> None:
    card = Card.parse("seven of hearts")
    assert card.name == "seven of hearts" and card.is_red and card.colour == "red"
    assert eval(repr(card)) is card
    assert Card.parse("king of spades").colour == "black"
    with pytest.raises(ValueError, match="not a card name"):
        Card.parse("seven of cups")


def test_cards_stay_singletons_through_pickle() -> None:
    assert pickle.loads(pickle.dumps(DECK[17])) is DECK[17]


def test_ranks_are_spoken_with_the_right_article() -> None:
    assert with_article(parse_rank("eight")) == "an eight"
    assert with_article(parse_rank("ace")) == "an ace"
    assert with_article(parse_rank("sevens")) == "a seven"
