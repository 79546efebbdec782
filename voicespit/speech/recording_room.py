"""A recording given the room a microphone hears around a command.

A live microphone hears the room before the player speaks and after they stop; the
endpointer learns its noise floor there and finds the end of the command against it.
A recording trimmed close to the speech (as a voice memo or a sound editor leaves it)
has none of that: the endpointer takes its first frame, speech, for the floor, and
the command is never heard at all, or is cut ("nothing heard" for a clear "two").
So a bare recording is heard with its own background continued around it: stationary
noise with the spectrum and level of its quietest tenth of 16 ms frames, what the same
microphone heard between words.

The real-voice corpus is built the same way (`benchmarks.make_real_corpus`), and
`voicespit recognize` hears the files it is given this way (`transcription.transcribe`).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

Samples = npt.NDArray[np.float64]

LEAD_SECONDS = 0.5
"""The room before the speech, as a microphone hears it before a command."""
TAIL_SECONDS = 1.2
"""The room after it: time for the endpointer to decide."""
ROOM_BELOW_PEAK_DB = 20.0
"""The least the room lies below the voice's loudest 16 ms: some recordings are trimmed
inside the word, so that even their quietest frames are speech."""


def room_around(clip: Samples, rate: int, seed: int, *, lead_seconds: float = LEAD_SECONDS,
                tail_seconds: float = TAIL_SECONDS) -> Samples:
    """`clip` with `lead_seconds` before it and `tail_seconds` after it of its own
    background (seeded: the same padding every time for the same `seed`).

    A clip in digital silence is padded with digital silence; one shorter than a
    16 ms frame has no background to measure and is padded with silence too.
    """
    size = round(0.016 * rate)
    lead, tail = round(lead_seconds * rate), round(tail_seconds * rate)
    if lead + tail == 0:
        return clip
    if len(clip) < size or size < 2:
        return np.concatenate([np.zeros(lead), clip, np.zeros(tail)])
    frames = np.lib.stride_tricks.sliding_window_view(clip, size)[::size // 2]
    power = (frames ** 2).mean(axis=1)
    quietest = frames[np.argsort(power)[:max(2, len(frames) // 10)]]
    spectrum = (np.abs(np.fft.rfft(quietest * np.hanning(size), axis=1)) ** 2).mean(axis=0)
    level = min(float((quietest ** 2).mean()),
                float(power.max()) / 10 ** (ROOM_BELOW_PEAK_DB / 10))
    length = lead + tail
    white = np.fft.rfft(np.random.default_rng(seed).standard_normal(length))
    shape = np.sqrt(np.interp(np.linspace(0, 1, len(white)), np.linspace(0, 1, len(spectrum)),
                              spectrum))
    background = np.fft.irfft(white * shape, n=length)
    background *= np.sqrt(level / (float((background ** 2).mean()) or 1.0))
    return np.concatenate([background[:lead], clip, background[lead:]])
