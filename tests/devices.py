"""Whether this machine has a sound device: tests of the no-device path skip where one is."""

from __future__ import annotations


def has_sound_device(kind: str) -> bool:
    """True when PortAudio reports a default `kind` ("input" or "output") device."""
    try:
        import sounddevice

        sounddevice.query_devices(kind=kind)
    except Exception:
        return False
    return True
