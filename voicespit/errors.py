"""The one base class every VoiceSpit error shares.

Callers that only need to tell "our error, with a message fit to speak" from a
programming error catch `VoiceSpitError`.
"""


class VoiceSpitError(Exception):
    """Base of every error VoiceSpit raises on purpose; its message can be spoken."""
