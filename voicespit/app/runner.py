"""The playable game: wires the session to sound, voice, keyboard and the profile.

`App.run()` greets the player, says how it will listen (or why it fell back to
the keyboard), and serves games until the player leaves, Ctrl-C is pressed, the
input ends, or SIGTERM arrives. The profile is saved after every game and on
the way out, atomically, so no way of stopping can damage it.
"""

from __future__ import annotations

import contextlib
import functools
import logging
import signal
import sys
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType
from typing import TextIO

from voicespit.app.build import (
    MatchFactory,
    match_settings_from,
    narrator_from,
    pace_from,
    rules_for_game,
    speech_settings_from,
    text_only_speaker,
)
from voicespit.app.keyboard import KeyboardInput
from voicespit.app.session import Session, SessionHooks
from voicespit.app.tutorial import TutorialFactory
from voicespit.app.voice import VoiceInput, open_voice_input
from voicespit.audio.announcer import Announcer, TextMirror
from voicespit.audio.output import Output
from voicespit.audio.speaker import Speaker
from voicespit.clock import Clock, RealClock
from voicespit.config import Settings, data_directory
from voicespit.engine import Rules
from voicespit.errors import VoiceSpitError
from voicespit.narration.answers import sentence
from voicespit.profile import Profile, ProfileError, ProfileStore
from voicespit.speech.language.commands import Command, Verb
from voicespit.speech.language.help import overview
from voicespit.speech.listening.far_end import PlaybackReference

log = logging.getLogger(__name__)


@dataclass
class LaunchOptions:
    """What the command line adds to the settings."""

    seed: int | None = None
    script: Path | None = None
    """With input "wav": the script of recorded commands."""
    profile_dir: Path | None = None
    stdin: TextIO = field(default_factory=lambda: sys.stdin)
    stdout: TextIO = field(default_factory=lambda: sys.stdout)
    make_clock: Callable[[], Clock] = RealClock
    tutorial: bool = False
    """Begin with the spoken tutorial (`--tutorial`)."""
    variants: tuple[str, ...] = ()
    """The `--variant` flags: they apply to a game asked for by name later, where they can."""
    flagged: frozenset[str] = frozenset()
    """Output settings given as flags ("rate", "voice", "verbosity"): for this run they win
    over what the profile remembers of the player's last choice by voice."""


class App:
    def __init__(self, settings: Settings, rules: Rules, options: LaunchOptions) -> None:
        self.settings = settings
        self.rules = rules
        self.options = options
        self.store = ProfileStore(options.profile_dir or data_directory())
        self.profile, self.profile_message = self.store.load(settings.play.profile)
        self._left = threading.Event()
        self._save_lock = threading.Lock()
        self._save_failing = False
        """The last save failed and the player was told; told again only after a success."""
        self.session: Session | None = None
        self.voice: VoiceInput | None = None
        self.keyboard: KeyboardInput | None = None
        self._output: Output | None = None
        self.playback: PlaybackReference | None = None
        """What the loudspeakers play, for the echo canceller (None: no loudspeaker)."""

    # ---------------------------------------------------------------- parts

    def _speaker(self) -> tuple[Speaker, str | None]:
        speech = speech_settings_from(self.settings, self.profile, self.options.flagged)
        if not self.settings.output.audio:
            return text_only_speaker(speech), None
        try:
            from voicespit.audio.output import Mixer, open_output
            from voicespit.audio.speaker import LiveSpeaker
            from voicespit.audio.tts import Pyttsx3Renderer

            renderer = Pyttsx3Renderer()
            mixer = Mixer(renderer.sample_rate)
            notes: list[str] = []
            self._output = open_output(mixer, report=notes.append, on_lost=self._tell)
            if not self._output.is_silent:
                self.playback = PlaybackReference(mixer.sample_rate)
                mixer.add_tap(self.playback.push)
            speaker = LiveSpeaker(renderer, mixer, settings=speech)
            speaker.on_trouble(self._tell)
        except VoiceSpitError as error:
            log.info("speech output: %s (%s)", error, error.detail or "no more detail")
            return text_only_speaker(speech), f"No speech: {error}. Everything is printed."
        if not notes:
            return speaker, None
        return speaker, sentence(notes[0].removeprefix("voicespit: "))

    def save_profile(self, profile: Profile) -> None:
        """Save atomically. A save that fails (a full or read-only disk) is told once, in
        plain words, and the game goes on: the file on disk stays the old, whole profile,
        and the next save (after the next game) tries again."""
        with self._save_lock:
            try:
                self.store.save(profile)
            except ProfileError as error:
                log.warning("profile not saved: %s (%s)", error, error.detail)
                if not self._save_failing:
                    self._save_failing = True
                    self._tell(f"{sentence(str(error))} Your saved profile is kept as it was, "
                               "and the game goes on.")
            else:
                self._save_failing = False

    def _tell(self, text: str) -> None:
        """Say something to the player from outside the session's own flow."""
        if self.session is not None:
            self.session.say(text)
        else:
            print(f"voicespit: {text}", file=sys.stderr)

    # ------------------------------------------------------------------ run

    def run(self) -> int:
        out = self.options.stdout
        speaker, sound_note = self._speaker()
        mirror = TextMirror(out)
        narrator = narrator_from(self.settings, self.profile,
                                 " ".join(overview(self.rules.game, slap=self.rules.slap)),
                                 self.options.flagged)
        announcer = Announcer(narrator, speaker, mirror)
        pace = pace_from(self.settings.opponent.pace, self.settings.opponent.target_win_rate,
                         self.profile.opponent_seconds_per_card)
        match_settings = match_settings_from(self.settings)
        factory = MatchFactory(match_settings, pace, self.options.seed, self.options.make_clock)
        hooks = SessionHooks(leave=self._left.set, profile_changed=self.save_profile)
        session = Session(self.rules, announcer, speaker, factory, pace, self.profile, hooks,
                          echo_plays=self.settings.output.echo_plays,
                          tutorials=TutorialFactory(match_settings, self.options.make_clock),
                          rules_for=functools.partial(rules_for_game, self.settings,
                                                      self.options.variants),
                          match_settings=match_settings)
        self.session = session
        speaker.on_announcement_finished(session.announcement_finished)
        voice, report = open_voice_input(self.settings, self.options.script, session, speaker,
                                         playback=self.playback)
        self.voice = voice
        if voice is None:
            # Typing only: the spoken help includes the keys.
            hooks.keys_in_help = True
        if sound_note:
            session.say(sound_note)
        if self.profile_message:
            session.say(self.profile_message)
        details = " ".join(part for part in (report.details, sound_note) if part)
        session.greet(report.summary, by_voice=report.by_voice, details=details,
                      tutorial=self.options.tutorial)
        if self.options.tutorial:
            session.handle_command(Command(Verb.TUTORIAL))
        self.keyboard = KeyboardInput(session, self.options.stdin, out,
                                      talk=voice.talk if voice is not None else None,
                                      leave_at_end=voice is None)
        reader = threading.Thread(target=self.keyboard.run, name="keyboard", daemon=True)
        status = 0
        try:
            with _stop_on_sigterm():
                if voice is not None:
                    voice.start()
                reader.start()
                while not self._left.wait(0.2):
                    pass
        except _Terminated:
            status = 128 + signal.SIGTERM
            session.leave()
        except KeyboardInterrupt:
            # The shell's convention for Ctrl-C, so a script can tell it from a normal end.
            status = 128 + signal.SIGINT
            session.leave()
        finally:
            self.keyboard.stop()
            if voice is not None:
                voice.stop()
            session.close()
            self.save_profile(self.profile)
            _let_goodbye_play(speaker)
            speaker.close()
            if self._output is not None:
                self._output.close()
            if self.playback is not None:
                self.playback.close()
            reader.join(timeout=1.0)
        return status


def _let_goodbye_play(speaker: Speaker) -> None:
    wait = getattr(speaker, "wait_until_idle", None)
    if callable(wait):
        wait(3.0)


class _Terminated(KeyboardInterrupt):
    """SIGTERM arrived: ended like Ctrl-C, with its own exit status."""


@contextlib.contextmanager
def _stop_on_sigterm() -> Iterator[None]:
    """SIGTERM ends the session like Ctrl-C: cleanly, with the profile saved."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def interrupt(signum: int, frame: FrameType | None) -> None:
        raise _Terminated

    previous = signal.signal(signal.SIGTERM, interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)
