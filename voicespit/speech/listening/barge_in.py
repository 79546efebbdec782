"""Is the player talking over the game? The decision that lets them interrupt it.

A frame (10 ms) is the player's voice when the cancelled audio is loud on three
counts: well above the room's noise floor; above the echo the canceller is likely
to have left of what the game has just played; and not much quieter than what the
microphone heard before cancelling (with headphones there is no canceller: the
two signals are one, and the test is the noise floor alone).

The second count is what tells the player from the game. The canceller's residual
echo follows the game's sound: loud just after a loud syllable, gone in the gaps
between words. So the detector keeps an envelope of the far end (the loudest of
the last `hold_frames`, then decaying by `decay_db` a frame, as a room's echo
does) and learns, while only the game is heard, how far above that envelope the
residual gets (`residual_percentile` of the last 5 s). The likely residual is
the lower of that and the loudest residual of the last 5 s, and a frame must clear
it by `residual_margin_db`. The loudest residual alone (the first version) sat
above the player's whole voice when the echo was louder than the player; the
envelope lets the player through between the game's words. On the room
benchmark's tuning split it found 30 of 40 commands begun over the game at +10 dB
echo (the loudest residual alone: 22) and 36 of 40 at 0 dB (36), with the same
false starts (2 and 1 in 3.7 minutes).

The room's echo outlasts the game's sound: in a live room (RT60 0.8 s) it is still
20 dB over the noise when the listener stops counting the game as audible (0.3 s
after its last sound), and both cancellers leave most of that late tail. Judged
against the noise floor alone it was the player: 11 false starts a minute in that
room at +10 dB (replayed offline on the tuning split's captured signals,
`benchmarks.echo_capture`, with the room's noise then partly 44 dB under the player).
So while the far end's envelope still predicts a residual above the noise, the frame
is judged as if the game played (`echo_lingers`); that took them to 0.5 a minute,
finding as many commands. Over a whole match in a quiet room (noise 40 dB under the
player, report split) the 0.8 s room gave 2, 3 and 6 false commands at 0, +5 and
+10 dB without it and none with it; where the noise is 20 dB under, the tail drowns.

What is heard around a loud frame while the game plays is set aside, not learnt as the
residual, until `suspect_frames` pass without another loud frame (it was the game's
after all) or the player is found (it was theirs). Learnt at once, the player's own
voice before the detector was sure (and, in the closed loop, over the game hushed 24 dB
on the suspicion) became the residual's loudest 1 %, and the next command within 5 s
had to be 4 dB louder than that one: on the room benchmark's tuning split (0.5 s room,
60 commands) the detector never found 11 and 31 commands at 0 and +10 dB echo; setting
them aside, 2 and 17.

A frame is also the player's when the microphone itself is louder than the game's echo
has made it (`microphone_margin_db`), whatever the canceller left: AEC3, learning a room
with no echo in it (headphones on `auto`, a loudspeaker the microphone barely hears),
hides a word said over the game's first seconds by 11 to 40 dB, and judged on its output
alone such a word was never found. Where the echo is louder than the player, the
microphone never speaks first (docs/listening-record.md, round 24).

A frame is also the player's when the model of `voice_frames.py` judges it so, from how
the three signals stand to what the game alone makes of each (round 30): speexdsp's filter
cannot remove a voice, so a frame it leaves as loud as the microphone heard it, over the
room's noise, is the player even where AEC3 hides them. On the room benchmark's report
split it found 21 more of the 801 commands said over the game, and 14 more were heard right.

`onset_frames` loud frames among the last `window` start the player's speech, so
a click or a burst of residual echo does not stop the game; `quiet_frames` quiet
frames end it. Pure numpy on 16 kHz samples, no clock: the listener feeds it
every block and asks about time.
"""

from __future__ import annotations

import collections
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from voicespit.speech.listening import voice_frames
from voicespit.speech.listening.loudest import LoudestHeard
from voicespit.speech.listening.voice_frames import VoiceFrameModel
from voicespit.speech.signal import FRAME

_SILENCE_DB = -100.0
_AUDIBLE_DB = -50.0
"""A far-end frame quieter than this is no sound of the game's (`echo.FAR_SILENCE`)."""
GAME_AT_ITS_LOUDEST_DB = 10.0
"""A far-end frame within this of its envelope: the game is at its loudest (mid-syllable)."""


@dataclass(frozen=True)
class TalkSettings:
    margin_db: float = 15.0
    """How far above the noise floor of the cancelled audio a frame must be."""
    minimum_db: float = -50.0
    """No frame quieter than this (dB full scale) is the player, whatever the floor, at a
    microphone as loud as an ordinary one (`follow_gain`)."""
    follow_gain: bool = True
    """Lower `minimum_db` with a microphone turned down (`loudest.LoudestHeard`, on the
    microphone's own levels). Fixed, a microphone turned down 30 dB (the player at -56
    dBFS) left the player unheard over the game: on the room benchmark's tuning split,
    none of 88 commands said over the game was found, each lost without a word (round 47).
    Lowered for every microphone instead (-75), the game's residual echo in a quiet room
    started the player's speech (`tests/test_barge_in.py`)."""
    ratio_db: float = -8.0
    """Cancelled level minus microphone level: above this, the sound was not the game's."""
    onset_frames: int = 3
    window: int = 4
    quiet_frames: int = 60
    """Quiet frames (0.6 s) after which the player has stopped talking."""
    floor_frames: int = 300
    """The floor is the median level of the last 3 s heard while the game played nothing
    (the canceller's suppressor also hushes the room's noise while the game plays, so
    those stretches would put the floor too low)."""
    floor_percentile: float = 50.0
    hold_frames: int = 10
    """The far end's envelope holds its loudest frame this long (the echo's delay and
    the first reflections)..."""
    decay_db: float = 0.4
    """...then falls this much a frame (a room's echo dies away, 40 dB in a second)."""
    residual_frames: int = 500
    """The residual echo is judged over the last 5 s during which the game played."""
    residual_percentile: float = 99.0
    residual_margin_db: float = 4.0
    """How far above the likely residual a frame must be."""
    suspect_onset: int = 2
    """Loud frames among the last three after which the player may be talking
    (`suspected`: the game hushes its voice, so the canceller stops hiding them). Replayed
    offline through the tuning split's 0.5 s room at +10 dB (36 commands, 200 s, the game
    not reacting), the player was suspected a median 178 ms after they began on one loud
    frame, with 15 false starts; 213 ms and 5 on two of three; the full onset (3 of 4)
    came at 242 ms, with 2."""
    suspect_margin_db: float = 3.0
    """For the suspicion only (the hush, cheap and undone in 0.3 s), how far above the likely
    residual a frame must be. Hushed, the game stops hiding the player under its voice, so
    suspecting sooner also finds more: on the tuning split's closed loop (60 commands, 2
    minutes of narration alone) 3 dB instead of 4 found 2 and 4 more commands at +10 dB
    in the 0.5 and 0.8 s rooms, hushed a median 35 and 180 ms sooner, with as many hushes
    for nobody (6 and 6 against 4 and 7); 2 dB found no more than 3 and hushed for nobody
    6 and 15 times."""
    suspect_frames: int = 30
    """This many frames without a loud one and the suspicion lapses: it was not them."""
    microphone_margin_db: float | None = 6.0
    """How far above the game's echo as the microphone itself hears it (the far end's
    envelope plus how far above it the microphone has reached while only the game played,
    learnt as the residual is) a frame of the microphone must be to be the player's,
    whatever the canceller made of it; None: the cancelled audio alone decides. With no
    echo to learn (headphones, or a loudspeaker the microphone barely hears) AEC3 hides a
    word said over the game's first seconds by 11 to 40 dB (round 23): its suppressor
    starts cautious and eases as it learns a room that is not there. Replayed offline on
    the room benchmark's tuning split, 6 dB and 10 dB changed nothing in any of its nine
    rooms (found, suspicion delays, false starts: the microphone's echo stands over the
    player there); with no echo the detector found a real "seven" over the game's first
    15 s at every place tried after its first second, where without it 4 of 11 were
    never found."""
    microphone_frames: int = 1500
    """For how many frames of the game's sound (15 s) the microphone may speak for the player:
    while the canceller learns the room (AEC3 hid a word by 5 dB 8 s into the game's voice
    and by nothing at 12 s). Open for good, the microphone's learnt echo took every word of
    the game for the player once the volume was turned up ("talking" for the 32 s of game
    left after the jump); the linear filter agreeing cut that only to 2 to 16 s
    (`benchmarks.echo_jump`: after the window, a jump is judged as without the route)."""
    voice_model: bool = True
    """Also judge a frame heard over the game by the model fitted on how the microphone, the
    linear canceller's output and AEC3's stand to what the game alone makes of each
    (`voice_frames.py`): a frame it judges the player's is loud as if the rule had. False:
    the rule alone (the detector before round 30)."""
    learn_frames: int = 100
    """While the game plays, nothing is the player until the residual has been heard this
    long (at the start the canceller is still learning the room, and its residual is
    unknown: the first version took the game's greeting for the player)."""


class _GameFrame(NamedTuple):
    """A frame heard while only the game played, as the detector learns it (dB)."""

    gain: float
    """The cancelled level over the far end's envelope."""
    level: float
    """The cancelled level (dBFS)."""
    microphone_gain: float
    """The microphone's level over the envelope."""
    linear_gain: float
    """The linear canceller's output over the envelope (silence when none runs)."""
    microphone_level: float | None
    """The microphone's level (dBFS) when the game was at its loudest, else None."""


class TalkDetector:
    """Feeds on pairs of blocks (cancelled, microphone); reports the player's speech."""


    def __init__(self, settings: TalkSettings | None = None,
                 voice_model: VoiceFrameModel | None = None) -> None:
        """`voice_model`: the model of the player's voice over the game to use instead of
        the fitted one (`voice_frames.fitted`), when `settings.voice_model` allows one."""
        self.settings = settings or TalkSettings()
        self._voice_model = (voice_model or voice_frames.fitted()) \
            if self.settings.voice_model else None
        self._history: collections.deque[float] = collections.deque(
            maxlen=self.settings.floor_frames)
        self._floor = _SILENCE_DB
        self._loudest = LoudestHeard()
        """How loud this microphone gets: `minimum_db` follows it down (`follow_gain`)."""
        self._far: collections.deque[float] = collections.deque(
            maxlen=self.settings.hold_frames + 1)
        self._envelope = _SILENCE_DB
        self._residual: collections.deque[float] = collections.deque(
            maxlen=self.settings.residual_frames)
        self._residual_gain = _SILENCE_DB
        """How far above the far end's envelope the residual echo reaches (dB)."""
        self._residual_levels: collections.deque[float] = collections.deque(
            maxlen=self.settings.residual_frames)
        self._residual_top = _SILENCE_DB
        """The loudest the residual echo has been (dBFS, the same percentile)."""
        self._microphone_residual: collections.deque[float] = collections.deque(
            maxlen=self.settings.residual_frames)
        self._microphone_gain = _SILENCE_DB
        """How far above the far end's envelope the microphone reaches with only the game
        playing (dB): the echo path's gain, as the microphone hears it."""
        self._linear_residual: collections.deque[float] = collections.deque(
            maxlen=self.settings.residual_frames)
        self._linear_gain = _SILENCE_DB
        """The same for the linear canceller's output (`feed`'s `linear`)."""
        self._microphone_levels: collections.deque[float] = collections.deque(
            maxlen=self.settings.residual_frames)
        """The microphone's levels while only the game played, at its loudest (the far end
        within `GAME_AT_ITS_LOUDEST_DB` of its envelope): the game as the microphone hears
        it (`game_reaches_microphone`)."""
        self._loudest_gains: collections.deque[float] = collections.deque(
            maxlen=self.settings.residual_frames)
        """The same frames' levels over the far end's envelope (`echo_gain`)."""
        self._doubtful: list[_GameFrame] = []
        """Frames heard around a loud one while the game played, not yet learnt as its
        residual: if the player is found in them, they were the player's voice. Learnt as
        they came, they made the residual's loudest 1 % the player's own level; the next
        command, within 5 s, then had to be 4 dB louder than the last (on the room
        benchmark the game is hushed once the player is suspected, so the voice stood
        24 dB over the far end's envelope there)."""
        self._recent: collections.deque[bool] = collections.deque(maxlen=self.settings.window)
        self._near: collections.deque[bool] = collections.deque(maxlen=3)
        self._quiet_run = 0
        self.talking = False
        """True from the onset of the player's speech until `quiet_frames` of quiet."""
        self.frames = 0
        """Frames fed so far."""
        self._game_frames = 0
        """Frames fed while the game could be heard, since the canceller (re)started."""
        self.onset_frame: int | None = None
        """The frame at which the current stretch of the player's speech began."""
        self.suspected = False
        """A frame as loud as the player's voice, not yet confirmed by `onset_frames`: the
        player may be starting to talk (true from that frame until `suspect_frames` pass
        without another, or the player is found)."""
        self._since_loud = self.settings.suspect_frames
        """Frames since the last loud one (none yet: as if long ago)."""
        self.last_loud: list[bool] = []
        """For each frame of the last block fed: judged a voice that is not the game's."""
        self.last_features: list[npt.NDArray[np.float64] | None] = []
        """For each frame of the last block fed: what the model of the player's voice was
        asked about it (None: it was not asked; `benchmarks.talk_fit` learns from these)."""
        self.echo_lingers = False
        """The game has stopped playing, but the room's echo of it may not have died away
        yet (the far end's envelope, decaying as a room's echo does, still predicts a
        residual above the noise): the last frame fed is judged as if the game played."""

    def feed(self, cancelled: npt.NDArray[np.int16], microphone: npt.NDArray[np.int16],
             game_playing: bool = False, far: npt.NDArray[np.int16] | None = None,
             linear: npt.NDArray[np.int16] | None = None) -> bool:
        """Feed one block (a whole number of 10 ms frames); True when the player's speech
        starts in it. `game_playing`: the game's sound could be in this block; `far`: what
        the game played for it (the canceller's reference), if it is known; `linear`: the
        linear canceller's output for it (`linear_echo.py`), if one runs."""
        started = False
        settings = self.settings
        levels = frame_levels(cancelled)
        far_levels = frame_levels(far) if far is not None else [_SILENCE_DB] * len(levels)
        linear_levels: list[float | None] = [None] * len(levels)
        if linear is not None and len(linear) == len(cancelled):
            linear_levels = list(frame_levels(linear))
        self.last_loud = []
        self.last_features = []
        raws = frame_levels(microphone)
        if settings.follow_gain:
            self._loudest.heard(raws)
        for level, raw, played, filtered in zip(levels, raws, far_levels, linear_levels,
                                                strict=True):
            self._follow_far(played)
            self._game_frames += game_playing
            self.echo_lingers = not game_playing and self._residual_heard()
            if self._frame(level, raw, game_playing or self.echo_lingers, filtered):
                started = True
            if game_playing and not self.talking:
                self._learn_residual(level, raw, filtered)
            elif not game_playing and not self.echo_lingers:
                self._history.append(level)
            if self.talking:  # what was set aside was the player's
                self._doubtful.clear()
        if self._history:
            self._floor = float(np.percentile(self._history, settings.floor_percentile))
        if self._residual:
            self._residual_gain = float(np.percentile(self._residual,
                                                      settings.residual_percentile))
            self._residual_top = float(np.percentile(self._residual_levels,
                                                     settings.residual_percentile))
        self._follow_microphone_gains()
        return started

    def _follow_microphone_gains(self) -> None:
        """The microphone's and the linear filter's echo gains, from what has been learnt;
        while the microphone may still speak for the player (`microphone_frames`) and, for
        the model of the player's voice, all the time."""
        if self._residual and (self._game_frames <= self.settings.microphone_frames
                               or self._voice_model is not None):
            percentile = self.settings.residual_percentile
            self._microphone_gain = float(np.percentile(self._microphone_residual, percentile))
            self._linear_gain = float(np.percentile(self._linear_residual, percentile))

    @property
    def game_reaches_microphone(self) -> bool:
        """Whether the game can be heard at the microphone as loud as a voice must be: the
        microphone's median level while only the game played at its loudest (the last 5 s
        of such frames) within `residual_margin_db` of the bar a voice clears; True until
        a second of that has been heard. False with headphones on `auto` or a loudspeaker
        the microphone does not hear: then nothing the recognizer makes is the game's own
        words, and the checks against them (`self_echo`, `near_end`) stand aside, as when
        the game is silent. Round 24's loudspeaker play with no echo had "yes", said as
        "Quit this game? Say yes or no." ended, refused as the game's own. Tried first:
        the far end's envelope plus the microphone's gain over it (with no echo that gain
        is the room's noise over the envelope at its lowest, which at the game's loudest
        put the noise over the bar); the microphone's loudest (99th percentile) with the
        game alone, which the player's own voice set whenever the detector missed a few
        frames of it (the starts of words, before the first loud frame): in the same
        play "yes" was still refused. The median over the game's loudest moments is the
        game's, whatever the player says over some of them."""
        settings = self.settings
        heard = self.game_at_microphone
        if heard is None:
            return True
        bar = self._voice_bar()
        return heard + settings.residual_margin_db >= bar

    @property
    def game_at_microphone(self) -> float | None:
        """How loud the game is at the microphone (dBFS): the median level of the last 5 s
        of frames where only the game played, at its loudest; None until a second of them
        has been heard."""
        if len(self._microphone_levels) < self.settings.learn_frames:
            return None
        return float(np.median(self._microphone_levels))

    @property
    def echo_gain(self) -> float | None:
        """How much louder the microphone hears the game than the game plays it (dB, the
        same frames as `game_at_microphone`, each over the far end's envelope): the
        loudspeakers' volume and the room between them and the microphone, whatever the
        game is saying or playing. What turning the loudspeakers down, or moving the
        microphone away, changes (`room_watch.RoomWatch.calmer`)."""
        if len(self._loudest_gains) < self.settings.learn_frames:
            return None
        return float(np.median(self._loudest_gains))

    def canceller_restarted(self) -> None:
        """The canceller forgot the room (the audio stream broke off): while it learns it
        again, the microphone may speak for the player (`microphone_frames`)."""
        self._game_frames = 0
        self._follow_microphone_gains()

    def _learn_residual(self, level: float, raw: float, linear: float | None) -> None:
        """Learn a frame heard while the game played as its residual echo (and the
        microphone's and the linear canceller's as theirs); but from a loud frame until
        `suspect_frames` pass without another, set it aside, learnt only if the player is
        not found (`_doubtful`)."""
        envelope = self._envelope
        at_its_loudest = self._far[-1] >= max(envelope - GAME_AT_ITS_LOUDEST_DB, _AUDIBLE_DB)
        frame = _GameFrame(level - envelope, level, raw - envelope,
                           _SILENCE_DB if linear is None else linear - envelope,
                           raw if at_its_loudest else None)
        if self._since_loud < self.settings.suspect_frames \
                and len(self._doubtful) < self.settings.residual_frames:
            self._doubtful.append(frame)
            return
        for learnt in (*self._doubtful, frame):
            self._residual.append(learnt.gain)
            self._residual_levels.append(learnt.level)
            self._microphone_residual.append(learnt.microphone_gain)
            self._linear_residual.append(learnt.linear_gain)
            if learnt.microphone_level is not None:  # the game at its loudest
                self._microphone_levels.append(learnt.microphone_level)
                self._loudest_gains.append(learnt.microphone_gain)
        self._doubtful.clear()

    def _residual_heard(self) -> bool:
        """Whether the echo likely left of what the game played could still stand out of
        the room's noise (once the residual has been learnt)."""
        settings = self.settings
        if len(self._residual) < settings.learn_frames:
            return False
        likely = min(self._envelope + self._residual_gain, self._residual_top)
        floor = self._voice_bar()
        return likely + settings.residual_margin_db > floor

    def _voice_bar(self) -> float:
        """The level (dBFS) a frame must reach to be the player's by the room alone:
        `margin_db` over the floor, and `minimum_db` (followed down with the
        microphone's gain)."""
        return max(self._floor + self.settings.margin_db,
                   self._loudest.bar(self.settings.minimum_db))

    def _follow_far(self, played: float) -> None:
        self._far.append(played)
        held = max(self._far)
        self._envelope = max(held, self._envelope - self.settings.decay_db)

    def _frame(self, level: float, raw: float, game_playing: bool,
               linear: float | None = None) -> bool:
        settings = self.settings
        self.frames += 1
        floor_threshold = self._voice_bar()
        threshold = floor_threshold
        learnt = len(self._residual) >= settings.learn_frames
        if game_playing and not learnt:
            threshold = float("inf")
        suspect_threshold = threshold
        likely_residual = min(self._envelope + self._residual_gain, self._residual_top)
        if game_playing and learnt:
            threshold = max(threshold, likely_residual + settings.residual_margin_db)
            suspect_threshold = max(suspect_threshold,
                                    likely_residual + settings.suspect_margin_db)
        loud = level >= threshold and level - raw >= settings.ratio_db
        near = level >= min(threshold, suspect_threshold) and level - raw >= settings.ratio_db
        margin = settings.microphone_margin_db
        if game_playing and learnt and not loud and margin is not None and linear is not None \
                and self._game_frames <= settings.microphone_frames:
            # Louder than any echo of the game has made the microphone, and what the linear
            # filter leaves as loud: the player, even where AEC3 (learning a room with no
            # echo) hid them. The linear filter follows a changed echo path (the volume
            # turned up), if slowly, where the microphone's learnt echo never would: hence
            # both, and only while the canceller learns.
            loud = raw >= max(floor_threshold, self._envelope + self._microphone_gain + margin) \
                and linear >= max(floor_threshold, self._envelope + self._linear_gain + margin)
            near = near or loud
        asked = None
        if game_playing and learnt and linear is not None and self._voice_model is not None:
            asked = voice_frames.features(
                level - likely_residual, level - raw,
                linear - (self._envelope + self._linear_gain),
                raw - (self._envelope + self._microphone_gain), linear - raw)
            # Only over the room's noise: with no echo (headphones put on) the linear filter
            # has nothing to remove, and the room's own noise, left whole, looked like a
            # voice it could not cancel: the game hushed itself for nobody.
            loud = loud or (linear >= floor_threshold and self._voice_model.accepts(asked))
            near = near or loud
        self.last_features.append(asked)
        self.last_loud.append(loud)
        self._recent.append(loud)
        self._near.append(near)
        if near and sum(self._near) >= settings.suspect_onset and not self.talking:
            self.suspected = True
        if loud or near:
            self._since_loud = 0
        if loud:
            self._quiet_run = 0
        else:
            self._quiet_run += 1
            self._since_loud += not near
            if self._since_loud >= settings.suspect_frames:
                self.suspected = False
        if not self.talking and sum(self._recent) >= settings.onset_frames:
            self.talking = True
            self.suspected = False
            self.onset_frame = self.frames - len(self._recent) + 1
            return True
        if self.talking and self._quiet_run >= settings.quiet_frames:
            self.talking = False
        return False


def frame_levels(samples: npt.NDArray[np.int16]) -> list[float]:
    """dB full scale of each whole 10 ms frame."""
    usable = len(samples) - len(samples) % FRAME
    frames = samples[:usable].astype(np.float64).reshape(-1, FRAME)
    power = np.mean(frames * frames, axis=1) / (32768.0 * 32768.0)
    with np.errstate(divide="ignore"):
        levels = np.where(power > 0, 10.0 * np.log10(power), _SILENCE_DB)
    return [float(level) for level in levels]
