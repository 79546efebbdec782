"""Words -> a command -> a legal action, or a reason fit to speak. Pure: no audio, no clock.

Stage one, `parse(text)`, matches the words against the grammar's phrasings,
tolerating what a recognizer or a typist is likely to produce instead of the
grammar's own words (homophones such as for/four, to/two, ate/eight, write/right,
digits, plurals, "the", "please").

Stage two, `resolve(command, state, player)`, turns a move or round command into
the engine's `Action` in the state as it is *now*. The match runs it at apply
time, so a card beaten to a pile fails cleanly with the engine's own reason.
It fails in one of three ways, each with its own spoken answer:
`InvalidCommandError` (not a command at all, or not a move),
`IllegalCommandError` (a move the rules forbid now), and
`AmbiguousCommandError` (several moves fit; the message says the choices).
"""

from __future__ import annotations

import contextlib
import re
from typing import Final

from voicespit.engine import actions as act
from voicespit.engine.actions import PILE_NAMES, Action
from voicespit.engine.cards import RANK_NAMES, RANK_PLURALS, Card, with_article
from voicespit.engine.speed import SpeedState
from voicespit.engine.spit import SpitState
from voicespit.engine.state import IllegalActionError, Phase
from voicespit.errors import ChoiceNeededError, VoiceSpitError
from voicespit.speech.language.commands import Command, Verb
from voicespit.speech.language.grammar import (
    LEAD_WORDS,
    PHRASINGS,
    SLOT_WORDS,
    Phrasing,
    phrase_for,
)

State = SpitState | SpeedState


class CommandError(VoiceSpitError, ValueError):
    """A command that cannot be carried out; the message is what the game says."""


class InvalidCommandError(CommandError):
    """The words are not a command (or the command is not a move to resolve)."""


class IllegalCommandError(CommandError):
    """A real command that the rules forbid in the current state."""

    def __init__(self, reason: str, command: Command | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.command = command


class AmbiguousCommandError(CommandError, ChoiceNeededError):
    """Several moves fit the words; `choices` are the phrases that would pick one."""

    def __init__(self, message: str, choices: tuple[str, ...]) -> None:
        super().__init__(message)
        self.choices = choices


# --------------------------------------------------------------------- stage one

_HOMOPHONES: Final[dict[str, tuple[str, ...]]] = {
    "one": ("won", "1"), "two": ("to", "too", "2"), "three": ("3",), "four": ("for", "fore", "4"),
    "five": ("5",), "six": ("6",), "seven": ("7",), "eight": ("ate", "8"), "nine": ("9",),
    "ten": ("10",), "ace": ("1",), "jack": ("j",), "queen": ("q",), "king": ("k",),
    "right": ("write", "rite", "wright"), "to": ("two", "too", "into"), "on": ("onto",),
    "no": ("know",), "new": ("knew",), "cards": ("card",), "piles": ("pile",),
    "what's": ("whats",), "continue": ("resume",), "opponent's": ("opponents", "opponent"),
}
"""Other spellings a word of the grammar may arrive as (grammar word -> alternatives)."""

_OLD_WORDS: Final[dict[str, str]] = {
    "flip": "turn over", "piles": "show piles", "left": "what's on left",
    "right": "what's on right", "count": "how many cards", "score": "score please",
    "repeat": "say again", "faster": "speed up",
    "slower": "slow down", "resume": "continue", "quit": "quit game", "pause": "pause game",
    "help": "what can i say",
    # What a player typed unprompted in a play-through and was told "not a command".
    "hand": "my cards", "my hand": "my cards", "what's in my hand": "my cards",
    "what's on the piles": "show piles",
    "table": "show piles",
}
"""Words the grammar once used or a typist may reach for, and what they now say. "flip"
also begins longer commands ("flip three"); the others are whole commands on their own."""

_FILLERS: Final = frozenset({"the", "a", "an", "please", "um", "uh", "er", "erm", "stockpile",
                             "card", "pile", "now"})
"""Words dropped before matching (only when the words do not match as they are)."""

TYPED_SHORTHANDS: Final[dict[str, str]] = {
    "cards": "my cards", "stockpiles": "my cards", "my stockpiles": "my cards",
    "pile": "show piles", "opponent": "opponent's cards", "opponents": "opponent's cards",
    "their cards": "opponent's cards", "face down": "face down cards",
    "facedown": "face down cards", "scores": "score please", "cards left": "how many cards",
    # Tried as a new player would (round 26), and not spoken commands: "what did you
    # say" is table talk in the chatter corpus, so by voice it is not a command.
    # ("What are the piles", typed-only then, is a spoken phrasing since round 34.)
    # ("Read my cards" and "start game", typed-only then, are spoken since round 37.)
    "what did you say": "say again", "exit": "quit game",
    # Round 27: the other ways a newcomer at a keyboard asks how the game goes, starts
    # one and ends it.
    "how do you play": "how do i play",
    "explain the rules": "how do i play", "tell me the rules": "how do i play",
    "start": "new game", "begin": "new game",
    "let's play": "new game", "restart": "new game", "end game": "quit game",
    "stop the game": "quit game",
    # Round 28: the volume, as a typist puts it ("speak up" is typed only: by voice it is
    # a breath from "speed up").
    "softer": "quieter", "speak up": "louder", "speak louder": "louder",
    "speak softer": "quieter", "turn up": "louder", "turn down": "quieter",
    # Round 35: typed only: by voice "I'm stuck" took "faster"s, and the other two the
    # table talk "I have no idea" (LEVERS.md, round 35).
    "i'm stuck": "stuck", "i can't go": "stuck", "i have no moves": "stuck",
}
"""The short forms a typist reaches for ("cards" for "my cards"), read in typed lines only
(`parse_typed`). Not in `parse`: spoken text is always a sentence of the grammar, and
`parse` also reads the game's own words heard back (`listening.self_echo`), where
"Your cards: nine, ..." would become the command "my cards", and a player asking for
their cards just after the deal was said would be refused as the game's echo."""


TYPED_CONTRACTIONS: Final[dict[tuple[str, str], str]] = {
    ("what", "is"): "what's", ("i", "am"): "i'm", ("who", "is"): "who's"}
"""Two words a typist spells out where the grammar says one ("what is on the table"),
read in typed lines only, as `TYPED_SHORTHANDS` are."""


def _spellings(word: str) -> frozenset[str]:
    spellings = {word, *_HOMOPHONES.get(word, ())}
    if word in RANK_NAMES:
        spellings.add(RANK_PLURALS[RANK_NAMES.index(word)])
    return frozenset(spellings)


_SLOT_SPELLINGS: Final = {slot: [_spellings(word) for word in words]
                           for slot, words in SLOT_WORDS.items()}


def words_of(text: str) -> list[str]:
    """Lower-case words, punctuation dropped ("Seven, on LEFT!" -> seven on left)."""
    return re.sub(r"[^a-z0-9\[\]' ]+", " ", text.lower()).split()


def command_in(text: str) -> Command | None:
    """The command the words say, or None when they say none (garbage, nothing)."""
    try:
        return parse(text)
    except InvalidCommandError:
        return None


def parse(text: str) -> Command:
    """The command the words say, or InvalidCommandError saying it was not understood."""
    words = words_of(text)
    if not words or any(word.startswith("[") for word in words):
        # Vosk's [unk] means "something outside the grammar": refuse rather than guess.
        raise InvalidCommandError(f"I didn't understand {text.strip()!r}" if words
                                  else "I didn't hear a command")
    command = _match(words)
    if command is None:
        command = _match([word for word in words if word not in _FILLERS])
    if command is None:
        command = _match(_modernized(words))
    if command is None:
        raise InvalidCommandError(f"I didn't understand {' '.join(words)!r}")
    return command


def parse_typed(text: str) -> Command:
    """The command a typed line says: as `parse`, and also the typist's short forms
    (`TYPED_SHORTHANDS`, and the grammar's old words after "the" and the like: "the piles"),
    and a command typed after a word said before one ("so, how many cards": by voice the
    recognizer scores the command after it, `whisper_lead`)."""
    try:
        return parse(text)
    except InvalidCommandError:
        words = words_of(text)
        contracted = _contracted(words)
        if contracted != words:
            with contextlib.suppress(InvalidCommandError):
                return parse(" ".join(contracted))
        for tried in (contracted, [word for word in contracted if word not in _FILLERS]):
            said = " ".join(tried)
            meant = TYPED_SHORTHANDS.get(said) or _OLD_WORDS.get(said)
            if meant is not None:
                return parse(meant)
        if len(words) > 1 and words[0] in LEAD_WORDS:
            return parse_typed(" ".join(words[1:]))
        raise


def _contracted(words: list[str]) -> list[str]:
    """`words` with every pair of `TYPED_CONTRACTIONS` joined into its one word."""
    joined: list[str] = []
    for word in words:
        pair = (joined[-1], word) if joined else None
        if pair in TYPED_CONTRACTIONS:
            joined[-1] = TYPED_CONTRACTIONS[pair]
        else:
            joined.append(word)
    return joined


def _modernized(words: list[str]) -> list[str]:
    whole = " ".join(words)
    if whole in _OLD_WORDS:
        return _OLD_WORDS[whole].split()
    if words and words[0] == "flip":
        return ["turn", "over", *words[1:]]
    if len(words) == 2 and words[0] == "help":
        return ["what", "can", "i", "say", "about", words[1]]
    return words


def _match(words: list[str]) -> Command | None:
    found = {command for phrasing in PHRASINGS
             if (command := _match_phrasing(phrasing, words)) is not None}
    if len(found) > 1:
        raise InvalidCommandError(f"{' '.join(words)!r} could mean several things")
    return found.pop() if found else None


def _match_phrasing(phrasing: Phrasing, words: list[str]) -> Command | None:
    tokens = phrasing.tokens
    if len(tokens) != len(words):
        return None
    filled: dict[str, int] = {}
    for token, word in zip(tokens, words, strict=True):
        if token.startswith("{"):
            slot = token[1:-1]
            value = next((value for value, spellings in enumerate(_SLOT_SPELLINGS[slot])
                          if word in spellings), None)
            if value is None:
                return None
            filled[slot] = value
        elif word not in _spellings(token):
            return None
    if "target" in filled and filled["target"] == filled.get("stock"):
        return None
    return Command(phrasing.verb, **filled)


# --------------------------------------------------------------------- stage two

def resolve(command: Command, state: State, player: int) -> Action:
    """The legal action `command` asks for in `state`, or a CommandError to speak.

    Pure: reads the state and never changes it.
    """
    verb = command.verb
    if verb is Verb.PLAY:
        assert command.rank is not None
        if state.phase is not Phase.PLAY:
            return _checked(state, player, _any_play(state), command)
        return _resolve_play(state, player, command.rank, command.pile, command)
    if verb is Verb.FLIP:
        return _resolve_flip(state, player, command)
    if verb is Verb.MOVE:
        assert command.stock is not None and command.target is not None
        if isinstance(state, SpeedState):
            raise IllegalCommandError("there are no stockpiles to move in Speed", command)
        return _checked(state, player, act.FILLS[command.stock][command.target], command)
    if verb is Verb.DRAW:
        if isinstance(state, SpitState):
            raise IllegalCommandError("there is no drawing in Spit: say turn over", command)
        return _checked(state, player, act.DRAW, command)
    if verb is Verb.SPIT:
        return _checked(state, player, act.SPIT, command)
    if verb is Verb.READY:
        # Ready for new cards: the start of a round, or the way out of a stalemate.
        if state.phase not in (Phase.READY, Phase.STALEMATE):
            raise IllegalCommandError("the round is already under way", command)
        return _checked(state, player, act.SPIT, command)
    if verb is Verb.SLAP:
        assert command.pile is not None
        rules = state.rules
        action: Action = act.SLAPS[command.pile] if rules.slap else act.CHOICES[command.pile]
        return _checked(state, player, action, command)
    raise InvalidCommandError(f"{phrase_for(command)} is not a move")


def _checked(state: State, player: int, action: Action, command: Command) -> Action:
    """The action if the engine accepts it now; otherwise the engine's reason, unchanged state."""
    try:
        state.clone().apply(player, action)
    except IllegalActionError as error:
        raise IllegalCommandError(error.reason, command) from None
    return action


def _any_play(state: State) -> Action:
    """A play the engine will refuse for the phase, so its reason is the one spoken."""
    if isinstance(state, SpeedState):
        return act.PLAY_CARDS[0][act.LEFT]
    return act.PLAYS[0][act.LEFT]


def _candidates(state: State, player: int, rank: int) -> list[tuple[Card, int | None]]:
    """The player's playable cards of `rank` with their stockpile (None in Speed), best first.

    Spit prefers a stockpile that uncovers a face-down card, then the tallest.
    """
    if isinstance(state, SpeedState):
        return [(card, None) for card in state.hands[player] if card.rank == rank]
    found: list[tuple[Card, int | None]] = []
    for slot in sorted(range(len(state.stocks[player])),
                       key=lambda slot: -len(state.stocks[player][slot])):
        top = state.stock_top(player, slot)
        if top is not None and top.rank == rank:
            found.append((top, slot))
    return found


def _play_action(card: Card, slot: int | None, pile: int) -> Action:
    return act.PLAY_CARDS[card.index][pile] if slot is None else act.PLAYS[slot][pile]


def _resolve_play(state: State, player: int, rank: int, pile: int | None,
                  command: Command) -> Action:
    candidates = _candidates(state, player, rank)
    if not candidates:
        where = "in your hand" if isinstance(state, SpeedState) else "face up"
        raise IllegalCommandError(f"you have no {RANK_NAMES[rank]} {where}", command)
    accepts = state.rules.accepts
    piles = [pile] if pile is not None else list(state.piles_in_use)
    fits: dict[int, Action] = {}
    for target in piles:
        top = state.pile_top(target)
        if top is None or target not in state.piles_in_use:
            continue
        for card, slot in candidates:
            if accepts[top.index][card.index]:
                fits[target] = _play_action(card, slot, target)
                break
    if pile is not None:
        card, slot = candidates[0]
        return _checked(state, player, fits.get(pile, _play_action(card, slot, pile)), command)
    if len(fits) == 1:
        return _checked(state, player, next(iter(fits.values())), command)
    name = with_article(rank)
    if len(fits) > 1:
        choices = tuple(f"{RANK_NAMES[rank]} on {PILE_NAMES[target]}" for target in fits)
        raise AmbiguousCommandError(f"{name} fits both piles: say {' or '.join(choices)}",
                                    choices)
    tops = [f"{PILE_NAMES[target]} shows {with_article(top.rank)}"
            for target in state.piles_in_use if (top := state.pile_top(target)) is not None]
    raise IllegalCommandError(f"{name} fits neither pile: {' and '.join(tops)}", command)


def _resolve_flip(state: State, player: int, command: Command) -> Action:
    if command.stock is not None:
        if isinstance(state, SpeedState):
            raise IllegalCommandError("there are no stockpiles in Speed", command)
        return _checked(state, player, act.TURN_UPS[command.stock], command)
    if state.phase is Phase.STALEMATE:
        # Stuck: flipping means turning new cards onto the piles.
        return _checked(state, player, act.SPIT, command)
    if isinstance(state, SpitState):
        face_down = [slot for slot, cards in enumerate(state.stocks[player])
                     if cards and not state.face_up[player][slot]]
        if face_down:
            # Any face-down card is worth turning; the player turns them all in the end.
            return _checked(state, player, act.TURN_UPS[face_down[0]], command)
        if state.phase is Phase.PLAY:
            raise IllegalCommandError("all your stockpile cards are face up", command)
    return _checked(state, player, act.SPIT, command)
