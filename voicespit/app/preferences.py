"""Settings the player changes by voice: the speech rate and the detail, one step at a
time, within bounds. Each change returns what to say, or raises `AtTheLimitError`."""

from __future__ import annotations

from voicespit.audio.reports import MAX_RATE, MIN_RATE, RATE_STEP
from voicespit.audio.speaker import Speaker
from voicespit.errors import VoiceSpitError
from voicespit.narration.announcement import Verbosity
from voicespit.narration.narrator import Narrator
from voicespit.profile import Profile

VERBOSITY_ORDER = (Verbosity.TERSE, Verbosity.NORMAL, Verbosity.FULL)


class AtTheLimitError(VoiceSpitError):
    """No step further that way; the message says so."""


def step_rate(speaker: Speaker, profile: Profile, faster: bool) -> str:
    """Speak a step faster or slower (kept in the profile)."""
    rate = max(MIN_RATE, min(MAX_RATE, speaker.rate + (RATE_STEP if faster else -RATE_STEP)))
    if rate == speaker.rate:
        raise AtTheLimitError("that is as fast as I speak" if faster
                              else "that is as slow as I speak")
    speaker.set_rate(rate)
    profile.settings["rate"] = str(rate)
    return f"Speaking {'faster' if faster else 'slower'}: {rate} words a minute."


def step_detail(narrator: Narrator, profile: Profile, more: bool) -> str:
    """Say a step more or less of the game (kept in the profile)."""
    index = VERBOSITY_ORDER.index(narrator.verbosity) + (1 if more else -1)
    if not 0 <= index < len(VERBOSITY_ORDER):
        raise AtTheLimitError("that is already the most detail" if more
                              else "that is already the least")
    narrator.verbosity = VERBOSITY_ORDER[index]
    profile.settings["verbosity"] = narrator.verbosity.value
    return f"Detail: {narrator.verbosity.value}."
