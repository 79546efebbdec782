"""Voice input: the spoken command language, listening, and the recognizers.

Three sub-packages, from the bottom up: `language` (pure text), `listening` (sound
in), `recognizers` (speech to words). Two modules sit in the package itself
because both `listening` and `recognizers` are built on them: `recognizer`, the
contract between them (16 kHz audio in, `Recognition`s out, the `Recognizer`
protocol), and `signal`, the frame arithmetic both use.

May import: `engine`, the cross-cutting modules (and `resampling`). Never `audio`:
the app wires sound in and sound out together.
"""
