"""A new player who knows nothing of Spit and does only what the tutorial says.

`TutorialReader` reads the printed lines as a screen reader would and decides
what to say: the instruction that ends the newest line ("Say seven on left.",
"For a hint, say what can I play."), the last command again after "Say
again?", and, when nothing is said for a while, the hint phrase it was once
told. With `mistakes` it gets a few things wrong first, once each, as a
beginner would: a card on the wrong pile, "spit" and "slap left" while play is
on, and a slap of the bigger pile.

`python -m tests.tutorial_player --search 300` plays the tutorial with every
deal up to 300 and prints the shortest that teaches every lesson (the
tutorial's `TUTORIAL_SEED`).
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Callable
from dataclasses import dataclass, field

from tests.app_harness import Harness
from voicespit.engine.cards import RANK_NAMES, ranks_adjacent

OVER = "The tutorial is over."
LESSONS = ("table", "start", "play", "turned up", "fill", "alone", "turn over", "spit", "slap",
           "done")
"""Every lesson the tutorial has; the chosen deal must teach them all."""
_INSTRUCTION = re.compile(r"^(?:[^.!?]*, )?[Ss]ay ([A-Za-z' ]+)\.$")
_PILE_NEWS = re.compile(r"^(Left|Right): ([a-z]+)\b")


def sentences(line: str) -> list[str]:
    return [part for part in re.split(r"(?<=[.!?])\s+", line.strip()) if part]


def instruction_in(line: str) -> str | None:
    """The command a line ends by asking for, if it does."""
    found = sentences(line)
    match = _INSTRUCTION.match(found[-1]) if found else None
    return match.group(1).lower() if match else None


@dataclass
class TutorialReader:
    mistakes: bool = False
    ask_for_hints: bool = True
    idle_seconds: float = 3.0
    """How long to wait in silence before asking for the hint it was told about."""
    hint_phrase: str | None = None
    last_said: str | None = None
    mistakes_made: list[str] = field(default_factory=list)
    tops: dict[str, str] = field(default_factory=dict)
    """The pile tops as last announced ("left": "six")."""

    def next(self, new_lines: list[str], quiet_for: float) -> str | None:
        """What to say after these new lines, or None to wait and listen."""
        for line in new_lines:
            news = _PILE_NEWS.match(line)
            if news:
                self.tops[news.group(1).lower()] = news.group(2)
            for sentence in sentences(line):
                offered = _INSTRUCTION.match(sentence)
                if offered and sentence.lower().startswith("for a hint"):
                    self.hint_phrase = offered.group(1).lower()
        if new_lines[-1:] and new_lines[-1].endswith("Say yes or no."):
            return self._say("no")  # "Quit this game?": a misheard word; carry on
        unheard = max((index for index, line in enumerate(new_lines) if line == "Say again?"),
                      default=None)
        since = new_lines if unheard is None else new_lines[unheard + 1:]
        told = next(((line, found) for line in reversed(since)
                     if (found := instruction_in(line)) is not None), None)
        if told is None and unheard is not None and self.last_said is not None:
            return self._say(self.last_said)
        if told is not None:
            line, instruction = told
            if instruction == self.hint_phrase and not self.ask_for_hints:
                return None  # a player who would rather work it out, or wait
            return self._say(self._perhaps_wrong(instruction))
        if self.ask_for_hints and self.hint_phrase and quiet_for >= self.idle_seconds:
            return self._say(self.hint_phrase)
        return None

    def _say(self, words: str) -> str:
        self.last_said = words
        return words

    def _perhaps_wrong(self, instruction: str) -> str:
        if not self.mistakes:
            return instruction
        play = re.fullmatch(r"(\w+) on (left|right)", instruction)
        if play and "wrong pile" not in self.mistakes_made:
            other = "right" if play.group(2) == "left" else "left"
            top = self.tops.get(other)
            rank = RANK_NAMES.index(play.group(1))
            if top in RANK_NAMES and not ranks_adjacent(rank, RANK_NAMES.index(top)):
                return self._mistake("wrong pile", f"{play.group(1)} on {other}")
        if play and "wrong pile" in self.mistakes_made and "spit" not in self.mistakes_made:
            return self._mistake("spit", "spit")
        if play and "spit" in self.mistakes_made and "slap early" not in self.mistakes_made:
            return self._mistake("slap early", "slap left")
        slap = re.fullmatch(r"slap (left|right)", instruction)
        if slap and "bigger pile" not in self.mistakes_made:
            return self._mistake("bigger pile",
                                 "slap right" if slap.group(1) == "left" else "slap left")
        return instruction

    def _mistake(self, kind: str, words: str) -> str:
        self.mistakes_made.append(kind)
        return words


@dataclass
class Run:
    transcript: list[str]
    said: list[str]
    finished: bool
    lessons: list[str]


def follow_tutorial(harness: Harness, say: Callable[[str], None], reader: TutorialReader,
                    *, step: float = 0.5, budget: float = 3600.0) -> Run:
    """Start the tutorial by saying "tutorial" and follow it to its end (or the budget)."""
    said: list[str] = []

    def speak(words: str) -> None:
        said.append(words)
        say(words)

    harness.session.greet("by keyboard", by_voice=False)
    speak("tutorial")
    coach = harness.session.game.tutorial if harness.session.game is not None else None
    mark = seen = 0
    quiet = elapsed = 0.0
    finished = False
    while elapsed < budget:
        harness.run(step)
        elapsed += step
        lines = harness.lines()
        quiet = 0.0 if len(lines) > seen else quiet + step
        seen = len(lines)
        new = lines[mark:]
        if any(OVER in line for line in new):
            finished = True
            break
        words = reader.next(new, quiet)
        if words is not None:
            mark, quiet = len(lines), 0.0
            speak(words)
    return Run(harness.lines(), said, finished, list(coach.lessons) if coach else [])


def search(seeds: range) -> None:
    best: tuple[int, int] | None = None
    for seed in seeds:
        harness = Harness(tutorial_seed=seed)
        run = follow_tutorial(harness, harness.type, TutorialReader())
        text = "\n".join(run.transcript)
        first_play_guided = "fits now, so your opponent plays" not in \
            text.split("Say turn over.")[0]
        complete = run.finished and all(lesson in run.lessons for lesson in LESSONS)
        uneven = re.search(r"Left has (\d+) cards and right has (?!\1\b)\d+", text) is not None
        you_out = "You played every card of your stockpiles" in text
        if complete and first_play_guided and uneven and you_out:
            print(f"seed {seed}: {len(run.said)} commands")
            if best is None or len(run.said) < best[1]:
                best = (seed, len(run.said))
    print(f"shortest: {best}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--search", type=int, default=100)
    search(range(parser.parse_args().search))
