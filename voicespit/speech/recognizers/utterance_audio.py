"""The audio an endpointing recognizer keeps: frames of the stream, the pre-roll, the utterance.

PocketSphinx's and Whisper's recognizers both cut the stream into frames, keep the
last few quiet frames so that a soft onset (the s of six) is not lost, and gather
the utterance from its trigger on; the audio before the speech is their noise
sample. One home for that bookkeeping (`UtteranceAudio`) and for the protocol
methods built on it (`EndpointingRecognizer`), so that starting a stream afresh
and dropping an utterance mean the same in both.
"""

from __future__ import annotations

import collections
from collections.abc import Iterator

import numpy as np

from voicespit.speech.listening.endpoint import EndpointSettings, FrameEvent, SpeechDetector
from voicespit.speech.recognizer import SAMPLE_RATE, Recognition
from voicespit.speech.signal import FRAME, FrameCutter, Samples, speech_band_energy_db


class UtteranceAudio:
    """Frames counted from the start of the stream, the pre-roll ring and the utterance."""

    def __init__(self, preroll_frames: int, loud_frames: int) -> None:
        """`preroll_frames`: quiet frames kept before a trigger; `loud_frames`: how many
        of those the trigger itself needed, which are speech, not noise."""
        self._cutter = FrameCutter()
        self._ring: collections.deque[Samples] = collections.deque(maxlen=preroll_frames)
        self._loud_frames = loud_frames
        self.frames_fed = 0
        """Frames of this stream so far."""
        self.frames: list[Samples] = []
        """The utterance's frames, pre-roll first (empty: none in progress)."""
        self.start_frame = 0
        """The stream frame the utterance's first frame was."""
        self.noise: Samples = np.zeros(0)
        """The quiet audio before the utterance's trigger."""

    def cut(self, pcm: bytes) -> Iterator[Samples]:
        """The whole frames `pcm` completes, each counted as fed."""
        for frame in self._cutter.frames(pcm):
            self.frames_fed += 1
            yield frame

    def quiet(self, frame: Samples) -> None:
        """A frame with no utterance in progress: kept as pre-roll."""
        self._ring.append(frame)

    def start(self, frame: Samples) -> None:
        """The trigger frame: the utterance begins with the pre-roll."""
        before = list(self._ring)
        noisy = len(before) - self._loud_frames
        self.noise = np.concatenate(before[:noisy]) if noisy > 0 else np.zeros(0)
        self.frames = [*before, frame]
        self.start_frame = self.frames_fed - len(self.frames)
        self._ring.clear()

    def add(self, frame: Samples) -> None:
        self.frames.append(frame)

    def samples(self) -> Samples:
        return np.concatenate(self.frames)

    def drop(self) -> None:
        """Forget the utterance and the pre-roll (decided, or reset)."""
        self.frames = []
        self._ring.clear()

    def restart(self) -> None:
        """A new stream: frame counting starts again, nothing half-cut is kept."""
        self._cutter.clear()
        self.frames_fed = 0
        self.drop()


FRAME_SECONDS = FRAME / SAMPLE_RATE
"""Seconds of one frame of the stream, as both endpointing recognizers count them."""

CLIPPED_LEVEL = 32000.0
"""A sample at least this far from zero (0.2 dB under full scale) is taken as clipped."""


CLIPPED_WINDOW_FRAMES = 50
"""Frames (0.5 s) over which clipping outside any utterance is counted."""
CLIPPED_FRAMES_TO_TELL = 15
"""Frames of that window with a hundredth of their samples clipped, no utterance started,
that make an unusable final of their own (`EndpointingRecognizer._clipped_unheard`). A
voice clipped that hard is at least 150 ms of a word; a clap or a door clips a few frames.
Real voices (FSDD, 72 tuning takes) played 36 dB too loud: 11 started no utterance at
all, the room raised with the voice; with this, none. No file of the speech corpora has more
than 18 clipped samples, and the room benchmark's recognizer input (speexdsp's output)
at most 5 in 240 s."""
CLIPPED_QUIET_FRAMES = 3000
"""After telling of such clipping, frames (30 s) before telling again: it is the
microphone's setting, which one telling names, not each word."""


def clipped_share(frames: list[Samples]) -> float:
    """The share of the samples in `frames` at the converter's limit (0 when none): a
    microphone set too loud flattens the peaks of every word."""
    if not frames:
        return 0.0
    samples = np.concatenate(frames)
    return float(np.mean(np.abs(samples) >= CLIPPED_LEVEL))


class EndpointingRecognizer:
    """What the recognizers that find utterances themselves share: the stream cut into
    frames, the endpointer, and what `finish` and `reset` do to both.

    A subclass says what a frame of an utterance means (`_within_utterance`), how to
    decide the utterance in progress when the stream ends (`_decide_now`), and what
    else it starts afresh or forgets.
    """

    def __init__(self, endpoint: EndpointSettings) -> None:
        self._endpoint = endpoint
        self._detector = SpeechDetector(endpoint)
        self._audio = UtteranceAudio(endpoint.preroll_frames + endpoint.start_frames,
                                     loud_frames=endpoint.start_frames - 1)
        self._above_floor_db = 0.0
        """How far the utterance in progress peaked above the room's floor, in dB."""
        self._clipped_quiet: collections.deque[float] = collections.deque(
            maxlen=CLIPPED_WINDOW_FRAMES)
        """The clipped share of each of the last quiet frames (no utterance started)."""
        self._clipped_told_ago = CLIPPED_QUIET_FRAMES

    def accept_audio(self, pcm: bytes) -> list[Recognition]:
        return [result for frame in self._audio.cut(pcm)
                if (result := self._push_frame(frame)) is not None]

    def finish(self) -> list[Recognition]:
        """End of stream: decide the utterance in progress, then start a fresh stream."""
        results = []
        if self._detector.in_speech and self._audio.frames:
            results.append(self._decide_now())
        self._detector = SpeechDetector(self._endpoint)
        self._clipped_quiet.clear()
        self._clipped_told_ago = CLIPPED_QUIET_FRAMES  # a new stream may be told at once
        self._new_stream()
        self._audio.restart()
        return results

    def reset(self) -> None:
        self._detector.reset()
        self._audio.drop()
        self._clipped_quiet.clear()
        self._forget()

    def _push_frame(self, frame: Samples) -> Recognition | None:
        event = self._detector.push(speech_band_energy_db(frame))
        if event is FrameEvent.QUIET:
            self._audio.quiet(frame)
            held = self._quiet_frame()
            return held if held is not None else self._clipped_unheard(frame)
        if event is FrameEvent.STARTED:
            self._audio.start(frame)
            self._clipped_quiet.clear()  # the window counts only frames no utterance began in
            self._above_floor_db = self._detector.peak_above_floor_db or 0.0
            self._started()
            return None
        if event is FrameEvent.ROOM:
            # The room, taken for a voice: nothing was said, so nothing is answered.
            self._audio.drop()
            self._audio.quiet(frame)
            self._forget()
            return None
        self._audio.add(frame)
        if self._detector.quiet_frames == 0 and event is not FrameEvent.ENDED:
            # Kept here: the detector forgets its peak when it ends the utterance.
            self._above_floor_db = self._detector.peak_above_floor_db or self._above_floor_db
        return self._within_utterance(event)

    def _clipped_unheard(self, frame: Samples) -> Recognition | None:
        """A microphone set far too loud raises the room with the voice, and the voice,
        flattened at full scale, stands too little above it to start an utterance: the
        player would get no answer at all. Clipping that goes on for the length of a word
        with no utterance started is told as an unusable final marked `no_utterance`,
        and the game says how to set the microphone (`app.misses`)."""
        self._clipped_told_ago += 1
        self._clipped_quiet.append(clipped_share([frame]))
        if sum(share >= 0.01 for share in self._clipped_quiet) < CLIPPED_FRAMES_TO_TELL \
                or self._clipped_told_ago < CLIPPED_QUIET_FRAMES:
            return None
        share = sum(self._clipped_quiet) / len(self._clipped_quiet)
        self._clipped_quiet.clear()
        self._clipped_told_ago = 0
        now = self._audio.frames_fed * FRAME_SECONDS
        return Recognition(text="", is_final=True, confidence=None,
                           speech_start=now - CLIPPED_WINDOW_FRAMES * FRAME_SECONDS,
                           speech_end=now, emitted_at=now, rejected=True,
                           scores={"clipped_share": share, "above_floor_db": 0.0,
                                   "no_utterance": 1.0})

    def _voice_level(self) -> dict[str, float]:
        """How the utterance in progress came through (before its audio is dropped): how
        far it stood above the room, and how much of it was clipped. The game's hint
        after missed commands reads them (`app.misses.miss_cause`)."""
        return {"above_floor_db": self._above_floor_db,
                "clipped_share": clipped_share(self._audio.frames)}

    def _started(self) -> None:
        """An utterance began with this frame (already in `_audio`)."""

    def _quiet_frame(self) -> Recognition | None:
        """A frame outside any utterance: a result held until now, or None (the default:
        nothing is held)."""
        return None

    def _within_utterance(self, event: FrameEvent) -> Recognition | None:
        """A frame of the utterance in progress (already in `_audio`): a result, or None."""
        raise NotImplementedError

    def _decide_now(self) -> Recognition:
        """The final result for the utterance in progress, as it stands."""
        raise NotImplementedError

    def _new_stream(self) -> None:
        """What else a fresh stream starts afresh (nothing by default)."""

    def _forget(self) -> None:
        """What else `reset` forgets (nothing by default)."""
