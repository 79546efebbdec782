"""The speech queue: newest news first, nothing stale, urgent things cut in."""

from __future__ import annotations

from voicespit.audio.speech_queue import AnnouncementQueue, interrupts
from voicespit.narration.announcement import Announcement, Priority


def said(text: str, topic: str, priority: Priority = Priority.NORMAL, *,
         lifetime: float | None = None, flush: bool = False) -> Announcement:
    return Announcement(text, topic, priority, lifetime=lifetime, flush=flush)


def drain(queue: AnnouncementQueue, now: float = 0.0) -> list[str]:
    texts: list[str] = []
    while True:
        announcement, _ = queue.pop(now)
        if announcement is None:
            return texts
        texts.append(announcement.text)


def test_a_burst_of_changes_to_one_pile_leaves_only_the_newest() -> None:
    queue = AnnouncementQueue()
    dropped = []
    for rank in ("two", "three", "four", "nine"):
        dropped += queue.push(said(f"Left: {rank}.", "pile:left"), 0.0)
    assert [a.text for a in dropped] == ["Left: two.", "Left: three.", "Left: four."]
    assert drain(queue) == ["Left: nine."]


def test_different_topics_keep_their_order() -> None:
    queue = AnnouncementQueue()
    for announcement in (said("Left: two.", "pile:left"), said("Stock one shows a king.", "stock:0"),
                         said("Right: five.", "pile:right")):
        queue.push(announcement, 0.0)
    assert drain(queue) == ["Left: two.", "Stock one shows a king.", "Right: five."]


def test_higher_priority_goes_first() -> None:
    queue = AnnouncementQueue()
    queue.push(said("Left: two.", "pile:left"), 0.0)
    queue.push(said("Piles...", "answer", Priority.HIGH), 0.0)
    queue.push(said("Opponent ready.", "ready", Priority.LOW), 0.0)
    queue.push(said("Too late.", "refusal", Priority.URGENT), 0.0)
    assert drain(queue) == ["Too late.", "Piles...", "Left: two.", "Opponent ready."]


def test_a_flush_drops_everything_less_important_still_waiting() -> None:
    queue = AnnouncementQueue()
    queue.push(said("Left: two.", "pile:left"), 0.0)
    queue.push(said("Score.", "score", Priority.HIGH), 0.0)
    queue.push(said("Opponent ready.", "ready", Priority.LOW), 0.0)
    dropped = queue.push(said("Round over.", "round", Priority.URGENT, flush=True), 0.0)
    assert sorted(a.text for a in dropped) == ["Left: two.", "Opponent ready.", "Score."]
    assert drain(queue) == ["Round over."]


def test_an_announcement_that_waited_past_its_lifetime_is_dropped() -> None:
    queue = AnnouncementQueue()
    queue.push(said("Opponent shows jack.", "opponent", Priority.LOW, lifetime=2.0), 0.0)
    queue.push(said("Left: two.", "pile:left"), 0.0)
    first, expired = queue.pop(1.0)
    assert first is not None and first.text == "Left: two." and expired == []
    nothing, expired = queue.pop(2.5)
    assert nothing is None and [a.text for a in expired] == ["Opponent shows jack."]


def test_requeue_puts_back_unheard_words_unless_news_replaced_them() -> None:
    queue = AnnouncementQueue()
    cut = said("Left: two.", "pile:left")
    assert queue.requeue(cut, 0.0)
    assert drain(queue) == ["Left: two."]
    queue.push(said("Left: three.", "pile:left"), 0.0)
    assert not queue.requeue(cut, 0.0)
    assert drain(queue) == ["Left: three."]


def test_clear_forgets_everything() -> None:
    queue = AnnouncementQueue()
    queue.push(said("Left: two.", "pile:left"), 0.0)
    queue.push(said("Right: two.", "pile:right"), 0.0)
    assert len(queue.clear()) == 2 and len(queue) == 0


def test_newer_words_on_the_same_topic_interrupt_and_urgent_ones_interrupt_the_rest() -> None:
    left = said("Left: two.", "pile:left")
    assert interrupts(left, said("Left: three.", "pile:left"))
    assert not interrupts(left, said("Right: three.", "pile:right"))
    assert not interrupts(left, said("Piles.", "answer", Priority.HIGH))
    assert interrupts(left, said("Slap now!", "slap", Priority.URGENT))
    slap = said("Slap now!", "slap", Priority.URGENT)
    assert not interrupts(slap, said("Too late.", "refusal", Priority.URGENT))
    assert interrupts(slap, said("Slap!", "slap", Priority.URGENT))
