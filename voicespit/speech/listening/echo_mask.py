"""While the game is audible, the recognizer hears only what is judged to be the player.

The canceller takes the game's voice down by 30 dB or more, but what is left (its
residual echo) is still the game's words, and a recognizer listening for "seven"
hears "seven" in it: on the room benchmark Whisper took a minute of residual
narration for several commands. So, in the `always` mode, audio recorded while
the game is playing reaches the recognizer only when the talk detector
(`barge_in.TalkDetector`) says the player is speaking; the rest is not heard at
all (the listener resets the recognizer, as when the gate closes), and audio
recorded while nothing plays passes as it is. Nothing stands in for what is
left out: faint noise in its place was itself taken for speech ("yeah") by
Whisper, and moved the recognizers' noise floors.

The detector needs a few frames to decide, and a voice starts quieter than it goes
on (the canceller's suppressor also hides the first 100 to 300 ms of a player's
voice over the game's), so blocks are held back for up to `hold` seconds before
they are judged: when the player's speech is found, the held blocks go through
whole, and the command keeps its beginning. The hold only delays audio while the
game plays and nobody has been heard; from the moment the player is heard, audio
passes at once. While the detector only suspects the player (one loud frame: the game
is hushed, `barge_in.TalkDetector.suspected`), blocks are held up to `suspected_hold`,
so when it is confirmed the command goes through from before the hush.
"""

from __future__ import annotations

import collections
from dataclasses import dataclass

from voicespit.speech.listening.sources import AudioBlock


@dataclass(frozen=True, slots=True)
class Judged:
    block: AudioBlock
    heard: bool
    """False: only the game was audible in it; the recognizer must not hear it."""


@dataclass(frozen=True, slots=True)
class _Held:
    block: AudioBlock
    playing: bool


class EchoMask:
    """Cancelled blocks in, in order; out, the same blocks, each judged heard or not."""

    def __init__(self, hold: float = 0.3, suspected_hold: float = 1.0) -> None:
        self.hold = hold
        self.suspected_hold = suspected_hold
        self._held: collections.deque[_Held] = collections.deque()
        self._held_seconds = 0.0
        self.masked_seconds = 0.0
        """Audio kept from the recognizer so far (for diagnostics and the benchmark)."""

    def push(self, block: AudioBlock, playing: bool, talking: bool,
             suspected: bool = False) -> list[Judged]:
        """`block` recorded while the game was `playing` (or not), the player `talking`
        (or not, or `suspected` of it) as far as the detector now knows; the blocks whose
        turn has come."""
        self._held.append(_Held(block, playing))
        self._held_seconds += block.duration
        if talking:  # everything held may be the start of the player's command
            return self.flush(keep=True)
        ready: list[Judged] = []
        hold = self.suspected_hold if suspected else self.hold
        over = hold + 1e-6  # ten 30 ms blocks are 0.3 s, whatever the rounding
        while self._held and (self._held_seconds > over or not self._held[-1].playing):
            ready.append(self._release(keep=False))
        return ready

    def flush(self, keep: bool = False) -> list[Judged]:
        """Everything held, in order: all heard when `keep`, else judged (the stream ended)."""
        return [self._release(keep) for _ in range(len(self._held))]

    def clear(self) -> None:
        """The stream broke off: what is held belongs to nothing any more."""
        self._held.clear()
        self._held_seconds = 0.0

    def _release(self, keep: bool) -> Judged:
        held = self._held.popleft()
        self._held_seconds -= held.block.duration
        heard = keep or not held.playing
        if not heard:
            self.masked_seconds += held.block.duration
        return Judged(held.block, heard)
