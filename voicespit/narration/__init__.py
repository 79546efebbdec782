"""Game events -> the words and cues a player hears (pure: no audio, no clock).

`narrator.Narrator` decides what to say about each event; `answers` answers the
player's questions about the table; `announcement` is the vocabulary narration
speaks in and the audio layer plays from (`Announcement`, `Cue`, `Priority`,
`Verbosity`).

May import: `match` (its events), `engine`, and the cross-cutting modules.
"""
