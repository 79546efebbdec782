"""The listening thread: audio source -> echo canceller -> listening gate -> recognizer.

One thread reads blocks from an `AudioSource`, takes the game's own sound out of
them (`EchoStage`, when there is a canceller), asks the `ListeningGate` whether
each may be heard, feeds those to the `Recognizer`, and hands final results to
`on_result` (partials to `on_partial` if given). It never touches game state: the
callbacks post to the match's queue.

**Talking over the game** (`TalkHooks`, `talk_over.TalkOver`). A `TalkDetector`
watches the cancelled audio before the gate: when the player may be speaking while
the game speaks, `hush` is called (the game's voice drops), when they are, `barge_in`
(the speaker stops), and `player_done` when their utterance has been answered (a
final result, even a refusal; or `answer_wait` after the detector heard them stop,
if none came), so held speech can go on only once the command is decided. When
the gate cut an utterance that the player had begun, or the player was still
speaking when the game stopped and the listener had to skip the rest, `dropped` is
called: the command was lost and the player must be told. So it is when, with a
canceller, the game's voice comes back before the recognizer answered a command the
detector heard the player say: the echo mask then keeps the rest of it from the
recognizer, which forgets what it had.
With a canceller, what the game alone played never reaches the recognizer
(`EchoMask`): only audio the detector judged to be the player's, while it plays;
and a command that the game's own words around it would also make is refused as
not understood (`self_echo`: the residual of "Three." heard back as "three"), as is
one heard around the game's voice that too little of the player's voice carried
(`near_end`). What the recognizer refuses around the game's voice with not one frame
of the player's in it never reaches `on_result`: it was the game's own voice, and a
"Say again?" would ask nobody (`_nobody_waits_on`).

**The echo guard, watched** (`watch_under_guard`, the default with loudspeakers when
a canceller starts). The bare guard cannot tell a command said wholly under the game's
voice from the game's voice, so it loses it in silence. Watched, the audio takes the
`always` path (canceller, mask, detector) and the gate decides only what is acted on:
a final heard while the guard was closed is never a move; if enough of its frames
were the player's voice (`GUARD_PROMPT_MINIMUM`) and it is not the game's own words
around it (`self_echo`, for refusals too), the player is asked to say it again
(`dropped`).

**An utterance the gate cuts is dropped whole.** When audio stops being admitted
(the game started talking over the player), the recognizer is reset, so the
first half of a command is never decoded as a command. When audio is admitted
again, the listener waits until the player has been quiet for
`resume_after_quiet` seconds (longer than the pause between two words of one
command) before feeding the recognizer, so the rest of that command is not
decoded either. After `resync_limit` seconds of continuous sound it gives up
waiting: a noisy room must not make the game deaf.

**Times.** The gate works in clock time; blocks carry stream time. The offset
between the two is estimated as the smallest (arrival time - end of block) seen
over recent blocks: a block can arrive late (the reader fell behind) but never
before it was recorded, so the smallest delay is the truest. Results are
reported on the source's stream timeline, although the recognizer only saw the
admitted stretches of it.

**Errors.** A failing source (a microphone unplugged) is reported to `on_error`
and, if `reconnect_after` is set, tried again after that many seconds; an error
in the recognizer is reported and ends the listener; an error in a callback is
reported and listening goes on. Nothing dies silently.
"""

from __future__ import annotations

import collections
import contextlib
import dataclasses
import logging
import threading
import time
from collections.abc import Callable, Iterator
from typing import TypeVar

import numpy as np

from voicespit.clock import Clock
from voicespit.errors import VoiceSpitError
from voicespit.speech.listening.activity import VoiceActivity
from voicespit.speech.listening.barge_in import TalkDetector
from voicespit.speech.listening.echo import EchoStage
from voicespit.speech.listening.echo_mask import EchoMask, Judged
from voicespit.speech.listening.fed_timeline import FedTimeline
from voicespit.speech.listening.gate import ListeningGate
from voicespit.speech.listening.mute_watch import MicrophoneNews, MuteWatch
from voicespit.speech.listening.near_end import (
    NearEndEvidence,
    game_heard_around,
    refused_if_disputed_over_the_game,
    refused_if_tie_broken_over_the_game,
    refused_if_unvoiced,
)
from voicespit.speech.listening.over_game import OverGameModel, decided, shares_if_asked
from voicespit.speech.listening.room_tone import RoomTone
from voicespit.speech.listening.room_watch import RoomWatch
from voicespit.speech.listening.self_echo import WINDOW_BEFORE, SpokenWords, refused_if_echo
from voicespit.speech.listening.sources import AudioBlock, AudioSource
from voicespit.speech.listening.talk_over import TalkHooks, TalkOver
from voicespit.speech.recognizer import Recognition, Recognizer

_T = TypeVar("_T")
log = logging.getLogger(__name__)

_OFFSET_WINDOW = 200
"""Blocks over which the smallest arrival delay is taken (20 s of 100 ms blocks): long
enough to include a block that arrived on time, short enough to follow clock drift."""


NEAR_END_MINIMUM = 0.10
"""The least share of a command's frames judged the player's voice, when the game could
be heard around it (`near_end`). On the room benchmark's tuning split (RT60 0.5 and
0.8 s, echo +10 dB, three runs) the commands the player said had 0.13 to 0.54 of their
frames judged theirs (the canceller hides the first of them under the game's voice);
of those made of the game's residual, about half had under 0.10 (most of them none),
the rest up to 0.45."""


DISPUTED_LEAD: float | None = 2.5
"""With the mask: the least lead Whisper's command needs over its runner-up, when the game
could be heard around it and PocketSphinx did not name the same command
(`near_end.refused_if_disputed_over_the_game`; None: no such check). On the room
benchmark's tuning split (nine rooms, 88 commands each said over the game; round 22,
`docs/listening-record.md`) PocketSphinx named differently 18 of the 19 wrong commands
taken over the game and 187 of the 391 right ones; a lead of 1.5, 2.0, 2.5 or 3.0 for
those would have kept 382, 373, 358 or 338 of the right and 13, 11, 5 or 2 of the wrong
(2.5: the most right commands less three per wrong one, and no room above 0.011 wrong)."""


GUARD_PROMPT_MINIMUM = 0.05
"""Under the watched echo guard, the least share of an utterance's frames judged the
player's voice for "say it again". On the room benchmark's tuning split (nine rooms,
88 commands each said over the game, 8 minutes of narration alone): with no check the
guard answered 32 to 86 of the commands and asked nobody up to 17 times in the live
room; at 0.10 (the commands' own minimum) 1 to 65 and nobody never; at 0.05, 13 to 77
and nobody 0 to 2 times (only in the 0.8 s room). The bare guard answers 3 or 4, and
asks nobody 4 or 5 times."""


class ListenerError(VoiceSpitError):
    """Voice input failed; the message says what and whether listening goes on."""


class VoiceStoppedError(ListenerError):
    """The recognizer failed: this listener has stopped for good (`detail` says why)."""


class Listener:
    def __init__(self, source: AudioSource, recognizer: Recognizer, gate: ListeningGate,
                 on_result: Callable[[Recognition], None], clock: Clock, *,
                 on_partial: Callable[[Recognition], None] | None = None,
                 on_error: Callable[[VoiceSpitError], None] | None = None,
                 reconnect_after: float | None = None, resume_after_quiet: float = 0.2,
                 resync_limit: float = 2.0, echo: EchoStage | None = None,
                 talk: TalkHooks | None = None, detector: TalkDetector | None = None,
                 mask_echo: bool = True, answer_wait: float = 1.0,
                 spoken: SpokenWords | None = None,
                 near_end_minimum: float = NEAR_END_MINIMUM,
                 over_game: OverGameModel | None = None,
                 watch_under_guard: bool = False,
                 guard_prompt_minimum: float = GUARD_PROMPT_MINIMUM,
                 room_watch: RoomWatch | None = None) -> None:
        """`echo`: cancel the game's sound first. `talk`: report barge-in and lost
        utterances (with `detector`, or a default one). `mask_echo`: with a canceller and
        barge-in, let the recognizer hear only the player while the game plays.
        `spoken`: the game's words as heard; with the mask, a command those words around
        it would also make is refused as the game's own (`self_echo`).
        `answer_wait`: after the player has stopped, the longest wait for the recognizer's
        answer before the game may speak again. `near_end_minimum`: with the mask, a command
        heard while the game could be heard needs at least this share of its frames judged
        the player's voice (`near_end`), or it is refused. `over_game`: with the mask, the
        model that decides on commands heard over the game (`over_game`).
        `watch_under_guard`: with a canceller and the echo guard, hear the player under
        the game's voice as `always` does, but never act on it: what is heard there is
        answered as lost (`talk.dropped`, "say it again") when at least
        `guard_prompt_minimum` of its frames were judged the player's. `room_watch`: while
        the player can talk over the game, count the game's hushes for nobody; once it
        judges the room too lively, fall back to the watched echo guard
        (`fall_back_to_watched_guard`), and once it finds the game turned down or
        headphones on, listen over the game again (`listen_over_the_game_again`)."""
        self.source = source
        self.recognizer = recognizer
        self.gate = gate
        self.clock = clock
        self._on_result = on_result
        self._on_partial = on_partial
        self._on_error = on_error
        self.reconnect_after = reconnect_after
        self.resume_after_quiet = resume_after_quiet
        self.resync_limit = resync_limit
        self.errors: list[VoiceSpitError] = []
        """Every error reported, in order (also passed to `on_error`)."""
        self.utterances_dropped = 0
        """Utterances lost because the game was speaking (each reported to `talk.dropped`)."""
        self.echo = echo
        self.talk = talk
        self.detector = detector or TalkDetector()
        cancelling = echo is not None and echo.canceller is not None
        self.watch_under_guard = watch_under_guard and cancelling and talk is not None
        """The echo guard, watched (`watch_under_guard`): the recognizer hears through the
        canceller and the mask at all times; the gate decides only what is acted on."""
        self.guard_prompt_minimum = guard_prompt_minimum
        watching = talk is not None and (talk.barge_in is not None or self.watch_under_guard)
        self.mask = EchoMask() if mask_echo and cancelling and watching else None
        """Keeps the canceller's residual echo from the recognizer (`echo_mask`)."""
        self.room_tone = RoomTone()
        """With the mask: the room's background kept under what the recognizer hears."""
        self.spoken = spoken if self.mask is not None else None
        self.self_echoes = 0
        """Commands refused because the game's own words around them said the same."""
        self.evidence = NearEndEvidence()
        """The detector's frame judgements, to ask whether a command carried the player's
        voice (`near_end`)."""
        self.near_end_minimum = near_end_minimum
        self.disputed_lead = DISPUTED_LEAD
        """With the mask: Whisper's least lead for a command PocketSphinx disputes, heard
        while the game could be heard (`DISPUTED_LEAD`; None: the room benchmark's baseline)."""
        self.unvoiced_refusals = 0
        """Commands refused for too little of the player's voice under the game's."""
        self.quiet_own_refusals = True
        """With the mask: keep from `on_result` the refusals of what the canceller left of
        the game's own voice (`_nobody_waits_on`), which would each be answered "Say
        again?" with nobody waiting (off: the room benchmark's baseline)."""
        self.refusals_unsaid = 0
        """Refusals of what the game's own voice left, kept quiet."""
        self.tails_unsaid = 0
        """Commands' own ends heard after them (`Recognition.ends_last_command`), kept quiet."""
        self.over_game: OverGameModel | None = over_game if self.mask is not None else None
        """With the mask: decides, instead of the recognizer, on the commands heard while the
        game could be heard (`over_game`); None (the game's default): the recognizer's
        decision stands. Fitted on the live recognizer's finals of the tuning split, it
        took 15 right commands and 7 mistakes on the report split's closed loop
        (`docs/listening-record.md`), so the game does not use it."""
        self.over_game_taken = 0
        """Commands the recognizer refused that `over_game` acted on."""
        self.over_game_refused = 0
        """Commands the recognizer accepted that `over_game` refused."""
        self.talk_over = TalkOver(talk, self.detector, gate, answer_wait, self._notify) \
            if watching and talk is not None else None
        """Hush, barge-in and resume (`talk_over`); None when the talk is not watched."""
        self.room_watch = room_watch \
            if self.talk_over is not None and not self.watch_under_guard else None
        """Judges whether the room is too lively to listen through the game, and once it
        has, whether it has calmed down (`room_watch`)."""
        self.fell_back_times: list[float] = []
        """When the listener fell back to the watched echo guard (`fall_back_to_watched_guard`)."""
        self.listening_again_times: list[float] = []
        """When it went back to listening over the game (`listen_over_the_game_again`)."""
        self._hooks_over_the_game: TalkHooks | None = None
        """While fallen back: the talk hooks it listened over the game with."""
        self.echo_seconds = 0.0
        """CPU seconds the echo canceller took on this thread (for the benchmark)."""
        self._skipped_speech = False
        self._player_heard = False
        """Speech heard in this utterance while nothing was playing: the player's voice."""
        self._player_found = False
        """The talk detector heard the player in the utterance the recognizer is hearing:
        if the echo mask throws it away unanswered, it is reported lost (`dropped`)."""
        self._drop_reported = False
        self.activity = VoiceActivity()
        """Whether the player is talking, by level alone: what the echo guard asks before it
        says "I was talking: say it again" (replaced before `start()` to try other settings)."""
        self.microphone_watch = MuteWatch()
        self._offsets: collections.deque[float] = collections.deque(maxlen=_OFFSET_WINDOW)
        self._timeline = FedTimeline()
        self._fed_seconds = 0.0
        self._feeding = False
        self._feeding_from = 0.0
        """Stream time of the first block fed to the recognizer in this utterance."""
        self._resyncing = False
        self._held_seconds = 0.0
        self._source_healthy = True
        self._stopping = threading.Event()
        self._wakeup = threading.Event()
        self._finished = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        if self._thread is not None:
            raise RuntimeError("a Listener starts once")
        self._thread = threading.Thread(target=self._run, name="listener", daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 2.0) -> bool:
        """Stop listening and release the source; True when the thread has ended."""
        self._stopping.set()
        self._wakeup.set()
        self.source.close()
        return self.wait(timeout)

    def wait(self, timeout: float | None = None) -> bool:
        """Wait for the thread to end (the source ran out, or stop()); True if it has."""
        return self._finished.wait(timeout)

    @property
    def is_running(self) -> bool:
        return self._thread is not None and not self._finished.is_set()

    # The thread ----------------------------------------------------------------------

    def _run(self) -> None:
        try:
            while not self._stopping.is_set():
                try:
                    ended = self._pump(self.source.blocks())
                except _RecognizerFailedError:
                    raise
                except Exception as error:  # the device: report, and maybe try again
                    if self._source_failed(error):
                        continue
                    return
                if ended:
                    self._flush_mask()
                    self._deliver(self._call_recognizer(self.recognizer.finish))
                return
        except _RecognizerFailedError as failure:
            self._report(VoiceStoppedError("speech recognition stopped working",
                                           detail=f"the recognizer failed: {failure.cause!r}"))
        finally:
            self._finished.set()

    def _pump(self, blocks: Iterator[AudioBlock]) -> bool:
        """Handle blocks until the source ends (True) or stop() is called (False)."""
        for block in blocks:
            if self._stopping.is_set():
                return False
            self._handle(block)
        return not self._stopping.is_set()

    def _handle(self, block: AudioBlock) -> None:
        arrival = self.clock.now()
        self._source_healthy = True
        self._offsets.append(arrival - (block.start + block.duration))
        offset = min(self._offsets)
        self._watch_microphone(block, offset + block.start)
        microphone = np.frombuffer(block.pcm, dtype="<i2")
        if self.echo is not None:
            started = time.thread_time()
            cancelled = self.echo.cancel(block, offset + block.start)
            self.echo_seconds += time.thread_time() - started
            if cancelled is None:
                return
            block, microphone = cancelled, self.echo.last_near
        start = offset + block.start
        self._watch_talk(block, microphone, start)
        if self.echo is not None:  # the talk detector has judged; the recognizer may hear
            block = self.echo.heard(block)  # the player less damaged (linear_echo.py)
        if self.mask is None:
            self._hear(block, start)
            return
        talking = self.detector.talking or (
            self.talk_over is not None and self.talk_over.awaiting_answer)
        playing = self._is_game_audible(start) or self.detector.echo_lingers
        if not playing and not talking:
            self.room_tone.learn(np.frombuffer(block.pcm, dtype="<i2"))
        for judged in self.mask.push(block, playing, talking, self.detector.suspected):
            self._hear_judged(judged, offset)

    def _hear_judged(self, judged: Judged, offset: float) -> None:
        if judged.heard:
            block = judged.block
            filled = self.room_tone.fill(np.frombuffer(block.pcm, dtype="<i2"))
            self._hear(AudioBlock(filled.astype("<i2").tobytes(), block.start),
                       offset + block.start)
        elif self._feeding:
            # Only the game's residual from here: what began was its own, unless the
            # player was heard in it, and then their command is lost unanswered.
            lost = self._player_found and self.activity.heard_speech
            if lost and self.watch_under_guard:
                # The game talks on under the watched guard: a start the detector took
                # for the player is asked about only if their voice carried it.
                lost = self._voiced_between(self._feeding_from, judged.block.start)
            self._call_recognizer(self.recognizer.reset)
            self._feeding = False
            self._forget_utterance()
            if lost:
                self._lost(offset + judged.block.start)
            else:
                log.debug("masked from %.2f s: no voice of the player's found in it",
                          judged.block.start)

    def _hear(self, block: AudioBlock, start: float) -> None:
        """The gate, then the recognizer, for a block recorded from clock time `start`."""
        self.activity.feed(block.pcm)
        if self.activity.is_speaking and self._is_nothing_playing(start):
            self._player_heard = True
        if not self.watch_under_guard and not self.gate.admits(start, start + block.duration):
            if self._feeding:
                if self.activity.heard_speech and self._player_heard:
                    self._dropped(start)
                self._call_recognizer(self.recognizer.reset)
            self._feeding = False
            self._resyncing = True
            self._held_seconds = 0.0
            return
        if self._resyncing:
            self._held_seconds += block.duration
            activity = self.activity
            # A pause between two words of one command is shorter than resume_after_quiet.
            mid_command = activity.heard_speech and (
                activity.is_speaking or activity.trailing_quiet < self.resume_after_quiet)
            if mid_command and self._held_seconds < self.resync_limit:
                self._skipped_speech = self._skipped_speech or self._player_heard
                return
            self._resyncing = False
            # The player was still talking when the game stopped: lost, unless already said.
            lost = self._skipped_speech and not self._drop_reported
            self._skipped_speech = False
            self._forget_utterance()
            if lost:
                self._dropped(start)
            self._drop_reported = False
        if not self._feeding:
            self._timeline.add(self._fed_seconds, block.start)
            self._feeding = True
            self._feeding_from = block.start
        results = self._call_recognizer(lambda: self.recognizer.accept_audio(block.pcm))
        self._fed_seconds += block.duration
        self._deliver(results)

    def _flush_mask(self) -> None:
        """The source ended: what the mask still holds is heard (or quieted) now."""
        if self.mask is None or not self._offsets:
            return
        offset = min(self._offsets)
        for judged in self.mask.flush():
            self._hear_judged(judged, offset)

    def _is_game_audible(self, start: float) -> bool:
        """Whether the game's sound (or its echo in the room) may be in audio from `start`."""
        return self.echo is not None and self.echo.far_heard_until > start - self.gate.tail

    def _is_nothing_playing(self, start: float) -> bool:
        """Whether the game has been silent long enough that a voice now is the player's.
        Without a far end to ask, any voice counts."""
        if self.echo is None:
            return True
        return self.echo.far_heard_until < start - self.gate.tail

    def _forget_utterance(self) -> None:
        self.activity.reset_utterance()
        self._player_heard = False
        self._player_found = False

    def _watch_microphone(self, block: AudioBlock, start: float) -> None:
        """What the microphone itself sends, before any canceller: digital silence that
        lasts is told (a muted microphone loses every command without a word)."""
        news = self.microphone_watch.hear(block.pcm, block.duration)
        if news is None or self.talk is None:
            return
        if news is MicrophoneNews.SILENT:
            self._notify(self.talk.microphone_silent, start)
        else:
            self._notify(self.talk.microphone_back, start)

    def _watch_talk(self, block: AudioBlock, microphone: np.ndarray, start: float) -> None:
        """Barge-in: the player's voice while the game speaks hushes, then stops, the game."""
        if self.talk_over is None:
            return
        samples = np.frombuffer(block.pcm, dtype="<i2")
        far = self.echo.last_far[:len(samples)] if self.echo is not None else None
        linear = self.echo.last_linear if self.echo is not None else None
        audible = self._is_game_audible(start)
        lapsed = self.talk_over.false_hushes
        self.talk_over.watch(samples, microphone[:len(samples)], far, start,
                             start + block.duration, audible, self.clock.now(), linear)
        self._watch_room(lapsed)
        if self.detector.talking and any(self.detector.last_loud):
            self._player_found = True  # not the quiet that ends their words: their voice
        if self.mask is not None:  # only a masked listener asks it (`near_end`)
            self.evidence.record(block.start, self.detector.last_loud,
                                 (audible or self.detector.echo_lingers)
                                 and self.detector.game_reaches_microphone)

    def _watch_room(self, lapsed: int) -> None:
        """The room watch: a false hush since `lapsed` may show the room too lively to
        listen over the game; once fallen back, the game reaching the microphone far less
        (turned down, headphones on) shows it calmer."""
        watch, talk_over, detector = self.room_watch, self.talk_over, self.detector
        if watch is None or talk_over is None:
            return
        if self._hooks_over_the_game is None:
            if talk_over.false_hushes > lapsed and watch.false_hush(
                    talk_over.false_hushed_at[-1], detector.echo_gain,
                    detector.game_reaches_microphone):
                self.fall_back_to_watched_guard()
        elif not detector.talking and not self._feeding \
                and watch.calmer(detector.echo_gain, detector.game_reaches_microphone):
            self.listen_over_the_game_again()

    def fall_back_to_watched_guard(self) -> None:
        """From listening over the game (`always`) to the watched echo guard: the game's
        voice is put back and what it held goes on, nothing heard under it is acted on,
        and the player is told (`talk.fell_back`), until the room watch finds the room
        calmer (`listen_over_the_game_again`). Only a listener whose recognizer hears
        through the mask can (the watched guard needs it)."""
        talk_over = self.talk_over
        if talk_over is None or self.mask is None or self.watch_under_guard:
            return
        now = self.clock.now()
        talk_over.answered(now)  # unhush, and let what was held go on
        self._hooks_over_the_game = talk_over.talk
        talk_over.talk = dataclasses.replace(talk_over.talk, barge_in=None, hush=None)
        self.gate.mode = "echo_guard"
        self.watch_under_guard = True
        self.fell_back_times.append(now)
        self._notify(talk_over.talk.fell_back, now)

    def listen_over_the_game_again(self) -> None:
        """Back from the watched guard the room watch fell back to, to listening over the
        game (`always`): the player can talk over it and interrupt it again, and is told
        (`talk.listening_again`)."""
        talk_over, hooks = self.talk_over, self._hooks_over_the_game
        if talk_over is None or hooks is None:
            return
        now = self.clock.now()
        talk_over.talk = hooks
        self._hooks_over_the_game = None
        self.gate.mode = "always"
        self.watch_under_guard = False
        self.listening_again_times.append(now)
        self._notify(hooks.listening_again, now)

    @property
    def fell_back_at(self) -> float | None:
        """When the listener first fell back to the watched echo guard (None: never)."""
        return self.fell_back_times[0] if self.fell_back_times else None

    @property
    def barge_ins(self) -> int:
        return self.talk_over.barge_ins if self.talk_over is not None else 0

    def _player_done(self) -> None:
        if self.talk_over is not None:
            self.talk_over.answered(self.clock.now())

    def _dropped(self, at: float) -> None:
        self._drop_reported = True
        self._lost(at)

    def _lost(self, at: float) -> None:
        """An utterance of the player's was lost because of the game's voice: tell them."""
        self.utterances_dropped += 1
        if self.talk is not None:
            self._notify(self.talk.dropped, at)

    def _notify(self, hook: Callable[[float], None], at: float) -> None:
        try:
            hook(at)
        except Exception as error:
            self._report(ListenerError(f"reporting the player's speech failed ({error!r}); "
                                       "still listening"))

    def _deliver(self, results: list[Recognition] | None) -> None:
        for result in results or []:
            if result.ends_last_command:
                # The command it ends has been acted on: neither a command nor a "Say
                # again?", wherever it was heard.
                self.tails_unsaid += 1
                log.debug("kept quiet, the end of the command before it: %r", result.text)
                self._forget_utterance()
                self._player_done()
                continue
            mapped = self._timeline.to_source(result)
            recognizer_accepts = not mapped.rejected
            if self.spoken is not None and self._offsets:
                judged = refused_if_echo(mapped, self.spoken, min(self._offsets),
                                         self.evidence)
                self.self_echoes += judged is not mapped
                mapped = judged
            if self.mask is not None:
                judged = refused_if_unvoiced(mapped, self.evidence, self.near_end_minimum,
                                             WINDOW_BEFORE)
                self.unvoiced_refusals += judged.rejected and not mapped.rejected
                mapped = refused_if_tie_broken_over_the_game(judged, self.evidence,
                                                             WINDOW_BEFORE)
                if self.disputed_lead is not None:
                    mapped = refused_if_disputed_over_the_game(mapped, self.evidence,
                                                               WINDOW_BEFORE, self.disputed_lead)
            if self.over_game is not None:
                mapped = self._decided_over_game(mapped, recognizer_accepts)
            if mapped.is_final and mapped.text and self._under_guard(mapped):
                # Heard under the game's voice: the echo guard does not act on it, and
                # says so rather than let the player wait for an answer that never comes,
                # unless it was the game's own voice (too little of the player's in it,
                # or the game's words around it), which nobody is waiting on.
                self._forget_utterance()
                self._player_done()
                if self._voiced_by_player(mapped):
                    self._lost(self.clock.now())
                continue
            if mapped.is_final and self._nobody_waits_on(mapped):
                # Whatever the recognizer made of the game's own voice and refused: a
                # "Say again?" would ask nobody, and break into the game's next words.
                self.refusals_unsaid += 1
                log.debug("kept quiet, as the game's own voice: %r at %.2f-%.2f s",
                          mapped.text, *mapped.speech_span)
                self._forget_utterance()
                self._player_done()
                continue
            if mapped.is_final:
                if mapped.rejected:  # which check refused it, for --log (plain words to the player)
                    log.debug("refused %r at %.2f-%.2f s: %s", mapped.text, *mapped.speech_span,
                              {key: round(value, 3)
                               for key, value in (mapped.scores or {}).items()})
                if mapped.text:  # a cough must not close a push-to-talk window
                    self.gate.utterance_finished(self.clock.now())
                self._forget_utterance()
                self._player_done()
                self._callback(self._on_result, mapped)
            elif self._on_partial is not None:
                self._callback(self._on_partial, mapped)

    def _under_guard(self, result: Recognition) -> bool:
        """With `watch_under_guard`: whether the echo guard would have kept any of
        `result`'s speech from the recognizer (the game speaking, or its echo's tail)."""
        if not self.watch_under_guard or not self._offsets:
            return False
        start, end = result.speech_span
        offset = min(self._offsets)
        return not self.gate.admits(offset + start, offset + max(end, start))

    def _nobody_waits_on(self, result: Recognition) -> bool:
        """With the mask: whether `result`, a final the recognizer refused (or found no
        words in), was heard while the game could be heard and not one of its frames was
        judged a voice other than the game's: what the canceller left of the game's own
        voice. Any frame of the player's, and it is answered: on the room benchmark's
        tuning split, asking for a twentieth of them (`GUARD_PROMPT_MINIMUM`) would have
        left 25 more of 406 commands lost over the game without a word, for 25 fewer
        questions to nobody in the narration's 72 minutes; asking for one frame, 2 more,
        for 16 fewer (`docs/listening-record.md`)."""
        if self.mask is None or not self.quiet_own_refusals or not result.unusable:
            return False
        if not game_heard_around(result, self.evidence, WINDOW_BEFORE):
            return False
        return self.evidence.speech_share(*result.speech_span) == 0.0

    def _voiced_by_player(self, result: Recognition) -> bool:
        """Whether a final heard under the game's voice (`_under_guard`, so the clock
        offset is known), accepted or refused, carried the player's voice: enough of its
        frames judged theirs, and not the game's own words around it (`self_echo`)."""
        start, end = result.speech_span
        if not self._voiced_between(start, end):
            return False
        if self.spoken is None:
            return True
        as_command = dataclasses.replace(result, rejected=False)
        return not refused_if_echo(as_command, self.spoken, min(self._offsets)).rejected

    def _voiced_between(self, start: float, end: float) -> bool:
        """Whether at least `guard_prompt_minimum` of the frames from stream time `start`
        to `end` were judged the player's voice."""
        share = self.evidence.speech_share(start, end)
        return share is not None and share >= self.guard_prompt_minimum

    def _decided_over_game(self, result: Recognition, recognizer_accepts: bool) -> Recognition:
        """A final command heard while the game could be heard, accepted or refused by the
        over-the-game model; any other result, or one the listener's own checks refused,
        as it is (`over_game.shares_if_asked`)."""
        if self.over_game is None:
            return result
        shares = shares_if_asked(result, self.evidence, self.near_end_minimum)
        if shares is None:
            return result
        judged = decided(result, self.over_game, recognizer_accepts, *shares)
        self.over_game_taken += result.rejected and not judged.rejected
        self.over_game_refused += judged.rejected and not result.rejected
        return judged

    def _callback(self, handler: Callable[[Recognition], None], result: Recognition) -> None:
        try:
            handler(result)
        except Exception as error:
            self._report(ListenerError(f"handling {result.text!r} failed ({error!r}); "
                                       "still listening"))

    def _call_recognizer(self, call: Callable[[], _T]) -> _T:
        try:
            return call()
        except Exception as error:
            raise _RecognizerFailedError(error) from error

    def _source_failed(self, error: Exception) -> bool:
        """Report a source failure; True to try the source again."""
        if not isinstance(error, VoiceSpitError):
            error = ListenerError(f"voice input failed ({error!r})")
        if self._source_healthy or self.reconnect_after is None:
            self._report(error)  # once per outage, not at every failed reconnection
        self._source_healthy = False
        if self.reconnect_after is None:
            return False
        self._wakeup.clear()
        if self._stopping.is_set():  # stop() came before the clear: do not wait for the timer
            return False
        timer = self.clock.call_later(self.reconnect_after, self._wakeup.set)
        self._wakeup.wait()
        timer.cancel()
        self._feeding = False
        self._offsets.clear()  # the gap broke the link between stream time and the clock
        if self.mask is not None:
            self.mask.clear()
        if self.echo is not None:
            self.echo.reset()
            self.detector.canceller_restarted()
        self._call_recognizer(self.recognizer.reset)
        return not self._stopping.is_set()

    def _report(self, error: VoiceSpitError) -> None:
        self.errors.append(error)
        if self._on_error is not None:
            # A broken error handler must not hide the error itself (it is in self.errors).
            with contextlib.suppress(Exception):
                self._on_error(error)


class _RecognizerFailedError(Exception):
    def __init__(self, cause: Exception) -> None:
        super().__init__(str(cause))
        self.cause = cause
