"""The match's audio listener: events -> narration -> the speaker and the text mirror.

    announcer = Announcer(Narrator(verbosity), speaker, TextMirror(sys.stdout))
    match.subscribe(lambda stamped: announcer.announce(stamped, match.state))

Every announcement becomes one plain text line (the text mirror) at the moment it
is made, whether or not it is spoken later: a screen reader, a log or a test can
follow the whole game from it, with or without a sound card. An event with
nothing to say is still reported to the speaker, so the match hears that it is
"heard" once what came before it is.
"""

from __future__ import annotations

import logging
import sys
from typing import TextIO

from voicespit.audio.speaker import Speaker
from voicespit.clock import Clock
from voicespit.match.events import Stamped
from voicespit.narration.announcement import Announcement
from voicespit.narration.narrator import Narrator, State

log = logging.getLogger(__name__)


class TextMirror:
    """Writes each announcement as one line, in order; with a clock, prefixed by the time."""

    def __init__(self, stream: TextIO | None = None, clock: Clock | None = None,
                 start: float = 0.0) -> None:
        self.stream = stream if stream is not None else sys.stdout
        self.clock = clock
        self.start = start
        self.lines: list[str] = []

    def write(self, announcement: Announcement) -> None:
        line = announcement.mirror_line
        if not line:
            return
        if self.clock is not None:
            line = f"{self.clock.now() - self.start:9.3f}  {line}"
        self.lines.append(line)
        self.stream.write(line + "\n")
        self.stream.flush()


class Announcer:
    """Connects a narrator, a speaker and a text mirror; call it from the match's thread."""

    def __init__(self, narrator: Narrator, speaker: Speaker,
                 mirror: TextMirror | None = None) -> None:
        self.narrator = narrator
        self.speaker = speaker
        self.mirror = mirror

    def announce(self, stamped: Stamped, state: State) -> list[Announcement]:
        """Narrate one published event and present what it produced."""
        announcements = self.narrator.narrate(stamped, state)
        if not announcements:
            self.speaker.note_silent(stamped.sequence)
        for announcement in announcements:
            self.present(announcement)
        return announcements

    def answer(self, query: str, state: State, player: int | None = None) -> Announcement:
        """Answer an information command ("piles", "my cards", "repeat", ...)."""
        announcement = self.narrator.answer(query, state, player)
        self.present(announcement)
        return announcement

    def not_understood(self, heard: str = "", typed: bool = False) -> Announcement:
        announcement = self.narrator.not_understood(heard, typed)
        self.present(announcement)
        return announcement

    def cut_by_player(self, announcement: Announcement) -> None:
        """The player talked over `announcement` and stopped it: "say again" says it."""
        if announcement.text:
            self.narrator.last = announcement

    def present(self, announcement: Announcement) -> None:
        """Print and say one announcement; "say again" will repeat it."""
        self.narrator.remember(announcement)
        if announcement.mirror_line:
            log.debug("said: %s", announcement.mirror_line)
        if self.mirror is not None:
            self.mirror.write(announcement)
        self.speaker.say(announcement)
