"""Game events -> what the player hears: words, a sound cue, and how urgent it is.

Pure: no audio, no clock, no threads. The speaker decides *when* to say things;
this module decides *what* to say. Phrases are short and lead with what matters
("Left: nine." not "The left spit pile now shows a nine."), and every
announcement names a `topic`, so that a newer announcement about the same thing
(the left pile changed again) replaces a stale one that was not spoken yet.

Seat 0 is "you", seat 1 the "opponent". The opponent's hand in Speed is secret:
nothing here ever reads it or narrates the cards the opponent draws.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, replace

from voicespit.engine.actions import PILE_NAMES, STOCK_NAMES
from voicespit.engine.cards import Card, ace_high_step
from voicespit.engine.events import (
    CardDrawn,
    CardMoved,
    CardPlayed,
    CardSpat,
    CardTurnedUp,
    Event,
    GameOver,
    LayoutDealt,
    PileSlapped,
    PileTaken,
    Redealt,
    RoundOver,
    RoundStarted,
    ScoresChanged,
    SidePilesRebuilt,
    Stalemate,
)
from voicespit.engine.speed import SpeedState
from voicespit.engine.spit import SpitState
from voicespit.match_events import (
    IntentRefused,
    MatchEvent,
    PaceChanged,
    Paused,
    PlayerReady,
    Resumed,
    SlapWindowOpened,
    SpitCountdown,
    Stamped,
)

State = SpitState | SpeedState
YOU = 0
OPPONENT = 1
PILE_PAN = (-1.0, 1.0)
"""Where each pile sits in the stereo field: left pile hard left, right pile hard right.
The earcon bank narrows this to a comfortable width."""
COUNTDOWN_WORDS = {1: "One", 2: "Two", 3: "Three", 4: "Four", 5: "Five"}
QUERIES = ("piles", "left", "right", "my cards", "count", "score", "repeat", "help")
QUERY_ALIASES = {"cards": "my cards", "hand": "my cards", "my hand": "my cards", "pile": "piles"}
DEFAULT_HELP = ("Say a card and a pile, like nine on left. "
                "Ask: piles, my cards, count, score, repeat.")


class Verbosity(enum.Enum):
    FULL = "full"
    """Everything a sighted player could see, including the opponent's new cards."""
    NORMAL = "normal"
    """Every pile change, your own new cards, and the course of the game."""
    TERSE = "terse"
    """Ranks only for pile changes; cues carry the rest. Ask for anything else."""


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
    """-1 (left pile) .. 1 (right pile) for the cue; 0 is the centre."""
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


def _count_words(state: State, seat: int) -> str:
    return f"Cards left: you {state.cards_held(seat)}, opponent {state.cards_held(1 - seat)}."


def hand_in_spoken_order(hand: list[Card]) -> list[Card]:
    """A Speed hand lowest to highest (two .. ace), the order "my cards" says it in;
    the keyboard's card keys count in the same order."""
    return sorted(hand, key=lambda card: (ace_high_step(card.rank), card.suit))


def _capitalized(text: str) -> str:
    return text[:1].upper() + text[1:]


def sentence(text: str) -> str:
    """Capitalized, and ending in a full stop unless it already ends a sentence."""
    text = _capitalized(text.strip())
    return text if text.endswith((".", "!", "?")) else text + "."


def card_words(card: Card, colours: bool) -> str:
    """"nine", or "red nine" when colours matter (the alternating-colours variant)."""
    return f"{card.colour} {card.rank_name}" if colours else card.rank_name


def _pile_name(pile: int) -> str:
    return _capitalized(PILE_NAMES[pile])


class Narrator:
    """Turns events into announcements at a verbosity, and answers the player's questions.

    Keeps one piece of memory, the last announcement, so "repeat" can say it again.
    """

    def __init__(self, verbosity: Verbosity = Verbosity.NORMAL, help_text: str = DEFAULT_HELP,
                 seat: int = YOU) -> None:
        self.verbosity = verbosity
        self.help_text = help_text
        self.seat = seat
        """The listener's seat: their plays are "yours", the other seat's the opponent's."""
        self.last: Announcement | None = None

    # ------------------------------------------------------------------ events

    def narrate(self, item: Stamped | Event | MatchEvent, state: State) -> list[Announcement]:
        """What to announce for one event, given the state after it."""
        if isinstance(item, Stamped):
            sequence, event = item.sequence, item.event
        else:
            sequence, event = None, item
        announcements = self._announce(event, state)
        if sequence is not None:
            announcements = [replace(a, sequence=sequence) for a in announcements]
        spoken = [a for a in announcements if a.text]
        if spoken:
            self.last = spoken[-1]
        return announcements

    def _announce(self, event: Event | MatchEvent, state: State) -> list[Announcement]:
        colours = state.rules.alternating_colours
        terse = self.verbosity is Verbosity.TERSE
        full = self.verbosity is Verbosity.FULL
        match event:
            case CardPlayed(player=player, card=card, pile=pile):
                return [self._pile_change(card, pile, colours, player)]
            case CardSpat(pile=pile, card=card):
                return [self._pile_change(card, pile, colours, None)]
            case CardTurnedUp(player=player, stock=stock, card=card):
                return self._turned_up(player, stock, card, colours)
            case CardMoved(player=player, card=card, target=target) if full and player == self.seat:
                words = _capitalized(card_words(card, colours))
                return [Announcement(f"{words} to stock {STOCK_NAMES[target]}.",
                                     f"stock:{target}", Priority.LOW, about=player, lifetime=2.0)]
            case CardDrawn(player=player, card=card) if player == self.seat and not terse:
                # Only ever your own draws: the opponent's hand is secret.
                return [Announcement(f"Drew {card_words(card, colours)}.", f"draw:{card.index}",
                                     about=player)]
            case Stalemate():
                return [Announcement("Stuck." if terse else "Nobody can play.", "stalemate",
                                     Priority.HIGH, Cue.STALEMATE)]
            case RoundStarted() if not terse:
                return [Announcement("Spit!", "countdown", Priority.HIGH)]
            case SpitCountdown(seconds_left=left):
                word = COUNTDOWN_WORDS.get(left, str(left)) + "."
                return [Announcement("" if terse else word, "countdown", Priority.URGENT,
                                     Cue.COUNTDOWN, line=word, flush=True)]
            case RoundOver():
                return [self._round_over(event)]
            case SlapWindowOpened(smaller_pile=smaller):
                return [self._slap_now(smaller, terse)]
            case PileSlapped(player=player, pile=pile):
                return [self._slapped(player, pile, state)]
            case PileTaken(player=player, pile=pile, cards=cards):
                return self._taken(player, pile, cards, terse)
            case LayoutDealt(player=player, reserve=reserve):
                return self._dealt(player, reserve, state, full)
            case SidePilesRebuilt() if not terse:
                return [Announcement("Side piles reshuffled.", "side piles", Priority.LOW,
                                     lifetime=3.0)]
            case ScoresChanged(scores=scores):
                mine, theirs = scores[self.seat], scores[1 - self.seat]
                return [Announcement(f"Score: you {mine}, opponent {theirs}.", "score")]
            case Redealt(player=player):
                who = "You have" if player == self.seat else "Opponent has"
                return [Announcement(f"{who} no cards left. All the cards are dealt again.",
                                     "redeal", Priority.HIGH, about=player)]
            case GameOver(winner=winner):
                return [self._game_over(winner)]
            case IntentRefused(player=player) if player == self.seat:
                return [self.refusal(event)]
            case PlayerReady(player=player) if full:
                text = "Ready." if player == self.seat else "Opponent ready."
                return [Announcement(text, f"ready:{player}", Priority.LOW, about=player,
                                     lifetime=2.0)]
            case Paused():
                return [Announcement("Paused.", "pause", Priority.URGENT, flush=True)]
            case Resumed():
                return [Announcement("Go on.", "pause", Priority.HIGH)]
            case PaceChanged(seconds_per_card=pace, reason=reason) if not terse:
                text = f"Opponent pace: {pace:.1f} seconds a card."
                if full and reason:
                    text = f"{text[:-1]}, {reason}."
                return [Announcement(text, "pace")]
        return []

    def _pile_change(self, card: Card, pile: int, colours: bool,
                     player: int | None) -> Announcement:
        words = card_words(card, colours)
        name = _pile_name(pile)
        text = f"{name}: {words}."
        if player is None:
            cue, line = Cue.CARD_SPAT, text
        else:
            cue = Cue.YOUR_PLAY if player == self.seat else Cue.OPPONENT_PLAY
            line = f"{name}: {words} ({'you' if player == self.seat else 'opponent'})."
        if self.verbosity is Verbosity.TERSE:
            text = sentence(words)
        return Announcement(text, f"pile:{PILE_NAMES[pile]}", Priority.NORMAL, cue,
                            PILE_PAN[pile], card.rank, player, line)

    def _turned_up(self, player: int, stock: int, card: Card,
                   colours: bool) -> list[Announcement]:
        words = card_words(card, colours)
        if player == self.seat:
            if self.verbosity is Verbosity.TERSE:
                return []
            return [Announcement(f"Stock {STOCK_NAMES[stock]}: {words}.", f"stock:{stock}",
                                 about=player)]
        if self.verbosity is Verbosity.FULL:
            return [Announcement(f"Opponent shows {words}.", f"opponent stock:{stock}",
                                 Priority.LOW, about=player, lifetime=2.0)]
        return []

    def _round_over(self, event: RoundOver) -> Announcement:
        if event.end == "cleared" and event.first_out is not None:
            won = event.first_out == self.seat
            what = "you're out!" if won else "opponent is out."
            cue = Cue.ROUND_WON if won else Cue.ROUND_LOST
        else:
            what, cue = "nobody can play.", Cue.STALEMATE
        return Announcement(f"Round over: {what}", "round", Priority.URGENT, cue, flush=True)

    def _slap_now(self, smaller: int | None, terse: bool) -> Announcement:
        # The cue comes from the smaller pile's side: the pile worth slapping.
        pan = 0.0 if smaller is None else PILE_PAN[smaller]
        which = "equal piles" if smaller is None else f"{PILE_NAMES[smaller]} is smaller"
        text = "Slap!" if terse else f"Slap now! {_capitalized(which)}."
        return Announcement(text, "slap", Priority.URGENT, Cue.SLAP_NOW, pan, flush=True)

    def _slapped(self, player: int, pile: int, state: State) -> Announcement:
        slapping = state.rules.slap
        name = PILE_NAMES[pile]
        if player == self.seat:
            text = f"You slap {name}." if slapping else f"You take {name}."
        else:
            text = f"Opponent slaps {name}." if slapping else f"Opponent chooses {name}."
        return Announcement(text, "slap", Priority.HIGH, about=player)

    def _taken(self, player: int, pile: int | None, cards: int,
               terse: bool) -> list[Announcement]:
        mine = player == self.seat
        if terse and not mine:
            return []
        who = "You take" if mine else "Opponent takes"
        text = f"{who} nothing." if pile is None else f"{who} {PILE_NAMES[pile]}: {cards} cards."
        return [Announcement(text, f"take:{player}", about=player)]

    def _dealt(self, player: int, reserve: int, state: State,
               full: bool) -> list[Announcement]:
        if player != self.seat:
            if not full:
                return []
            what = "spit cards" if isinstance(state, SpitState) else "to draw"
            return [Announcement(f"Opponent: {reserve} {what}.", f"deal:{player}",
                                 Priority.LOW, about=player, lifetime=3.0)]
        cards = self.describe_cards(state, player)
        if self.verbosity is Verbosity.TERSE:
            return [Announcement(cards, f"deal:{player}", about=player)]
        text = f"Round {state.round}. {cards}"
        if isinstance(state, SpitState):
            if full:
                text += f" {reserve} spit cards."
            if state.only_pile is not None:
                text += f" One pile only: {PILE_NAMES[state.only_pile]}."
        return [Announcement(text, f"deal:{player}", about=player)]

    def _game_over(self, winner: int | None) -> Announcement:
        if winner is None:
            text = "Game over: a draw."
        elif winner == self.seat:
            text = "Game over: you win!"
        else:
            text = "Game over: opponent wins."
        return Announcement(text, "game", Priority.URGENT, Cue.GAME_OVER, flush=True)

    # ------------------------------------------------------- player feedback

    def refusal(self, refused: IntentRefused) -> Announcement:
        """Why a move was refused, in a few words ("Too late: left is now a nine.")."""
        reason = refused.reason.strip()
        if refused.too_late and not reason.lower().startswith("too late"):
            reason = f"too late: {reason}"
        return Announcement(sentence(reason), "refusal", Priority.URGENT, Cue.REFUSED,
                            about=refused.player)

    def not_understood(self) -> Announcement:
        """The parser could not make a command of what was heard."""
        return Announcement("Say again?", "refusal", Priority.URGENT, Cue.NOT_UNDERSTOOD,
                            about=self.seat)

    # ------------------------------------------------------------- questions

    def answer(self, query: str, state: State, player: int | None = None) -> Announcement:
        """Answer "piles", "left", "right", "my cards", "count", "score", "repeat" or "help"."""
        seat = self.seat if player is None else player
        key = " ".join(query.lower().split())
        key = QUERY_ALIASES.get(key, key)
        colours = state.rules.alternating_colours
        if key == "piles":
            text = " ".join(self._pile_words(state, pile, colours) for pile in state.piles_in_use)
        elif key in ("left", "right"):
            text = self._pile_words(state, PILE_NAMES.index(key), colours)
        elif key == "my cards":
            text = self.describe_cards(state, seat)
        elif key == "count":
            text = _count_words(state, seat)
        elif key == "score":
            text = self._score_words(state, seat)
        elif key == "repeat":
            text = self.last.text if self.last is not None else "Nothing yet."
        elif key == "help":
            text = self.help_text
        else:
            raise ValueError(f"no answer for {query!r}; ask one of: {', '.join(QUERIES)}")
        return Announcement(text, "answer", Priority.HIGH)

    def _pile_words(self, state: State, pile: int, colours: bool) -> str:
        top = state.pile_top(pile)
        return f"{_pile_name(pile)}: {'empty' if top is None else card_words(top, colours)}."

    def _score_words(self, state: State, seat: int) -> str:
        if state.rules.scoring == "points":
            return (f"Score: you {state.scores[seat]}, opponent {state.scores[1 - seat]}; "
                    f"game to {state.rules.target_score}.")
        return f"Round {state.round}. {_count_words(state, seat)}"

    @staticmethod
    def describe_cards(state: State, seat: int) -> str:
        """The seat's playable cards: Spit stockpile tops in order, or the Speed hand."""
        colours = state.rules.alternating_colours
        if isinstance(state, SpeedState):
            hand = hand_in_spoken_order(state.hands[seat])
            if not hand:
                return "Your hand is empty."
            return "Your hand: " + ", ".join(card_words(card, colours) for card in hand) + "."
        words: list[str] = []
        for slot, cards in enumerate(state.stocks[seat]):
            top = state.stock_top(seat, slot)
            if top is not None:
                words.append(card_words(top, colours))
            else:
                words.append("face down" if cards else "empty")
        if not words or all(word == "empty" for word in words):
            return "Your stockpiles are empty."
        return "Your cards: " + ", ".join(words) + "."

