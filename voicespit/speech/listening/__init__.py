"""Sound in: where audio comes from and when to listen to it.

Audio sources (`sources`: WAV files and text; `microphone`), voice activity and
speech endpoints (`activity`, `endpoint`), push-to-talk and the listening gate
(`gate`), the game's own sound heard back and what to do about it (`echo`,
`echo_mask`, `far_end`, `fed_timeline`, `room_tone`, `barge_in`), and `listener`,
the loop that feeds a recognizer and posts what it heard.

May import: the speech package's own `recognizer` (the contract) and `signal`,
`speech.language`, and the cross-cutting modules. Not `speech.recognizers`: the
listener drives any recognizer through the protocol alone.
"""
