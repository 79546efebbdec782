"""Sound out: text-to-speech, earcons, the mixer and the sound device, and rendering a
whole narrated game to a file.

May import: `narration`, `opponent`, `match`, `engine`, and the cross-cutting modules
(`resampling` among them). Never `speech`: the app wires sound in and sound out together.
"""
