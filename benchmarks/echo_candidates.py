"""The echo cancellers measured against the game's choice (WebRTC AEC3 via pywebrtc-audio).

    pip install aec-audio-processing speexdsp-aec    # and Debian's libspeexdsp1 for speex

Each adapter has the game's `EchoCanceller` shape: 16 kHz mono int16 frames in, out.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from voicespit.speech.listening.echo import CancellerError, WebRtcCanceller
from voicespit.speech.listening.linear_echo import TAIL_MS, SpeexCanceller
from voicespit.speech.recognizer import SAMPLE_RATE

Int16 = npt.NDArray[np.int16]


def speex(tail_ms: int = TAIL_MS) -> SpeexCanceller:
    """The game's own linear canceller (`linear_echo.SpeexCanceller`) with a filter of
    `tail_ms`, or CancellerError when speexdsp cannot run here."""
    try:
        return SpeexCanceller(tail_ms)
    except ImportError:
        raise CancellerError("speexdsp-aec is not installed") from None
    except (OSError, RuntimeError) as error:  # libspeexdsp1 missing
        raise CancellerError(str(error)) from None


class ApmCanceller:
    """aec-audio-processing: another binding of WebRTC's audio processing module."""

    name = "aec-audio-processing"
    latency = 0.014
    channels = 1

    def __init__(self) -> None:
        try:
            from aec_audio_processing import AudioProcessor
        except ImportError:
            raise CancellerError("aec-audio-processing is not installed") from None
        self._processor: Any = AudioProcessor(enable_aec=True, enable_ns=False, enable_agc=False,
                                              enable_vad=False)
        self._processor.set_stream_format(SAMPLE_RATE, 1)
        self._processor.set_reverse_stream_format(SAMPLE_RATE, 1)

    def process(self, near: Int16, far: Int16) -> Int16:
        out = np.empty_like(near)
        for first in range(0, len(near), 160):
            self._processor.process_reverse_stream(far[first:first + 160].tobytes())
            out[first:first + 160] = np.frombuffer(
                self._processor.process_stream(near[first:first + 160].tobytes()), dtype="<i2")
        return out

    def reset(self) -> None:
        self.__init__()  # type: ignore[misc]


def make(kind: str) -> Any:
    if kind == "webrtc-ns":
        return WebRtcCanceller(noise_suppression=True)
    if kind == "speex":
        return speex()
    if kind.startswith("speex:"):  # speex:TAIL_MS, a longer or shorter filter
        return speex(int(kind.split(":", 1)[1]))
    if kind == "apm":
        return ApmCanceller()
    raise CancellerError(f"no candidate canceller {kind!r}: webrtc, webrtc-ns, speex, "
                         "speex:TAIL_MS, apm")
