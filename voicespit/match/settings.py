"""How a match runs around the rules: each field a player's setting."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class MatchSettings:
    auto_start: bool = False
    """Start each round without waiting for anybody to say "ready" or "spit"."""
    auto_spit: bool = True
    """At a stalemate, count down and spit by itself (RULES.md: on by default), starting
    once the stalemate has been heard."""
    countdown_from: int = 3
    """The countdown before each spit: 3, 2, 1 (0: spit at once)."""
    countdown_step_seconds: float = 1.0
    slap_window_seconds: float = 5.0
    """How long the slap race stays open (from when the round's end is heard); at its
    end the computer's hand lands."""
    wait_for_announcements: bool = False
    """Players hear a change only when the audio layer reports it spoken."""
    announcement_timeout_seconds: float = 8.0
    """A change nobody reports spoken counts as heard after this long."""
