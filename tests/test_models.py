"""Vosk models on disk: the layout check, listing, picking an English model, installing.

Installing the real Korean model (from a zip and from a URL on localhost) is tested
with the real 250 MB model; the install mechanics (names, refusals, clean-up) with
a miniature model folder that has Vosk's layout and file headers but no content.
"""

from __future__ import annotations

import hashlib
import io
import json
import socket
import zipfile
from pathlib import Path

import pytest

from tests.local_http import Reply, serving
from tests.vosk_support import (
    KOREAN_MODEL_NAME,
    KOREAN_MODEL_SOURCE,
    installed_korean_model,
    korean_model_zip,
)
from voicespit.speech.recognizers.models import (
    METADATA_FILE,
    CorruptModelError,
    ModelAlreadyInstalledError,
    ModelDownloadError,
    ModelNotFoundError,
    NotAVoskModelError,
    NotAZipError,
    check_model_layout,
    default_models_dir,
    describe_model,
    find_english_model,
    install_model,
    language_from_name,
    list_models,
)

MINIATURE_FILES = {
    "am/final.mdl": b"\x00B<TransitionModel> <Topology> ...",
    "conf/model.conf": b"--endpoint.silence-phones=1:2:3\n",
    "conf/mfcc.conf": b"--use-energy=false\n",
    "graph/HCLr.fst": bytes.fromhex("d6fdb27e") + b"olabel_lookahead",
    "graph/Gr.fst": bytes.fromhex("d6fdb27e") + b"ngram",
    "graph/disambig_tid.int": b"11887\n",
    "README": b"US English model for mobile Vosk applications\n",
}


def miniature_model(folder: Path, files: dict[str, bytes] | None = None) -> Path:
    for name, content in (files or MINIATURE_FILES).items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_bytes(content)
    return folder


def zipped(members: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as bundle:
        for name, content in members.items():
            bundle.writestr(name, content)
    return buffer.getvalue()


def miniature_zip(top: str = "vosk-model-small-en-us-0.15") -> bytes:
    prefix = f"{top}/" if top else ""
    return zipped({prefix + name: content for name, content in MINIATURE_FILES.items()})


def leftovers(models_dir: Path) -> list[str]:
    """Temporary folders an install left behind (there must be none)."""
    return [entry.name for entry in models_dir.iterdir() if entry.name.startswith(".")]


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


# The layout check ----------------------------------------------------------------------


def test_the_korean_model_passes_the_layout_check_and_other_folders_say_what_is_wrong(
        tmp_path: Path) -> None:
    check_model_layout(KOREAN_MODEL_SOURCE)
    with pytest.raises(ModelNotFoundError, match="does not exist"):
        check_model_layout(tmp_path / "nowhere")
    with pytest.raises(NotAVoskModelError, match=r"missing am/final\.mdl, conf/model\.conf, graph"):
        check_model_layout(tmp_path)
    garbage = miniature_model(tmp_path / "garbage", {**MINIATURE_FILES, "am/final.mdl": b"hi"})
    with pytest.raises(NotAVoskModelError, match="not a Kaldi acoustic model"):
        check_model_layout(garbage)
    no_header = miniature_model(tmp_path / "html", {**MINIATURE_FILES, "graph/Gr.fst": b"<html>"})
    with pytest.raises(NotAVoskModelError, match="not a decoding graph"):
        check_model_layout(no_header)


def test_damage_that_would_crash_vosk_is_caught_before_loading(tmp_path: Path) -> None:
    # Found by truncating each file of the Korean model: these two abort the process.
    empty_conf = miniature_model(tmp_path / "conf", {**MINIATURE_FILES, "conf/model.conf": b""})
    with pytest.raises(CorruptModelError, match="silence-phones"):
        check_model_layout(empty_conf)
    empty_table = miniature_model(tmp_path / "tid", {**MINIATURE_FILES,
                                                     "graph/disambig_tid.int": b""})
    with pytest.raises(CorruptModelError, match="is empty"):
        check_model_layout(empty_table)


# Languages, listing, picking ----------------------------------------------------------------


@pytest.mark.parametrize(("name", "language"), [
    ("vosk-model-small-en-us-0.15", "en-us"),
    ("vosk-model-en-us-0.22-lgraph", "en-us"),
    ("vosk-model-small-en-in-0.4", "en-in"),
    ("vosk-model-small-ko-0.22", "ko"),
    ("vosk-model-small-cn-0.22", "cn"),
    ("my-english-model", None),
])
def test_the_language_is_read_from_vosk_model_names(name: str, language: str | None) -> None:
    assert language_from_name(name) == language


def test_list_shows_every_folder_and_why_a_broken_one_cannot_be_used(tmp_path: Path) -> None:
    miniature_model(tmp_path / "vosk-model-small-en-us-0.15")
    (tmp_path / "half-unzipped").mkdir()
    (tmp_path / ".install-abc").mkdir()  # an install in progress is not a model
    (tmp_path / "README.md").write_text("models go here")
    models = {model.name: model for model in list_models(tmp_path)}
    assert set(models) == {"vosk-model-small-en-us-0.15", "half-unzipped"}
    english = models["vosk-model-small-en-us-0.15"]
    assert english.problem is None and english.is_english and english.supports_grammar
    assert models["half-unzipped"].problem is not None
    assert "missing am/final.mdl" in models["half-unzipped"].problem
    assert list_models(tmp_path / "absent") == []


def test_auto_picks_a_usable_english_model_that_accepts_a_grammar(tmp_path: Path) -> None:
    assert find_english_model(tmp_path) is None
    miniature_model(tmp_path / "vosk-model-small-ko-0.22")
    assert find_english_model(tmp_path) is None  # Korean is not English
    static = {name: content for name, content in MINIATURE_FILES.items()
              if not name.startswith("graph/")}
    static["graph/HCLG.fst"] = bytes.fromhex("d6fdb27e") + b"x" * 5000
    miniature_model(tmp_path / "vosk-model-en-us-0.22", static)
    assert describe_model(tmp_path / "vosk-model-en-us-0.22").problem is None
    assert find_english_model(tmp_path) is None  # a static graph cannot be narrowed
    miniature_model(tmp_path / "vosk-model-small-en-us-0.15")
    assert find_english_model(tmp_path) == tmp_path / "vosk-model-small-en-us-0.15"
    bigger = miniature_model(tmp_path / "vosk-model-en-us-0.22-lgraph")
    (bigger / "graph/Gr.fst").write_bytes(bytes.fromhex("d6fdb27e") + b"y" * 5000)
    assert find_english_model(tmp_path) == tmp_path / "vosk-model-small-en-us-0.15"
    broken = miniature_model(tmp_path / "vosk-model-small-en-gb-0.1")
    (broken / "am/final.mdl").unlink()
    assert find_english_model(tmp_path) == tmp_path / "vosk-model-small-en-us-0.15"


def test_a_model_with_an_unhelpful_name_is_known_by_its_readme_or_install_metadata(
        tmp_path: Path) -> None:
    assert describe_model(miniature_model(tmp_path / "mine")).language == "en"
    korean = miniature_model(tmp_path / "other", {**MINIATURE_FILES, "README": b"Small Korean"})
    assert describe_model(korean).language is None
    (korean / METADATA_FILE).write_text(json.dumps({"language": "ko"}))
    assert describe_model(korean).language == "ko"


def test_the_models_folder_is_the_projects_unless_the_environment_moves_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("VOICESPIT_MODELS_DIR", raising=False)
    assert default_models_dir() == Path(__file__).resolve().parents[1] / "models"
    monkeypatch.setenv("VOICESPIT_MODELS_DIR", str(tmp_path))
    assert default_models_dir() == tmp_path


# Installing the real model ------------------------------------------------------------------


def test_a_vosk_zip_installs_under_its_own_name_with_its_language_recorded() -> None:
    installed = installed_korean_model()
    assert installed.name == KOREAN_MODEL_NAME
    check_model_layout(installed)
    assert sha256(installed / "am/final.mdl") == sha256(KOREAN_MODEL_SOURCE / "am/final.mdl")
    metadata = json.loads((installed / METADATA_FILE).read_text())
    assert metadata["language"] == "ko"
    assert metadata["source"] == str(korean_model_zip())
    [listed] = list_models(installed.parent)
    assert listed.name == KOREAN_MODEL_NAME and listed.problem is None
    assert leftovers(installed.parent) == []


def test_a_model_downloads_from_a_url_with_a_progress_bar(tmp_path: Path) -> None:
    archive = korean_model_zip()
    reports: list[tuple[int, int | None]] = []
    with serving({f"/models/{archive.name}": Reply(file=archive)}) as base:
        url = f"{base}/models/{archive.name}"
        installed = install_model(url, tmp_path, progress=lambda done, total:
                                  reports.append((done, total)))
    assert installed == tmp_path / KOREAN_MODEL_NAME
    assert sha256(installed / "graph/Gr.fst") == sha256(KOREAN_MODEL_SOURCE / "graph/Gr.fst")
    size = archive.stat().st_size
    assert reports[-1] == (size, size) and len(reports) > 10
    assert [done for done, _ in reports] == sorted(done for done, _ in reports)
    assert json.loads((installed / METADATA_FILE).read_text())["source"] == url
    assert leftovers(tmp_path) == []


# Refusals and clean-up -----------------------------------------------------------------------


def test_an_installed_model_is_not_overwritten_unless_asked(tmp_path: Path) -> None:
    archive = tmp_path / "model.zip"
    archive.write_bytes(miniature_zip())
    models = tmp_path / "models"
    first = install_model(archive, models)
    (first / "mine.txt").write_text("a file of the old install")
    with pytest.raises(ModelAlreadyInstalledError, match="--replace"):
        install_model(archive, models)
    assert (first / "mine.txt").exists()
    assert install_model(archive, models, replace=True) == first
    assert not (first / "mine.txt").exists()
    assert leftovers(models) == []


def test_a_zip_with_the_files_at_the_top_takes_the_zips_name_or_the_one_given(
        tmp_path: Path) -> None:
    archive = tmp_path / "vosk-model-small-en-us-0.15.zip"
    archive.write_bytes(miniature_zip(top=""))
    models = tmp_path / "models"
    assert install_model(archive, models).name == "vosk-model-small-en-us-0.15"
    renamed = install_model(archive, models, name="english", language="en-us")
    assert renamed.name == "english" and describe_model(renamed).language == "en-us"


def test_an_unpacked_model_folder_installs_too(tmp_path: Path) -> None:
    unpacked = miniature_model(tmp_path / "Downloads" / "vosk-model-small-en-us-0.15")
    installed = install_model(tmp_path / "Downloads", tmp_path / "models")
    assert installed.name == "vosk-model-small-en-us-0.15"
    assert (installed / "am/final.mdl").read_bytes() == (unpacked / "am/final.mdl").read_bytes()


@pytest.mark.parametrize(("content", "error", "message"), [
    (b"this is a text file", NotAZipError, "not a zip file"),
    (zipped({"notes/readme.txt": b"hello"}), NotAVoskModelError, "no Vosk model inside"),
    (zipped({"a/am/final.mdl": b"x", "b/am/final.mdl": b"x"}), NotAVoskModelError,
     "several models"),
    (zipped({"m/am/final.mdl": b"\x00B<TransitionModel>"}), NotAVoskModelError,
     r"missing conf/model\.conf"),
    (zipped({"../../escaped/am/final.mdl": b"x"}), NotAVoskModelError, "unsafe path"),
    (miniature_zip()[:300], NotAZipError, "not a zip"),
])
def test_a_bad_archive_is_refused_with_its_reason_and_leaves_nothing_behind(
        tmp_path: Path, content: bytes, error: type[Exception], message: str) -> None:
    archive = tmp_path / "download.zip"
    archive.write_bytes(content)
    models = tmp_path / "models"
    with pytest.raises(error, match=message):
        install_model(archive, models)
    assert list(models.iterdir()) == []
    assert not (tmp_path / "escaped").exists()


def test_a_missing_file_is_named_in_the_error(tmp_path: Path) -> None:
    with pytest.raises(ModelNotFoundError, match="no such file"):
        install_model(tmp_path / "vosk-model-small-en-us-0.15.zip", tmp_path / "models")


def unused_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


def test_download_failures_say_what_happened_and_leave_nothing_behind(tmp_path: Path) -> None:
    models = tmp_path / "models"
    with pytest.raises(ModelDownloadError, match=r"could not reach.*check the network"):
        install_model(f"http://127.0.0.1:{unused_port()}/model.zip", models)
    whole = miniature_zip()
    routes = {"/cut.zip": Reply(body=whole, cut_after=len(whole) // 2),
              "/page.zip": Reply(body=b"<html>Sign in</html>", content_type="text/html"),
              "/model.zip": Reply(body=whole)}
    with serving(routes) as base:
        with pytest.raises(ModelDownloadError, match="404"):
            install_model(f"{base}/gone.zip", models)
        with pytest.raises(ModelDownloadError, match="stopped after"):
            install_model(f"{base}/cut.zip", models)
        with pytest.raises(NotAZipError, match="not a zip"):
            install_model(f"{base}/page.zip", models)
        assert leftovers(models) == [] and list(models.iterdir()) == []
        install_model(f"{base}/model.zip", models, name="vosk-model-small-en-us-0.15")
        # Already there: refused before anything is downloaded.
        with pytest.raises(ModelAlreadyInstalledError):
            install_model(f"{base}/vosk-model-small-en-us-0.15.zip", models)
