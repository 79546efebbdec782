"""How the game listens: the listening mode the settings ask for, made real.

`auto` (the default) with loudspeakers listens while the game speaks, as `always` does,
when an echo canceller starts: the player can talk over the game and interrupt it. It
also watches the room (`speech/listening/room_watch.py`): where the game's own voice
keeps coming back looking like the player's (a reverberant room, the volume high), the
game hushes itself for nobody again and again, and `auto` then falls back to the echo
guard, watched, and says so in plain words: it does not act on what it hears while it
speaks, and a command said under its voice is answered "I was talking: say it again"
(`Listener.watch_under_guard`; nothing stops the game, nothing is played), until the
player turns the game down or puts headphones on, which it notices and says. With
no canceller `auto` is the bare echo guard. With no loudspeaker (text only, no sound
card) there is nothing to hear, so it listens all the time. `always` asks for the echo
canceller and never falls back: when no canceller can run it says so in plain words and
uses the echo guard. `echo_guard`, `headphones` and `push_to_talk` are taken as they are.

Why `auto` listens over the game since round 23: in the simulated rooms of
`benchmarks.echo`, listening over the game takes nothing from the game's own narration
and takes a command nobody said about as often as with the game silent (one in 89)
where the room is not lively; where it is, the game's voice stopped and asked nobody
every minute or so, and those are the rooms the room watch hands to the guard
(`docs/listening-record.md`, round 23).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from voicespit.speech.listening.echo import CancellerError, EchoCanceller, open_canceller
from voicespit.speech.listening.linear_echo import open_linear_canceller

NO_CANCELLER = ("I cannot take my own voice out of what the microphone hears here, so I "
                "will not listen while I speak: wait until I finish, or use headphones.")
FELL_BACK = ("My own voice comes back to the microphone too loudly here, so I will not act "
             "on what you say while I speak: I will ask you to say it again. Turn me down, "
             "or use headphones, to talk over me.")
"""Said when `auto` falls back to the echo guard (`room_watch`)."""
FELL_BACK_AGAIN = ("My voice still comes back to the microphone too loudly, so again I will "
                   "not act on what you say while I speak. Turn me down further, or use "
                   "headphones.")
"""Said when `auto` falls back again after the player turned it down (`room_watch`): not
enough, and they know the rest."""
LISTENING_AGAIN = ("My voice reaches the microphone much less now, so I listen while I speak "
                   "again: talk over me to interrupt.")
"""Said when `auto`, fallen back, finds the game turned down or headphones on (`room_watch`)."""
LIVELY_ROOM = ("This room echoes my voice too much to listen while I speak, so I ask you "
               "to say again what you said over me. Turn me down, or use headphones, and I "
               "will listen while I speak again.")
"""After the fall-back, what "how do you hear me" says of when the game listens, and how
to have it listen over itself again (`room_watch.RoomWatch.calmer`)."""
MICROPHONE_SILENT = ("I hear no sound at all from your microphone. If it is muted, unmute "
                     "it; if it is turned all the way down, turn it up.")
"""Said when the microphone has sent only digital silence for seconds
(`speech.listening.mute_watch`): every command would be lost without a word."""
MICROPHONE_BACK = "I hear your microphone again."
"""Said when sound comes back after `MICROPHONE_SILENT`: unmuting worked."""
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
    watch_room: bool = False
    """Listening over the game, fall back to the watched echo guard if the room turns out
    too lively (`auto`: `speech/listening/room_watch.py`)."""

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
    try:
        canceller = make_canceller()
    except CancellerError:
        # `auto` and the echo guard promise no more than the bare guard keeps: only
        # `always` has something to say about the missing canceller.
        return Listening("echo_guard", None,
                         NO_CANCELLER if asked == "always" else SENTENCES["echo_guard"])
    if asked == "echo_guard":
        return Listening("echo_guard", canceller, SENTENCES["echo_guard"], make_linear())
    return Listening("always", canceller, SENTENCES["always"], make_linear(),
                     watch_room=asked == "auto")
