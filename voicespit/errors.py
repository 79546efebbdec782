"""The one base class every VoiceSpit error shares.

Callers that only need to tell "our error, with a message fit to speak" from a
programming error catch `VoiceSpitError`.
"""


class VoiceSpitError(Exception):
    """Base of every error VoiceSpit raises on purpose; its message can be spoken.

    `detail` holds what only a technician needs (a library's own words, a device
    number, a path): shown with `--verbose` and written to the log, never spoken.
    """

    def __init__(self, message: str = "", *, detail: str = "") -> None:
        super().__init__(message)
        self.detail = detail


class ChoiceNeededError(VoiceSpitError):
    """The words fit more than one move on the table now ("eight" with a seven and a nine
    showing); the message names the choices. Nothing was late or illegal: the player
    only has to say which, so no layer may explain it as a move that came too late."""
