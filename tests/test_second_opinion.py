"""The second-opinion decode in a child process (voicespit/speech/recognizers/second_opinion.py).

The child is only a speed-up: these tests hold it to giving exactly the answers
of an in-process decode, and the recognizer to giving the same results whether
the child is there, late, or killed (then a new one is started).
"""

from __future__ import annotations

import dataclasses
import os
import signal
import socket
import subprocess
import sys
import time
from multiprocessing.connection import Connection
from pathlib import Path

import pytest

from voicespit.speech.language.grammar import sentences
from voicespit.speech.listening.sources import read_wav
from voicespit.speech.recognizers import second_opinion
from voicespit.speech.recognizers.pocketsphinx_engine import DecoderPair, PocketSphinxSettings
from voicespit.speech.recognizers.pocketsphinx_recognizer import HELPER_RESTARTED, PocketSphinxRecognizer
from voicespit.speech.recognizers.second_opinion import LATE_ANSWERS_BEFORE_STUCK, SecondOpinion
from voicespit.speech.recognizers.transcription import read_corpus, transcribe

PATIENT = 60.0
"""How long these tests wait for an answer. The game gives up on the child after a
second and decodes for itself; these tests check what the child answers, not how
fast, so on a machine whose cores are busy they wait as long as it takes."""


def ready(opinion: SecondOpinion, pcm: bytes, timeout: float = 30.0) -> int:
    """Ask until the child has loaded its model; the first ticket it takes."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        ticket = opinion.ask(pcm)
        if ticket is not None:
            return ticket
        assert opinion.usable, "the child failed while loading"
        time.sleep(0.05)
    raise AssertionError("the child did not load its model in time")


def decoder_here_and_in_a_child() -> tuple[DecoderPair, SecondOpinion]:
    """The same decoder, with the same grammar, in this process and in a child."""
    here = DecoderPair(PocketSphinxSettings(), None)
    here.use_sentences(sentences())
    opinion = SecondOpinion(PocketSphinxSettings(), None)
    opinion.use_sentences(sentences())
    return here, opinion


def decoded_here(here: DecoderPair, pcm: bytes) -> str:
    return here.decode(pcm, measure_margin=lambda text: False).text


def test_the_child_decodes_exactly_what_this_process_decodes(spoken_corpus: Path) -> None:
    here, opinion = decoder_here_and_in_a_child()
    try:
        files = sorted(spoken_corpus.glob("*/*.wav"))
        assert len(files) >= 20
        first, _ = read_wav(files[0])
        ticket = ready(opinion, first)
        answers = [opinion.answer(ticket, timeout=PATIENT)]
        for path in files[1:]:
            pcm, _ = read_wav(path)
            answers.append(opinion.answer(ready(opinion, pcm), timeout=PATIENT))
        expected = [decoded_here(here, read_wav(path)[0]) for path in files]
        assert answers == expected
        assert any(answers), "nothing was heard at all: the comparison would prove nothing"
    finally:
        opinion.close()


def spit_and_my_cards(spoken_corpus: Path, here: DecoderPair) -> tuple[bytes, bytes, str]:
    """Two commands' audio, and what this process decodes of the second (not the first's)."""
    spit, _ = read_wav(sorted(spoken_corpus.glob("clean/*-spit.wav"))[0])
    cards, _ = read_wav(sorted(spoken_corpus.glob("clean/*-my_cards.wav"))[0])
    expected = decoded_here(here, cards)
    assert expected != decoded_here(here, spit)
    return spit, cards, expected


def test_answers_nobody_collected_are_skipped(spoken_corpus: Path) -> None:
    here, opinion = decoder_here_and_in_a_child()
    try:
        spit, cards, expected = spit_and_my_cards(spoken_corpus, here)
        ready(opinion, spit)  # asked, never collected
        ticket = opinion.ask(cards)
        assert ticket is not None
        assert opinion.answer(ticket, timeout=PATIENT) == expected
    finally:
        opinion.close()


def test_a_late_answer_leaves_the_child_working_and_is_skipped_when_it_comes(
        spoken_corpus: Path) -> None:
    # A decode asked for with no time to wait is late the way a decode on a machine
    # busy for a moment is: the child must stay, and its late answer must not be taken
    # for the next request's.
    here, opinion = decoder_here_and_in_a_child()
    try:
        spit, cards, expected = spit_and_my_cards(spoken_corpus, here)
        assert opinion.answer(ready(opinion, spit), timeout=0.0) is None
        assert opinion.usable
        assert opinion.answer(ready(opinion, cards), timeout=PATIENT) == expected
    finally:
        opinion.close()


def test_a_child_late_every_time_is_presumed_stuck_and_closed(spoken_corpus: Path) -> None:
    _, opinion = decoder_here_and_in_a_child()
    try:
        spit, _ = read_wav(sorted(spoken_corpus.glob("clean/*-spit.wav"))[0])
        for _ in range(LATE_ANSWERS_BEFORE_STUCK - 1):
            assert opinion.answer(ready(opinion, spit), timeout=0.0) is None
            assert opinion.usable
        assert opinion.answer(ready(opinion, spit), timeout=0.0) is None
        assert not opinion.usable
    finally:
        opinion.close()


def test_a_narrowed_grammar_reaches_the_child(spoken_corpus: Path) -> None:
    opinion = SecondOpinion(PocketSphinxSettings(), None)
    opinion.use_sentences(sentences())
    try:
        pcm, _ = read_wav(sorted(spoken_corpus.glob("clean/*-seven_on_left.wav"))[0])
        assert opinion.answer(ready(opinion, pcm), timeout=PATIENT) == "seven on left"
        opinion.use_sentences(["spit", "slap left", "slap right"])
        ticket = opinion.ask(pcm)
        assert ticket is not None
        assert opinion.answer(ticket, timeout=PATIENT) != "seven on left"
    finally:
        opinion.close()


def test_a_killed_child_is_started_again_and_meanwhile_the_recognizer_decodes_for_itself(
        spoken_corpus: Path) -> None:
    with_child = PocketSphinxRecognizer()
    told: list[str] = []
    with_child.on_trouble = told.append
    alone = PocketSphinxRecognizer(settings=dataclasses.replace(PocketSphinxSettings(),
                                                                agreement_in_child=False))
    items = list(read_corpus(spoken_corpus))
    opinion = with_child._spare.child
    assert opinion is not None
    pcm, _ = read_wav(items[0].path)
    ready(opinion, pcm)
    killed = with_child.helper_pid
    assert killed == opinion.pid
    before = [transcribe(with_child, item).heard for item in items[:8]]
    os.kill(killed, signal.SIGKILL)
    after = [transcribe(with_child, item).heard for item in items[8:]]
    assert not opinion.usable
    assert before + after == [transcribe(alone, item).heard for item in items]
    assert with_child.helper_pid not in (None, killed), "a new child was started"
    assert told == [HELPER_RESTARTED], "said once, in plain words"


def test_a_child_that_cannot_load_the_model_is_never_asked(tmp_path: Path) -> None:
    opinion = SecondOpinion(PocketSphinxSettings(), tmp_path / "no-model-here")
    try:
        deadline = time.monotonic() + 30.0
        while opinion.usable and time.monotonic() < deadline:
            assert opinion.ask(b"\0\0" * 1600) is None
            time.sleep(0.05)
        assert not opinion.usable
    finally:
        opinion.close()


def test_with_live_cmn_the_second_decode_stays_in_this_decoder() -> None:
    # Live CMN carries each decode's mean into the next one, so a child's decode would
    # not be the decode this process would have made.
    live = PocketSphinxRecognizer(settings=dataclasses.replace(PocketSphinxSettings(),
                                                               batch_cmn=False))
    assert live._spare.child is None
    assert PocketSphinxRecognizer()._spare.child is not None


@pytest.mark.parametrize("grace", [second_opinion.STOP_GRACE_SECONDS, 0.0])
def test_stopping_a_child_that_will_not_leave_kills_and_reaps_it_without_raising(
        monkeypatch: pytest.MonkeyPatch, grace: float) -> None:
    # A child that ignores the hang-up; with no grace at all even the killed child
    # cannot have exited by the time it is waited for (as under heavy load).
    monkeypatch.setattr(second_opinion, "STOP_GRACE_SECONDS", grace)
    ours, theirs = socket.socketpair()
    stubborn = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    theirs.close()
    second_opinion._stop(Connection(ours.detach()), stubborn)
    deadline = time.monotonic() + PATIENT
    while stubborn.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    assert stubborn.returncode == -signal.SIGKILL, "killed, and reaped (no zombie left)"
