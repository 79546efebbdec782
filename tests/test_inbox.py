"""The intent queue (voicespit/match/inbox.py): any thread puts, one clock thread handles, in order."""

import threading

from voicespit.clock import FakeClock
from voicespit.match.inbox import Inbox


def test_items_from_many_threads_are_handled_one_at_a_time_in_arrival_order() -> None:
    clock = FakeClock()
    handled: list[tuple[int, int]] = []
    handler_threads: set[int] = set()

    def handle(item: tuple[int, int]) -> None:
        handler_threads.add(threading.get_ident())
        handled.append(item)
    inbox: Inbox[tuple[int, int]] = Inbox(clock, handle)

    def producer(name: int) -> None:
        for number in range(500):
            inbox.put((name, number))
    producers = [threading.Thread(target=producer, args=(name,)) for name in range(4)]
    for thread in producers:
        thread.start()
    for thread in producers:
        thread.join()
    assert handled == [], "nothing is handled until the clock runs"
    clock.advance(0)
    assert len(handled) == 2000 and handler_threads == {threading.get_ident()}
    for name in range(4):
        assert [n for who, n in handled if who == name] == list(range(500))


def test_an_item_put_while_handling_is_handled_in_the_same_drain() -> None:
    clock = FakeClock()
    handled: list[str] = []
    inbox: Inbox[str] = Inbox(clock, lambda item: handle(item))

    def handle(item: str) -> None:
        handled.append(item)
        if item == "first":
            inbox.put("follow-up")
    inbox.put("first")
    clock.advance(0)
    assert handled == ["first", "follow-up"] and clock.pending == 0
