"""The game turned down, or headphones put on, after `auto` fell back: does it listen over it again?

    python -m benchmarks.echo_recover [--split report] [--at 150] [--with-commands]
                                      [--room RT60,DELAY_MS,ECHO_DB] [--workers 2]

When the room watch hands a lively room to the watched guard, the game tells the player
to turn it down or use headphones to talk over it (`app.listening.FELL_BACK`). Here the
player does: in each room, the whole narrated match plays as in `benchmarks.echo` (the
real mixer, cancellers, talk detector, listener and Whisper, on a fake clock), and at
`--at` seconds the loudspeakers' echo drops by 10 or 20 dB, or stops (headphones), or
nothing changes. For each: when `auto` fell back, when it listened over the game again
(`room_watch.RoomWatch.calmer`), and whether the room then made it fall back again; over
the narration alone (the default), the hushes, stops and questions for nobody after it
listened again; with `--with-commands`, the report split's commands said over the game,
the commands acted on after `--at`, right and wrong (a command heard as another, or one
nobody said).
"""

from __future__ import annotations

import argparse
import math
import os

from benchmarks.echo import Job, Outcome, asked_nobody, commands_for, run_all
from benchmarks.room import RoomCondition, narrated_match

LIVELY = ("0.8,80,10", "0.8,80,5", "0.8,80,0")
"""The rooms `auto` fell back in over the narration alone (report and tuning splits)."""
CHANGES = (0.0, -10.0, -20.0, -math.inf)
"""dB: nothing, the loudspeakers turned down by 10 and by 20 dB, headphones on."""


def change_name(change: float) -> str:
    if change == 0:
        return "nothing changes"
    if math.isinf(change):
        return "headphones on"
    return f"turned down {-change:g} dB"


def after(times: list[float], at: float) -> list[float]:
    return [time for time in times if time >= at]


def row(outcome: Outcome, change: float, at: float) -> str:
    fell = ", ".join(f"{t:.0f}" for t in outcome.fell_back_times) or "never"
    again = ", ".join(f"{t:.0f}" for t in outcome.listening_again_at) or "never"
    cells = [outcome.condition, change_name(change), fell, again]
    if outcome.with_commands:
        heard = [h["verdict"] for h in outcome.heard if h["start"] >= at]
        cells += [str(heard.count("correct")), str(heard.count("wrong") + heard.count("false"))]
    else:
        cells += [str(len(after(outcome.hushed_at, at))), str(len(after(outcome.stopped_at, at))),
                  str(asked_nobody(outcome))]
    return "| " + " | ".join(cells) + " |"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--split", choices=("report", "tuning"), default="report")
    parser.add_argument("--at", type=float, default=150.0,
                        help="seconds into the match the player turns the game down")
    parser.add_argument("--room", action="append", metavar="RT60,DELAY_MS,ECHO_DB")
    parser.add_argument("--with-commands", action="store_true",
                        help="the split's commands said over the game, not the narration alone")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.1f} at start; split {args.split}; the echo "
          f"changes {args.at:g} s into the match")
    narrated_match(7)  # rendered (or read) once, before any job asks for it
    commands = commands_for(args.split) if args.with_commands else []
    rooms = [RoomCondition(*map(float, room.split(","))) for room in args.room or LIVELY]
    jobs = [Job(room, "auto", args.with_commands, args.split, "auto", "webrtc+speex", None,
                commands, turned=(args.at, change) if change else None)
            for room in rooms for change in CHANGES]
    outcomes = run_all(jobs, args.workers)
    tail = ("right after | wrong after" if args.with_commands
            else "hushed after | stopped after | asked nobody (whole match)")
    print(f"\n| room | at {args.at:g} s | fell back (s) | listened over the game again (s) "
          f"| {tail} |")
    print("|---|---|---|---|" + "---:|" * len(tail.split("|")))
    for job, outcome in zip(jobs, outcomes, strict=True):
        change = job.turned[1] if job.turned is not None else 0.0
        print(row(outcome, change, args.at))
    print(f"load average {os.getloadavg()[0]:.1f} at the end")


if __name__ == "__main__":
    main()
