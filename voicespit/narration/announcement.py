"""What one announcement is: words, a cue, how urgent, and what it is about.

The vocabulary narration speaks in and the audio layer plays from (`Announcement`,
`Priority`, `Cue`, `Verbosity`). Pure data: nothing here decides what to say.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass


class Verbosity(enum.Enum):
    FULL = "full"
    """Everything a sighted player could see, including the opponent's new cards."""
    NORMAL = "normal"
    """Every pile change, your own new cards and renumbered stockpiles, and the course
    of the game."""
    TERSE = "terse"
    """Ranks only for pile changes and your new cards; cues carry the rest (a stockpile
    renumbered is a cue alone). Ask for anything else."""


class Priority(enum.IntEnum):
    LOW = 0
    """Nice to know; dropped when it waits too long."""
    NORMAL = 1
    """Pile changes and your cards: spoken in order, stale ones replaced."""
    HIGH = 2
    """Answers and round events: jump the queue but do not cut speech off."""
    URGENT = 3
    """Slap now, the spit countdown, your move refused: cut in at once."""


class Cue(enum.Enum):
    """The earcons. Per-card cues are panned by pile and pitched by rank."""

    YOUR_PLAY = "your play"
    OPPONENT_PLAY = "opponent's play"
    CARD_SPAT = "spit card"
    REFUSED = "refused"
    NOT_UNDERSTOOD = "not understood"
    STALEMATE = "stalemate"
    COUNTDOWN = "countdown"
    SLAP_NOW = "slap now"
    ROUND_WON = "round won"
    ROUND_LOST = "round lost"
    GAME_OVER = "game over"
    NEW_CARD = "your new card"
    """One of your cards turned up or drawn: pitched by rank, panned by stockpile."""
    CARD_MOVED = "your card moved"
    """A card moved into an empty stockpile slot (the numbers changed): panned to the slot."""


@dataclass(frozen=True, slots=True)
class Announcement:
    """One thing to tell the player: words, a cue, or both."""

    text: str
    """What to say; "" when the cue says it all."""
    topic: str
    """What it is about ("pile:left"); a newer announcement on the same topic replaces it."""
    priority: Priority = Priority.NORMAL
    cue: Cue | None = None
    pan: float = 0.0
    """-1 (left pile, stockpile one) .. 1 (right pile, the last stockpile) for the cue;
    0 is the centre."""
    rank: int | None = None
    """The card rank that pitches the cue (0 ace .. 12 king), if it is about a card."""
    about: int | None = None
    """The seat it is about: 0 you, 1 the opponent (in the opponent's voice), None the game."""
    line: str = ""
    """The text-mirror line when it must say more than `text` (whose card it was)."""
    sequence: int | None = None
    """The `Stamped.sequence` of the event it came from; None for answers."""
    lifetime: float | None = None
    """Seconds it stays worth saying while it waits in the queue; None: until replaced."""
    flush: bool = False
    """Drop everything of lower priority still waiting (the round is over: old news)."""

    @property
    def mirror_line(self) -> str:
        """The plain text line for screen readers and logs."""
        return self.line or self.text
