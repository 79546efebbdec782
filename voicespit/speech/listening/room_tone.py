"""Room tone: keep the cancelled audio's background as loud as the room's own.

While the game plays, the canceller's suppressor hushes everything it cannot
separate from the echo, the room's noise included: on the room benchmark the
background came out 4 to 5 dB quieter while the game played than while it was
silent. The recognizers' endpointer follows a quiet background down at once, so
after hearing the player start over the game it took the room's ordinary noise,
once the game had stopped, for more speech: the command never ended (lost), or
five seconds of noise became "yeah".

`RoomTone` keeps the last `seconds` of what the room sounded like while nothing
played and nobody spoke, and tops every 10 ms frame that is quieter than that
background up to its level with that same recorded noise (a comfort noise, as
telephone cancellers add). Frames already at the room's level or above (the
player's voice) are left as they are.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from voicespit.speech.signal import FRAME

Int16 = npt.NDArray[np.int16]


class RoomTone:
    def __init__(self, seconds: float = 2.0, rate: int = 16_000) -> None:
        self._tone = np.zeros(0)
        self._keep = round(seconds * rate) // FRAME * FRAME
        self._power = 0.0
        """The room's background: median power of a 10 ms frame of `_tone`."""
        self._cursor = 0

    @property
    def level_db(self) -> float | None:
        """The room's background in dB full scale, once some has been heard."""
        if self._power <= 0:
            return None
        return float(10 * np.log10(self._power / 32768.0**2))

    def learn(self, samples: Int16) -> None:
        """`samples` (whole 10 ms frames) are the room alone: no game, no player."""
        self._tone = np.concatenate([self._tone, samples.astype(np.float64)])[-self._keep:]
        if len(self._tone) >= FRAME:
            usable = len(self._tone) // FRAME * FRAME
            frames = self._tone[-usable:].reshape(-1, FRAME)
            self._power = float(np.median(np.mean(frames * frames, axis=1)))

    def fill(self, samples: Int16) -> Int16:
        """`samples` with each frame quieter than the room topped up to the room's level."""
        if self._power <= 0 or not len(samples):
            return samples
        usable = len(samples) // FRAME * FRAME
        frames = samples[:usable].astype(np.float64).reshape(-1, FRAME)
        power = np.mean(frames * frames, axis=1)
        missing = np.maximum(0.0, self._power - power)
        if not missing.any():
            return samples
        noise = self._next_noise(usable).reshape(-1, FRAME)
        noise_power = np.maximum(np.mean(noise * noise, axis=1), 1e-9)
        topped = frames + noise * np.sqrt(missing / noise_power)[:, None]
        out = samples.copy()
        out[:usable] = np.clip(np.rint(topped.reshape(-1)), -32768, 32767).astype(np.int16)
        return out

    def _next_noise(self, count: int) -> npt.NDArray[np.float64]:
        """The recorded room, looped, from where the last call stopped."""
        positions = (self._cursor + np.arange(count)) % len(self._tone)
        self._cursor = int(positions[-1] + 1) % len(self._tone)
        chunk: npt.NDArray[np.float64] = self._tone[positions]
        return chunk
