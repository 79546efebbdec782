"""Earcons: short sounds synthesized with numpy, so no sound files are needed.

Each cue has its own timbre and contour, so a player can tell them apart without
words: your plays are a bright pluck that bends up, the opponent's a hollow,
softer tone that bends down, a spit card a flick of noise under a tone. Per-card
cues are pitched by rank (two lowest, ace highest, as the ranks are named) and
panned to the side of the pile they concern. Pure: numbers in, arrays out.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Final

import numpy as np
import numpy.typing as npt

from voicespit.audio.tts import ESPEAK_RATE
from voicespit.engine.cards import ace_high_step
from voicespit.narration.announcement import Cue

Mono = npt.NDArray[np.float32]
Stereo = npt.NDArray[np.float32]
"""Shape (frames, 2): left, right."""

SAMPLE_RATE: Final = ESPEAK_RATE
"""The rate of everything the game plays: pyttsx3 with espeak speaks at 22,050 Hz."""
CARD_CUES: Final = frozenset({Cue.YOUR_PLAY, Cue.OPPONENT_PLAY, Cue.CARD_SPAT, Cue.NEW_CARD,
                              Cue.CARD_MOVED})
"""The cues about one card: at most 150 ms (80-90 ms: the words wait for them),
pitched by rank and panned by pile (your own new and moved cards by stockpile)."""
STOCK_POSITIONS: Final = (-1.0, -0.5, 0.0, 0.5, 1.0, -0.333, 0.333)
"""Where narration pans a stockpile (five or four of them, one to the last)."""
PILE_WIDTH: Final = 0.75
"""How far towards one ear a pile's cue goes (1 would be one ear only, which is
tiring in headphones); at 0.75 the near ear gets about 25 times the energy."""


def rank_frequency(rank: int, base: float = 330.0) -> float:
    """One semitone per rank from `base` (the two) up to an octave above (the ace)."""
    return base * float(2.0 ** (ace_high_step(rank) / 12.0))


def _time(seconds: float, rate: int) -> npt.NDArray[np.float64]:
    return np.arange(round(seconds * rate), dtype=np.float64) / rate


def _envelope(frames: int, attack: float, rate: int, decay: float) -> npt.NDArray[np.float64]:
    """A fast linear attack and an exponential decay that ends in a short fade to zero."""
    t = np.arange(frames, dtype=np.float64) / rate
    env = np.exp(-t / decay)
    attack_frames = max(1, round(attack * rate))
    env[:attack_frames] *= np.linspace(0.0, 1.0, attack_frames, endpoint=False)
    tail = min(frames, max(1, round(0.004 * rate)))
    env[frames - tail:] *= np.linspace(1.0, 0.0, tail)
    return env


def _glide(start: float, end: float, t: npt.NDArray[np.float64],
           rate: int) -> npt.NDArray[np.float64]:
    """The phase of a tone sliding exponentially from `start` to `end` Hz over `t`."""
    frequency = start * (end / start) ** (t / t[-1])
    return 2 * np.pi * np.cumsum(frequency) / rate


def _normalized(signal: npt.NDArray[np.float64], peak: float) -> Mono:
    top = float(np.max(np.abs(signal))) if len(signal) else 0.0
    scaled = signal * (peak / top) if top > 0 else signal
    return scaled.astype(np.float32)


def _your_play(rank: int, rate: int) -> Mono:
    """A bright pluck bending up a little: fundamental plus strong second and third harmonics."""
    t = _time(0.08, rate)
    f = rank_frequency(rank)
    phase = _glide(f * 0.97, f * 1.03, t, rate)
    tone = np.sin(phase) + 0.5 * np.sin(2 * phase) + 0.25 * np.sin(3 * phase)
    return _normalized(tone * _envelope(len(t), 0.003, rate, 0.035), 0.9)


def _opponent_play(rank: int, rate: int) -> Mono:
    """A hollow tone (odd harmonics, like a clarinet) bending down, an octave lower."""
    t = _time(0.09, rate)
    f = rank_frequency(rank) / 2
    phase = _glide(f * 1.04, f * 0.96, t, rate)
    tone = np.sin(phase) + 0.33 * np.sin(3 * phase) + 0.2 * np.sin(5 * phase)
    return _normalized(tone * _envelope(len(t), 0.01, rate, 0.045), 0.8)


def _card_spat(rank: int, rate: int) -> Mono:
    """A card flicked onto the pile: a burst of noise over a short tone of the card's rank."""
    t = _time(0.09, rate)
    noise = np.random.default_rng(rank).standard_normal(len(t))
    # A crude high-pass: the difference of neighbouring samples keeps the "flick".
    flick = np.diff(noise, prepend=0.0) * _envelope(len(t), 0.001, rate, 0.012)
    tone = np.sin(2 * np.pi * rank_frequency(rank) * t) * _envelope(len(t), 0.004, rate, 0.04)
    return _normalized(0.6 * flick + tone, 0.8)


def _new_card(rank: int, rate: int) -> Mono:
    """A card turned face up for you: two quick bell notes rising to an octave above its rank."""
    f = rank_frequency(rank)
    parts = []
    for frequency in (f * 1.5, f * 2.0):
        t = _time(0.042, rate)
        bell = np.sin(2 * np.pi * frequency * t) + 0.3 * np.sin(2 * np.pi * 2.76 * frequency * t)
        parts.append(bell * _envelope(len(t), 0.002, rate, 0.02))
    return _normalized(np.concatenate(parts), 0.7)


def _card_moved(rank: int, rate: int) -> Mono:
    """A card slid into another slot: a breathy swish under a tone falling a fourth."""
    t = _time(0.12, rate)
    noise = np.random.default_rng(rank + 26).standard_normal(len(t))
    swish = np.convolve(noise, np.ones(8) / 8, mode="same") * _envelope(len(t), 0.03, rate, 0.05)
    f = rank_frequency(rank)
    glide = np.sin(_glide(f * 1.33, f, t, rate)) * _envelope(len(t), 0.01, rate, 0.06)
    return _normalized(0.5 * swish + glide, 0.75)


def _notes(frequencies: list[float], note_seconds: float, rate: int,
           harmonics: tuple[float, ...] = (1.0, 0.3), decay: float = 0.12) -> Mono:
    parts = []
    for frequency in frequencies:
        t = _time(note_seconds, rate)
        tone = sum(weight * np.sin(2 * np.pi * frequency * (n + 1) * t)
                   for n, weight in enumerate(harmonics))
        parts.append(np.asarray(tone) * _envelope(len(t), 0.005, rate, decay))
    return _normalized(np.concatenate(parts), 0.8)


def _refused(rate: int) -> Mono:
    """Two low buzzy notes falling: "uh-uh"."""
    return _notes([233.1, 174.6], 0.11, rate, (1.0, 0.6, 0.45, 0.3), 0.08)


def _not_understood(rate: int) -> Mono:
    """Two soft notes rising, like a question."""
    return _notes([440.0, 587.3], 0.09, rate, (1.0, 0.1), 0.06)


def _stalemate(rate: int) -> Mono:
    """A level, hollow pair of notes: nothing moves."""
    return _notes([392.0, 392.0], 0.15, rate, (1.0, 0.0, 0.4), 0.1)


def _countdown(rate: int) -> Mono:
    """A short high tick."""
    return _notes([1318.5], 0.06, rate, (1.0,), 0.02)


def _slap_now(rate: int) -> Mono:
    """Three fast claps: noise bursts with a high edge."""
    t = _time(0.07, rate)
    noise = np.random.default_rng(7).standard_normal(len(t))
    clap = np.diff(noise, prepend=0.0) * _envelope(len(t), 0.001, rate, 0.015)
    ring = 0.5 * np.sin(2 * np.pi * 1760.0 * t) * _envelope(len(t), 0.001, rate, 0.03)
    return _normalized(np.tile(clap + ring, 3), 0.9)


def _round_won(rate: int) -> Mono:
    """A rising major arpeggio."""
    return _notes([523.3, 659.3, 784.0, 1046.5], 0.09, rate)


def _round_lost(rate: int) -> Mono:
    """A falling minor arpeggio."""
    return _notes([659.3, 523.3, 440.0, 329.6], 0.1, rate)


def _game_over(rate: int) -> Mono:
    """A longer cadence, the same whoever won (the words say who)."""
    return _notes([392.0, 523.3, 659.3, 784.0, 659.3, 784.0], 0.12, rate, (1.0, 0.4, 0.2), 0.2)


_CARD_SYNTHS: Final[dict[Cue, Callable[[int, int], Mono]]] = {
    Cue.YOUR_PLAY: _your_play,
    Cue.OPPONENT_PLAY: _opponent_play,
    Cue.CARD_SPAT: _card_spat,
    Cue.NEW_CARD: _new_card,
    Cue.CARD_MOVED: _card_moved,
}
_OTHER_SYNTHS: Final[dict[Cue, Callable[[int], Mono]]] = {
    Cue.REFUSED: _refused,
    Cue.NOT_UNDERSTOOD: _not_understood,
    Cue.STALEMATE: _stalemate,
    Cue.COUNTDOWN: _countdown,
    Cue.SLAP_NOW: _slap_now,
    Cue.ROUND_WON: _round_won,
    Cue.ROUND_LOST: _round_lost,
    Cue.GAME_OVER: _game_over,
}


def synthesize(cue: Cue, rank: int | None = None, rate: int = SAMPLE_RATE) -> Mono:
    """The cue as mono samples at `rate` (per-card cues need the card's rank)."""
    if cue in _CARD_SYNTHS:
        return _CARD_SYNTHS[cue](6 if rank is None else rank, rate)
    return _OTHER_SYNTHS[cue](rate)


def pan(mono: Mono, position: float) -> Stereo:
    """Constant-power panning: -1 all left, 0 centre (each ear at 0.707), 1 all right."""
    angle = (max(-1.0, min(1.0, position)) + 1.0) * math.pi / 4
    return np.stack([mono * math.cos(angle), mono * math.sin(angle)], axis=1).astype(np.float32)


class EarconBank:
    """Every earcon ready to play, synthesized once and kept (a few hundred kB in all)."""

    def __init__(self, rate: int = SAMPLE_RATE, width: float = PILE_WIDTH,
                 gain: float = 0.45) -> None:
        self.rate = rate
        self.width = width
        """Announcements pan piles to +-1; the bank narrows that to +-width."""
        self.gain = gain
        self._cache: dict[tuple[Cue, int | None, float], Stereo] = {}

    def sound(self, cue: Cue, rank: int | None = None, position: float = 0.0) -> Stereo:
        """The cue, pitched for `rank` and panned to `position` (-1 left .. 1 right)."""
        if cue not in CARD_CUES:
            rank = None
        key = (cue, rank, position)
        sound = self._cache.get(key)
        if sound is None:
            mono = synthesize(cue, rank, self.rate) * np.float32(self.gain)
            sound = pan(mono, position * self.width)
            sound.setflags(write=False)
            self._cache[key] = sound
        return sound

    def warm(self) -> None:
        """Synthesize every card cue for both piles now, so none is built mid-game."""
        for cue in CARD_CUES:
            positions = STOCK_POSITIONS if cue in (Cue.NEW_CARD, Cue.CARD_MOVED) else (-1.0, 1.0)
            for rank in range(13):
                for position in positions:
                    self.sound(cue, rank, position)
        for cue in _OTHER_SYNTHS:
            self.sound(cue)
