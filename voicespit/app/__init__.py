"""The game as played: wires a `Match` to input (keyboard, voice), the opponent and
sound out, and the player-facing flows built on that (sessions, the tutorial,
preferences, statistics, the generated command reference).

May import every layer below it: `speech`, `audio`, `narration`, `simulation`,
`opponent`, `match`, `engine`, and the cross-cutting modules. Only `cli` imports it.
"""
