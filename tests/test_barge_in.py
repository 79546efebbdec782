"""Telling the player's voice from the game's, and keeping the game's from the recognizer.

The detector runs on the real WebRTC canceller's output in a simulated room (as in
test_echo.py): espeak-ng narration is the game, a real recording (FSDD) the player.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import numpy as np
import pytest

from benchmarks.make_corpus import speak, trim
from benchmarks.room import impulse_response, levelled, turned_down
from tests.conftest import REAL_VOICES
from voicespit.speech.listening.barge_in import TalkDetector, TalkSettings
from voicespit.speech.listening.echo import EchoStage, open_canceller
from voicespit.speech.listening.echo_mask import EchoMask
from voicespit.speech.listening.far_end import PlaybackReference
from voicespit.speech.listening.linear_echo import open_linear_canceller
from voicespit.speech.listening.room_tone import RoomTone
from voicespit.speech.listening.sources import AudioBlock, read_wav
from voicespit.speech.recognizer import SAMPLE_RATE

BLOCK = 480


def narration() -> np.ndarray:
    with tempfile.TemporaryDirectory() as folder:
        line = trim(speak("Left: seven. Right: eight, opponent. Stock two shows a queen. Your turn.",
                          "en-us", 175, Path(folder))).astype(np.float64)
    return np.tile(line, 4)


def player_saying(name: str) -> np.ndarray:
    path = REAL_VOICES / name
    if not path.is_file():
        pytest.skip("needs the shared real voices")
    pcm, _ = read_wav(path)
    return levelled(np.frombuffer(pcm, dtype="<i2").astype(np.float64))


def onsets_in_room(echo_db: float | None, player: np.ndarray, at: int, rt60: float = 0.5,
                   delay_ms: float = 45.0, silence_after: float = 0.0,
                   settings: TalkSettings | None = None,
                   microphone_gain_db: float = 0.0) -> list[float]:
    """Seconds at which the detector heard the player start; the game talks throughout, then
    is silent for `silence_after` seconds, and counts as playing as the listener counts it
    (until 0.3 s after its last sound). `echo_db` None: the microphone never hears the game
    (headphones, or a loudspeaker too far away to matter). `microphone_gain_db` below 0:
    the microphone turned down, all it hears that much quieter over its converter's hiss."""
    game = np.concatenate([narration(), np.zeros(round(silence_after * SAMPLE_RATE))])
    player_rms = np.sqrt(np.mean(player[np.abs(player) > 0.01 * np.abs(player).max()] ** 2))
    if echo_db is None:
        echo = np.zeros(len(game))
    else:
        room = impulse_response(rt60, delay_ms, SAMPLE_RATE, np.random.default_rng(2))
        echo = np.convolve(game, room)[:len(game)]
        speech_rms = np.sqrt(np.mean(echo[np.abs(echo) > 0.01 * np.abs(echo).max()] ** 2))
        echo *= player_rms * 10 ** (echo_db / 20) / speech_rms
    near = np.random.default_rng(3).standard_normal(len(game)) * player_rms * 0.01
    near[at:at + len(player)] += player
    heard = echo + near
    if microphone_gain_db:
        heard = turned_down(heard, microphone_gain_db, np.random.default_rng(4))
    microphone = np.clip(np.rint(heard), -32768, 32767).astype(np.int16)
    reference = PlaybackReference(SAMPLE_RATE)
    stage = EchoStage(open_canceller(), reference, linear=open_linear_canceller())
    detector = TalkDetector(settings)
    onsets = []
    for first in range(0, len(microphone) - BLOCK, BLOCK):
        reference.push((game[first:first + BLOCK] / 32768).astype(np.float32),
                       first / SAMPLE_RATE)
        block = AudioBlock(microphone[first:first + BLOCK].tobytes(), first / SAMPLE_RATE)
        cancelled = stage.cancel(block, first / SAMPLE_RATE)
        assert cancelled is not None
        playing = stage.far_heard_until > first / SAMPLE_RATE - 0.3
        if detector.feed(np.frombuffer(cancelled.pcm, dtype="<i2"), stage.last_near,
                         game_playing=playing, far=stage.last_far, linear=stage.last_linear):
            onsets.append((first + BLOCK) / SAMPLE_RATE)
    return onsets


@pytest.mark.parametrize("echo_db", [0.0, 5.0])
def test_the_player_talking_over_the_game_is_heard_and_the_game_alone_never(
        echo_db: float) -> None:
    player = player_saying("7_jackson_3.wav")
    at = 8 * SAMPLE_RATE  # the canceller has had 8 s of the game to learn the room
    onsets = onsets_in_room(echo_db, player, at)
    assert onsets, "the player was never heard"
    assert at / SAMPLE_RATE <= onsets[0] <= at / SAMPLE_RATE + 0.4, onsets
    assert len(onsets) == 1, "the game's own voice started nothing"


@pytest.mark.parametrize("echo_db", [0.0, 5.0])
def test_a_player_at_a_microphone_turned_down_is_heard_over_the_game(echo_db: float) -> None:
    # Turned down 30 dB, the player at -56 dBFS: under a bar of -50 dBFS (before round 47)
    # no frame of theirs was a voice, and a command said over the game was lost without a
    # word. The bar follows the microphone down; the game's echo, turned down with the
    # player, still starts nothing.
    player = player_saying("4_theo_8.wav")
    at = 8 * SAMPLE_RATE
    onsets = onsets_in_room(echo_db, player, at, microphone_gain_db=-30.0)
    assert len(onsets) == 1 and at / SAMPLE_RATE <= onsets[0] <= at / SAMPLE_RATE + 0.4, onsets
    assert onsets_in_room(echo_db, player, at, settings=TalkSettings(follow_gain=False),
                          microphone_gain_db=-30.0) == []


@pytest.mark.parametrize("seconds", [1.5, 2.0, 3.0, 4.0, 6.0])
def test_with_no_echo_a_word_over_the_games_first_seconds_is_heard(seconds: float) -> None:
    # AEC3 with no echo to learn (headphones on `auto`, a far loudspeaker) hid a word said
    # in the game's first seconds by 11 to 40 dB: judged on its output alone, the player
    # was never found and the command was lost without a word. The microphone itself,
    # louder than any echo of the game has made it, tells the player.
    player = player_saying("7_theo_2.wav")
    at = round(seconds * SAMPLE_RATE)
    onsets = onsets_in_room(None, player, at)
    assert onsets, "the player was never heard"
    assert at / SAMPLE_RATE <= onsets[0] <= at / SAMPLE_RATE + 0.3, onsets
    assert len(onsets) == 1, "nothing but the player started anything"


def test_a_word_the_canceller_hides_under_a_louder_echo_is_found_by_the_model() -> None:
    # A real "four" at 8 s, the echo 5 dB over the player in a 0.5 s room: AEC3 leaves too
    # little of it for the rule; how the microphone and the linear filter's output stand
    # to what the game alone makes of them tells the player (voice_frames.py).
    player = player_saying("4_yweweler_1.wav")
    at = 8 * SAMPLE_RATE
    by_rule = onsets_in_room(5.0, player, at, settings=TalkSettings(voice_model=False))
    with_model = onsets_in_room(5.0, player, at)
    assert by_rule == [], "the rule alone finds this word: the test no longer shows the model"
    assert len(with_model) == 1, with_model
    assert at / SAMPLE_RATE <= with_model[0] <= at / SAMPLE_RATE + 0.3, with_model


def exactly_at(db: float, frames: int) -> np.ndarray:
    """`frames` 10 ms frames, every one exactly at `db` dBFS."""
    return np.resize(np.asarray([1, -1]) * round(32768.0 * 10 ** (db / 20)),
                     160 * frames).astype(np.int16)


def hear_the_quiet_room(detector: TalkDetector) -> None:
    """3 s of the room alone at -70 dBFS, the game silent: the detector's floor."""
    for _ in range(100):
        block = exactly_at(-70.0, 3)
        detector.feed(block, block, game_playing=False)


def blocks(count: int, start: float = 0.0) -> list[AudioBlock]:
    return [AudioBlock(bytes(2 * BLOCK), start + index * BLOCK / SAMPLE_RATE)
            for index in range(count)]


def test_the_echo_dying_away_in_a_live_room_is_not_the_player() -> None:
    # RT60 0.8 s: 0.3 s after the game's last sound (a pause between its sentences, or the
    # end) its echo is still some 20 dB over the noise, and the canceller leaves that tail.
    player = player_saying("7_jackson_3.wav")
    at = round((len(narration()) / SAMPLE_RATE + 1.5) * SAMPLE_RATE)
    onsets = onsets_in_room(10.0, player, at, rt60=0.8, delay_ms=80.0, silence_after=3.0)
    assert len(onsets) == 1, f"only the player started anything: {onsets}"
    assert at / SAMPLE_RATE <= onsets[0] <= at / SAMPLE_RATE + 0.4, onsets


def test_while_only_the_game_plays_nothing_reaches_the_recognizer_but_in_order() -> None:
    mask = EchoMask(hold=0.3)
    judged = [j for block in blocks(30) for j in mask.push(block, playing=True, talking=False)]
    assert not any(j.heard for j in judged)
    assert len(judged) == 30 - 10  # 0.3 s (10 blocks) still held, waiting to be judged
    starts = [j.block.start for j in judged]
    assert starts == sorted(starts)


def test_when_the_player_is_heard_the_held_audio_goes_through_whole() -> None:
    mask = EchoMask(hold=0.3)
    game_only = blocks(20)
    for block in game_only:
        mask.push(block, playing=True, talking=False)
    voice = blocks(1, start=20 * BLOCK / SAMPLE_RATE)[0]
    judged = mask.push(voice, playing=True, talking=True)
    assert all(j.heard for j in judged)
    assert [j.block for j in judged] == [*game_only[-10:], voice]  # the 0.3 s before it too


def test_audio_recorded_while_nothing_plays_passes_at_once() -> None:
    mask = EchoMask(hold=0.3)
    for block in blocks(5):
        mask.push(block, playing=True, talking=False)
    after = blocks(1, start=5 * BLOCK / SAMPLE_RATE)[0]
    judged = mask.push(after, playing=False, talking=False)
    assert [j.heard for j in judged] == [False] * 5 + [True]
    assert judged[-1].block == after


def real_noise() -> np.ndarray:
    path = REAL_VOICES.parent.parent / "real-noise" / "exercise_bike.wav"
    if not path.is_file():
        pytest.skip("needs the shared real noise")
    return np.frombuffer(read_wav(path)[0], dtype="<i2")


def frame_levels(samples: np.ndarray) -> np.ndarray:
    frames = samples[:len(samples) // 160 * 160].astype(np.float64).reshape(-1, 160)
    levels: np.ndarray = 10 * np.log10(np.mean(frames * frames, axis=1) / 32768.0**2 + 1e-12)
    return levels


def test_room_tone_tops_a_hushed_background_up_to_the_rooms_and_leaves_a_voice_alone() -> None:
    noise = real_noise()
    tone = RoomTone()
    tone.learn(noise[:2 * SAMPLE_RATE])
    assert tone.level_db is not None
    hushed = (noise[2 * SAMPLE_RATE:4 * SAMPLE_RATE] * 0.3).astype(np.int16)  # -10 dB
    filled = tone.fill(hushed)
    assert np.median(frame_levels(hushed)) < tone.level_db - 8
    assert abs(np.median(frame_levels(filled)) - tone.level_db) < 1.5
    voice = player_saying("7_jackson_3.wav").astype(np.int16)
    loud = frame_levels(voice) > tone.level_db + 10
    np.testing.assert_array_equal(tone.fill(voice)[:len(loud) * 160].reshape(-1, 160)[loud],
                                  voice[:len(loud) * 160].reshape(-1, 160)[loud])


def test_before_the_room_has_been_heard_nothing_is_added() -> None:
    hushed = (real_noise()[:SAMPLE_RATE] * 0.3).astype(np.int16)
    np.testing.assert_array_equal(RoomTone().fill(hushed), hushed)


def test_two_loud_frames_raise_a_suspicion_that_lapses_unless_more_follow() -> None:
    settings = TalkSettings()
    detector = TalkDetector(settings)
    rng = np.random.default_rng(4)

    def quiet(frames: int) -> np.ndarray:
        return (rng.standard_normal(160 * frames) * 30).astype(np.int16)

    def loud(frames: int) -> np.ndarray:
        return (rng.standard_normal(160 * frames) * 3000).astype(np.int16)

    for _ in range(40):
        block = quiet(3)
        detector.feed(block, block)
    click = np.concatenate([quiet(1), loud(1), quiet(1)])
    detector.feed(click, click)
    assert not detector.suspected, "one frame is a click"
    for _ in range(2):
        block = quiet(3)
        detector.feed(block, block)
    burst = np.concatenate([quiet(1), loud(2)])
    assert not detector.feed(burst, burst), "two frames are not yet the player"
    assert detector.suspected and not detector.talking
    for _ in range(settings.suspect_frames // 3 + 1):
        block = quiet(3)
        detector.feed(block, block)
    assert not detector.suspected, "nothing followed: it was not the player"
    voice = loud(3)
    assert detector.feed(voice, voice) and detector.talking and not detector.suspected


def test_while_the_player_is_only_suspected_the_mask_holds_longer() -> None:
    mask = EchoMask(hold=0.3, suspected_hold=0.9)
    early = [j for block in blocks(40) for j in mask.push(block, playing=True, talking=False,
                                                          suspected=True)]
    assert len(early) == 40 - 30 and not any(j.heard for j in early), "0.9 s held"
    confirmed = mask.push(blocks(1, start=40 * BLOCK / SAMPLE_RATE)[0], playing=True,
                          talking=True)
    assert len(confirmed) == 31 and all(j.heard for j in confirmed), \
        "the command goes through from before the suspicion"


def test_what_is_heard_around_the_player_found_is_not_learnt_as_the_games_residual() -> None:
    # The residual's loudest 1 % sets the bar. A voice under it for ten frames before the
    # player is found, learnt as the game's, would raise the bar for the next command.
    rng = np.random.default_rng(5)

    def at(db: float, frames: int) -> np.ndarray:
        rms = 32768.0 * 10 ** (db / 20)
        return np.clip(rng.standard_normal(160 * frames) * rms, -32768, 32767).astype(np.int16)

    def bar_after(then: list[tuple[float, int]]) -> float:
        detector = TalkDetector()
        for _ in range(100):  # the room's noise with the game silent: the floor, -60 dBFS
            block = at(-60.0, 3)
            detector.feed(block, block, game_playing=False)
        far = at(-20.0, 3)
        for _ in range(100):  # the game's residual, -55 dBFS, learnt for 3 s
            block = at(-55.0, 3)
            detector.feed(block, block, game_playing=True, far=far)
        for db, frames in then:
            for _ in range(frames):
                block = at(db, 1)
                detector.feed(block, block, game_playing=True, far=far[:160])
        for _ in range(100):
            block = at(-55.0, 3)
            detector.feed(block, block, game_playing=True, far=far)
        return detector._residual_top

    found = bar_after([(-25.0, 1), (-47.0, 10), (-25.0, 3), (-47.0, 10)])
    lapsed = bar_after([(-25.0, 1), (-47.0, 10), (-55.0, 40)])
    assert found < -52.0, "the player's frames were not the game's"
    assert lapsed > -49.0, "nobody was found: what was set aside was the game's after all"


def test_a_voice_just_over_the_games_residual_hushes_it_before_it_is_found() -> None:
    # The hush is cheap and undone: it takes less over the residual than finding the player.
    detector = TalkDetector()
    hear_the_quiet_room(detector)
    far = exactly_at(-20.0, 3)
    for _ in range(100):
        block = exactly_at(-40.0, 3)
        detector.feed(block, block, game_playing=True, far=far)
    settings = detector.settings
    between = -40.0 + (settings.suspect_margin_db + settings.residual_margin_db) / 2
    voice = exactly_at(between, 3)
    assert not detector.feed(voice, voice, game_playing=True, far=far)
    assert detector.suspected and not detector.talking


def test_the_microphone_speaks_for_the_player_only_while_the_canceller_learns() -> None:
    # A voice the canceller hid (its output at the room's floor) but the microphone and the
    # linear filter hear 20 dB over the game's echo: the player, in the game's first 15 s;
    # after them the canceller's word goes (a volume turned up would otherwise be taken for
    # the player until the game fell silent).
    def found_after(game_seconds: float, restarted: bool = False) -> bool:
        # The rule's own route: the model of the player's voice (below) cannot tell this
        # voice from the game's echo turned up 20 dB, and is not what is tested here.
        detector = TalkDetector(TalkSettings(voice_model=False))
        hear_the_quiet_room(detector)
        far, hidden, echo = exactly_at(-20.0, 3), exactly_at(-70.0, 3), exactly_at(-60.0, 3)
        for _ in range(round(game_seconds / 0.03)):  # the game alone: faint echo, hidden
            detector.feed(hidden, echo, game_playing=True, far=far, linear=echo)
        if restarted:
            detector.canceller_restarted()
        voice = exactly_at(-40.0, 3)
        return any(detector.feed(hidden, voice, game_playing=True, far=far, linear=voice)
                   for _ in range(3))

    assert found_after(5.0), "the canceller hid the player while learning"
    assert not found_after(20.0), "once it has learnt the room, the canceller decides"
    assert found_after(20.0, restarted=True), "a canceller started again learns again"


@pytest.mark.parametrize(("echo_db", "reaches"), [(None, False), (-55.0, False), (-40.0, True)])
def test_whether_the_game_reaches_the_microphone_is_learnt_from_what_it_hears(
        echo_db: float | None, reaches: bool) -> None:
    # The room's noise at -70 dBFS: a voice must clear -50 (the detector's minimum, held
    # fixed: a microphone that never hears anything louder than the game at -55 dBFS
    # would be taken for one turned down, and the bar would follow it down).
    # The game playing at -20 dBFS is heard at the microphone at `echo_db` (None: not at all).
    detector = TalkDetector(TalkSettings(follow_gain=False))
    hear_the_quiet_room(detector)
    assert detector.game_reaches_microphone, "nothing known yet: it may"
    heard = exactly_at(-70.0 if echo_db is None else echo_db, 3)
    for _ in range(100):
        detector.feed(exactly_at(-70.0, 3), heard, game_playing=True, far=exactly_at(-20.0, 3))
    assert detector.game_reaches_microphone is reaches


def test_the_players_own_words_missed_over_the_game_do_not_make_it_reach_the_microphone() -> None:
    # With no echo, the starts of the player's words before the detector finds them are
    # learnt with the game's frames; a few of them must not make the game's own words
    # look audible at the microphone (they did, judged by the microphone's loudest).
    detector = TalkDetector()
    hear_the_quiet_room(detector)
    far, quiet = exactly_at(-20.0, 1), exactly_at(-70.0, 1)
    for frame in range(600):
        onset = frame % 50 < 5  # a tenth of the frames: a voice the canceller hid
        heard = exactly_at(-30.0, 1) if onset else quiet
        detector.feed(quiet, heard, game_playing=True, far=far)
    assert not detector.game_reaches_microphone


def test_the_echos_gain_follows_the_loudspeakers_volume_not_what_the_game_plays() -> None:
    # The room watch asks how much of the game reaches the microphone (`echo_gain`): the
    # game speaking louder or softer must not move it; the loudspeakers turned down must.
    detector = TalkDetector()
    hear_the_quiet_room(detector)
    assert detector.echo_gain is None, "nothing learnt yet"

    def play(far_db: float, echo_gain_db: float, blocks: int = 200) -> float:
        for _ in range(blocks):
            detector.feed(exactly_at(-70.0, 3), exactly_at(far_db + echo_gain_db, 3),
                          game_playing=True, far=exactly_at(far_db, 3))
        gain = detector.echo_gain
        assert gain is not None
        return gain

    assert play(-20.0, -5.0) == pytest.approx(-5.0, abs=0.5)
    assert play(-32.0, -5.0) == pytest.approx(-5.0, abs=0.5), "a softer announcement"
    assert play(-20.0, -15.0) == pytest.approx(-15.0, abs=0.5), "turned down 10 dB"
