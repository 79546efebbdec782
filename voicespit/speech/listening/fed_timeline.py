"""Where the recognizer's times fall on the audio source's timeline.

The listener feeds the recognizer only the audio it admits (the gate, the echo
mask), so the recognizer's clock runs only while it is fed. Each time feeding
starts again, the listener notes both times; a result's times are then mapped back
through the last note before them.
"""

from __future__ import annotations

import bisect
import dataclasses

from voicespit.speech.recognizer import Recognition


class FedTimeline:
    """Maps the recognizer's timeline (only admitted audio) back onto the source's."""

    def __init__(self) -> None:
        self._recognizer_starts: list[float] = []
        self._source_starts: list[float] = []

    def add(self, recognizer_time: float, source_time: float) -> None:
        self._recognizer_starts.append(recognizer_time)
        self._source_starts.append(source_time)
        if len(self._recognizer_starts) > 1000:  # results only ever look a few segments back
            del self._recognizer_starts[:500], self._source_starts[:500]

    def source_time(self, recognizer_time: float) -> float:
        if not self._recognizer_starts:
            return recognizer_time
        index = max(0, bisect.bisect_right(self._recognizer_starts, recognizer_time + 1e-9) - 1)
        return self._source_starts[index] + recognizer_time - self._recognizer_starts[index]

    def to_source(self, result: Recognition) -> Recognition:
        def convert(time: float | None) -> float | None:
            return None if time is None else self.source_time(time)

        return dataclasses.replace(result, speech_start=convert(result.speech_start),
                                   speech_end=convert(result.speech_end),
                                   emitted_at=self.source_time(result.emitted_at))
