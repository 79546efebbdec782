"""Golden playthroughs: a seed and the players' choices give exactly this transcript.

Any change in the rules' behaviour shows up as a diff against tests/golden/. After
an intended change, regenerate with `VOICESPIT_UPDATE_GOLDEN=1 pytest tests/test_golden.py`
and review the diff like code.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from voicespit.engine import Rules
from voicespit.simulation.full_speed import play_one

GOLDEN = Path(__file__).parent / "golden"
PLAYTHROUGHS = {
    # name: (game, variants, seed) -- seeds picked once for games of moderate length.
    "spit": ("spit", (), 3),
    "spit-stockpiles-4": ("spit", ("stockpiles=4",), 3),
    "spit-choose-pile": ("spit", ("slap=false",), 3),
    "spit-alternating-colours": ("spit", ("alternating_colours=true",), 3),
    "spit-points": ("spit", ("scoring=points",), 3),
    "spit-manual": ("spit", ("auto_turn_up=false", "auto_fill=false"), 3),
    "speed": ("speed", (), 3),
    "speed-side-piles-5": ("speed", ("side_pile_size=5",), 3),
    "speed-points": ("speed", ("scoring=points",), 3),
}


def transcript(game: str, variants: tuple[str, ...], seed: int) -> str:
    lines = [f"# {game} {' '.join(variants) or '(standard)'} seed {seed}"]
    state, _ = play_one(Rules.for_game(game, variants), seed, 0, transcript=lines)
    lines.append(f"# winner {state.winner} after {state.round} rounds")
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("name", sorted(PLAYTHROUGHS))
def test_playthrough_matches_its_golden_transcript(name: str) -> None:
    path = GOLDEN / f"{name}.txt"
    text = transcript(*PLAYTHROUGHS[name])
    if os.environ.get("VOICESPIT_UPDATE_GOLDEN"):
        path.write_text(text)
    assert path.exists(), f"no golden file {path}; generate with VOICESPIT_UPDATE_GOLDEN=1"
    assert text == path.read_text(), f"{name} changed; diff against {path}"
