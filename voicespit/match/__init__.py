"""The real-time referee: one writer, ordered intents, timers (`referee.Match`).

Owns what happens between a player's intent and the events it caused: the
intents themselves and the queue they wait in (`intents`, `inbox`), applying them
in arrival order on one thread, telling a move beaten to a pile from a mistake
(`refusals`), publishing events to listeners (`publisher`, `delivery`) once they
have been heard (`hearing`), how fast each player reacts (`reaction_meter`), and
the match's settings and events (`settings`, `events`).

May import: `engine`, and the cross-cutting `clock`, `config`, `errors`.
"""
