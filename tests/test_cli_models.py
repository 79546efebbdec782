"""`voicespit models install` and `voicespit models list`, as a player runs them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.local_http import Reply, serving
from tests.test_models import miniature_zip
from voicespit.cli import main


def test_install_then_list_shows_the_model_auto_will_use(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    archive = tmp_path / "vosk-model-small-en-us-0.15.zip"
    archive.write_bytes(miniature_zip())
    models = str(tmp_path / "models")
    assert main(["models", "install", str(archive), "--models-dir", models]) == 0
    assert "installed vosk-model-small-en-us-0.15 (language en-us" in capsys.readouterr().out
    assert main(["models", "list", "--models-dir", models]) == 0
    assert "vosk-model-small-en-us-0.15: language en-us, 0 MB, used by auto" in (
        capsys.readouterr().out)
    assert main(["models", "list", "--json", "--models-dir", models]) == 0
    [listed] = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert listed["used_by_auto"] and listed["usable"] and listed["english"]


def test_an_empty_models_folder_points_to_the_readme(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["models", "list", "--models-dir", str(tmp_path)]) == 0
    assert "Installing an English Vosk model" in capsys.readouterr().out


def test_errors_are_one_line_and_an_exit_status_never_a_traceback(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    not_a_zip = tmp_path / "model.zip"
    not_a_zip.write_text("<html>")
    for source in (str(not_a_zip), str(tmp_path / "absent.zip"), "http://127.0.0.1:1/m.zip"):
        assert main(["models", "install", source, "--models-dir", str(tmp_path / "m")]) == 2
        error = capsys.readouterr().err
        assert error.startswith("voicespit: ") and error.count("\n") == 1, error


def test_a_download_shows_progress_on_stderr(tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    with serving({"/vosk-model-small-en-us-0.15.zip": Reply(body=miniature_zip())}) as base:
        assert main(["models", "install", f"{base}/vosk-model-small-en-us-0.15.zip",
                     "--models-dir", str(tmp_path)]) == 0
    captured = capsys.readouterr()
    assert "downloading vosk-model-small-en-us-0.15.zip: 100 %, " in captured.err
    assert "installed vosk-model-small-en-us-0.15" in captured.out
