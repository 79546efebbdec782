"""Voice input for the session: a source, the listening gate, a recognizer, the state's prior.

**Narrowing never forces a choice.** The recognizer always listens for the whole
grammar, so a rank the player does not hold is heard as itself and refused with
a reason ("You have no seven."), never taken for one they hold. The table only
sets a prior: the sentences that can matter now (`prior_for`: every rank alike
whenever a card can be played) get a small bonus in recognizers that can weigh
sentences (Whisper), which breaks near-ties between what can be done and what
cannot, and never between one card and another.

The recognizer is only ever called from the listener's thread: the referee
thread hands over the preferred sentences, and the recognizer picks them up
before the next block it hears.
"""

from __future__ import annotations

import logging
import re
import threading
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol, runtime_checkable

from voicespit.app.listening import (
    FELL_BACK,
    FELL_BACK_AGAIN,
    LISTENING_AGAIN,
    LIVELY_ROOM,
    MICROPHONE_BACK,
    MICROPHONE_SILENT,
    SENTENCES,
    Listening,
    choose_listening,
)
from voicespit.app.session import Session
from voicespit.app.wav_script import ScriptSource
from voicespit.audio.speaker import Speaker
from voicespit.clock import Clock, RealClock
from voicespit.config import Settings
from voicespit.errors import VoiceSpitError
from voicespit.match.intents import State
from voicespit.narration.announcement import Priority
from voicespit.narration.answers import sentence
from voicespit.speech.language.commands import GrammarContext
from voicespit.speech.language.context import prior_for
from voicespit.speech.language.grammar import sentences
from voicespit.speech.listening.echo import EchoStage
from voicespit.speech.listening.far_end import PlaybackReference
from voicespit.speech.listening.gate import ListeningGate
from voicespit.speech.listening.listener import Listener, VoiceStoppedError
from voicespit.speech.listening.room_watch import RoomWatch
from voicespit.speech.listening.self_echo import SpokenWords
from voicespit.speech.listening.sources import BLOCK_SECONDS, AudioSource
from voicespit.speech.listening.talk_over import TalkHooks
from voicespit.speech.recognizer import Recognition, Recognizer

HUMAN = 0
KEYBOARD_ADVICE = "Type your commands and press enter, or press question mark for the keys."
log = logging.getLogger(__name__)


@runtime_checkable
class ReportsTrouble(Protocol):
    """A recognizer that says when it recovered from a failure of its own."""

    on_trouble: Callable[[str], None] | None


class NarrowingRecognizer:
    """A recognizer whose prior follows the table, changed only on its own thread."""

    def __init__(self, inner: Recognizer) -> None:
        self.inner = inner
        self.name = inner.name
        self._wanted: list[str] | None = None
        self._preferred: list[str] | None = None
        self._lock = threading.Lock()
        self.changes = 0
        """How many times the prior was handed to the recognizer."""

    def prefer(self, phrases: list[str]) -> None:
        """From any thread: the sentences the table makes likely now."""
        with self._lock:
            self._preferred = phrases

    def set_phrases(self, phrases: Sequence[str]) -> None:
        with self._lock:
            self._wanted = list(phrases)

    def set_prior(self, preferred: Collection[str]) -> None:
        self.prefer(list(preferred))

    def _apply(self) -> None:
        with self._lock:
            wanted, self._wanted = self._wanted, None
            preferred, self._preferred = self._preferred, None
        if wanted is not None:
            self.inner.set_phrases(wanted)
        if preferred is not None:
            self.inner.set_prior(preferred)
            self.changes += 1

    def accept_audio(self, pcm: bytes) -> list[Recognition]:
        self._apply()
        return self.inner.accept_audio(pcm)

    def finish(self) -> list[Recognition]:
        return self.inner.finish()

    def reset(self) -> None:
        self.inner.reset()


class VoiceCommands:
    """What the session does with recognitions, and the vocabulary it wants next."""

    def __init__(self, session: Session, recognizer: NarrowingRecognizer,
                 narrow: bool = True) -> None:
        self.session = session
        self.recognizer = recognizer
        self.narrow = narrow
        """Use the table as a prior (it never narrows what can be heard)."""
        self._context: GrammarContext | None = None

    def table_changed(self, state: State) -> None:
        """On the referee thread: favour what can matter now."""
        if not self.narrow:
            return
        context = prior_for(state, HUMAN)
        if context != self._context:
            self._context = context
            self.recognizer.prefer(sentences(context))

    def on_recognition(self, recognition: Recognition) -> None:
        if not recognition.is_final:
            return
        if recognition.unusable:
            self.session.handle_unheard(measured=recognition.scores)
        else:
            self.session.handle_text(recognition.text, spoken=True)


class VoiceInput:
    """The listener thread feeding `VoiceCommands`; a scripted source ends the session."""

    def __init__(self, source: AudioSource, recognizer: Recognizer, gate: ListeningGate,
                 session: Session, clock: Clock, *, narrow: bool = True,
                 leave_at_end: bool = False, echo: EchoStage | None = None,
                 barge_in: bool = False, watch_under_guard: bool = False,
                 watch_room: bool = False) -> None:
        """`echo`: cancel (or at least follow) what the loudspeakers play. `barge_in`: the
        player's voice over the game stops the speaker (and, through a canceller, a
        command that only repeats the game's own words around it is refused).
        `watch_under_guard`: the echo guard, watched through the canceller: a command
        said under the game's voice is answered "I was talking: say it again".
        `watch_room`: with `barge_in`, fall back to that watched guard, and say so, if the
        room turns out too lively to listen through the game, and come back to listening
        over it, saying so too, once the game is turned down or headphones are on
        (`room_watch`)."""
        self.session = session
        self.gate = gate
        self.clock = clock
        self.recognizer = NarrowingRecognizer(recognizer)
        self.commands = VoiceCommands(session, self.recognizer, narrow)
        self.leave_at_end = leave_at_end
        self._stopping = threading.Event()
        self.stopped_working = threading.Event()
        """Set when the recognizer failed: the game goes on by keyboard."""
        if isinstance(recognizer, ReportsTrouble):
            recognizer.on_trouble = self._recovered
        speaker = session.speaker
        talk = TalkHooks(barge_in=speaker.barge_in if barge_in else None,
                         player_done=speaker.player_done,
                         hush=speaker.hush if barge_in else None,
                         dropped=lambda _at: session.handle_dropped(),
                         fell_back=self._fell_back, listening_again=self._listening_again,
                         microphone_silent=lambda _at: session.say(MICROPHONE_SILENT),
                         microphone_back=lambda _at: session.say(MICROPHONE_BACK))
        spoken = SpokenWords()
        speaker.on_words_played(spoken.played)
        self.listener = Listener(source, self.recognizer, gate, self.commands.on_recognition,
                                 clock, on_error=self._on_error, echo=echo, talk=talk,
                                 spoken=spoken, watch_under_guard=watch_under_guard,
                                 room_watch=RoomWatch() if watch_room else None)

    def start(self) -> None:
        self.listener.start()
        if self.leave_at_end:
            threading.Thread(target=self._leave_when_done, name="script-end", daemon=True).start()

    def stop(self) -> None:
        self._stopping.set()
        self.listener.stop()

    def talk(self) -> None:
        """The push-to-talk key."""
        self.gate.talk_key_pressed(self.clock.now())

    def table_changed(self, state: State) -> None:
        self.commands.table_changed(state)

    def _leave_when_done(self) -> None:
        self.listener.wait()
        if not self._stopping.is_set() and not self.stopped_working.is_set():
            self.session.leave()

    def _on_error(self, error: VoiceSpitError) -> None:
        log.warning("voice input: %s (%s)", error, error.detail or "no more detail")
        if isinstance(error, VoiceStoppedError):
            # The keyboard reader runs all along: say so, and the help now names the keys.
            self.stopped_working.set()
            self.session.hooks.keys_in_help = True
            self.session.say(f"{sentence(str(error))} {KEYBOARD_ADVICE}")
        else:
            self.session.say(f"Voice input: {error}")

    def _fell_back(self, _at: float) -> None:
        """The room is too lively to listen through the game: say so, now and when asked
        (shorter the next times: the player turned the game down, not far enough)."""
        again = len(self.listener.fell_back_times) > 1
        self.session.say(FELL_BACK_AGAIN if again else FELL_BACK)
        self.session.setup = self.session.setup.replace(SENTENCES["always"], LIVELY_ROOM)

    def _listening_again(self, _at: float) -> None:
        """The game was turned down, or headphones put on: say it listens over itself again."""
        self.session.say(LISTENING_AGAIN)
        self.session.setup = self.session.setup.replace(LIVELY_ROOM, SENTENCES["always"])

    def _recovered(self, text: str) -> None:
        log.warning("voice input: %s", text)
        self.session.say(text, Priority.NORMAL)


@dataclass(frozen=True)
class InputReport:
    """How the player's commands reach the game, for the greeting and "how do you hear me"."""

    summary: str
    """A few words for the greeting: "by voice with PocketSphinx", "by keyboard"."""
    details: str = ""
    """Whole sentences, fit to speak (never a path): the recognizer and why, the device,
    when the game listens, or why the keyboard is used instead."""
    log: str = ""
    """The same with everything a technician needs (paths, library messages)."""

    @property
    def by_voice(self) -> bool:
        return self.summary.startswith("by voice")


KEYBOARD = InputReport("by keyboard", KEYBOARD_ADVICE)
MIC_ADVICE = "Plug in a microphone and start again, or play with --input keyboard."


def without_paths(text: str) -> str:
    """`text` with every file path cut to its last part ("in /home/x/models" -> "in models")."""
    return re.sub(r"(?<![\w.~])(?:~|\.{1,2})?/[^\s,;:()]*[^\s,;:().]",
                  lambda found: Path(found.group(0)).name or found.group(0), text)


def open_voice_input(settings: Settings, script: Path | None, session: Session,
                     speaker: Speaker, clock: Clock | None = None,
                     playback: PlaybackReference | None = None,
                     listening: Listening | None = None) -> tuple[VoiceInput | None, InputReport]:
    """Voice input as the settings ask, or None and why the keyboard is used instead.

    `input = "mic"` (or "wav") is a promise: without a microphone (or a recognizer)
    it raises a VoiceSpitError saying what to do, rather than falling back quietly.
    `playback`: what the loudspeakers play (None: nothing goes out of a loudspeaker).
    `listening`: the mode already chosen (default: chosen here from the settings).
    """
    kind = settings.input.input
    if kind == "keyboard":
        return None, KEYBOARD
    clock = clock or RealClock()
    source: AudioSource
    where: str
    try:
        if kind == "wav":
            if script is None:
                raise VoiceSpitError("--input wav needs --script FILE")
            source = ScriptSource(script, clock)
            where = f"the script {script.name}"
        else:
            from voicespit.speech.listening.microphone import MicrophoneSource

            device: str | int | None = settings.input.microphone or None
            if isinstance(device, str) and device.isdigit():
                device = int(device)
            # 30 ms blocks: the player's voice over the game must stop it within 100 ms.
            microphone = MicrophoneSource(device, block_seconds=BLOCK_SECONDS)
            microphone.open()
            source = microphone
            where = microphone.description or "the microphone"
    except VoiceSpitError as error:
        log.info("voice input: %s (%s)", error, error.detail or "no more detail")
        if kind == "wav":
            raise
        if kind == "mic":
            raise VoiceSpitError(f"{sentence(str(error))} {MIC_ADVICE}",
                                 detail=error.detail) from None
        return None, InputReport(f"by keyboard ({error})",
                                 f"{sentence(str(error))} {KEYBOARD_ADVICE}",
                                 f"{error}: {error.detail}")
    try:
        from voicespit.speech.recognizers.models import default_models_dir
        from voicespit.speech.recognizers.select import make_recognizer

        models_dir = Path(settings.input.models_dir) if settings.input.models_dir \
            else default_models_dir()
        recognizer, which = make_recognizer(settings.input.recognizer,  # type: ignore[arg-type]
                                            models_dir=models_dir,
                                            model=settings.input.vosk_model or None,
                                            whisper_model=settings.input.whisper_model or None)
    except VoiceSpitError as error:
        source.close()
        log.info("speech recognition: %s (%s)", error, error.detail or "no more detail")
        if kind in ("wav", "mic"):
            raise
        return None, InputReport("by keyboard (speech recognition is off)",
                                 f"Speech recognition is off: {without_paths(str(error))}. "
                                 f"{KEYBOARD_ADVICE}", str(error))
    if listening is None:
        listening = choose_listening(settings.input.listen, loudspeaker=playback is not None)
    gate = ListeningGate(listening.mode, tail_ms=settings.input.echo_tail_ms)
    speaker.on_speaking_started(gate.speaking_started)
    speaker.on_speaking_finished(gate.speaking_finished)
    speaker.on_cut_by_player(session.announcer.cut_by_player)
    echo = EchoStage(listening.canceller, playback, linear=listening.linear) \
        if playback is not None else None
    voice = VoiceInput(source, recognizer, gate, session, clock, leave_at_end=kind == "wav",
                       echo=echo, barge_in=listening.barge_in,
                       watch_under_guard=listening.watched_guard,
                       watch_room=listening.watch_room)
    session.hooks.table_changed = voice.table_changed
    details = f"{which} Listening on {where}. {listening.sentence}"
    log.info("voice input: %s", details)
    return voice, InputReport(f"by voice with {_engine_name(recognizer.name)}",
                              without_paths(details), details)


def _engine_name(name: str) -> str:
    """The recognizer as a player would call it ("pocketsphinx" -> "PocketSphinx")."""
    return {"pocketsphinx": "PocketSphinx", "vosk": "Vosk"}.get(name, name.capitalize())
