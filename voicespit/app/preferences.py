"""Settings the player changes by voice: the speech rate, the volume, the voice and the
detail, one step at a time, within bounds. Each change returns what to say, or raises
`AtTheLimitError`."""

from __future__ import annotations

import math

from voicespit.app.game_in_play import HUMAN
from voicespit.audio.reports import MAX_RATE, MIN_RATE, RATE_STEP
from voicespit.audio.speaker import Speaker
from voicespit.errors import VoiceSpitError
from voicespit.narration.announcement import Verbosity
from voicespit.narration.narrator import Narrator
from voicespit.profile import Profile

VERBOSITY_ORDER = (Verbosity.TERSE, Verbosity.NORMAL, Verbosity.FULL)

VOLUME_LEVELS = 7
"""Volume levels the player steps through by voice: 7 is full, the game's default."""
VOLUME_STEP_DB = 4.0
"""Each level this much below the next: a step a listener hears at once (10 dB sounds
about half as loud), so the quietest, 24 dB below full, is still clearly audible. There is
no silent level by voice: a player who could no longer hear the game could not hear the
answer to "louder" either."""


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


def volume_level(volume: float) -> int:
    """The level nearest `volume` (0..1): 0 for silence, else 1..`VOLUME_LEVELS`."""
    if volume <= 0.0:
        return 0
    steps_below = round(-20.0 * math.log10(min(volume, 1.0)) / VOLUME_STEP_DB)
    return max(0, VOLUME_LEVELS - steps_below)


def volume_at(level: int) -> float:
    """The volume (0..1) of one level."""
    if level <= 0:
        return 0.0
    return float(10.0 ** (-(VOLUME_LEVELS - min(level, VOLUME_LEVELS)) * VOLUME_STEP_DB / 20.0))


def step_volume(speaker: Speaker, profile: Profile, louder: bool) -> str:
    """Play the game's voice and sounds a step louder or quieter (kept in the profile).
    The answer is said at the new volume, so it is itself the sample of it; it does not
    say "louder" or "quieter", which over loudspeakers would make the player's next
    "quieter", said over it, sound like the game's own words heard back
    (`listening.self_echo`) and be refused."""
    level = volume_level(speaker.volume) + (1 if louder else -1)
    if level > VOLUME_LEVELS:
        raise AtTheLimitError("that is as loud as I play")
    if level < 1:
        raise AtTheLimitError("that is as quiet as I play")
    volume = volume_at(level)
    speaker.set_volume(volume)
    profile.settings["volume"] = f"{volume:.4f}"
    return f"Volume {level} of {VOLUME_LEVELS}."


def step_voice(speaker: Speaker, profile: Profile) -> str:
    """Speak in the next of the voices this computer has for the game (kept in the
    profile), said in that voice; after the last, the first again. The opponent keeps
    its own."""
    choices = speaker.voice_choices()
    if len(choices) < 2:
        raise AtTheLimitError("this computer has only the one voice")
    current = speaker.voice_for(None).name
    index = next((number for number, voice in enumerate(choices) if voice.name == current), -1)
    index = (index + 1) % len(choices)
    speaker.set_voice(None, choices[index])
    speaker.set_voice(HUMAN, choices[index])
    profile.settings["voice"] = choices[index].name or ""
    return f"This is voice {index + 1} of {len(choices)}."
