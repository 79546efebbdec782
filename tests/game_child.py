"""The real game in a child process, optionally with a fault in its speech engine.

    python -m tests.game_child [--tts-fault raise|hang --tts-fault-from N]
                               [--announcement-timeout SECONDS] -- play FLAGS

The game is `voicespit play` exactly as the command line builds it. A speech fault
is put where pyttsx3 itself calls out: the espeak driver that `pyttsx3.init()`
loads is wrapped so that, from its Nth utterance on, synthesis raises (a driver
error) or never returns (a stuck driver). Nothing of VoiceSpit is replaced.

When the game ends, one line goes to stderr: `cards: ` and a JSON object telling
whether every card of the last match is accounted for, so a test can hold each
fault to "the 52 cards are all there", and how often that match gave up waiting
for an announcement to be reported heard (each time, the game stood still for
`--announcement-timeout` seconds: a stall).
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
import threading
from collections.abc import Callable
from typing import Any

from voicespit.app import build
from voicespit.cli import build_parser
from voicespit.cli.play import build_app
from voicespit.engine.invariants import InvariantError, check_cards

CARDS_PREFIX = "cards: "


def install_tts_fault(kind: str, first_failing: int) -> threading.Event:
    """From utterance `first_failing` (1-based) on, the espeak driver raises or hangs.

    Returns the event a hung driver waits for (never set: it stays stuck until exit).
    """
    import pyttsx3.drivers.espeak as espeak

    build_driver: Callable[[Any], Any] = espeak.buildDriver
    utterances = itertools.count(1)
    stuck = threading.Event()

    def faulty_driver(proxy: Any) -> Any:
        driver = build_driver(proxy)
        save_to_file = driver.save_to_file

        def failing_save_to_file(text: str, filename: str) -> None:
            if next(utterances) >= first_failing:
                if kind == "raise":
                    raise RuntimeError("espeak: synthesis failed")
                stuck.wait()
            save_to_file(text, filename)

        driver.save_to_file = failing_save_to_file
        return driver

    espeak.buildDriver = faulty_driver
    return stuck


def cards_report(app: Any) -> dict[str, object]:
    session = app.session
    game = session.game if session is not None else None
    if game is None:
        return {"match": False}
    state = game.match.state
    try:
        check_cards(state)
    except InvariantError as error:
        return {"match": True, "accounted_for": False, "error": str(error)}
    return {"match": True, "accounted_for": True, "cards": len(list(state.all_cards())),
            "phase": state.phase.value, "errors": list(game.match.errors),
            "announcement_timeouts": game.match.announcement_timeouts}


def main(argv: list[str]) -> int:
    ours = argparse.ArgumentParser(prog="tests.game_child")
    ours.add_argument("--tts-fault", choices=("raise", "hang"))
    ours.add_argument("--tts-fault-from", type=int, default=1)
    ours.add_argument("--announcement-timeout", type=float)
    split = argv.index("--") if "--" in argv else len(argv)
    options = ours.parse_args(argv[:split])
    if options.tts_fault is not None:
        install_tts_fault(options.tts_fault, options.tts_fault_from)
    if options.announcement_timeout is not None:
        build.ANNOUNCEMENT_TIMEOUT = options.announcement_timeout
    parser, _ = build_parser()
    args = parser.parse_args(argv[split + 1:])
    app = build_app(args)
    status = app.run()
    print(CARDS_PREFIX + json.dumps(cards_report(app)), file=sys.stderr, flush=True)
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
