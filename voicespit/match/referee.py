"""The real-time referee: the one writer of a match's state.

Players never touch the state. They `post()` intents from any thread; the match
stamps each with the clock and applies them one at a time in arrival order,
checking legality again at apply time: when two cards race for one pile the
first to arrive is played and the other is refused "too late: left is now a
nine". Around the engine's rules the match runs the round: both players ready,
a countdown before each spit (automatic at a stalemate unless switched off),
the slap race and its time window, the next layout, the end. With
`wait_for_announcements` the countdown at a stalemate and the slap race start
once the players have heard the stalemate or the round's end.

Threads. All of the match's work runs on one thread, *the referee thread*: the
thread of the clock passed in (a `RealClock`'s timer thread, or whoever calls
`FakeClock.advance`/`run_next`). Intents, announcement reports and `start()`
are queued and picked up there. Give the match a clock of its own, so nothing
slow shares its thread. Timers that players set on `match.clock` (the opponent's
reactions) run on the same thread, so they may read `heard_state()` freely.

Publishing. Every engine event and match event is wrapped in a `Stamped` with a
sequence number (from 1, no gaps) and the match time, and handed to:
- listeners (`subscribe`): each on its own thread by default (see
  `voicespit.match.delivery`), or inline on the referee thread for quick code;
- observers (`observe`): players, told on the referee thread what they have
  *heard* (see `voicespit.match.hearing`). With `wait_for_announcements` a change (the
  events one action caused) is heard when the audio layer calls
  `announcement_finished(sequence)` for its last event (or after
  `announcement_timeout_seconds`); otherwise at once.

Match time (`match.clock`, `Stamped.time`) is the clock's time less the time
spent paused: a pause freezes it and every timer set on it.
"""

from __future__ import annotations

import functools
import logging
import random
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from voicespit.clock import Clock, FakeClock, PausableClock, Timer
from voicespit.engine import Rules, new_game
from voicespit.engine import actions as act
from voicespit.engine.actions import RIGHT, Action, ChoosePile, Slap
from voicespit.engine.events import Event, GameOver, LayoutDealt, PileSlapped, RoundOver, Stalemate
from voicespit.engine.state import IllegalActionError, Phase
from voicespit.errors import VoiceSpitError
from voicespit.match.delivery import Listener
from voicespit.match.events import (
    IntentRefused,
    MatchEvent,
    MatchQuit,
    PaceChanged,
    Paused,
    PlayerReady,
    Resumed,
    SlapWindowOpened,
    SpitCountdown,
)
from voicespit.match.hearing import Observer, Perception
from voicespit.match.inbox import Inbox
from voicespit.match.intents import ActionIntent, Control, ControlIntent, Intent, State
from voicespit.match.publisher import Publisher
from voicespit.match.refusals import refusal_for_action, refusal_for_resolver
from voicespit.match.settings import MatchSettings

__all__ = ["Match", "MatchSettings", "MatchStuckError", "PaceControl"]

log = logging.getLogger(__name__)

COUNTDOWN_IS_ON = "wait for the spit: the countdown is on"
WAITING_FOR_OPPONENT = "you are ready: waiting for your opponent"

PaceControl = Callable[[bool], float]
"""Called with True for "faster", False for "slower"; returns the new seconds per card."""


class MatchStuckError(VoiceSpitError):
    """`run_until_over` found nothing left to happen, or ran out of time."""


@dataclass(frozen=True, slots=True)
class _Posted:
    intent: Intent
    posted_at: float
    based_on: int


@dataclass(frozen=True, slots=True)
class _Heard:
    sequence: int


class _Start:
    pass


class Match:
    """One match between seat 0 (the human) and seat 1 (the computer)."""

    def __init__(self, rules: Rules, clock: Clock, *, seed: int | str,
                 settings: MatchSettings | None = None) -> None:
        self.rules = rules
        self.settings = settings or MatchSettings()
        self.base_clock = clock
        self.clock = PausableClock(clock)
        """Match time: stands still while paused. Players set their timers here."""
        self._state: State = new_game(rules, random.Random(seed))
        self._lock = threading.RLock()
        self._inbox: Inbox[_Posted | _Heard | _Start] = Inbox(clock, self._handle_guarded)
        self._events = Publisher(
            self.clock, lambda: self._state, self._timer,
            wait_for_announcements=self.settings.wait_for_announcements,
            announcement_timeout=self.settings.announcement_timeout_seconds)
        # First of the observers: a countdown it starts goes out before any player reacts.
        self._events.observe(self._on_heard)
        self._depth = 0
        """How deep the referee is in `_guarded` work (only the outermost call delivers)."""
        self._ready: set[int] = set()
        self._owed_on_resume: Callable[[], None] | None = None
        """A countdown or slap race due while paused: it starts at the resume."""
        self._countdown: Timer | None = None
        self._slap_window: Timer | None = None
        self._pace_control: PaceControl | None = None
        self._last_slap: tuple[int, int] | None = None
        self._own_change: dict[int, int] = {}
        """Per player, the sequence ending the last change their own action made: they
        know of it without hearing it (`_table_decided_on`)."""
        self._finished = False
        self._over = threading.Event()
        self.actions_applied = 0
        """Actions the engine accepted (refusals and spits of the countdown excluded)."""
        self._failures: list[str] = []

    # ---------------------------------------------------------- any thread

    def subscribe(self, listener: Listener, *, inline: bool = False) -> None:
        """Receive every `Stamped` event in order, on a thread of its own (or inline)."""
        self._events.subscribe(listener, inline)

    def observe(self, observer: Observer) -> None:
        """Be told, on the referee thread, what has been heard (see `Perception`)."""
        self._events.observe(observer)

    def post(self, intent: Intent) -> None:
        """Queue a player's intent; it is applied on the referee thread in arrival order."""
        based_on = self._events.hearing.heard_through
        if isinstance(intent, ActionIntent) and intent.based_on is not None:
            based_on = intent.based_on
        self._inbox.put(_Posted(intent, self.clock.now(), based_on))

    def announcement_finished(self, sequence: int) -> None:
        """The audio layer has finished with every event up to `sequence`."""
        self._inbox.put(_Heard(sequence))

    def start(self) -> None:
        """Publish the first deal and begin the round flow."""
        self._inbox.put(_Start())

    def snapshot(self) -> State:
        """A copy of the current state (safe from any thread)."""
        with self._lock:
            return self._state.clone()

    def heard_snapshot(self) -> State:
        """A copy of the table as the players have heard it (safe from any thread): what
        a key or a stockpile number means is what the last announcement said."""
        with self._lock:
            return self._events.heard_state().clone()

    @property
    def is_over(self) -> bool:
        """The game ended or somebody quit; nothing more will happen."""
        return self._over.is_set()

    @property
    def is_paused(self) -> bool:
        return self.clock.is_paused

    @property
    def heard_through(self) -> int:
        """The sequence of the last event the players have heard."""
        return self._events.hearing.heard_through

    @property
    def winner(self) -> int | None:
        return self._state.winner

    @property
    def errors(self) -> list[str]:
        """Failures inside the referee or an observer (bugs): logged, never fatal."""
        return self._failures + self._events.errors

    @property
    def announcement_timeouts(self) -> int:
        """How often the match stopped waiting for an announcement that was never reported
        heard (`announcement_timeout_seconds`): each one held the game up that long."""
        return self._events.announcement_timeouts

    @property
    def listener_errors(self) -> list[str]:
        return self._events.listeners.errors

    def run_until_over(self, timeout: float | None = None) -> None:
        """Drive (FakeClock) or wait for (real clock) the match to its end.

        With a FakeClock this runs every timer in time order on the calling
        thread; `timeout` is match seconds (default a week). With a real clock
        it blocks until the end; `timeout` is seconds of waiting (default none).
        """
        base = self.base_clock
        if isinstance(base, FakeClock):
            limit = base.now() + (7 * 24 * 3600.0 if timeout is None else timeout)
            while not self._over.is_set():
                if not base.run_next():
                    raise MatchStuckError(
                        f"nothing left to happen in phase {self._state.phase.value}")
                if base.now() > limit:
                    raise MatchStuckError(f"the match did not end within {limit:.0f} s")
        elif not self._over.wait(timeout):
            raise MatchStuckError(f"the match did not end within {timeout} s")

    def flush_listeners(self, timeout: float = 5.0) -> bool:
        """Wait until threaded listeners have handled everything published so far."""
        return self._events.listeners.flush(timeout)

    def close(self, timeout: float = 5.0) -> None:
        """Stop every timer, deliver what listeners still have queued, stop their threads."""
        with self._lock:
            self._finished = True
            self.clock.cancel_all()
            self._over.set()
        self._events.listeners.close(timeout)

    # ------------------------------------------------- referee thread only

    @property
    def state(self) -> State:
        """The live state; read it on the referee thread only, never change it."""
        return self._state

    def heard_state(self) -> State:
        """The table as the players have heard it (the live state when not waiting)."""
        return self._events.heard_state()

    @property
    def all_heard(self) -> bool:
        """Whether the players have heard everything published so far."""
        return self._events.hearing.oldest_unheard is None

    def set_pace_control(self, control: PaceControl) -> None:
        """Let "faster"/"slower" reach the computer opponent."""
        self._pace_control = control

    def report_pace(self, seconds_per_card: float, reason: str) -> None:
        """Publish that the opponent's pace changed by itself (adaptive mode)."""
        with self._lock:
            self._guarded(lambda: self._publish([PaceChanged(seconds_per_card, reason)]))

    # ------------------------------------------------------------ the loop

    def _handle_guarded(self, item: _Posted | _Heard | _Start) -> None:
        with self._lock:
            self._guarded(functools.partial(self._handle, item))

    def _guarded(self, work: Callable[[], None]) -> None:
        """Run referee work, then deliver what it published (once, at the outermost call)."""
        self._depth += 1
        try:
            work()
            if self._depth == 1:
                self._events.flush()
        except Exception as error:
            log.exception("the referee failed")
            self._failures.append(repr(error))
        finally:
            self._depth -= 1

    def _timer(self, delay: float, work: Callable[[], None]) -> Timer:
        def run() -> None:
            with self._lock:
                if not self._finished:
                    self._guarded(work)
        return self.clock.call_later(delay, run)

    def _handle(self, item: _Posted | _Heard | _Start) -> None:
        if isinstance(item, _Heard):
            if self.settings.wait_for_announcements:
                self._events.hear(item.sequence)
        elif isinstance(item, _Start):
            self._publish(list(self._state.deal_events), changed=True)
            self._after_change(self._state.deal_events)
        elif isinstance(item.intent, ControlIntent):
            self._control(item.intent)
        else:
            self._act(item, item.intent)

    def _publish(self, events: Sequence[Event | MatchEvent], changed: bool = False) -> None:
        self._events.publish(events, changed)

    # ------------------------------------------------------------- intents

    def _refuse(self, player: int, action: Action | None, reason: str,
                too_late: bool = False, *, said: str = "") -> None:
        self._publish([IntentRefused(player, action, reason, too_late, said)])

    def _act(self, posted: _Posted, intent: ActionIntent) -> None:
        player, said = intent.player, intent.said
        if self._finished:
            self._refuse(player, intent.action, "the game is over", said=said)
            return
        if self.clock.is_paused:
            self._refuse(player, intent.action, "the game is paused: say continue to play on",
                         said=said)
            return
        before = self._table_decided_on(intent, posted.based_on)
        if intent.resolver is not None:
            try:
                action = intent.resolver(self._state)
            except VoiceSpitError as error:
                if (waiting := self._waiting_for_spit(player)) is not None:
                    # The resolver sees a table with no piles yet ("say ready first"),
                    # but the spit is on its way: the player need only wait for it.
                    self._refuse(player, None, waiting, said=said)
                else:
                    self._refuse(player, *refusal_for_resolver(
                        intent.resolver, player, error, self._state, before), said=said)
                return
            except Exception as error:  # a parser bug must not stop the game
                log.exception("resolver of %s failed", intent)
                self._failures.append(f"resolver: {error!r}")
                self._refuse(player, None, "that command could not be carried out", said=said)
                return
        else:
            assert intent.action is not None
            action = intent.action
        phase = self._state.phase
        if type(action) is act.Spit and phase in (Phase.READY, Phase.STALEMATE):
            self._ready_for_spit(player, said)
            return
        if (waiting := self._waiting_for_spit(player)) is not None:
            self._refuse(player, action, waiting, said=said)
            return
        try:
            events = self._state.apply(player, action)
        except IllegalActionError as error:
            self._refuse(player, *refusal_for_action(
                action, player, error.reason, self._state, before, self._last_slap), said=said)
            return
        self.actions_applied += 1
        if log.isEnabledFor(logging.DEBUG):
            log.debug("%s: posted at %.3f, applied at %.3f", intent, posted.posted_at,
                      self.clock.now())
        self._publish(events, changed=True)
        self._own_change[player] = self._events.last_sequence
        self._after_change(events)

    def _table_decided_on(self, intent: ActionIntent, based_on: int) -> State | None:
        """The table the player decided on, against which a refusal is judged "too late"
        or a mistake; None when the player's own later move had already spoiled the
        command. A player knows their own move the moment they make it: "five", "four",
        then "seven" typed quickly on a right pile of six was refused "too late: right is
        now a four", as if the opponent had got there first, when the four was theirs."""
        heard = self._events.hearing.state_at(based_on)
        own = self._own_change.get(intent.player, 0)
        if heard is None or own <= based_on:
            return heard
        after_own = self._events.hearing.state_at(own)
        if after_own is None or _finds_a_move(intent, after_own):
            return heard
        return None

    def _control(self, intent: ControlIntent) -> None:
        control, player, said = intent.control, intent.player, intent.said
        if control is Control.QUIT:
            if not self._finished:
                self._publish([MatchQuit(player)])
                self._finish()
        elif self._finished:
            self._refuse(player, None, "the game is over", said=said)
        elif control is Control.PAUSE:
            if self.clock.is_paused:
                self._refuse(player, None, "the game is already paused: say continue to play on",
                             said=said)
            else:
                self.clock.pause()
                self._publish([Paused()])
        elif control is Control.RESUME:
            if self.clock.is_paused:
                self.clock.resume()
                self._publish([Resumed()])
                owed, self._owed_on_resume = self._owed_on_resume, None
                if owed is not None:
                    owed()
            else:
                self._refuse(player, None, "the game is not paused", said=said)
        elif control is Control.READY:
            if self._state.phase in (Phase.READY, Phase.STALEMATE):
                self._ready_for_spit(player, said)
            else:
                self._refuse(player, None, "play is already on", said=said)
        elif self._pace_control is None:
            self._refuse(player, None, "there is no computer opponent to pace", said=said)
        else:
            faster = control is Control.FASTER
            seconds = self._pace_control(faster)
            word = "faster" if faster else "slower"
            self._publish([PaceChanged(seconds, f"{word} on request", requested=True)])

    # ---------------------------------------------------------- round flow

    def _after_change(self, events: Sequence[Event]) -> None:
        phase = self._state.phase
        for event in events:
            if isinstance(event, PileSlapped):
                self._last_slap = (event.player, event.pile)
        if any(isinstance(event, GameOver) for event in events):
            self._finish()
        elif phase is Phase.READY and any(isinstance(event, LayoutDealt) for event in events):
            self._ready = set()
            if self.settings.auto_start:
                self._start_countdown()
        elif phase is Phase.STALEMATE and any(isinstance(event, Stalemate) for event in events):
            self._ready = set()  # auto_spit: the countdown starts once this is heard
        # The end of a round opens the slap race once it is heard (`_on_heard`).
        if phase is not Phase.ROUND_OVER and self._slap_window is not None:
            self._slap_window.cancel()
            self._slap_window = None

    def _on_heard(self, perception: Perception) -> None:
        """Start the slap race, or the countdown at a stalemate, once the players know.

        Started at the instant itself, the bell would run down while "Round over" was
        still being said, and "Three." would cut off "Nobody can play.": a listener
        would lose time a sighted player has, or hear a countdown with no reason.
        """
        if self._finished:
            return
        heard = {type(stamped.event) for stamped in perception.events}
        phase = self._state.phase
        if RoundOver in heard and phase is Phase.ROUND_OVER and self._slap_window is None:
            self._open_slap_window()
        elif Stalemate in heard and phase is Phase.STALEMATE and self.settings.auto_spit \
                and self._countdown is None:
            self._start_countdown()

    def _waiting_for_spit(self, player: int) -> str | None:
        """Why a move must wait when the player has done their part and the spit is
        coming (not the engine's "say ready first", said to a player who has)."""
        if self._countdown is not None:
            return COUNTDOWN_IS_ON
        if self._state.phase is Phase.READY and player in self._ready:
            return WAITING_FOR_OPPONENT
        return None

    def _ready_for_spit(self, player: int, said: str = "") -> None:
        # Never a silent no-op: a player who says ready twice hears why nothing happens.
        if self._countdown is not None:
            self._refuse(player, None, "the countdown is already on", said=said)
            return
        if player in self._ready:
            self._refuse(player, None, WAITING_FOR_OPPONENT, said=said)
            return
        self._ready.add(player)
        self._publish([PlayerReady(player)])
        if self._ready >= {0, 1}:
            self._start_countdown()

    def _start_countdown(self) -> None:
        self._ready = {0, 1}
        if self._held_by_pause(self._start_countdown):
            return
        self._count_down(self.settings.countdown_from)

    def _held_by_pause(self, start: Callable[[], None]) -> bool:
        """Whether a countdown or slap race must wait for the resume. Its news can be
        heard, or both players ready, after the pause began ("Nobody can play." still
        being said when the player asked to quit): started then, "Three." would be said
        over the pause's question and the race would sit on a frozen clock."""
        if not self.clock.is_paused:
            return False
        self._owed_on_resume = start
        return True

    def _count_down(self, seconds_left: int) -> None:
        if seconds_left <= 0:
            self._countdown = None
            events = self._state.apply(0, act.SPIT)
            self._publish(events, changed=True)
            self._after_change(events)
            return
        self._publish([SpitCountdown(seconds_left)])
        self._countdown = self._timer(self.settings.countdown_step_seconds,
                                      lambda: self._count_down(seconds_left - 1))

    def _smaller_pile(self) -> int | None:
        sizes = [len(pile) for pile in self._state.piles]
        return None if sizes[0] == sizes[1] else (0 if sizes[0] < sizes[1] else 1)

    def _open_slap_window(self) -> None:
        if self._held_by_pause(self._open_slap_window):
            return
        window = self.settings.slap_window_seconds
        self._publish([SlapWindowOpened(self.clock.now() + window, self._smaller_pile())])
        self._slap_window = self._timer(window, self._close_slap_window)

    def _close_slap_window(self) -> None:
        """Nobody moved in time: the computer's hand lands at the bell."""
        self._slap_window = None
        if self._state.phase is not Phase.ROUND_OVER:
            return
        smaller = self._smaller_pile()
        action: Action
        if self.rules.slap:
            player, action = 1, Slap(RIGHT if smaller is None else smaller)
        else:
            # With slap=false only the chooser has moves; the smaller pile is the sensible pick.
            player = next(seat for seat in (0, 1) if self._state.legal_actions(seat))
            action = ChoosePile(player if smaller is None else smaller)
        events = self._state.apply(player, action)
        self.actions_applied += 1
        self._publish(events, changed=True)
        self._after_change(events)

    def _finish(self) -> None:
        self._finished = True
        self.clock.cancel_all()
        self._countdown = self._slap_window = None
        self._events.stop()
        self._over.set()


def _finds_a_move(intent: ActionIntent, table: State) -> bool:
    """Whether the intent is a legal move on `table` (a resolver that fails finds none)."""
    action = intent.action
    if action is None:
        assert intent.resolver is not None
        try:
            action = intent.resolver(table)
        except Exception:  # a parser bug is reported when the intent is acted on
            return False
    return action in table.legal_actions(intent.player)
