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

from dataclasses import replace

from voicespit.engine.actions import PILE_NAMES, STOCK_NAMES
from voicespit.engine.cards import Card, with_article
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
from voicespit.engine.state import Phase
from voicespit.match.events import (
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
from voicespit.narration.announcement import Announcement, Cue, Priority, Verbosity
from voicespit.narration.answers import (
    QUERY_ALIASES,
    TABLE_QUERIES,
    answer_text,
    as_said,
    capitalized,
    card_words,
    describe_cards,
    hand_in_spoken_order,
    pile_name,
    sentence,
)

__all__ = ["Announcement", "Cue", "Narrator", "Priority", "State", "Verbosity", "card_words",
           "hand_in_spoken_order", "sentence"]

State = SpitState | SpeedState
YOU = 0
OPPONENT = 1
PILE_PAN = (-1.0, 1.0)
"""Where each pile sits in the stereo field: left pile hard left, right pile hard right.
The earcon bank narrows this to a comfortable width."""
COUNTDOWN_WORDS = {1: "One", 2: "Two", 3: "Three", 4: "Four", 5: "Five"}
START_CALLS = {"spit": "Spit!", "speed": "Go!"}
"""Said as the first cards of a round turn up, after the countdown. Spit's players call
"spit"; in Speed nobody does (RULES.md), so it is the plain "go", which is no command."""
QUERIES = (*TABLE_QUERIES, "repeat", "help")
DEFAULT_HELP = ("Say a card and a pile, like nine on left. "
                "Ask: piles, my cards, count, score, repeat.")
READY_PROMPT = "Say ready."
"""The last words of every deal: the round waits for the player."""
LAST_DEALT = 1
"""The engine deals seat 0's layout, then seat 1's: the prompt goes on the last."""


def stock_pan(slot: int, count: int) -> float:
    """Where a stockpile sits in the stereo field: one at the left .. the last at the right."""
    return 0.0 if count < 2 else round(-1.0 + 2.0 * slot / (count - 1), 3)


def heard_words(said: str) -> str:
    """What the game understood, as the start of its answer ("Seven on left? ...",
    "What can I play? ...": the recognizer writes the word I in lower case)."""
    words = as_said(said.strip())
    return f"{capitalized(words)}? " if words else ""


class Narrator:
    """Turns events into announcements at a verbosity, and answers the player's questions.

    Keeps a little memory: the last announcement, so "repeat" can say it again, and
    who has said ready since the deal, so the prompt to say ready stays the last word.
    """

    def __init__(self, verbosity: Verbosity = Verbosity.NORMAL, help_text: str = DEFAULT_HELP,
                 seat: int = YOU) -> None:
        self.verbosity = verbosity
        self.help_text = help_text
        self.seat = seat
        """The listener's seat: their plays are "yours", the other seat's the opponent's."""
        self.last: Announcement | None = None
        self.coached = False
        """A coach gives every instruction (the tutorial): the deal does not also say
        "Say ready.", which would compete with the coach's "Say my cards."."""
        self._ready: set[int] = set()
        """Seats that said ready since the last deal or stalemate."""
        self._spit_due = False
        """A stalemate's spit cards are still to turn up: the first one is called
        ("Spit!", as both players say it again: RULES.md), as at a round's start."""

    def remember(self, announcement: Announcement) -> None:
        """`announcement` was presented: "repeat" says it again (never a "Say again?")."""
        if announcement.text and announcement.cue is not Cue.NOT_UNDERSTOOD:
            self.last = announcement

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
            case CardSpat(player=player, pile=pile, card=card):
                called = self._stalemate_call(state, terse)
                return [*called, self._pile_change(card, pile, colours, None),
                        *self._last_spit_card(player, state)]
            case CardTurnedUp(player=player, stock=stock, card=card):
                return self._turned_up(player, stock, card, state, colours)
            case CardMoved(player=player) if player == self.seat:
                return [self._moved(event, state, colours)]
            case CardDrawn(player=player, card=card) if player == self.seat:
                # Only ever your own draws: the opponent's hand is secret.
                words = card_words(card, colours)
                # "Drew two." was heard as two cards drawn; the article says it is one.
                line = f"Drew {one_card(card, colours)}."
                return [Announcement(sentence(words) if terse else line, f"draw:{card.index}",
                                     cue=self._terse_cue(Cue.NEW_CARD), rank=card.rank,
                                     about=player, line=line),
                        *self._last_draw(player, state)]
            case CardDrawn(player=player):
                return self._last_draw(player, state)
            case Stalemate():
                self._ready = set()
                self._spit_due = True
                return [Announcement("Stuck." if terse else "Nobody can play.", "stalemate",
                                     Priority.HIGH, Cue.STALEMATE)]
            case RoundStarted():
                self._spit_due = False
                if terse:
                    return []
                return [Announcement(START_CALLS[state.rules.game], "countdown", Priority.HIGH)]
            case SpitCountdown(seconds_left=left):
                word = COUNTDOWN_WORDS.get(left, str(left)) + "."
                return [Announcement("" if terse else word, "countdown", Priority.URGENT,
                                     Cue.COUNTDOWN, line=word, flush=True)]
            case RoundOver():
                return [self._round_over(event, state)]
            case SlapWindowOpened(smaller_pile=smaller):
                if isinstance(state, SpitState) and not state.rules.slap:
                    return [self._choose_now(smaller, state.chooser, terse)]
                return [self._slap_now(smaller, terse)]
            case PileSlapped(player=player, pile=pile):
                return [self._slapped(player, pile, state)]
            case PileTaken(player=player, pile=pile, cards=cards):
                return self._taken(player, pile, cards, terse)
            case LayoutDealt(player=player, reserve=reserve):
                self._ready = set()
                return self._dealt(player, reserve, state, full)
            case SidePilesRebuilt() if not terse:
                return [Announcement("Side piles reshuffled.", "side piles", Priority.LOW,
                                     lifetime=3.0)]
            case ScoresChanged(scores=scores):
                mine, theirs = scores[self.seat], scores[1 - self.seat]
                total = f"Score: you {mine}, opponent {theirs}."
                return [Announcement(f"{self._scored(event)} {total}".lstrip(), "score")]
            case Redealt(player=player):
                who = "You have" if player == self.seat else "Opponent has"
                return [Announcement(f"{who} no cards left. All the cards are dealt again.",
                                     "redeal", Priority.HIGH, about=player)]
            case GameOver(winner=winner):
                return [self._game_over(winner)]
            case IntentRefused(player=player) if player == self.seat:
                return [self.refusal(event)]
            case PlayerReady(player=player):
                return self._ready_said(player, state, full)
            case Paused():
                return [Announcement("Paused.", "pause", Priority.URGENT, flush=True)]
            case Resumed():
                # Resumed while the deal waits for the player, the prompt is the last word
                # again: "Go on." alone leaves them waiting on a game that waits on them.
                waiting = self._awaits_ready(state)
                return [Announcement(f"Go on. {READY_PROMPT}" if waiting else "Go on.", "pause",
                                     Priority.HIGH)]
            case PaceChanged(seconds_per_card=pace, reason=reason, requested=requested) \
                    if requested or not terse:
                # Asked for ("speed up"), it is an answer: said at every level of detail.
                text = f"Opponent pace: {pace:.1f} seconds a card."
                if (full or requested) and reason:
                    text = f"{text[:-1]}, {reason}."
                if not requested and self._awaits_ready(state):
                    # The adaptive pace is set after the deal: its news must not bury the
                    # deal's prompt.
                    text = f"{text} {READY_PROMPT}"
                return [Announcement(text, "pace", Priority.HIGH if requested else Priority.NORMAL)]
        return []

    def _pile_change(self, card: Card, pile: int, colours: bool,
                     player: int | None) -> Announcement:
        words = card_words(card, colours)
        name = pile_name(pile)
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

    def _last_spit_card(self, player: int, state: State) -> list[Announcement]:
        """A sighted player sees a spit pile run out: from then on the other spits alone,
        and a player with no spit cards who clears their stockpiles wins."""
        if not isinstance(state, SpitState) or state.spit_cards[player]:
            return []
        whose = "Your" if player == self.seat else "Opponent's"
        return [Announcement(f"{whose} last spit card.", f"spit cards:{player}",
                             Priority.NORMAL, about=player)]

    def _last_draw(self, player: int, state: State) -> list[Announcement]:
        """Speed: a sighted player sees a draw pile run out (the opponent's too, though
        not the cards): from then on every play shortens that hand, and the hand alone
        stands between its player and the win."""
        if not isinstance(state, SpeedState) or state.draw_piles[player]:
            return []
        whose = "Your" if player == self.seat else "Opponent's"
        return [Announcement(f"{whose} draw pile is empty.", f"draw pile:{player}",
                             Priority.NORMAL, about=player)]

    def _turned_up(self, player: int, stock: int, card: Card, state: State,
                   colours: bool) -> list[Announcement]:
        words = card_words(card, colours)
        if player == self.seat:
            # Every new card of yours is told: a number key plays it (terse: the rank, the
            # cue panned to its stockpile). "Stock five: eight." put two numbers back to
            # back: "shows a" keeps the stockpile's apart from the card's.
            line = f"Stock {STOCK_NAMES[stock]} shows {one_card(card, colours)}."
            text = sentence(words) if self.verbosity is Verbosity.TERSE else line
            return [Announcement(text, f"stock:{stock}", Priority.NORMAL,
                                 self._terse_cue(Cue.NEW_CARD),
                                 self._stock_pan(state, stock), card.rank, player, line)]
        if self.verbosity is Verbosity.FULL:
            return [Announcement(f"Opponent shows {words}.", f"opponent stock:{stock}",
                                 Priority.LOW, about=player, lifetime=2.0)]
        return []

    def _moved(self, event: CardMoved, state: State, colours: bool) -> Announcement:
        """A card of yours moved into an empty slot: the number keys now mean other cards."""
        words = capitalized(card_words(event.card, colours))
        line = (f"{words} moves from stock {STOCK_NAMES[event.source]} "
                f"to stock {STOCK_NAMES[event.target]}.")
        text = "" if self.verbosity is Verbosity.TERSE else line
        return Announcement(text, f"stock:{event.target}", Priority.NORMAL,
                            self._terse_cue(Cue.CARD_MOVED),
                            self._stock_pan(state, event.target), event.card.rank,
                            event.player, line)

    def _terse_cue(self, cue: Cue) -> Cue | None:
        """Your new and moved cards have cues only at terse, where the words are fewest;
        at normal and full the words say it, and a second cue would blur the play's."""
        return cue if self.verbosity is Verbosity.TERSE else None

    @staticmethod
    def _stock_pan(state: State, slot: int) -> float:
        return stock_pan(slot, len(state.stocks[0])) if isinstance(state, SpitState) else 0.0

    def _ready_said(self, player: int, state: State, full: bool) -> list[Announcement]:
        """Your own "ready" is always answered; the opponent's only at full detail, and
        then with the prompt again while you are still to say it."""
        self._ready.add(player)
        if player == self.seat:
            return [Announcement("Ready.", f"ready:{player}", Priority.HIGH, about=player)]
        if not full:
            return []
        text = "Opponent ready."
        if self._awaits_ready(state):
            text = f"{text} {READY_PROMPT}"
        return [Announcement(text, f"ready:{player}", Priority.NORMAL, about=player)]

    def _awaits_ready(self, state: State, seat: int | None = None) -> bool:
        """Whether the deal waits for `seat`'s (default: the player's) "ready", so that
        what is said now ends with the prompt (unless a coach gives it instead)."""
        seat = self.seat if seat is None else seat
        return state.phase is Phase.READY and seat not in self._ready and not self.coached

    def _round_over(self, event: RoundOver, state: State) -> Announcement:
        if event.end == "cleared" and event.first_out is not None:
            won = event.first_out == self.seat
            what = "you're out!" if won else "opponent is out."
            cue = Cue.ROUND_WON if won else Cue.ROUND_LOST
        else:
            # Why this is the end and not one more spit: what a sighted player sees.
            why = "no spit cards are left" if isinstance(state, SpitState) \
                else "no card still to come would help"
            what, cue = f"nobody can play, and {why}.", Cue.STALEMATE
            if isinstance(state, SpeedState):
                what += f" {self._fewer_cards(state)}"
        return Announcement(f"Round over: {what}", "round", Priority.URGENT, cue, flush=True)

    def _fewer_cards(self, state: SpeedState) -> str:
        """Who wins a blocked Speed deal (RULES.md: fewer cards held), or that it is drawn;
        a sighted player counts the cards, so the listener is told the count too."""
        mine, theirs = state.cards_held(self.seat), state.cards_held(1 - self.seat)
        if mine == theirs:
            return f"You both hold {mine}: a drawn deal."
        if mine < theirs:
            return f"You hold fewer cards, {mine} against {theirs}: you win the deal."
        return f"Opponent holds fewer cards, {theirs} against {mine}: opponent wins the deal."

    def _slap_now(self, smaller: int | None, terse: bool) -> Announcement:
        # The cue comes from the smaller pile's side: the pile worth slapping.
        pan = 0.0 if smaller is None else PILE_PAN[smaller]
        which = "equal piles" if smaller is None else f"{PILE_NAMES[smaller]} is smaller"
        line = f"Slap now! {capitalized(which)}."
        # Terse says it in a word and the cue's side; the printed line still says which.
        return Announcement("Slap!" if terse else line, "slap", Priority.URGENT, Cue.SLAP_NOW,
                            pan, flush=True, line=line)

    def _choose_now(self, smaller: int | None, chooser: int | None,
                    terse: bool) -> Announcement:
        """Choose-instead-of-slap: nobody races. "Slap now!" would send the player to a
        slap the rules refuse while their opponent chooses."""
        which = "equal piles" if smaller is None else f"{PILE_NAMES[smaller]} is smaller"
        if chooser == self.seat:
            pan = 0.0 if smaller is None else PILE_PAN[smaller]
            line = f"Your choice: slap left or slap right. {capitalized(which)}."
            return Announcement("Choose!" if terse else line, "slap", Priority.URGENT,
                                Cue.SLAP_NOW, pan, flush=True, line=line)
        line = f"Your opponent chooses a pile. {capitalized(which)}."
        return Announcement("Opponent chooses." if terse else line, "slap", Priority.URGENT,
                            flush=True, line=line)

    def _slapped(self, player: int, pile: int, state: State) -> Announcement:
        slapping = state.rules.slap
        name = PILE_NAMES[pile]
        if player == self.seat:
            # Choosing, the pile taken is said next with its size ("You take left: 9 cards.").
            text = f"You slap {name}." if slapping else f"You choose {name}."
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
        # The prompt ends the deal's last words: the opponent's deal comes after yours
        # and is said only at full detail.
        prompt = f" {READY_PROMPT}" if state.phase is Phase.READY and not self.coached else ""
        last_words = player == LAST_DEALT or not full
        if player != self.seat:
            if not full:
                return []
            what = "spit cards" if isinstance(state, SpitState) else "to draw"
            text = f"Opponent: {reserve} {what}.{prompt if last_words else ''}"
            return [Announcement(text, f"deal:{player}", Priority.NORMAL, about=player)]
        cards = describe_cards(state, player)
        text = cards if self.verbosity is Verbosity.TERSE else f"Round {state.round}. {cards}"
        if isinstance(state, SpitState):
            if full:
                text += f" {reserve} spit cards."
            if state.only_pile is not None:  # at every detail: it decides where cards go
                text += f" One pile only: {PILE_NAMES[state.only_pile]}."
        return [Announcement(text + (prompt if last_words else ""), f"deal:{player}",
                             about=player)]

    def _scored(self, event: ScoresChanged) -> str:
        """Speed: who scored and for what, above all when it was nothing (the draw pile the
        points come from was empty), so a deal ending on an unchanged score is explained."""
        scorer = event.scorer
        if scorer is None:
            return ""
        yours = scorer == self.seat
        who, pile = ("You score", "the opponent's") if yours else ("Opponent scores", "your")
        gained = event.gained[scorer]
        if gained == 0:
            return f"{who} nothing: {pile} draw pile is empty."
        cards = "the card" if gained == 1 else "the cards"
        return f"{who} {gained}: {cards} left in {pile} draw pile."

    def _stalemate_call(self, state: State, terse: bool) -> list[Announcement]:
        """"Spit!" before the first spit card a Spit stalemate turns up (Speed has no
        call), unless terse; nothing for the cards after it."""
        due, self._spit_due = self._spit_due, False
        if not due or terse or state.rules.game != "spit":
            return []
        return [Announcement(START_CALLS["spit"], "countdown", Priority.HIGH)]

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
        """What was understood and why it was refused, in a few words ("Seven on left?
        Too late: left is now a nine.")."""
        reason = refused.reason.strip()
        if refused.too_late and not reason.lower().startswith("too late"):
            reason = f"too late: {reason}"
        return Announcement(heard_words(refused.said) + sentence(reason), "refusal",
                            Priority.URGENT, Cue.REFUSED, about=refused.player)

    def not_understood(self, heard: str = "", typed: bool = False) -> Announcement:
        """No command in what was heard (or typed): "Say again?" when nothing usable
        was heard, else the words themselves, so the player knows what went wrong."""
        if typed and heard.strip():
            text = f"{heard_words(heard)}That is not a command: type help for the commands."
        elif heard.strip():
            text = f"Heard {heard.strip()}. Say again?"
        else:
            text = "Say again?"
        return Announcement(text, "refusal", Priority.URGENT, Cue.NOT_UNDERSTOOD,
                            about=self.seat)

    def repeat(self) -> Announcement:
        """The last announcement again ("say again")."""
        # The printed line says most (whose card, which pile): at terse the cue that
        # carried the rest cannot be heard again.
        text = self.last.mirror_line if self.last is not None else "Nothing yet."
        return Announcement(text, "answer", Priority.HIGH)

    # ------------------------------------------------------------- questions

    def answer(self, query: str, state: State, player: int | None = None) -> Announcement:
        """Answer one of `QUERIES`: a question about the table, "repeat" or "help"."""
        seat = self.seat if player is None else player
        key = " ".join(query.lower().split())
        key = QUERY_ALIASES.get(key, key)
        if key == "repeat":
            return self.repeat()
        if key == "help":
            text = self.help_text
        elif key in TABLE_QUERIES:
            text = answer_text(key, state, seat)
            if self._awaits_ready(state, seat):
                # The deal waits for the player: a question, asked perhaps because the
                # prompt was missed, keeps the prompt the last word.
                text = f"{text} {READY_PROMPT}"
        else:
            raise ValueError(f"no answer for {query!r}; ask one of: {', '.join(QUERIES)}")
        return Announcement(text, "answer", Priority.HIGH)

    @staticmethod
    def describe_cards(state: State, seat: int) -> str:
        """The seat's playable cards: Spit stockpile tops in order, or the Speed hand."""
        return describe_cards(state, seat)


def one_card(card: Card, colours: bool) -> str:
    """"a two", "an eight", "a red nine": a card said after a verb, as one card (the
    colours, red and black, both take "a")."""
    return f"a {card_words(card, colours)}" if colours else with_article(card.rank)
