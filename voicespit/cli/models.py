"""`voicespit models install PATH_OR_URL` and `voicespit models list`: Vosk and Whisper models on disk."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from voicespit.speech.recognizers.download import ProgressBar, file_name_in_url, is_url
from voicespit.speech.recognizers.models import (
    ModelInfo,
    choose_english_model,
    default_models_dir,
    describe_model,
    install_model,
)
from voicespit.speech.recognizers.models import list_models as models_in


def configure(parser: argparse.ArgumentParser) -> None:
    where = argparse.ArgumentParser(add_help=False)
    where.add_argument("--models-dir", type=Path, default=None, metavar="DIR",
                       help="where models live (default: $VOICESPIT_MODELS_DIR or models/)")
    actions = parser.add_subparsers(dest="models_command", metavar="ACTION", required=True)
    install = actions.add_parser(
        "install", parents=[where],
        help="install a Vosk model (zip, folder or URL) or a faster-whisper model folder",
        description="Install a Vosk model from a downloaded zip, an unpacked folder, or an "
                    "http(s) URL (for English: vosk-model-small-en-us-0.15.zip from "
                    "https://alphacephei.com/vosk/models), or a Whisper model folder in "
                    "faster-whisper's format to use instead of the built-in one.")
    install.add_argument("source", metavar="PATH_OR_URL")
    install.add_argument("--name", help="folder name for the model (default: the zip's)")
    install.add_argument("--language", metavar="CODE",
                         help='its language, e.g. "en-us", when the name does not say')
    install.add_argument("--replace", action="store_true",
                         help="install over a model of the same name")
    install.add_argument("--plain-progress", action="store_true",
                         help="report a download as a line every 10 %% instead of a redrawn "
                              "bar (for screen readers)")
    listing = actions.add_parser("list", parents=[where], help="list the installed models")
    listing.add_argument("--json", action="store_true", help="one JSON object per model")


def run(args: argparse.Namespace) -> int:
    models_dir: Path = args.models_dir or default_models_dir()
    if args.models_command == "install":
        return _install(args, models_dir)
    return _list(models_dir, as_json=args.json)


def _install(args: argparse.Namespace, models_dir: Path) -> int:
    source: str = args.source
    label = f"downloading {file_name_in_url(source) or source}" if is_url(source) else ""
    progress = ProgressBar(label, plain=args.plain_progress) if label else None
    try:
        path = install_model(source, models_dir, name=args.name, language=args.language,
                             replace=args.replace, progress=progress)
    finally:
        if progress is not None:
            progress.finish()
    info = describe_model(path)
    if info.kind == "whisper":
        print(f"installed the Whisper model {info.name} ({info.size_bytes / 1e6:,.0f} MB) in "
              f"{models_dir}; to use it, set whisper_model = \"{info.name}\" in your settings "
              f"or pass --whisper-model {info.name}")
        return 0
    print(f"installed {info.name} ({_language(info)}, {info.size_bytes / 1e6:,.0f} MB) in "
          f"{models_dir}")
    if not info.supports_grammar:
        print("note: this model cannot be narrowed to the game's commands (no HCLr.fst/Gr.fst "
              "graph), so VoiceSpit will not use it; small models such as "
              "vosk-model-small-en-us-0.15 can be")
    elif not info.is_english:
        print("note: VoiceSpit's commands are English; the recognizer 'auto' picks only an "
              "English model (give --language en-us if this one is English)")
    return 0


def _list(models_dir: Path, *, as_json: bool) -> int:
    models = models_in(models_dir)
    chosen = choose_english_model(models)
    if as_json:
        for model in models:
            print(json.dumps({"name": model.name, "path": str(model.path),
                              "language": model.language, "english": model.is_english,
                              "grammar": model.supports_grammar, "size_bytes": model.size_bytes,
                              "usable": model.problem is None, "problem": model.problem,
                              "used_by_auto": model.path == chosen}))
        return 0
    if not models:
        print(f"no models installed in {models_dir}; Whisper tiny.en (built in) will be used. "
              "See README: Installing an English Vosk model")
        return 0
    print(f"models in {models_dir}:")
    for model in models:
        if model.problem is not None:
            print(f"  {model.name}: unusable: {model.problem}")
            continue
        notes = [_language(model), f"{model.size_bytes / 1e6:,.0f} MB"]
        if model.kind == "whisper":
            notes = ["a Whisper model", notes[1], "used when whisper_model names it"]
        elif not model.supports_grammar:
            notes.append("cannot be narrowed to the commands, so not used")
        if model.path == chosen:
            notes.append("used by auto")
        print(f"  {model.name}: {', '.join(notes)}")
    return 0


def _language(model: ModelInfo) -> str:
    return f"language {model.language}" if model.language else "language unknown"
