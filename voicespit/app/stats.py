"""What one game adds to the player's statistics, and how it sounds at the end."""

from __future__ import annotations

from voicespit.engine.events import CardPlayed, GameOver
from voicespit.match.events import MatchQuit, Stamped
from voicespit.profile import Profile


class GameTally:
    """Counts one seat's plays from the match's events; match time excludes pauses."""

    def __init__(self, seat: int, started_at: float) -> None:
        self.seat = seat
        self.started_at = started_at
        self.ended_at: float | None = None
        self.cards_played = 0
        self.winner: int | None = None
        self.finished = False
        """The game reached its end (not stopped by quitting)."""

    def observe(self, stamped: Stamped) -> None:
        event = stamped.event
        if isinstance(event, CardPlayed) and event.player == self.seat:
            self.cards_played += 1

    def finish(self, event: GameOver | MatchQuit, at: float) -> None:
        self.ended_at = at
        if isinstance(event, GameOver):
            self.finished = True
            self.winner = event.winner

    @property
    def seconds(self) -> float:
        end = self.started_at if self.ended_at is None else self.ended_at
        return max(0.0, end - self.started_at)

    @property
    def won(self) -> bool:
        return self.finished and self.winner == self.seat

    def add_to(self, profile: Profile) -> None:
        """Played cards and time always count; a game counts only when it was finished."""
        profile.cards_played += self.cards_played
        profile.seconds_played += self.seconds
        if self.finished:
            profile.games += 1
            profile.wins += int(self.won)

    def summary(self, profile: Profile) -> str:
        minutes = self.seconds / 60
        pace = f"{60 * self.cards_played / self.seconds:.0f} cards a minute" if self.seconds \
            else "no time at all"
        record = f"{profile.wins} {'win' if profile.wins == 1 else 'wins'} " \
            f"in {profile.games} {'game' if profile.games == 1 else 'games'}"
        length = f"{minutes:.0f} minutes" if minutes >= 1.5 else "a minute or so"
        return (f"You played {self.cards_played} cards in {length}, {pace}. "
                f"So far: {record}.")
