"""A loudspeaker for a machine without one, that can be unplugged mid-game.

A private ALSA configuration (ALSA_CONFIG_PATH, read by PortAudio when it starts,
so only in a child process) makes the default playback device ALSA's `file`
plugin writing into a FIFO, over a `null` device. This reader drains the FIFO,
about as fast as a sound card would; `unplug()` closes it, so the next write
fails (EPIPE) and PortAudio ends the stream, as it does when a USB headset is
pulled or a sound server goes away.
"""

from __future__ import annotations

import contextlib
import os
import select
import threading
import time
from pathlib import Path

BYTES_PER_SECOND = 22_050 * 2 * 4
"""What the game's stream asks of a sound card: 22,050 frames a second of float32 stereo.
Read at this pace, the device plays in real time, as a sound card would."""
TICK_SECONDS = 0.01


class FifoSpeaker:
    def __init__(self, folder: Path) -> None:
        self.fifo = folder / "speaker.fifo"
        os.mkfifo(self.fifo)
        self.config = folder / "asound.conf"
        self.config.write_text(f"""
pcm.!default {{
    type file
    slave.pcm "silent"
    file "{self.fifo}"
    format "raw"
}}
pcm.silent {{
    type null
}}
""")
        self.bytes_played = 0
        self._unplugged = threading.Event()
        # Open now, without waiting for a writer: kept open, the game's opens never block.
        self._fd = os.open(self.fifo, os.O_RDONLY | os.O_NONBLOCK)
        self._thread = threading.Thread(target=self._drain, name="fifo speaker", daemon=True)
        self._thread.start()

    @property
    def environment(self) -> dict[str, str]:
        return {"ALSA_CONFIG_PATH": str(self.config)}

    def _drain(self) -> None:
        # A token bucket: real-time pace, with at most a tenth of a second's catching up.
        allowance, last = 0.0, time.monotonic()
        try:
            while not self._unplugged.is_set():
                now = time.monotonic()
                allowance = min(allowance + (now - last) * BYTES_PER_SECOND, BYTES_PER_SECOND / 10)
                last = now
                readable, _, _ = select.select([self._fd], [], [], TICK_SECONDS)
                if readable and allowance >= 1:
                    with contextlib.suppress(BlockingIOError):
                        read = len(os.read(self._fd, int(allowance)))
                        self.bytes_played += read
                        allowance -= read
                self._unplugged.wait(TICK_SECONDS)
        finally:
            os.close(self._fd)

    def unplug(self) -> None:
        """The device goes away: nothing reads what the game plays any more."""
        self._unplugged.set()
        self._thread.join(5.0)
