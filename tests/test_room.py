"""The narrated match the simulated room plays (benchmarks/room.py): the same match to the
sample on every checkout, or the echo tests and the benchmark would judge different games."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from benchmarks.room import (
    NarrationRenderError,
    _render_without_retries,
    first_without_retries,
    narration_digest,
)
from voicespit.audio.timeline import Timeline


def test_a_render_with_retries_is_passed_over_and_no_render_is_made_after_the_first_clean_one(
) -> None:
    first, second, third = Timeline(22_050), Timeline(22_050), Timeline(22_050)
    made: list[Timeline] = []

    def renders() -> Iterator[tuple[Timeline, int]]:
        for timeline, retries in ((first, 1), (second, 0), (third, 0)):
            made.append(timeline)
            yield timeline, retries

    assert first_without_retries(renders()) is second
    assert made == [first, second]


def test_when_every_render_had_retries_it_says_so_instead_of_using_one() -> None:
    with pytest.raises(NarrationRenderError, match="each of 2 renders"):
        first_without_retries([(Timeline(22_050), 1), (Timeline(22_050), 3)])


@pytest.mark.slow
def test_two_renders_in_fresh_processes_are_the_same_match_to_the_sample() -> None:
    # What the cache and the echo tests rely on: a render is a function of the code alone.
    one, two = _render_without_retries(7), _render_without_retries(7)
    assert one.duration == two.duration
    assert narration_digest(one) == narration_digest(two)
