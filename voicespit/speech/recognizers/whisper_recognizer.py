"""The default recognizer: Whisper tiny.en scoring every sentence of the grammar.

How an utterance goes:

1. `SpeechDetector` (the same endpointer as PocketSphinx's path) finds speech
   against an adaptive noise floor, with 300 ms of audio from before the trigger.
2. At the first short pause the utterance so far, plus a short silent margin,
   becomes log-mel features; CTranslate2's encoder runs on that window only
   (not Whisper's 30 s), and `sentence_scorer` gives every sentence of the
   grammar its log-probability by teacher forcing, less a share of its
   log-probability with nobody speaking (`leaning_weight`: Whisper's own leaning
   towards short, common sentences). The answer is ready when
   the end of speech is confirmed: a command nothing longer begins with goes
   out at once, one that could go on ("seven", which "seven on left" begins)
   when the pause has lasted `settle_frames`. Speech that resumes discards the
   answer and the next pause scores again.
3. Sentences meaning the same command pool their probability. PocketSphinx
   decodes the same audio in a child process while Whisper scores (`cross_check`),
   and whether to act on the best command is weighed from its lead over the
   runner-up, how far it falls below what the audio sounds like unconstrained
   (chatter), what PocketSphinx heard and more, by a logistic model fitted on the
   tuning splits (`whisper_acceptance`; `fitted_acceptance=False`: the hand rule of
   `margin`, `deficit_per_token` and `CrossCheck` margins). The confidence is the
   best command's share of the probability. When the model refuses an utterance
   begun with a word players say before a command ("so nine"), the commands are
   scored again after that word (`whisper_lead`, `lead_from`), unless the word said
   alone is likelier ("ok" is no "ok eight", `alone_margin`); a card play it accepts
   from such an utterance is checked the same way, and gives way to the command said
   after the word, or is refused when that one is doubtful ("please flip" is no
   "three", `lead_check_from`). A talk word ("alright") refuses the utterance when it
   fits better than every command, and also when it is Whisper's own first word and
   the command that outscored it is not said after it (`talk_first_from`: "alright"
   in noise is no "four right"); when it fits best but Whisper's own first word is a
   lead word, the command said after that word is heard (`talk_then_lead`: "alright,
   draw" as one utterance). When it still refuses,
   a doubtful command is looked at again on a later window (`second_look_from`), and
   when PocketSphinx named Whisper's close second in clear speech, that command is
   acted on (`tie_break_within`): the two engines' mistakes differ.
4. `set_prior` gives sentences that make sense in the game state a small bonus:
   it breaks near-ties (leads under `prior_bonus`), so it cannot turn a clearly
   said command into another.
"""

from __future__ import annotations

import collections
import dataclasses
import math
import time
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from voicespit.resampling import resample
from voicespit.speech.language.commands import Verb
from voicespit.speech.language.grammar import LEAD_WORDS, TALK_WORDS
from voicespit.speech.language.grammar import sentences as grammar_sentences
from voicespit.speech.language.parser import command_in
from voicespit.speech.language.word_graph import proper_prefixes, weakly_continued
from voicespit.speech.listening.endpoint import EndpointSettings, FrameEvent
from voicespit.speech.recognizer import (
    SAMPLE_RATE,
    TAIL_OF_COMMAND,
    Recognition,
    RecognizerError,
)
from voicespit.speech.recognizers.log_mel import log_mel
from voicespit.speech.recognizers.pocketsphinx_engine import PocketSphinxSettings, prepared_pcm
from voicespit.speech.recognizers.second_opinion import SpareDecoder
from voicespit.speech.recognizers.sentence_scorer import Decoder, TokenTrie
from voicespit.speech.recognizers.utterance_audio import FRAME_SECONDS, EndpointingRecognizer
from voicespit.speech.recognizers.whisper_acceptance import (
    AcceptanceModel,
    acts_on,
    heard_too_long,
    second_look_due,
)
from voicespit.speech.recognizers.whisper_choice import (
    Choice,
    CommandTable,
    CrossCheck,
    WindowScores,
    averaged,
    choice_of,
    choose,
)
from voicespit.speech.recognizers.whisper_lead import LeadWords
from voicespit.speech.recognizers.whisper_leaning import content_free_window
from voicespit.speech.recognizers.whisper_model import WhisperModel, written_forms

PROMPT = "Commands for a card game."
"""Context Whisper can be told was said before the window (`WhisperSettings.prompt`;
off by default: held out it cost real voices in noise, LEVERS.md). A list of the card
words instead biased "score", "help" and "resume" towards ranks."""


@dataclass(frozen=True)
class WhisperSettings:
    """Every choice of the Whisper path; the README's table measures them."""

    endpoint: EndpointSettings = field(default_factory=lambda: EndpointSettings(
        pause_frames=8, settle_frames=16, end_frames=35, clear_of_quiet=True))
    trailing_silence: float = 0.3
    """Seconds of digital silence added after the audio before encoding."""
    window_seconds: float | None = 5.0
    """Digital silence added after that, up to a window this long (None: none). Whisper
    learnt on 30 s windows, a short recording followed by silence to the end; on the
    utterance alone it is less sure of what it heard. Padded to 5 s, with the acceptance
    model fitted so, streamed on the tuning splits (round 17, LEVERS.md): real voices
    0.964 / 0.822 to 0.981 / 0.839 (quiet / 10 dB) with wrong moves 0.014 to 0.006,
    espeak-ng clean 0.972 to 0.993 and chatter taken 0.067 to 0.017, natural phrasings
    one command fewer of 441; about 20 ms more latency (a longer window to encode and
    attend to). 3.5 s gained less; 10 and 30 s, replayed, no more than 5 s."""
    margin: float = 1.5
    """Least log-probability between the best command and the runner-up to accept it
    when the cross-check does not set another
    (`cross_check`). Whisper alone did best at 1.25; with the cross-check, 1.5 took
    espeak-ng chatter from 0.067 to 0.033 on the tuning split at the same accuracy."""
    deficit_per_token: float = 2.5
    """Most log-probability per token the best sentence may fall below the model's
    own best guess at each step (more: chatter, refused)."""
    token_bonus: float = 1.0
    """Log-probability added per token of a sentence: with a short window Whisper will
    write "5." for "move one to five", skipping words; this pays for each word said."""
    prior_bonus: float = 0.5
    """Log-probability added to the sentences the game state prefers."""
    leaning_weight: float = 0.4
    """How much of Whisper's leaning towards each sentence (its log-probability on
    audio with nobody speaking, `whisper_leaning`) is taken off the sentence's score.
    0: none. Replayed on the tuning splits (Whisper's top choice, no refusal), 0.4
    took espeak-ng's whole commands from 0.866 / 0.716 / 0.634 (clean / 20 / 10 dB)
    to 0.986 / 0.915 / 0.915 and real voices' bare ranks from 0.983 / 0.906 (quiet /
    10 dB) to 0.989 / 0.906; real voices did best at 0.3, espeak-ng at 0.5 to 0.6
    (LEVERS.md, round 15). It costs scoring time: a long sentence's large bonus keeps
    its branch from being pruned early."""
    prune_within: float = 3.0
    """Branches further than this behind the best sentence are not decoded. 3.0 (and
    2.5 .. 5.0) made exactly the decisions of 8.0 on all three tuning splits with the
    cross-check's margins (the largest is 2.0, so a lead is never capped below one it
    is compared with); 5.0 decoded about half the branches of 8.0, 3.0 fewer still."""
    prompt: str | None = None
    """Text given to Whisper as said before the window (its previous-text context;
    `PROMPT`, with `acceptance_file` the model fitted with it). None (the default): none.
    On the tuning splits `PROMPT` did as well as none or better in every cell (real
    voices quiet 0.944 to 0.956, espeak-ng 10 dB 0.525 to 0.568, natural phrasings 10 dB
    0.599 to 0.605, fewer wrong moves); held out, once, it took espeak-ng clean from
    0.691 to 0.741 with fewer wrong moves, but real voices at 10 dB from 0.775 to 0.725
    (with the second look off, as its cost chose), so it is not the default (docs/speech-record.md)."""
    written_forms: bool = True
    """Also score each sentence as Whisper would write it ("7 on left.", `written_forms`)."""
    threads: int | None = None
    """Threads for the encoder (None: up to two); our decoder uses one."""
    cross_check: CrossCheck | None = field(default_factory=lambda: CrossCheck(
        agreed_margin=0.0, disputed_move_margin=2.0, disputed_margin=1.5,
        unheard_move_margin=1.25))
    """PocketSphinx's grammar decode of the same audio (in a child process, on the
    other core, while Whisper scores) sets the margin needed (`CrossCheck`). None:
    Whisper alone. Chosen on the tuning splits (docs/speech-record.md): agreement accepted at any
    lead, a move PocketSphinx names otherwise needs 2.0, or is refused when it named
    a longer command; a move it did not hear at all 1.25, as Whisper alone."""
    second_look_from: float | None = 0.3
    """A command the acceptance model refuses with a probability at least this (and
    below its threshold) is scored again on a window starting `second_look_shift`
    later, the two windows' scores are averaged (`whisper_choice.averaged`) and the
    model decides on the average, against its threshold raised by `second_look_bar`.
    None: no second look. On the tuning splits (replayed): real voices quiet 0.944 to
    0.956 and 10 dB 0.811 to 0.814 for one wrong move more in 720; espeak-ng three
    right commands more and one wrong move more; natural phrasings three right more;
    latency the same (it scores while a bare rank waits to settle; docs/speech-record.md). With
    `PROMPT` it no longer paid (11 right commands more for 5 wrong moves: LEVERS.md)."""
    second_look_shift: float = 0.01
    """Seconds of the utterance's start left out of the second look's window (5 and
    10 ms did about the same on real voices; 20 or 40 ms, a gain of -6 dB, a shorter
    silent margin or all six averaged, less)."""
    second_look_speeds: tuple[float, ...] = ()
    """When given, the second look scores the utterance played this many times faster
    (pitch and tempo together, as a resampling does) instead of the shifted window, one
    window per speed, and averages them all with the first. (0.9, 1.1) gained on every
    tuning split and not held out (more wrong moves on real voices and natural
    phrasings): off (benchmarks/LEVERS.md, round 14)."""
    second_look_bar: float = 0.04
    """How far the average must clear the model's threshold: a second draw at the
    same bar took a chatter sentence and a wrong move more on espeak-ng (0 to 0.08
    measured; 0.04 gave the most right commands less three per wrong move)."""
    fitted_acceptance: bool = True
    """Decide by the logistic model fitted on the tuning splits (`whisper_acceptance`)
    over the same evidence, instead of `margin`, `deficit_per_token` and the
    cross-check's margins (PocketSphinx is asked either way). Held out, against
    those margins: real voices' wrong moves 0.013 instead of 0.017 at 0.933 / 0.750
    instead of 0.925 / 0.767, espeak-ng chatter taken 0.050 instead of 0.142 and a
    third fewer wrong commands, for 1.5 to 5 points of espeak-ng accuracy (docs/speech-record.md)."""
    acceptance_file: Path | None = None
    """Where that model is (None: the one fitted for these settings and shipped; another
    fits another setting, such as the benchmark's row with the prompt)."""
    tie_break_within: float | None = 2.0
    """When the acceptance model refuses Whisper's best command and PocketSphinx named
    another that Whisper scored within this much (natural log) of its best, act on
    PocketSphinx's command, if its words fit and the speech is clear of the noise
    (`tie_break_deficit`, `tie_break_clear_db`). The two engines fail differently:
    espeak-ng's "ace" is "eight" to Whisper by a hair and "ace" to PocketSphinx. None:
    never. Chosen on the tuning splits (round 12, LEVERS.md): espeak-ng clean 0.824 to
    0.915, natural phrasings 0.898 to 0.952 (two wrong moves more of 441), real voices
    one right command more of 720 and real chatter the same. While the game can be
    heard, the listener refuses what it decides (`near_end.refused_if_tie_broken_over_the_game`)."""
    tie_break_deficit: float = 1.5
    """Most the broken tie's command may fall below Whisper's own best guess, per token
    (its words must fit the audio well)."""
    tie_break_clear_db: float = 40.0
    """Least the speech must peak above the endpointer's noise floor for PocketSphinx to
    break a tie: in noise its word is worth less. Round 12 chose 23 dB (every tie broken
    wrongly on the tuning splits was under 22.5 dB then). By round 28, with the acceptance
    model refitted and the grammar grown, 23 dB let it break 14 ties on the tuning splits
    (`tuning`, `natural-tuning`, `chatter-tuning`; none on the real voices), 6 wrongly, 4
    of them cards ("two on left" played as "three on left", "spit" and the table talk
    "great" as "three", "slap the right pile" as "seven to the right"), all between 23.5
    and 33.6 dB; at 40 dB it breaks the 3 of the 8 right ones at 69 dB and above, and no
    wrong one (LEVERS.md round 28)."""
    weak_onset_frames: int = 6
    """Extra quiet frames to wait before acting on a command that a word beginning with
    the weakest sounds could continue (`word_graph.weakly_continued`: "flip", which
    "flip three" continues, and "no", which "no thanks" does; bare ranks, continued by
    "on" and "to", are not). In noise the th of three or the f of four is hidden, the
    pause after "flip" looks long enough, and "three" came out a command of its own: a
    card played that was not said (natural-tuning: 2 of 9 "flip three" at 20 and 10 dB;
    3 to 14 frames all mended them and changed no other file of `natural-tuning` or
    `tuning`; docs/speech-record.md)."""
    brief_speech_seconds: float | None = 0.15
    """A command that could go on ("six", "flip", "stop"), heard in less speech than
    this many seconds, waits `brief_settle_frames` more quiet frames before it is acted
    on: in noise the endpointer hears only a burst of such a word, and the pause after
    it is the rest of the command drowned ("six | to the right" played a six alone,
    "flip | five" a flip and a five). Not a refusal: right commands are heard in bursts
    as short (a "stop" in 0.08 s). On the tuning splits (round 33, LEVERS.md) four
    commands heard whole or refused instead of cut, nothing decided worse; the real
    voices' wait p95 240 to 290 ms (one real rank in ten at 10 dB is such a burst, one
    in fifty in quiet). Held out: natural phrasings at 10 dB 0.667 to 0.680, wrong
    moves 0.032 to 0.025, real voices decided the same (docs/speech-record.md).
    None: no longer wait."""
    brief_settle_frames: int = 15
    """The quiet frames added for such a brief command (`brief_speech_seconds`): with
    the longer wait in noise, up to the utterance's end (`EndpointSettings.end_frames`)."""
    longest_word_seconds: float | None = 2.0
    """Refuse any command heard in more speech than this many seconds per word of it: a
    sentence or two of talk forced into the grammar ("three" for five seconds of a radio
    amateur's call). On the tuning splits no command said was heard in more than 1.91 s a
    word (a real "three" at 10 dB with the noise after it; the 99.9th percentile 1.41),
    and the acceptance model was fitted on nothing longer than 2.2 s, so what it makes of
    longer speech is a guess; the padded window's model took such talk for ranks (round
    17, docs/speech-record.md). None: no limit."""
    tail_check: bool = True
    """Score a word said just after a command that was acted on at a pause together with
    that command, and keep it quiet when together they are the same command: the command's
    own last word, come after the pause it was decided at (`TAIL_OF_COMMAND`). A command
    no longer sentence continues is acted on after `pause_frames` of quiet instead of
    `settle_frames`, so Whisper, which knows only the grammar's sentences, can finish one
    from its first words: "how do i" is only ever "how do i play". At 10 dB a stop
    before "play" made such a pause, and "play" came next on its own as "eight": a card
    played that was not said (round 27, `benchmarks.new_phrasings`); "slap the left
    pile" was decided on "slap the left" and its "pile" refused as "five" ("Say again?"
    after a slap that had been made). Asked only when the word began before the command
    would have settled: had the endpointer waited, it would have been one utterance."""
    talk_words: tuple[str, ...] = TALK_WORDS
    """Words that are no command, scored beside the commands: one that fits the audio
    better than every command refuses the utterance ("alright" is no "four right";
    `grammar.TALK_WORDS`). Empty: none (as before round 38)."""
    talk_quiet_seconds: float | None = 1.0
    """A talk word refused ("alright") is answered only after this much quiet: when the
    player goes on speaking, it was said before a command, and the command is the
    answer ("Say again?" then would ask for a command already heard, and a player who
    obeys plays it twice). Said alone, it is answered this much later. None: at once,
    as before round 42."""
    talk_first_from: float | None = 0.5
    """When Whisper's own likeliest first token is a talk word said whole ("Alright"; no
    command begins with it), at least this much likelier than every command's first word
    (`WindowScores.first_word_deficit`), a command that outscored the talk word stands
    only if it was said after the word: scored again after it (`whisper_lead`), it must
    be one to act on and no likelier without the word than with it. Otherwise the talk
    word refuses the utterance. A talk word said alone must end where the audio does,
    and in noise that end cost "alright" more than "four right" lost on "four": on
    `lead-in-tuning` a four was played for "alright" in 8 files of one voice at 10 and
    20 dB; this refuses all 8 (5 commands said after it now heard) and changes no right
    command. From 0 it would also refuse a clean "two right" (0.32). Only the tokens of
    `talk_first_words` count. None: a talk word refuses only when it scores above every
    command (round 42, benchmarks/LEVERS.md)."""
    talk_then_lead: bool = True
    """When a talk word fits best and Whisper's own first word is a lead word ("Alright",
    "Well": `lead_words`), score the commands again as said after that word
    (`whisper_lead`), as for a refused command, and act on one there when it would be
    acted on and is no likelier without the word than after it. Said as one utterance,
    "alright, draw" fitted "alright" better than "draw", and "well, spit" fitted
    "great" better than "spit": both refused. On the tuning splits (round 44,
    benchmarks/LEVERS.md) `lead-in-tuning` (1,800) heard 10 more commands and nothing
    worse; `short-talk-tuning` took one more of 600 ("so so" at 10 dB as "so, two");
    every other file the same. False: a talk word that fits best refuses (round 43)."""
    talk_first_words: tuple[str, ...] = ("alright",)
    """The talk words whose one token, as Whisper's own first word, asks a command to
    prove itself (`talk_first_from`): "Alright" and "alright", what the check was chosen
    for. In round 43 every one-token talk word's counted, " Great", " Cool" and their
    capitals too: on the tuning splits they changed no decision (19 files, all refused
    either way), and held out they refused a clean "eight on right" whose first token
    Whisper took for " Great" (round 44, benchmarks/LEVERS.md)."""
    lead_words: tuple[str, ...] = LEAD_WORDS
    """Words players say before a command (`grammar.LEAD_WORDS`): a refused utterance that
    begins with one is scored again as a command said after it (`lead_from`). Empty:
    none (as before round 39)."""
    lead_from: float | None = 1.0
    """The first-word deficit (`WindowScores.first_word_deficit`) from which a refused
    utterance whose own first word is a lead word is scored again after that word. None:
    never. Round 39 took 4, the hint's evidence for commands begun with another word
    (`app.misses`); on the tuning splits' refusals, 1 heard 80 more commands after a lead
    word ("and score") for 4 more wrong ones that are no move and one short word taken
    ("so so" as "two"); 0 also took a real "eight" for "ready" and "a jack and a queen"
    for "queen" (round 40, benchmarks/LEVERS.md)."""
    lead_bar: float = 0.04
    """What the acceptance model's threshold is raised by for a command scored after a
    lead word, as for the second look (`second_look_bar`). On `lead-in-tuning` 0.04 kept
    all 172 commands the second scoring heard right and refused 3 of its 8 wrong ones
    ("quit" for "and spit", "repeat" for "well, ready"); 0.16 refused 14 right ones more
    to refuse 4 more wrong (round 39, benchmarks/LEVERS.md)."""
    alone_margin: float | None = 0.0
    """After a lead word, refuse unless the command is likelier by more than this than
    the lead word said alone (`AfterLead.alone`; natural log, both with the per-token
    bonus): "ok" on its own is no "ok eight". The plain comparison, 0: on the tuning
    splits every command taken after a lead word was 0.8 or more likelier, so it changed
    no decision there; held out it refused the one "ok" taken for "eight" (round 40,
    benchmarks/LEVERS.md). None: no such check (round 39)."""
    lead_check_from: float | None = 0.5
    """A card play acted on although its window's first-word deficit is at least this
    (`WindowScores.first_word_deficit`) is scored again after a lead word when its
    utterance begins with one (`lead_from`, as for a refusal); when a different command
    is heard there and would be acted on, that command is taken instead: "please flip"
    is no "three". On the tuning splits it turned 8 cards played that nobody named into
    the command said and changed nothing else; a play heard with Whisper's first word
    0.5 to 1 likelier than its own ("ok slap left" as "six on the left") is among them
    (round 41, benchmarks/LEVERS.md). None: a command acted on is never scored again."""
    lead_check_refuses: bool = True
    """With `lead_check_from`: refuse the play ("Say again?") when the command heard
    after the lead word is another and would not be acted on either. On the tuning
    splits it refused 8 more cards played that nobody named ("please flip" as "three")
    and 2 words said alone ("so" as "two"), for 4 commands said right refused (round
    41). False: keep the play."""
    first_word_veto: float | None = None
    """Refuse any command when Whisper's own first word is likelier than every command's
    first word by more than this (`WindowScores.first_word_deficit`, natural log): a
    real "zero" forced into "two". None: no veto (the default). On the tuning splits 4
    left real commands untouched and halved the real chatter taken, but held out it
    refused none of the real chatter the model took (round 11, LEVERS.md)."""


@dataclass(frozen=True, slots=True)
class _ActedAtPause:
    """A command acted on at a pause before it settled, and the audio it was heard in."""

    sentence: str
    samples: np.ndarray
    decided_frame: int
    """The stream frame it was decided at."""
    quiet_frames: int
    """How many quiet frames it had been decided after."""


@dataclass(frozen=True, slots=True)
class _AfterLeadChoice:
    """The best command scored after a lead word (`WhisperRecognizer._scored_after_lead`)."""

    choice: Choice
    window: WindowScores
    alone_gap: float
    """How much likelier it was than the lead word said alone."""
    acted_on: bool
    """Whether the recognizer would act on it (`alone_margin`, talk words, `lead_bar`)."""


@dataclass(frozen=True, slots=True)
class Scored:
    """The decision on one stretch of audio."""

    sentence: str
    accepted: bool
    confidence: float
    margin: float
    deficit_per_token: float
    could_go_on: bool
    """Some longer sentence begins with this one (wait before acting on it)."""
    settle_extra: int = 0
    """Quiet frames to wait beyond the endpointer's settle (`weak_onset_frames`)."""
    speech_seconds: float = 0.0
    """How long the speech lasted, from the trigger to the last speech frame."""
    above_floor_db: float = 0.0
    """How far the speech peaked above the endpointer's noise floor (its loudness over
    the room's: noise makes Whisper's mistakes)."""
    window: WindowScores | None = field(default=None, compare=False, repr=False)
    """The scores it was decided on, talk words included (for tuning and inspection;
    `whisper_replay` records them and decides again as the recognizer did)."""
    heard_by_pocketsphinx: str | None = None
    """What the cross-check's grammar decode heard ("": no command; None: not asked)."""
    tie_broken: bool = False
    """Acted on PocketSphinx's command, Whisper's close second (`tie_break_within`)."""
    tail: bool = False
    """The end of the command acted on just before (`tail_check`): refused, kept quiet."""
    talk: bool = False
    """A talk word fitted better than every command (`WhisperSettings.talk_words`):
    refused, and ended at the pause after it, so that a command said next ("alright,
    flip") is heard on its own."""
    after_lead: bool = False
    """Decided on the scores after a lead word (`WhisperSettings.lead_words`): "now
    flip" heard as flip."""
    alone_gap: float | None = None
    """After a lead word: how much likelier the command was than the lead word said
    alone (`WhisperSettings.alone_margin`)."""


class WhisperRecognizer(EndpointingRecognizer):
    """The Recognizer protocol over Whisper closed-set scoring; endpointing inside."""

    name = "whisper"

    def __init__(self, model: WhisperModel, phrases: Sequence[str] | None = None, *,
                 settings: WhisperSettings | None = None) -> None:
        self.model = model
        self.settings = settings = settings or WhisperSettings()
        super().__init__(settings.endpoint)
        self._answer: Scored | None = None
        self._last_speech_frame = 0
        self._speech_start_frame = 0
        self._preferred: frozenset[str] = frozenset()
        self._acted_at_pause: _ActedAtPause | None = None
        """The last command, when it was acted on at a pause before it settled."""
        self._tail_of: _ActedAtPause | None = None
        """That command, while the utterance in progress began before it would have
        settled (`tail_check`)."""
        self._held_talk: Recognition | None = None
        """A talk word refused, not yet answered (`talk_quiet_seconds`)."""
        self._quiet_since_talk = 0
        """Quiet frames since it was heard."""
        self.tail_checks = 0
        """Utterances scored together with the command before them (`tail_check`)."""
        self.timings: collections.defaultdict[str, float] = collections.defaultdict(float)
        """Seconds (by `clock`) spent so far per stage (log-mel and encoder, sentence
        scoring, waiting for the cross-check's answer), for the latency benchmark."""
        self.clock: Callable[[], float] = time.perf_counter
        """What `timings` are measured by (the benchmark may count processor time)."""
        self._pocketsphinx = PocketSphinxSettings()
        self._acceptance = _fitted_acceptance(settings.acceptance_file) \
            if settings.fitted_acceptance else None
        self._cross_check = SpareDecoder(self._pocketsphinx, None) \
            if settings.cross_check is not None or self._acceptance is not None else None
        from threadpoolctl import ThreadpoolController

        self._threads = ThreadpoolController()
        self._leanings: dict[str, float] = {}
        """Per written form, Whisper's log-probability with nobody speaking."""
        self.set_phrases(grammar_sentences() if phrases is None else phrases)

    # ------------------------------------------------------------ the protocol

    def set_phrases(self, phrases: Sequence[str]) -> None:
        sentences = list(dict.fromkeys(" ".join(p.split()) for p in phrases
                                       if p.split() and p != "[unk]"))
        if not sentences:
            raise RecognizerError("the recognizer needs at least one phrase to listen for")
        # The talk words are scored after the commands, never acted on (`TALK_WORDS`).
        talk = [word for word in self.settings.talk_words if word not in sentences]
        scored = [*sentences, *talk]
        # Each text the trie scores, and the sentence it is a way of writing.
        texts: list[str] = []
        self._sentence_of: list[int] = []
        for index, sentence in enumerate(scored):
            forms = written_forms(sentence) if self.settings.written_forms else (sentence,)
            texts += forms
            self._sentence_of += [index] * len(forms)
        tokens = self.model.sentence_tokens(texts)
        self._tokens = tokens
        self._decoder: Decoder = self.model.decoder_for(tokens)
        # Whisper's own first word is measured against the commands' first words only
        # (their forms come first): "Alright" must still count as a word no command
        # begins with, for the acceptance model and for the hint after misses
        # (`app.misses`).
        self._trie = TokenTrie(self.model.prompted_start(self.settings.prompt), tokens,
                               self.model.end_of_text,
                               commands=self._sentence_of.index(len(sentences))
                               if talk else None)
        self._lengths = np.asarray([len(path) for path in self._trie.paths])
        """Per written form, its tokens and its end: what a deficit is shared over."""
        self._lead: tuple[LeadWords, Decoder] | None = None
        if self.settings.lead_words and self.settings.lead_from is not None:
            lead = LeadWords.build(self.model, self._trie.prefix, texts,
                                   self.settings.lead_words,
                                   self._trie.tokens[self._trie.first_words])
            # Its own softmax over the lead words' tokens too: the commands' scores, and
            # Whisper's own first word among them, stay as they were.
            self._lead = (lead, self._decoder.with_outputs(
                [*self._decoder.output_tokens.tolist(), *lead.needed_tokens()]))
        self._sentences = scored
        self._plain_tokens = self.model.sentence_tokens(scored)
        """Each sentence as said, not written (`_ends` puts them after a command)."""
        self._prefixes = proper_prefixes(sentences)
        self._weakly_continued = weakly_continued(sentences)
        self._table = CommandTable.build(scored, self._sentence_of, talk=talk)
        # "Alright" and "alright" (`talk_first_words`); not the "All" of "All right":
        # Whisper's first word for a real "four" is "All" often enough.
        one_token = {index for index, said in enumerate(self._plain_tokens)
                     if scored[index] in talk and len(said) == 1
                     and scored[index] in self.settings.talk_first_words}
        self._talk_first_tokens = frozenset(
            tokens[form][0] for form in self._table.talk_forms
            if self._sentence_of[form] in one_token) \
            - set(self._trie.tokens[self._trie.first_words].tolist())
        """The tokens that are a whole talk word, as a writing of it begins, and begin no
        command."""
        self._leaning = self._leaning_of(tuple(texts))
        self._bonus = self._bonus_for(self._preferred)
        if self._cross_check is not None:
            self._cross_check.use_sentences(sentences)

    @property
    def table(self) -> CommandTable:
        """The sentences listened for and which written forms mean one command."""
        return self._table

    def set_prior(self, preferred: Collection[str]) -> None:
        """Favour these sentences slightly (what the game state makes likely)."""
        self._preferred = frozenset(" ".join(p.split()) for p in preferred)
        self._bonus = self._bonus_for(self._preferred)

    def finish(self) -> list[Recognition]:
        # A talk word still held was said last, before the end of the stream.
        held, self._held_talk = self._held_talk, None
        return [*([held] if held is not None else []), *super().finish()]

    def _decide_now(self) -> Recognition:
        return self._final(self._answer or self._score())

    def _forget(self) -> None:
        self._answer = None
        self._acted_at_pause = self._tail_of = None
        self._held_talk = None

    def _new_stream(self) -> None:
        self._acted_at_pause = self._tail_of = None

    def _held_or_given(self, answer: Scored, result: Recognition) -> Recognition | None:
        """`result`, or None when it is a talk word refused, held for
        `talk_quiet_seconds` of quiet (`_quiet_frame`)."""
        if not answer.talk or self.settings.talk_quiet_seconds is None:
            return result
        self._held_talk, self._quiet_since_talk = result, 0
        return None

    def _quiet_frame(self) -> Recognition | None:
        held = self._held_talk
        if held is None or self.settings.talk_quiet_seconds is None:
            return None
        self._quiet_since_talk += 1
        if self._quiet_since_talk * FRAME_SECONDS < self.settings.talk_quiet_seconds:
            return None
        self._held_talk = None
        return dataclasses.replace(held, emitted_at=self._audio.frames_fed * FRAME_SECONDS)

    # ------------------------------------------------------------ one frame

    def _started(self) -> None:
        # The player went on after a talk word: it was said before what comes now, and
        # is no question to answer.
        self._held_talk = None
        self._answer = None
        self._last_speech_frame = self._audio.frames_fed
        self._speech_start_frame = self._audio.frames_fed - self.settings.endpoint.start_frames
        before, self._acted_at_pause = self._acted_at_pause, None
        self._tail_of = before if before is not None and self.settings.tail_check and (
            before.quiet_frames + self._speech_start_frame - before.decided_frame
            < self._detector.settle_after) else None

    def _within_utterance(self, event: FrameEvent) -> Recognition | None:
        if self._detector.quiet_frames == 0 and event is not FrameEvent.ENDED:
            self._answer = None  # speech again: what the pause suggested no longer holds
            self._last_speech_frame = self._audio.frames_fed
        # The endpointer pauses at its own settle; an answer that waits longer
        # (`weak_onset_frames`) is looked at again on the frame its wait ends.
        waited_longer = event is FrameEvent.SPEAKING and self._answer is not None \
            and self._answer.settle_extra > 0 \
            and self._detector.quiet_frames == self._settle_after(self._answer)
        if event is FrameEvent.PAUSED or waited_longer:
            if self._answer is None:
                self._answer = self._score()
            answer = self._answer
            settled = self._detector.quiet_frames >= self._settle_after(answer)
            if (answer.accepted or answer.talk) and (settled or not answer.could_go_on):
                # A talk word is no command whose own end could follow (`tail_check`).
                heard_in = None if settled or not answer.accepted else self._audio.samples()
                result = self._final(answer)
                if heard_in is not None:
                    self._acted_at_pause = _ActedAtPause(answer.sentence, heard_in,
                                                         self._audio.frames_fed,
                                                         self._detector.quiet_frames)
                self._detector.reset()
                return self._held_or_given(answer, result)
            return None
        if event in (FrameEvent.ENDED, FrameEvent.TOO_LONG):
            answer = self._answer or self._score()
            return self._held_or_given(answer, self._final(answer))
        return None

    def _settle_after(self, answer: Scored) -> int:
        """Quiet frames after which `answer`, a command that could go on, is taken as said."""
        return self._detector.settle_after + answer.settle_extra

    # ------------------------------------------------------------ scoring

    def _score(self) -> Scored:
        settings = self.settings
        said = self._audio.samples()
        audio = np.concatenate([said, np.zeros(round(settings.trailing_silence * SAMPLE_RATE))])
        # Asked first, so that the child decodes on the other core while Whisper scores.
        pending = self._cross_check.ask(lambda: prepared_pcm(
            said, self._audio.noise, floor_gain=self._pocketsphinx.noise_floor_gain,
            comfort_noise=self._pocketsphinx.comfort_noise)) \
            if self._cross_check is not None else None
        with self._threads.limit(limits=1, user_api="blas"):
            # One thread: the batches are small, and BLAS threads spinning on a
            # busy two-core machine made the same work ten times slower.
            # Kept: a command after a lead word is scored again on it (`_scored_after_lead`).
            encoded = self._timed_encoding(audio)
            window = self._scores_of(encoded)
        # Chosen as the replay chooses (`CommandTable.as_decided`): a talk word when one
        # fits best, else the best command by its lead over the other commands.
        choice = choose(self._table.as_decided(window), self._table)
        talk = self._table.is_talk(choice.form)
        talk_first = not talk and self._talk_said_first(window)
        sentence = choice.sentence
        speech_seconds = (self._last_speech_frame - self._speech_start_frame) * FRAME_SECONDS
        heard = None
        if pending is not None and self._cross_check is not None:
            waited = self.clock()
            try:
                heard = self._cross_check.text(pending)
            except RecognizerError:
                # PocketSphinx cannot load here (nor in its child): Whisper decides
                # alone from now on, as it did before the cross-check existed.
                self._cross_check.close()
                self._cross_check = None
            self.timings["cross-check wait"] += self.clock() - waited
        after_lead = False
        alone_gap: float | None = None
        refused_after_lead = False
        if talk_first or (talk and settings.talk_then_lead):
            # A command stands only when it is said after the word: "Alright" heard
            # first, yet "four right" scored higher (`talk_first_from`); or a talk word
            # fits best, but Whisper's own first word is a lead word, and the command
            # said after it is what was meant ("alright, draw" as one utterance;
            # `talk_then_lead`).
            kept = self._said_after_talk_word(window, encoded, heard, speech_seconds)
            if kept is not None:
                choice, window, alone_gap = kept.choice, kept.window, kept.alone_gap
                talk, after_lead = False, True
            elif talk_first:
                choice, talk = choose(self._table.talk_only(window), self._table), True
            sentence = choice.sentence
        # A talk word is refused, with no second look and no tie to break (those are for
        # a command in doubt).
        accepted = after_lead or (not talk and self._acts_on(choice, window, heard,
                                                             speech_seconds))
        if accepted and not after_lead and self._lead is not None \
                and settings.lead_check_from is not None \
                and window.first_word_deficit >= settings.lead_check_from \
                and self._plays_a_card(sentence):
            # A play heard through a word before it ("please flip" as "three"): what is
            # said after that word decides (`lead_check_from`).
            other = self._scored_at_lead_word(window, encoded, heard, speech_seconds)
            if other is not None \
                    and command_in(other.choice.sentence) != command_in(sentence):
                if other.acted_on:
                    choice, window, alone_gap = other.choice, other.window, other.alone_gap
                    sentence, after_lead = choice.sentence, True
                elif settings.lead_check_refuses:
                    accepted, refused_after_lead = False, True
        if not accepted and not talk and self._lead is not None and not refused_after_lead:
            # Before the second look, whose later start does not help when the trouble is
            # a word before the command: a command heard this way came about 100 ms sooner
            # (median, round 40), and no tuning file was decided otherwise.
            lead = self._scored_at_lead_word(window, encoded, heard, speech_seconds)
            if lead is not None and lead.acted_on:
                choice, window, alone_gap = lead.choice, lead.window, lead.alone_gap
                sentence, accepted, after_lead = choice.sentence, True, True
        if not talk and not accepted and not refused_after_lead and second_look_due(
                choice, heard, *self._fit_of(choice, window), speech_seconds,
                self._above_floor_db, model=self._acceptance,
                from_probability=settings.second_look_from):
            # A doubtful refusal: look again on a window that starts a little later;
            # the average of two slightly different views steadies the scores.
            with self._threads.limit(limits=1, user_api="blas"):
                others = [self._score_window(view) for view in self._second_views(audio)]
            window = averaged([window, *others], self._table)
            choice = choose(self._table.without_talk(window), self._table)
            sentence = choice.sentence
            accepted = self._acts_on(choice, window, heard, speech_seconds,
                                     bar=settings.second_look_bar)
        tie_broken = False
        if not accepted and heard and not talk and not refused_after_lead:
            broken = self._tie_broken(self._table.without_talk(window), choice, heard)
            if broken is not None:
                choice, sentence, accepted, tie_broken = broken, broken.sentence, True, True
        if settings.first_word_veto is not None \
                and window.first_word_deficit > settings.first_word_veto:
            accepted = False
        if heard_too_long(sentence, speech_seconds, settings.longest_word_seconds):
            accepted = False
        tail = self._tail_of is not None and self._ends(self._tail_of, said)
        return Scored(sentence, accepted and not tail, choice.confidence, choice.margin,
                      choice.deficit_per_token,
                      could_go_on=sentence in self._prefixes,
                      settle_extra=self._settle_extra(sentence, speech_seconds),
                      speech_seconds=speech_seconds,
                      above_floor_db=self._above_floor_db, window=window,
                      heard_by_pocketsphinx=heard, tie_broken=tie_broken, tail=tail,
                      talk=talk, after_lead=after_lead, alone_gap=alone_gap)

    def _settle_extra(self, sentence: str, speech_seconds: float) -> int:
        """Quiet frames beyond the endpointer's settle before acting on `sentence`
        (`weak_onset_frames`, `brief_speech_seconds`)."""
        settings = self.settings
        extra = settings.weak_onset_frames if sentence in self._weakly_continued else 0
        if settings.brief_speech_seconds is not None and sentence in self._prefixes \
                and speech_seconds < settings.brief_speech_seconds:
            extra = max(extra, settings.brief_settle_frames)
        return extra

    def _ends(self, before: _ActedAtPause, said: np.ndarray) -> bool:
        """Whether `said`, heard just after `before` was acted on, is that command's own
        end (`tail_check`): the two together are heard as the same command, and Whisper
        finds that command likelier alone than followed by any sentence of the grammar.
        The second test keeps a second command said quickly: "seven on left" and "eight on
        right" said 0.1 s apart are heard together as "seven on left" (no sentence says
        both), but "seven on left eight on right" is likelier; "slap the left pile" is
        likelier than "slap the left pile five" and every other such pair."""
        self.tail_checks += 1
        joined = np.concatenate([before.samples, said, np.zeros(
            round(self.settings.trailing_silence * SAMPLE_RATE))])
        with self._threads.limit(limits=1, user_api="blas"):
            encoded = self._encoded(joined)
            together = choose(self._table.without_talk(self._scores_of(encoded)),
                              self._table).sentence
            if command_in(together) != command_in(before.sentence):
                return False
            (alone,) = self.model.sentence_tokens([together])
            texts = [alone, *((*alone, *tokens) for tokens in self._plain_tokens)]
            trie = TokenTrie(self.model.prompted_start(self.settings.prompt), texts,
                             self.model.end_of_text)
            scores = trie.score(self._decoder, encoded,
                                within=self.settings.prune_within).log_probability
        return bool(np.argmax(scores) == 0)

    def _tie_broken(self, window: WindowScores, choice: Choice, heard: str) -> Choice | None:
        """PocketSphinx's command as the choice, when it is Whisper's close second and its
        words fit (`WhisperSettings.tie_break_within`); None otherwise."""
        settings = self.settings
        other = command_in(heard)
        if settings.tie_break_within is None or other is None \
                or other == command_in(choice.sentence) \
                or self._above_floor_db < settings.tie_break_clear_db:
            return None
        group = self._table.group_of(other)
        if group is None:
            return None
        broken = choice_of(window, self._table, group)
        if -broken.margin > settings.tie_break_within \
                or broken.deficit_per_token > settings.tie_break_deficit:
            return None
        return broken

    def _fit_of(self, choice: Choice, window: WindowScores,
                lengths: np.ndarray | None = None) -> tuple[int, float]:
        """Tokens of the choice's written form (`lengths`: per form, when not the
        trie's), and its log-probability without bonuses."""
        tokens = int((self._lengths if lengths is None else lengths)[choice.form])
        return tokens, float(window.totals[choice.form] - self._bonus[choice.form])

    def _acts_on(self, choice: Choice, window: WindowScores, heard: str | None,
                 speech_seconds: float, bar: float = 0.0,
                 lengths: np.ndarray | None = None) -> bool:
        """`whisper_acceptance.acts_on`, the model's threshold raised by `bar`."""
        settings = self.settings
        model = self._acceptance
        if model is not None and bar:
            model = dataclasses.replace(model, threshold=model.threshold + bar)
        return acts_on(choice, heard, *self._fit_of(choice, window, lengths), speech_seconds,
                       self._above_floor_db, model=model, margin=settings.margin,
                       cross_check=settings.cross_check,
                       deficit_per_token=settings.deficit_per_token)

    def _scored_at_lead_word(self, window: WindowScores, encoded: np.ndarray,
                             heard: str | None, speech_seconds: float
                             ) -> _AfterLeadChoice | None:
        """`_scored_after_lead` when `window` begins with a lead word (`_lead_word_first`);
        None when it does not, or every command was pruned."""
        with self._threads.limit(limits=1, user_api="blas"):
            first = self._lead_word_first(window, encoded)
            return self._scored_after_lead(first, encoded, heard, speech_seconds) \
                if first is not None else None

    def _said_after_talk_word(self, window: WindowScores, encoded: np.ndarray,
                              heard: str | None, speech_seconds: float
                              ) -> _AfterLeadChoice | None:
        """The command said after the talk word Whisper heard first, when one would be
        acted on and is no likelier without the word than after it (None: the talk word
        was said alone). "Alright, king on the right" said in one breath scores higher
        after "Alright" than without it; an "alright" heard as "four right" scores lower:
        the word and the command are the same sound."""
        if self._lead is None:
            return None
        after = self._scored_at_lead_word(window, encoded, heard, speech_seconds)
        if after is None or not after.acted_on:
            return None
        group = self._table.group_with(after.choice.form)
        return after if after.window.pooled[group] >= window.pooled[group] else None

    def _talk_said_first(self, window: WindowScores) -> bool:
        """Whether Whisper's own first word is a talk word said whole ("Alright"),
        `talk_first_from` likelier than every command's first word, with a talk word
        scored (not pruned)."""
        start = self.settings.talk_first_from
        return start is not None and window.first_word_deficit >= start \
            and window.first_token in self._talk_first_tokens \
            and self._table.talk_scored(window)

    @staticmethod
    def _plays_a_card(sentence: str) -> bool:
        command = command_in(sentence)
        return command is not None and command.verb is Verb.PLAY

    def _lead_word_first(self, window: WindowScores, encoded: np.ndarray) -> int | None:
        """The token a window begins with when it is a lead word's, at least
        `lead_from` likelier than every command's first word (None: it is not)."""
        assert self._lead is not None and self.settings.lead_from is not None
        lead, decoder = self._lead
        if window.first_word_deficit >= self.settings.lead_from \
                and lead.begins(window.first_token):
            return window.first_token
        # Asked again with the lead words in the softmax: the commands' own covers the
        # grammar's tokens and the commonest, not "Okay" or "OK" (one decoder step).
        started = self.clock()
        first = lead.first_word(decoder, encoded)
        self.timings["scoring"] += self.clock() - started
        if first.first_word_deficit >= self.settings.lead_from \
                and lead.begins(first.first_token):
            return first.first_token
        return None

    def _scored_after_lead(self, first_token: int, encoded: np.ndarray, heard: str | None,
                           speech_seconds: float) -> _AfterLeadChoice | None:
        """The best command said after the lead word `first_token` begins, and whether
        it would be acted on (None: every command pruned, far behind the lead word said
        alone)."""
        assert self._lead is not None
        lead, decoder = self._lead
        started = self.clock()
        after_lead = lead.scores(first_token, decoder, encoded, bonus=self._bonus,
                                 token_bonus=self.settings.token_bonus,
                                 within=self.settings.prune_within)
        self.timings["scoring"] += self.clock() - started
        scores = after_lead.commands
        lengths = lead.lengths
        totals = np.asarray(scores.log_probability, dtype=np.float64)
        if not np.isfinite(totals).any():
            return None
        after = WindowScores(totals, scores.deficit / lengths, self._table.pool(totals),
                             within=self.settings.prune_within,
                             first_word_deficit=scores.first_word_deficit,
                             first_token=scores.first_token)
        choice = choose(self._table.as_decided(after), self._table)
        alone_gap = float(after.totals[choice.form]) - after_lead.alone
        acted_on = (self.settings.alone_margin is None
                    or alone_gap > self.settings.alone_margin) \
            and not self._table.is_talk(choice.form) \
            and self._acts_on(choice, after, heard, speech_seconds,
                              bar=self.settings.lead_bar, lengths=lengths)
        return _AfterLeadChoice(choice, after, alone_gap, acted_on)

    def _second_views(self, audio: np.ndarray) -> list[np.ndarray]:
        """The windows of the second look: the shifted one, or one per speed."""
        speeds = self.settings.second_look_speeds
        if not speeds:
            return [self._shifted(audio)]
        return [resample(audio.astype(np.float64), round(SAMPLE_RATE * speed),
                         SAMPLE_RATE) for speed in speeds]

    def _shifted(self, audio: np.ndarray) -> np.ndarray:
        """The window of the second look: the same audio, its start moved later."""
        return audio[round(self.settings.second_look_shift * SAMPLE_RATE):]

    def _score_window(self, audio: np.ndarray) -> WindowScores:
        """The scores of every written form on this audio, decoded exactly within
        `prune_within` of the best (a form further behind is known only to be so)."""
        return self._scores_of(self._timed_encoding(audio))

    def _timed_encoding(self, audio: np.ndarray) -> np.ndarray:
        """`_encoded`, its time counted as the encoder's."""
        started = self.clock()
        encoded = self._encoded(audio)
        self.timings["encoder"] += self.clock() - started
        return encoded

    def _scores_of(self, encoded: np.ndarray) -> WindowScores:
        """`_score_window` on the encoder's output."""
        within = self.settings.prune_within
        started = self.clock()
        scores = self._trie.score(self._decoder, encoded, bonus=self._bonus, within=within)
        self.timings["scoring"] += self.clock() - started
        totals = np.asarray(scores.log_probability, dtype=np.float64)
        deficits = scores.deficit / self._lengths
        return WindowScores(totals, deficits, self._table.pool(totals), within=within,
                            first_word_deficit=scores.first_word_deficit,
                            first_token=scores.first_token)

    def _encoded(self, audio: np.ndarray) -> np.ndarray:
        """The encoder's output for 16-bit-scaled samples, padded to `window_seconds`."""
        shortfall = round((self.settings.window_seconds or 0.0) * SAMPLE_RATE) - len(audio)
        if shortfall > 0:
            audio = np.concatenate([audio, np.zeros(shortfall)])
        return self.model.encode(log_mel(audio / 32768.0))

    def _leaning_of(self, texts: tuple[str, ...]) -> np.ndarray:
        """Per written form, Whisper's log-probability with nobody speaking (zeros when
        `leaning_weight` is 0), each measured once."""
        if not self.settings.leaning_weight:
            return np.zeros(len(texts))
        missing = [index for index, text in enumerate(texts) if text not in self._leanings]
        if missing:
            # Only the forms not measured yet, every one scored, nothing pruned. A form's
            # score does not depend on the others scored with it, only on the tokens the
            # softmax covers (the common ones and every grammar word seen so far: the
            # whole grammar's from the start), so it is kept per text for the narrower
            # grammars that follow.
            trie = self._trie if len(missing) == len(texts) else TokenTrie(
                self._trie.prefix, [self._tokens[index] for index in missing],
                self.model.end_of_text)
            audio = content_free_window(self.settings.trailing_silence)
            with self._threads.limit(limits=1, user_api="blas"):
                encoded = self._encoded(audio)
                scores = trie.score(self._decoder, encoded).log_probability
            self._leanings.update(zip((texts[index] for index in missing),
                                      scores.tolist(), strict=True))
        return np.asarray([self._leanings[text] for text in texts])

    def _bonus_for(self, preferred: frozenset[str]) -> np.ndarray:
        """Per written form, what is added to its log-probability: the game state's
        prior, the per-token bonus, and its leaning taken off."""
        bonus = self.settings.prior_bonus
        per_token = self.settings.token_bonus
        return np.asarray([(bonus if self._sentences[sentence] in preferred else 0.0)
                           + per_token * len(path)
                           for sentence, path in zip(self._sentence_of, self._trie.paths,
                                                     strict=True)]) \
            - self.settings.leaning_weight * self._leaning

    def _final(self, answer: Scored) -> Recognition:
        start = self._audio.start_frame * FRAME_SECONDS
        end = self._last_speech_frame * FRAME_SECONDS
        clipped = self._voice_level()["clipped_share"]
        self._audio.drop()
        self._answer = None
        self._acted_at_pause = self._tail_of = None
        return Recognition(text=answer.sentence, is_final=True, confidence=answer.confidence,
                           speech_start=start, speech_end=end,
                           emitted_at=self._audio.frames_fed * FRAME_SECONDS,
                           rejected=not answer.accepted,
                           scores={"margin": answer.margin,
                                   "deficit_per_token": answer.deficit_per_token,
                                   "speech_seconds": answer.speech_seconds,
                                   "above_floor_db": answer.above_floor_db,
                                   "words": float(len(answer.sentence.split())),
                                   "pocketsphinx_agrees": _agreement(answer),
                                   "first_word_deficit": (answer.window.first_word_deficit
                                                          if answer.window is not None
                                                          else 0.0),
                                   "tie_broken": float(answer.tie_broken),
                                   "after_lead": float(answer.after_lead),
                                   **({"alone_gap": answer.alone_gap}
                                      if answer.alone_gap is not None else {}),
                                   "clipped_share": clipped,
                                   **({TAIL_OF_COMMAND: 1.0} if answer.tail else {})})


def _agreement(answer: Scored) -> float:
    """1.0 when the cross-check's decode named the same command, 0.0 when it did not,
    nan when it was not asked."""
    heard = answer.heard_by_pocketsphinx
    if heard is None:
        return math.nan
    return float(command_in(heard) == command_in(answer.sentence))


def _fitted_acceptance(path: Path | None) -> AcceptanceModel:
    try:
        return AcceptanceModel.fitted(path)
    except (OSError, ValueError, KeyError, TypeError):
        raise RecognizerError("the speech recognizer's settings are damaged: "
                              "install VoiceSpit again") from None
