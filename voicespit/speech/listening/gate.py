"""When the game listens: it must never take its own voice for a command.

Four modes:

- **always** (loudspeakers with an echo canceller, when asked for): always
  listening; the canceller has taken the game's voice out of the audio before it
  reaches the gate, so the player can talk over the game and interrupt it.
- **echo_guard** (loudspeakers, the default): audio recorded while the game is
  speaking, or within `tail_ms` after it stops (room echo, the speaker's own output
  latency), is not heard. With a canceller the listener still hears the player
  there, only to answer "say it again" (`Listener.watch_under_guard`): it asks the
  gate what to act on, not what to feed the recognizer.
- **headphones**: always listening. The game's voice cannot reach the microphone,
  and the player can answer while the game is still talking.
- **push_to_talk** (noisy rooms): a terminal reports key presses but never key
  releases, so "hold to talk" cannot work there. Instead one press of the talk
  key opens the microphone for one command: it closes by itself when that command
  has been recognised, after `talk_window` seconds, or at a second press (to
  cancel). The echo guard still applies, so pressing the key while the game is
  talking listens once it has finished.

The gate learns that the game is speaking from `speaking_started(time)` /
`speaking_finished(time)` (the Speaker reports them; clock times). Calls are
levels, not a count: a second "started" while already speaking changes nothing,
so a mismatched pair cannot leave the game deaf for ever.

What happens to an utterance the gate cuts (the player spoke over the game) is
the listener's business: it drops the utterance whole, and says so.
"""

from __future__ import annotations

import math
import threading
from typing import Literal, cast, get_args

from voicespit.errors import VoiceSpitError

GateMode = Literal["always", "echo_guard", "headphones", "push_to_talk"]
GATE_MODES: tuple[str, ...] = get_args(GateMode)

_HISTORY_SECONDS = 60.0
"""Intervals older than this are forgotten: nobody asks about audio that old."""


class GateModeError(VoiceSpitError):
    pass


class ListeningGate:
    """Decides, for audio recorded between two clock times, whether the game hears it."""

    def __init__(self, mode: str = "echo_guard", *, tail_ms: float = 300.0,
                 talk_window: float = 5.0) -> None:
        self._lock = threading.Lock()
        self._mode: GateMode = _checked_mode(mode)
        self.tail = tail_ms / 1000.0
        """Seconds after the game stops speaking that are still not heard."""
        self.talk_window = talk_window
        """Seconds a press of the talk key keeps the microphone open at most."""
        self._speaking: list[list[float]] = []
        """[start, end] of each time the game spoke; end is inf while speaking."""
        self._talk: list[list[float]] = []
        """[opened, closed] of each push-to-talk window (talk_window long at most)."""

    @property
    def mode(self) -> GateMode:
        return self._mode

    @mode.setter
    def mode(self, mode: str) -> None:
        with self._lock:
            self._mode = _checked_mode(mode)

    # What the game reports -------------------------------------------------------

    def speaking_started(self, time: float) -> None:
        with self._lock:
            if not self._speaking or self._speaking[-1][1] != math.inf:
                self._speaking.append([time, math.inf])
            self._forget_before(time - _HISTORY_SECONDS)

    def speaking_finished(self, time: float) -> None:
        with self._lock:
            if self._speaking and self._speaking[-1][1] == math.inf:
                self._speaking[-1][1] = max(time, self._speaking[-1][0])

    def talk_key_pressed(self, time: float) -> None:
        """Open the microphone for one command, or close it if it is open."""
        with self._lock:
            if self._talk and self._talk[-1][0] <= time < self._talk[-1][1]:
                self._talk[-1][1] = time
            else:
                self._talk.append([time, time + self.talk_window])
            self._forget_before(time - _HISTORY_SECONDS)

    def utterance_finished(self, time: float) -> None:
        """A command was recognised: a push-to-talk window closes (one press, one command)."""
        with self._lock:
            if self._talk and self._talk[-1][0] <= time < self._talk[-1][1]:
                self._talk[-1][1] = time

    # What the listener asks ------------------------------------------------------

    def admits(self, start: float, end: float) -> bool:
        """Whether audio recorded from clock time `start` to `end` may be heard."""
        with self._lock:
            if self._mode in ("always", "headphones"):
                return True
            if any(start < stop + self.tail and end > begin for begin, stop in self._speaking):
                return False
            if self._mode == "push_to_talk":
                return any(end > opened and start < closed for opened, closed in self._talk)
            return True

    def is_listening(self, time: float) -> bool:
        """Whether a sound made at `time` would be heard (for a "listening" cue)."""
        return self.admits(time, time)

    def is_game_speaking(self, time: float) -> bool:
        with self._lock:
            return any(begin <= time < stop for begin, stop in self._speaking)

    def _forget_before(self, time: float) -> None:
        self._speaking = [span for span in self._speaking if span[1] + self.tail >= time]
        self._talk = [span for span in self._talk if span[1] >= time]


def _checked_mode(mode: str) -> GateMode:
    if mode in GATE_MODES:
        return cast(GateMode, mode)
    raise GateModeError(f"unknown listening mode {mode!r}; choose one of {', '.join(GATE_MODES)}")
