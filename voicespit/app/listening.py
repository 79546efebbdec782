"""How the game listens: the listening mode the settings ask for, made real.

`auto` (the default) uses the echo guard with loudspeakers: it does not act on what
it hears while it speaks, and a command it had to lose that way is answered "I was
talking: say it again". When a canceller starts, the guard is watched: the player's
voice under the game's is found as in `always`, so a command said wholly under it is
answered too, where the bare guard could not tell it from the game's own voice
(`Listener.watch_under_guard`; nothing stops the game, nothing is played). With no
loudspeaker (text only, no sound card) there is nothing to hear, so
it listens all the time. `always` asks for the echo canceller, so the player can
talk over the game and interrupt it; when no canceller can run it says so in plain
words and falls back to the echo guard. `echo_guard`, `headphones` and
`push_to_talk` are taken as they are.

Why `auto` is not `always` yet: in the simulated rooms of `benchmarks.echo`, `always`
now takes nothing from the game's own narration (round 22), but it still takes a command
the player did not say for up to 3 of 89 said over the game, and in a live room the
game's own voice stops it and asks nobody to say it again every minute or so. A command
lost under the game's voice is always answered; a card played that was never said cannot
be taken back.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from voicespit.speech.listening.echo import CancellerError, EchoCanceller, open_canceller
from voicespit.speech.listening.linear_echo import open_linear_canceller

NO_CANCELLER = ("I cannot take my own voice out of what the microphone hears here, so I "
                "will not listen while I speak: wait until I finish, or use headphones.")
SENTENCES = {
    "always": "I listen even while I speak: talk over me to interrupt.",
    "headphones": "I listen even while I speak.",
    "echo_guard": "I stop listening while I speak.",
    "push_to_talk": "Press the key left of 1 before each command.",
}


@dataclass(frozen=True)
class Listening:
    mode: str
    """The gate's mode: always, echo_guard, headphones or push_to_talk."""
    canceller: EchoCanceller | None
    sentence: str
    """What the greeting says about it, in plain words."""
    linear: EchoCanceller | None = None
    """The filter-only canceller beside `canceller`, whose output the recognizer hears
    (`speech/listening/linear_echo.py`); None: the recognizer hears `canceller`'s."""

    @property
    def watched_guard(self) -> bool:
        """The echo guard with a canceller: what the player says under the game's voice
        is heard as in `always`, never acted on, and answered "say it again"."""
        return self.mode == "echo_guard" and self.canceller is not None

    @property
    def barge_in(self) -> bool:
        """Whether the player's voice over the game stops it: only where the game's own
        voice cannot be mistaken for theirs."""
        return self.mode in ("always", "headphones")


def choose_listening(asked: str, loudspeaker: bool,
                     make_canceller: Callable[[], EchoCanceller] = open_canceller,
                     make_linear: Callable[[], EchoCanceller | None] = open_linear_canceller
                     ) -> Listening:
    """The listening mode for `asked` (a config value), given whether sound goes out of a
    loudspeaker the microphone may hear."""
    if asked == "auto" and not loudspeaker:
        return Listening("headphones", None, SENTENCES["headphones"])
    if asked not in ("auto", "echo_guard", "always"):
        return Listening(asked, None, SENTENCES[asked])
    mode = "always" if asked == "always" else "echo_guard"
    try:
        canceller = make_canceller()
    except CancellerError:
        # Under the echo guard the canceller only watches: without one the guard keeps
        # the same promise, so only `always` has something to say about it.
        return Listening("echo_guard", None,
                         NO_CANCELLER if mode == "always" else SENTENCES["echo_guard"])
    return Listening(mode, canceller, SENTENCES[mode], make_linear())
