"""The player talking over the game: hush it, stop it, and let it speak again.

The listener feeds every cancelled block to `TalkOver`, which runs the talk
detector (`barge_in.TalkDetector`) and tells the speaker, through `TalkHooks`:

- `hush(True)` as soon as the player may be talking (the detector's suspicion, two
  loud frames), so the game's voice drops by 24 dB before the listener is sure and
  the canceller stops hiding the player under it; `hush(False)` when the suspicion
  lapses with nothing confirmed (a false hush: counted), or once the command has
  been answered;
- `barge_in` when the player's speech is confirmed while the game speaks: the
  announcement stops and what waits is held;
- `player_done` when the utterance that barged in has been answered (a final
  result, even a refusal), or `answer_wait` after the detector heard the player
  stop, if no answer came: held speech resumed earlier ran its echo into the end
  of the command.

No thread or clock of its own: the listener passes times in and calls `answered`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from voicespit.speech.listening.barge_in import TalkDetector
from voicespit.speech.listening.gate import ListeningGate


def _nothing(time: float) -> None:
    pass


@dataclass
class TalkHooks:
    """What the listener reports about the player talking while the game speaks, and about
    the microphone itself (clock times)."""

    barge_in: Callable[[float], None] | None = None
    """The player started speaking while the game was speaking: stop it. None: not watched
    (without a canceller the game's own voice would look like the player's)."""
    player_done: Callable[[float], None] = _nothing
    """The utterance that barged in is over: held speech may go on."""
    dropped: Callable[[float], None] = _nothing
    """An utterance was lost because the game was speaking: ask the player to say it again."""
    hush: Callable[[bool], None] | None = None
    """True: the player may be starting to talk over the game: take its voice down at once
    (cheap, and undone if it was not them); False: put it back. None: never hushed."""
    fell_back: Callable[[float], None] = _nothing
    """The room is too lively to listen through the game's voice: from now on the game does
    not act on what it hears while it speaks (`Listener.fall_back_to_watched_guard`)."""
    listening_again: Callable[[float], None] = _nothing
    """The room has calmed (the game turned down, headphones on): the game listens over its
    voice again (`Listener.listen_over_the_game_again`)."""
    microphone_silent: Callable[[float], None] = _nothing
    """The microphone has sent nothing but digital silence for seconds: it may be muted
    (`mute_watch`)."""
    microphone_back: Callable[[float], None] = _nothing
    """Sound from the microphone again, after `microphone_silent`."""


Notify = Callable[[Callable[[float], None], float], None]
"""Calls a hook with a clock time, reporting (not raising) what the hook raises."""


class TalkOver:
    """The detector's verdicts turned into the speaker's hush, barge-in and resume."""

    def __init__(self, talk: TalkHooks, detector: TalkDetector, gate: ListeningGate,
                 answer_wait: float, notify: Notify) -> None:
        self.talk = talk
        self.detector = detector
        self.gate = gate
        self.answer_wait = answer_wait
        self._notify = notify
        self.barge_ins = 0
        self.hushes = 0
        """Times the game's voice was hushed because the player might be talking."""
        self.false_hushed_at: list[float] = []
        """Of those, the clock time of each put back with no barge-in (it was not the
        player; the listener's room watch counts them)."""
        self.awaiting_answer = False
        """The player was heard and the recognizer has not answered yet: the game stays
        quiet and the echo mask lets everything through, so the command can end."""
        self._barged_in = False
        self._hushed = False
        self._quiet_since: float | None = None

    def watch(self, samples: npt.NDArray[np.int16], microphone: npt.NDArray[np.int16],
              far: npt.NDArray[np.int16] | None, start: float, end: float,
              game_audible: bool, now: float,
              linear: npt.NDArray[np.int16] | None = None) -> None:
        """One cancelled block recorded over clock times [start, end) (with the microphone's
        own samples, the far end played for it and the linear canceller's output, if one
        runs); `now`: the clock."""
        began = self.detector.feed(samples, microphone, game_audible, far, linear)
        self._follow_suspicion(end, now)
        if began:
            self.awaiting_answer = True
            if not self._barged_in and self.gate.is_game_speaking(end):
                self._barged_in = True
                self.barge_ins += 1
                if self.talk.barge_in is not None:
                    self._notify(self.talk.barge_in, now)
        if self.detector.talking or not self.awaiting_answer:
            self._quiet_since = None
        elif self._quiet_since is None:
            self._quiet_since = start
        elif end - self._quiet_since >= self.answer_wait:
            self.answered(now)  # no answer came: the game must not stay silent for it

    def answered(self, now: float) -> None:
        """The player's utterance has been answered: the game may speak again, aloud."""
        self.awaiting_answer = False
        self._quiet_since = None
        if self._hushed:  # what waits is said at the game's full voice
            self._set_hush(False, now)
        if self._barged_in:
            self._barged_in = False
            self._notify(self.talk.player_done, now)

    def _follow_suspicion(self, end: float, now: float) -> None:
        """Hush the game while the player may be talking; put it back if it was not them."""
        if self.talk.hush is None:
            return
        detector = self.detector
        if detector.suspected and not self._hushed and not self._barged_in \
                and self.gate.is_game_speaking(end):
            self._set_hush(True, now)
            self.hushes += 1
        elif self._hushed and not detector.suspected and not detector.talking \
                and not self._barged_in and not self.awaiting_answer:
            self._set_hush(False, now)
            self.false_hushed_at.append(end)

    @property
    def false_hushes(self) -> int:
        """The hushes put back with no barge-in (`false_hushed_at`)."""
        return len(self.false_hushed_at)

    def _set_hush(self, hushed: bool, now: float) -> None:
        self._hushed = hushed
        hook = self.talk.hush
        if hook is not None:
            self._notify(lambda _at: hook(hushed), now)
