"""The referee under load (voicespit/match/referee.py): a smaller dose of benchmarks/stress.py.

An instant opponent on the real clock's thread, thousands of random intents
from another thread: no deadlock, no exception, no event lost or reordered,
all 52 cards accounted for after every match and during the flood.
"""

from benchmarks.stress import run


def test_a_flood_of_intents_against_an_instant_opponent_never_jams_or_loses_a_card() -> None:
    figures = run(actions_wanted=3000, flood_size=3000)
    assert figures["actions_applied"] >= 3000
    assert figures["intents_posted"] >= 3000 * figures["matches"]
    assert figures["events_published"] > figures["actions_applied"]
