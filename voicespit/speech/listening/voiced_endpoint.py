"""The endpointer fed with audio frames, with Silero VAD where the energy test fails.

`SpeechDetector` decides from each frame's energy against the noise floor. In
quiet that never cuts a word and ends soonest; in noise it ends utterances on
the weak last sounds (measured by `benchmarks.endpointing`). Silero VAD hears
speech under noise but decides about 50 ms later and costs several times more.
The modes:

- "energy": the energy test alone;
- "silero": Silero's probability decides speech in every frame;
- "silero in noise": the energy test starts utterances; within one, Silero
  decides while the speech stands less than `detector_below_db` above the floor
  and the energy test once it is clearer. Silero
  runs only within utterances, warmed up on the pre-roll, so quiet rooms and
  pauses between commands cost nothing extra.
"""

from __future__ import annotations

import collections

from voicespit.speech.listening.endpoint import EndpointSettings, FrameEvent, SpeechDetector
from voicespit.speech.listening.silero import SileroActivity
from voicespit.speech.signal import Samples, speech_band_energy_db

MODES = ("energy", "silero", "silero in noise")


class VoicedEndpointer:
    """Feed it 10 ms frames; it says what each frame means (`FrameEvent`)."""

    def __init__(self, settings: EndpointSettings, mode: str = "energy") -> None:
        if mode not in MODES:
            raise ValueError(f"voice activity must be one of {', '.join(MODES)}, not {mode!r}")
        self.settings = settings
        self.mode = mode
        self.detector = SpeechDetector(settings)
        self._activity = None if mode == "energy" else SileroActivity()
        self._recent: collections.deque[Samples] = collections.deque(
            maxlen=settings.preroll_frames + settings.start_frames)

    def push(self, frame: Samples) -> FrameEvent:
        energy_db = speech_band_energy_db(frame)
        activity, detector = self._activity, self.detector
        if activity is None:
            return detector.push(energy_db)
        if self.mode == "silero":
            return detector.push(energy_db, activity.push(frame))
        if not detector.in_speech:
            self._recent.append(frame)
            event = detector.push(energy_db)
            if event is FrameEvent.STARTED:
                activity.reset()
                for earlier in self._recent:
                    activity.push(earlier)
                self._recent.clear()
            return event
        probability = activity.push(frame)
        noisy = detector.stands_below(self.settings.detector_below_db)
        return detector.push(energy_db, probability if noisy else None)

    def restart(self) -> None:
        """A fresh stream: a new noise floor and a fresh detector state."""
        self.detector = SpeechDetector(self.settings)
        self._recent.clear()
        if self._activity is not None:
            self._activity.reset()
