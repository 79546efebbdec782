"""Is this frame the player's voice over the game's? A model of how the three signals stand.

The talk detector's own rule (`barge_in.TalkDetector`) judges a frame by one signal,
AEC3's output, against the residual it has learnt the game leaves: clear of it by
`residual_margin_db`, the frame is the player's. But AEC3's suppressor hides much of a
voice said over the game's, and on the room benchmark the commands the detector never
found were most of what was lost at +10 dB echo. The same frame stands differently in
the other two signals the detector sees: the microphone (everything, the echo whole) and
speexdsp's linear output (the player whole, more of the game left). Each is measured
against what the game alone has been heard to make of it (its gain over the far end's
envelope, learnt as the residual is), so that the features mean the same in a dead room
and a live one, at any volume: a frame's level over that learnt echo, in each signal,
and how the two cancelled signals stand to the microphone. Levels over the room's noise
are left out on purpose: they also measure how loud the echo is, and a model weighing
them took the game's own voice for the player in rooms it was not fitted on.

A frame the model judges the player's with probability at least its threshold counts as
loud, beside the rule's own (either is enough), when the linear output is also well over
the room's noise: with no echo at all (headphones put on) the linear filter has nothing to
remove, and the room's noise left whole looked like a voice it could not cancel. The
detector's counting of loud frames into a suspicion and an onset is unchanged.

The weights are not typed in: `python -m benchmarks.talk_fit --write` fits them on the
room benchmark's tuning split, the frames heard while the game played, each labelled by
the player's clean voice (captured apart in `benchmarks.echo_capture`), and sets the
threshold so that the narration alone is judged the player's in a fixed small share of its
frames (0.05 %); it writes `voice_frames.json` beside this module.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import ClassVar

import numpy as np
import numpy.typing as npt

from voicespit.speech.logistic import LogisticModel

FITTED = Path(__file__).with_name("voice_frames.json")
MEASURES = ("cancelled over its likely residual", "cancelled over the microphone",
            "linear over its learnt echo", "microphone over its learnt echo",
            "linear over the microphone")
"""What `features` measures, in dB, before each is also taken above 0 alone."""
FEATURES = (*MEASURES, *(f"{name}, above 0" for name in MEASURES))
CLIP_DB = 60.0
"""Each measure is clipped to this either way: a frame of digital silence (-100 dBFS)
is as quiet as it needs to be, and such extremes would weigh the fit."""


def features(cancelled_over_residual: float, cancelled_over_microphone: float,
             linear_over_echo: float, microphone_over_echo: float,
             linear_over_microphone: float) -> npt.NDArray[np.float64]:
    """The model's features for one frame (dB). The part of each measure above 0 is a
    feature of its own, so that the model can weigh a signal standing out of its echo
    more than one falling further under it. The linear output over its learnt echo is
    the microphone's over its echo plus the linear output's over the microphone, plus how
    much the linear filter removes in the room: with it the model can weigh that too.
    Without it (round 30, each room judged by a model fitted on the other eight) the
    model found 309 of the tuning split's 369 commands, with it 317 (the rule alone 300),
    for as many false starts."""
    measures = np.clip(np.array([cancelled_over_residual, cancelled_over_microphone,
                                 linear_over_echo, microphone_over_echo,
                                 linear_over_microphone], dtype=np.float64),
                       -CLIP_DB, CLIP_DB)
    return np.concatenate([measures, np.maximum(measures, 0.0)])


class VoiceFrameModel(LogisticModel):
    FEATURES: ClassVar[tuple[str, ...]] = FEATURES
    WHAT: ClassVar[str] = "the model of the player's voice over the game"


@functools.cache
def fitted() -> VoiceFrameModel | None:
    """The model `benchmarks.talk_fit` wrote; None when there is none or it is unreadable
    (the detector then judges by its rule alone). Read once: a listener makes a detector
    each time its stream restarts."""
    try:
        return VoiceFrameModel.from_json(FITTED.read_text(encoding="utf-8"))
    except (OSError, ValueError, KeyError, TypeError):
        return None
