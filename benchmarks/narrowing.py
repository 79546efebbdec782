"""The state-narrowing lever: the same corpus, each file heard with the grammar of a game state.

    python -m benchmarks.narrowing [--split heldout]

In the game the recognizer listens only for what can matter now (`context_for`):
the ranks face up in front of the player, slap only at a round's end, and so on.
For each corpus file this picks a state from real simulated games in which the
spoken command can matter (a PLAY state for plays, a round's end for slaps, ...),
adds the command to that state's context where the deal did not happen to offer
it (the state's other ranks and commands stay as the distractors), sets the
recognizer's phrases to that context and streams the file. Chatter is heard in
a random PLAY state. Prints one row in the format of benchmarks.speech.
"""

from __future__ import annotations

import argparse
import random

from benchmarks.speech import CORPUS, row
from voicespit.engine import Rules, new_game
from voicespit.engine.speed import SpeedState
from voicespit.engine.spit import SpitState
from voicespit.engine.state import Phase
from voicespit.simulation.full_speed import greedy_choice
from voicespit.speech.language.commands import Command, GrammarContext, Group, Verb
from voicespit.speech.language.context import context_for
from voicespit.speech.language.grammar import sentences
from voicespit.speech.language.parser import parse
from voicespit.speech.recognizers.pocketsphinx_recognizer import PocketSphinxRecognizer
from voicespit.speech.recognizers.transcription import FileResult, read_corpus, summarize, transcribe

State = SpitState | SpeedState
PHASES_FOR = {Verb.SPIT: (Phase.READY, Phase.STALEMATE), Verb.READY: (Phase.READY,),
              Verb.SLAP: (Phase.ROUND_OVER,)}


def state_pool(seed: int = 7, per_game: int = 60) -> list[State]:
    """Snapshots of Spit (also without the automatic conveniences) and Speed games."""
    pool: list[State] = []
    configurations = (("spit", ()), ("spit", ("auto_turn_up=false", "auto_fill=false")),
                      ("speed", ()))
    for game, (name, variants) in enumerate(configurations):
        rng = random.Random(seed + game)
        state = new_game(Rules.for_game(name, variants), rng)
        while not state.is_over and len(pool) < (game + 1) * per_game:
            pool.append(state.clone())
            player = rng.choice((0, 1))
            legal = state.legal_actions(player) or state.legal_actions(1 - player)
            if not legal:
                break
            mover = player if state.legal_actions(player) else 1 - player
            state.apply(mover, greedy_choice(state, mover, legal, rng))
    return pool


def context_for_command(command: Command | None, pool: list[State],
                        rng: random.Random) -> GrammarContext:
    """A real state's context in which `command` can matter (None: a PLAY state for chatter)."""
    wanted = PHASES_FOR.get(command.verb, (Phase.PLAY,)) if command is not None else (Phase.PLAY,)
    speed_only = command is not None and command.verb is Verb.DRAW
    candidates = [state for state in pool if state.phase in wanted
                  and (isinstance(state, SpeedState) or not speed_only)]
    if command is not None and command.group in (Group.INFO, Group.CONTROL):
        candidates = pool
    context = context_for(rng.choice(candidates), 0)
    if command is None:
        return context
    added = {"rank": command.rank, "pile": command.pile, "stock": command.stock,
             "target": command.target}
    return GrammarContext(
        context.verbs | {command.verb},
        context.ranks | ({added["rank"]} if added["rank"] is not None else set()),
        context.piles | ({added["pile"]} if added["pile"] is not None else set()),
        context.stocks | ({added["stock"]} if added["stock"] is not None else set()),
        context.targets | ({added["target"]} if added["target"] is not None else set()))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--split", default="heldout")
    args = parser.parse_args()
    pool = state_pool()
    rng = random.Random(11)
    recognizer = PocketSphinxRecognizer()
    results: list[FileResult] = []
    sizes = []
    for item in read_corpus(CORPUS / args.split):
        command = parse(item.transcript) if item.kind == "command" and item.transcript else None
        phrases = sentences(context_for_command(command, pool, rng))
        sizes.append(len(phrases))
        recognizer.set_phrases(phrases)
        results.append(transcribe(recognizer, item))
    summary = summarize(results)
    print(f"split {args.split}; {len(pool)} game states; phrases per file: median "
          f"{sorted(sizes)[len(sizes) // 2]} of {len(sentences())}")
    print(row("state narrowing", [summary]))


if __name__ == "__main__":
    main()
