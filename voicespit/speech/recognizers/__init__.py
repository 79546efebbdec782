"""Speech to words: each engine's adapter, choosing one, and installing models.

The adapters (`whisper_recognizer` with `whisper_model`, `whisper_tokens`,
`ct2_weights`, `log_mel`, `sentence_scorer`; `pocketsphinx_recognizer` with
`pocketsphinx_engine`, `second_opinion`; `vosk_recognizer`) each implement
`voicespit.speech.recognizer.Recognizer` and import their engine lazily. `select`
chooses one from the settings; `models`, `download` and `model_archive` install
models; `transcription` runs files through a recognizer and scores the result.

May import: `speech.listening`, `speech.language`, the speech package's own
`recognizer` and `signal`, and the cross-cutting modules.
"""
