"""Properties over thousands of random games and random interleavings of both players.

Players here choose uniformly among *all* their legal actions (not sensibly), and
which player acts next is random, so odd corners of the rules get visited: every
game must keep all 52 cards, accept only legal actions, and end.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from voicespit.engine import Rules, new_game
from voicespit.engine.invariants import check_actions, check_cards

SPIT_VARIANTS = st.fixed_dictionaries({}, optional={
    "stockpiles": st.sampled_from(["4", "5"]),
    "slap": st.sampled_from(["true", "false"]),
    "alternating_colours": st.sampled_from(["true", "false"]),
    "scoring": st.sampled_from(["standard", "points"]),
    "auto_turn_up": st.sampled_from(["true", "false"]),
    "auto_fill": st.sampled_from(["true", "false"]),
})
SPEED_VARIANTS = st.fixed_dictionaries({}, optional={
    "side_pile_size": st.sampled_from(["10", "5"]),
    "alternating_colours": st.sampled_from(["true", "false"]),
    "scoring": st.sampled_from(["standard", "points"]),
    # Most deals score nothing: a low target visits the same rules faster.
    "target_score": st.sampled_from(["1", "2", "3"]),
    "auto_turn_up": st.sampled_from(["true", "false"]),
})
MAX_ACTIONS = 200_000
"""Far above any real game (hundreds to a few thousand actions): reaching it means a loop."""


def play_randomly(rules: Rules, deal_seed: int, turns: random.Random, audit_every: int) -> int:
    state = new_game(rules, random.Random(deal_seed))
    check_cards(state)
    actions = 0
    while not state.is_over:
        player = turns.randrange(2)
        legal = state.legal_actions(player) or state.legal_actions(1 - player)
        if not state.legal_actions(player):
            player = 1 - player
        assert legal, f"nobody can act in {state.phase}"
        state.apply(player, turns.choice(legal))
        actions += 1
        check_cards(state)
        if actions % audit_every == 0:
            check_actions(state, turns, refused_sample=3)
        assert actions < MAX_ACTIONS, "the game did not end"
    assert state.winner in (0, 1, None)
    return actions


@settings(max_examples=1000, deadline=None)
@given(variants=SPIT_VARIANTS, deal_seed=st.integers(0, 2**32), turns=st.randoms(use_true_random=False))
def test_random_spit_games_keep_every_card_stay_legal_and_end(
        variants: dict[str, str], deal_seed: int, turns: random.Random) -> None:
    play_randomly(Rules.for_game("spit", variants), deal_seed, turns, audit_every=97)


@settings(max_examples=1000, deadline=None)
@given(variants=SPEED_VARIANTS, deal_seed=st.integers(0, 2**32), turns=st.randoms(use_true_random=False))
def test_random_speed_games_keep_every_card_stay_legal_and_end(
        variants: dict[str, str], deal_seed: int, turns: random.Random) -> None:
    play_randomly(Rules.for_game("speed", variants), deal_seed, turns, audit_every=31)


@settings(max_examples=20, deadline=None)
@given(game=st.sampled_from(["spit", "speed"]), deal_seed=st.integers(0, 2**32),
       turns=st.randoms(use_true_random=False))
def test_every_listed_action_is_accepted_and_unlisted_ones_refused_at_every_step(
        game: str, deal_seed: int, turns: random.Random) -> None:
    play_randomly(Rules.for_game(game), deal_seed, turns, audit_every=1)


def test_the_same_seed_and_choices_give_the_same_game() -> None:
    def transcript(seed: int) -> list[str]:
        state = new_game(Rules.for_game("spit"), random.Random(seed))
        turns = random.Random(seed)
        lines: list[str] = []
        while not state.is_over:
            player = turns.randrange(2)
            legal = state.legal_actions(player)
            if legal:
                lines.extend(str(event) for event in state.apply(player, turns.choice(legal)))
        return lines

    assert transcript(11) == transcript(11)
    assert transcript(11) != transcript(12)
