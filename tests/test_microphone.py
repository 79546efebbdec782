"""The microphone source through the real sounddevice and PortAudio stack.

This machine has no sound card, so the recording device is ALSA's `file` plugin
reading prepared audio (tests/alsa_file_microphone.py): everything from PortAudio's
callback to the 16 kHz blocks is the real path. Not testable here: a real sound
card's timing, a device that refuses 16 kHz by itself (the 48 kHz path is forced
instead), and a device unplugged mid-game (the stall watchdog).
"""

from __future__ import annotations

import json
import subprocess
import textwrap
from pathlib import Path

import numpy as np
import pytest

from tests.alsa_file_microphone import alsa_config, run_with_alsa
from tests.vosk_support import SILENCE, installed_korean_model, korean_speech
from voicespit.speech.listening.microphone import MicrophoneSource, NoMicrophoneError, choose_input_settings
from voicespit.speech.listening.sources import AudioSource

RECORD = textwrap.dedent("""
    import json, sys, time
    from voicespit.speech.listening.microphone import MicrophoneSource
    wanted, output, rate, backlog, pause = (int(sys.argv[1]), sys.argv[2], int(sys.argv[3]),
                                            float(sys.argv[4]), float(sys.argv[5]))
    source = MicrophoneSource(samplerate=rate or None, max_backlog=backlog)
    source.open()
    time.sleep(pause)  # a reader that falls behind
    recorded, starts = b"", []
    for block in source.blocks():
        recorded += block.pcm
        starts.append(block.start)
        if len(recorded) >= wanted:
            break
    source.close()
    open(output, "wb").write(recorded[:wanted])
    print(json.dumps({"description": source.description, "starts": starts,
                      "dropped": source.dropped_blocks}))
""")


def record(tmp_path: Path, audio: bytes, *, wanted: int, device_rate: int = 0,
           backlog: float = 600.0, pause: float = 0.0) -> tuple[bytes, dict[str, object]]:
    infile = tmp_path / "microphone.raw"
    infile.write_bytes(audio)
    output = tmp_path / "recorded.raw"
    done = run_with_alsa(alsa_config(tmp_path, infile), RECORD, str(wanted), str(output),
                         str(device_rate), str(backlog), str(pause))
    assert done.returncode == 0, done.stderr
    return output.read_bytes(), json.loads(done.stdout.splitlines()[-1])


def test_the_microphone_delivers_what_was_recorded_bit_for_bit_in_stamped_blocks(
        tmp_path: Path) -> None:
    speech = korean_speech("여덟 왼쪽")
    recorded, report = record(tmp_path, speech, wanted=len(speech))
    assert recorded == speech
    assert report["description"] == "default, 16000 Hz"
    starts = report["starts"]
    assert isinstance(starts, list)
    assert starts[:4] == pytest.approx([0.0, 0.1, 0.2, 0.3])  # 100 ms blocks, stream time


def test_a_device_recording_at_48_khz_is_converted_to_16_khz(tmp_path: Path) -> None:
    speech = korean_speech("여덟 왼쪽")
    at_48k = subprocess.run(
        ["sox", "-t", "raw", "-r", "16000", "-e", "signed", "-b", "16", "-c", "1", "-",
         "-D", "-r", "48000", "-t", "raw", "-"],
        input=speech, capture_output=True, check=True).stdout
    recorded, report = record(tmp_path, at_48k, wanted=len(speech), device_rate=48_000)
    assert report["description"] == "default, 48000 Hz -> 16000 Hz"
    original = np.frombuffer(speech, dtype="<i2").astype(np.float64)[:-32]
    converted = np.frombuffer(recorded, dtype="<i2").astype(np.float64)

    def similarity(lag: int) -> float:
        return float(np.corrcoef(original, converted[lag:lag + len(original)])[0, 1])

    # The same speech, a few samples late (the delays of sox's and our filters).
    assert max(similarity(lag) for lag in range(16)) > 0.98


def test_a_reader_that_falls_behind_loses_the_oldest_audio_not_the_newest(tmp_path: Path) -> None:
    audio = SILENCE * 30  # the file device runs far faster than real time
    _, report = record(tmp_path, audio, wanted=3200, backlog=0.5, pause=0.5)
    assert isinstance(report["dropped"], int) and report["dropped"] > 0
    starts = report["starts"]
    assert isinstance(starts, list) and starts[0] > 0.5  # the first blocks were dropped


def test_with_no_sound_device_the_error_says_so_and_that_typing_takes_over(
        tmp_path: Path) -> None:
    probe = textwrap.dedent("""
        from voicespit.speech.listening.microphone import MicrophoneSource, NoMicrophoneError
        try:
            MicrophoneSource().open()
        except NoMicrophoneError as error:
            print(error)
    """)
    done = run_with_alsa(alsa_config(tmp_path, None), probe)
    assert done.returncode == 0, done.stderr
    message = done.stdout.strip()
    assert message == "no microphone found", "plain words; the details are for --verbose"


def test_it_is_an_audio_source_in_the_shared_sense() -> None:
    source: AudioSource = MicrophoneSource()  # mypy checks the protocol; nothing opens yet
    assert isinstance(source, MicrophoneSource) and source.description == ""


def test_the_recording_format_prefers_16_khz_mono_then_what_the_device_offers() -> None:
    def only(*supported: tuple[int, int]):  # type: ignore[no-untyped-def]
        return lambda rate, channels: (rate, channels) in supported

    assert choose_input_settings(only((16_000, 1), (48_000, 1)), 48_000, 2) == (16_000, 1)
    assert choose_input_settings(only((44_100, 1)), 44_100, 2) == (44_100, 1)
    assert choose_input_settings(only((48_000, 2)), 48_000, 2) == (48_000, 2)
    with pytest.raises(NoMicrophoneError, match="cannot record at a usable rate") as refused:
        choose_input_settings(only((96_000, 1)), 8_000, 1)
    assert "44.1" in refused.value.detail


LIVE = textwrap.dedent("""
    import json, sys, threading
    from pathlib import Path
    from voicespit.clock import RealClock
    from voicespit.speech.listening.gate import ListeningGate
    from voicespit.speech.listening.listener import Listener
    from voicespit.speech.listening.microphone import MicrophoneSource
    from voicespit.speech.recognizers.vosk_recognizer import VoskRecognizer
    recognizer = VoskRecognizer(Path(sys.argv[1]), sys.argv[2].split(","))
    heard, done = [], threading.Event()
    def on_result(result):
        heard.append(result.text)
        if len(heard) == 2:
            done.set()
    # The file device runs thousands of times faster than real time: a backlog this
    # large keeps it from pushing the speech out of the queue before Vosk reads it.
    source = MicrophoneSource(max_backlog=100_000)
    listener = Listener(source, recognizer, ListeningGate(), on_result, RealClock())
    listener.start()
    done.wait(60)
    listener.stop()
    print(json.dumps({"heard": heard, "errors": [str(e) for e in listener.errors]}))
""")


def test_spoken_commands_go_from_the_microphone_through_the_listener_to_vosk(
        tmp_path: Path) -> None:
    audio = (SILENCE + korean_speech("여덟 왼쪽") + SILENCE + korean_speech("오른쪽")
             + SILENCE * 2)
    infile = tmp_path / "microphone.raw"
    infile.write_bytes(audio)
    done = run_with_alsa(alsa_config(tmp_path, infile), LIVE, str(installed_korean_model()),
                         "여덟 왼쪽,오른쪽,왼쪽,멈춤,일곱")
    assert done.returncode == 0, done.stderr
    outcome = json.loads(done.stdout.splitlines()[-1])
    assert outcome == {"heard": ["여덟 왼쪽", "오른쪽"], "errors": []}



MUTED = textwrap.dedent("""
    import json, sys, threading
    from pathlib import Path
    from voicespit.clock import RealClock
    from voicespit.speech.listening.gate import ListeningGate
    from voicespit.speech.listening.listener import Listener
    from voicespit.speech.listening.microphone import MicrophoneSource
    from voicespit.speech.listening.talk_over import TalkHooks
    from voicespit.speech.recognizers.vosk_recognizer import VoskRecognizer
    recognizer = VoskRecognizer(Path(sys.argv[1]), sys.argv[2].split(","))
    news, back = [], threading.Event()
    def silent(at):
        news.append(("silent", at))
    def returned(at):
        news.append(("back", at))
        back.set()
    source = MicrophoneSource(max_backlog=100_000)
    listener = Listener(source, recognizer, ListeningGate(), lambda result: None, RealClock(),
                        talk=TalkHooks(microphone_silent=silent, microphone_back=returned))
    listener.start()
    back.wait(60)
    listener.stop()
    print(json.dumps({"news": [kind for kind, _ in news]}))
""")


def test_a_muted_device_is_told_through_the_real_microphone_path(tmp_path: Path) -> None:
    # A device that records zeros (muted by its switch or the system) for longer than
    # the watch waits, then the room: what the microphone adapter delivers is what the
    # watch hears, so the game can say the microphone sends nothing, and then that it
    # is back.
    room = np.random.default_rng(3).normal(0, 30, 16_000).astype("<i2").tobytes()
    infile = tmp_path / "microphone.raw"
    infile.write_bytes(bytes(2 * 16_000 * 11) + room * 2)
    done = run_with_alsa(alsa_config(tmp_path, infile), MUTED, str(installed_korean_model()),
                         "여덟 왼쪽,오른쪽,왼쪽,멈춤,일곱")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout.splitlines()[-1]) == {"news": ["silent", "back"]}
