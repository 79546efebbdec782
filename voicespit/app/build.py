"""From settings to parts: rules, the opponent's pace, the match factory, the voice.

Every choice the settings make is turned into an object here, before anything
starts, so a bad combination fails at launch with a clear message instead of
half-way into a game.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass

from voicespit.audio.reports import MAX_RATE, MIN_RATE, SpeechSettings
from voicespit.audio.speaker import RecordingSpeaker, Speaker
from voicespit.audio.tts import Voice
from voicespit.clock import Clock, RealClock
from voicespit.config import ConfigError, Settings
from voicespit.engine import VARIANTS, Rules, VariantError
from voicespit.match.referee import Match
from voicespit.match.settings import MatchSettings
from voicespit.narration.announcement import Verbosity
from voicespit.narration.narrator import Narrator
from voicespit.opponent.adaptive import AdaptivePace
from voicespit.opponent.pace import NAMED_PACES, FixedPace, Pace
from voicespit.opponent.player import Opponent
from voicespit.profile import Profile

PACE_SECONDS_RANGE = (0.05, 30.0)
ANNOUNCEMENT_TIMEOUT = 45.0
ADAPTIVE_FLOOR = 0.5
ADAPTIVE_CEILING = 15.0
"""The adaptive opponent never plays faster or slower than this, whatever it learns."""


def rules_from(settings: Settings, flag_variants: list[str]) -> Rules:
    """The game and variants: the file's variants that apply to this game, then the flags'.

    A variant from a file that belongs to the other game is ignored (a Spit
    preference must not stop a game of Speed); one given as a flag is an error.
    Check the file's part with `validate_variants` first, so that its errors name
    the file; what fails here is the flags'.
    """
    try:
        # Later entries win: the flags override the file.
        return Rules.for_game(settings.game.game, _file_variants(settings) + list(flag_variants))
    except (VariantError, ConfigError) as error:
        raise ConfigError(f"--variant: {error}") from None


def rules_for_game(settings: Settings, flag_variants: Sequence[str], game: str) -> Rules:
    """The rules of `game` when the player asks for it by name mid-session ("new game of
    speed"): the file's variants and then the flags' that apply to it. One that belongs
    only to the other game is left out, as a file's is at start: it is no error of the
    player's."""
    flags = [pair for pair in flag_variants
             if game in VARIANTS[pair.partition("=")[0].strip().lower()].games]
    return Rules.for_game(game, _file_variants(settings, game) + flags)


def validate_variants(origin: str, settings: Settings) -> None:
    """A config validator: the variants of a settings file must be real and allowed."""
    try:
        Rules.for_game(settings.game.game, _file_variants(settings))
    except (VariantError, ConfigError) as error:
        raise ConfigError(f"{origin}: [game.variants] {error}") from None


def _file_variants(settings: Settings, game: str | None = None) -> list[str]:
    """The file's variants, as "key=value", that apply to `game` (None: the file's game)."""
    game = settings.game.game if game is None else game
    unknown = sorted(key for key in settings.game.variants if key not in VARIANTS)
    if unknown:
        raise ConfigError(f"{unknown[0]} is not a variant; known variants: "
                          f"{', '.join(sorted(VARIANTS))}")
    return [f"{key}={value}" for key, value in settings.game.variants.items()
            if game in VARIANTS[key].games]


def pace_from(text: str, target_win_rate: float, learned: float | None) -> Pace:
    """`adaptive`, a named pace, or seconds per card; adaptive starts from what was learned."""
    value = text.strip().lower()
    if value == "adaptive":
        start = 3.0 if learned is None or not math.isfinite(learned) else learned
        return AdaptivePace(target_win_rate, floor=ADAPTIVE_FLOOR, ceiling=ADAPTIVE_CEILING,
                            initial_seconds=min(max(start, ADAPTIVE_FLOOR), ADAPTIVE_CEILING))
    if value in NAMED_PACES:
        return FixedPace.named(value)
    try:
        seconds = float(value)
    except ValueError:
        seconds = math.nan
    low, high = PACE_SECONDS_RANGE
    if not low <= seconds <= high:
        raise ConfigError(f"opponent pace {text!r} is not allowed; choose adaptive, "
                          f"{', '.join(NAMED_PACES)}, or seconds per card from {low} to {high}")
    return FixedPace(seconds)


def validate_pace(origin: str, settings: Settings) -> None:
    """A config validator: the pace must be one the opponent knows."""
    try:
        pace_from(settings.opponent.pace, settings.opponent.target_win_rate, None)
    except ConfigError as error:
        raise ConfigError(f"{origin or 'settings'}: [opponent] {error}") from None


def match_settings_from(settings: Settings) -> MatchSettings:
    play = settings.play
    # The speaker reports what has been heard; the timeout is only a safety net, and
    # the news at a round's end ("Round over ... you take left ... your cards ...")
    # can take longer than the match's default to say at a slow speech rate.
    return MatchSettings(auto_spit=play.auto_spit, countdown_from=play.countdown_seconds,
                         countdown_step_seconds=play.countdown_interval,
                         wait_for_announcements=play.wait_for_announcements,
                         announcement_timeout_seconds=ANNOUNCEMENT_TIMEOUT)


@dataclass
class MatchFactory:
    """Builds each game's match with its computer opponent, on its own clock."""

    match_settings: MatchSettings
    pace: Pace
    seed: int | None
    make_clock: Callable[[], Clock] = RealClock

    def __call__(self, rules: Rules, number: int) -> Match:
        seed = random.randrange(2**63) if self.seed is None else self.seed
        match = Match(rules, self.make_clock(), seed=f"voicespit:{seed}:{number}",
                      settings=self.match_settings)
        Opponent(match, self.pace, random.Random(f"opponent:{seed}:{number}"))
        return match


def speech_settings_from(settings: Settings, profile: Profile,
                         flagged: Collection[str] = ()) -> SpeechSettings:
    """Config, then what the player last chose by voice (kept in the profile), except
    what was given as a flag this run (`flagged`: "rate", "voice"), which wins."""
    remembered = _remembered(profile, flagged)
    rate = int(_number(remembered, "rate", settings.output.rate))
    volume = _number(remembered, "volume", settings.output.volume)
    speech = SpeechSettings(rate=min(max(rate, MIN_RATE), MAX_RATE),
                            volume=min(max(volume, 0.0), 1.0), earcons=settings.output.earcons)
    # The player's last "change voice" over the config's ("" is the engine's default).
    voice = remembered.get("voice", settings.output.voice)
    if voice:
        speech.voices[None] = speech.voices[0] = Voice(voice)
    return speech


def _remembered(profile: Profile, flagged: Collection[str]) -> dict[str, str]:
    return {name: value for name, value in profile.settings.items() if name not in flagged}


def _number(remembered: Mapping[str, str], name: str, configured: float) -> float:
    """What the player last chose by voice, or the config's when the profile's is not a
    number (a hand-edited profile must not stop the game)."""
    try:
        value = float(remembered.get(name, configured))
    except ValueError:
        return configured
    return value if math.isfinite(value) else configured


def narrator_from(settings: Settings, profile: Profile, help_text: str,
                  flagged: Collection[str] = ()) -> Narrator:
    verbosity = _remembered(profile, flagged).get("verbosity", settings.output.verbosity)
    if verbosity not in {v.value for v in Verbosity}:
        verbosity = settings.output.verbosity
    return Narrator(Verbosity(verbosity), help_text)


def text_only_speaker(speech: SpeechSettings) -> Speaker:
    """No sound at all: every announcement is printed and counts as heard at once."""
    return RecordingSpeaker(speech)
