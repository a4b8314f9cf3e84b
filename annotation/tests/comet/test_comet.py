"""COMET computed here (``manage.py comet``, :mod:`annotation.comet`): every system of a
corpus scored against its first reference by a COMET model on this machine, in the
COMET environment (``make comet``), written as the file ``manage.py import_scores`` reads.

The model is a tiny one the tests build with the COMET environment's python
(``tiny_comet.py``: random weights, its own tokenizer), so what is checked is the
plumbing: one score per system and sentence, COMET's own ``predict``'s, the same every
time, and each refusal in one line, without a download.
"""

from __future__ import annotations

import io
import json
import math
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from annotation.comet import comet_python, comet_scores
from annotation.corpora.imports import corpus_import
from annotation.models import Corpus
from annotation.statistics import external_segment_scores
from annotation.tests.factories import HAND_REFS, HAND_SYSTEMS, write_corpus
from metrics.segment_scores import segment_scores_tsv

#: One xdist worker runs them, so the tiny model is built once.
pytestmark = [pytest.mark.django_db, pytest.mark.slow, pytest.mark.xdist_group("comet")]

TINY_COMET = Path(__file__).with_name("tiny_comet.py")
#: The factories' systems, and one that says what "one-off" says: the same candidates
#: are scored once, and both systems get their scores.
SYSTEMS = {**HAND_SYSTEMS, "one-off again": HAND_SYSTEMS["one-off"]}


def started_in_comet_environment(*args: str) -> subprocess.Popen[str]:
    """``tiny_comet.py ARGS`` started in the COMET environment, its output kept."""
    python = comet_python()
    assert python.is_file(), f"no COMET environment at {python}: make comet makes it"
    return subprocess.Popen(
        [str(python), "-I", str(TINY_COMET), *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def output_of(process: subprocess.Popen[str]) -> str:
    """What a started ``tiny_comet.py`` printed, once it ended well."""
    out, err = process.communicate()
    assert process.returncode == 0, err
    return out


def in_comet_environment(*args: str) -> str:
    return output_of(started_in_comet_environment(*args))


@pytest.fixture(scope="session")
def tiny_model(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A tiny COMET model's directory (``checkpoints/model.ckpt``, ``hparams.yaml``),
    built once for the session."""
    root = tmp_path_factory.mktemp("tiny-comet")
    in_comet_environment("build", str(root))
    return root / "model"


@pytest.fixture
def corpus(tmp_path: Path) -> Corpus:
    """Four sentences (sources "source 0" … "source 3"), two references each, four systems."""
    source = write_corpus(tmp_path / "hand.xml", HAND_REFS, SYSTEMS)
    return corpus_import(source=source, name="hand", score=False).corpus


def comet_command(*args: str) -> str:
    out = io.StringIO()
    call_command("comet", *args, stdout=out)
    return out.getvalue()


def test_every_system_gets_comets_own_score_for_every_sentence_every_time(
    corpus: Corpus, tiny_model: Path, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    """COMET's own ``predict`` runs beside the app's two runs (each of the three spends
    most of its time loading torch and the model, which need not wait for the others)."""
    samples = tmp_path / "samples.jsonl"
    samples.write_text(
        "".join(
            json.dumps({"src": f"source {k}", "mt": hyps[k], "ref": HAND_REFS[k][0]}) + "\n"
            for hyps in SYSTEMS.values()
            for k in range(4)
        ),
        encoding="utf-8",
    )
    predicting = started_in_comet_environment("predict", str(tiny_model), str(samples))
    request.addfinalizer(predicting.kill)  # a failure before its output is read
    shown: list[tuple[int, int]] = []
    scores = comet_scores(corpus, model=tiny_model, progress=lambda *p: shown.append(p))
    written = tmp_path / "comet.tsv"
    checkpoint = tiny_model / "checkpoints" / "model.ckpt"  # the model named by its file
    said = comet_command(
        "hand", "--model", str(checkpoint), "--out", str(written), "--import", "COMET-tiny"
    )

    assert said == (
        f"COMET of 4 systems × 4 sentences written to {written}.\n"
        "COMET of 4 systems × 4 sentences imported as 'COMET-tiny'.\n"
    )
    lines = written.read_text(encoding="utf-8").splitlines()
    assert lines[0] == "system\tsegment\tscore"
    rows = [line.split("\t") for line in lines[1:]]
    assert [(system, int(k)) for system, k, _ in rows] == [
        (system, k) for system in SYSTEMS for k in range(1, 5)
    ]
    assert all(math.isfinite(float(score)) for *_, score in rows)
    assert segment_scores_tsv(scores).splitlines() == lines  # the same, run after run
    assert scores["one-off again"] == scores["one-off"]
    assert len(set(scores["perfect"] + scores["one-off"] + scores["bad"])) > 1
    assert shown == [(0, 12), (12, 12)]  # 12 distinct candidates, in one call

    own = output_of(predicting).splitlines()[-1]
    assert [float(score) for *_, score in rows] == pytest.approx(json.loads(own), abs=1e-6)

    imported = external_segment_scores(Corpus.objects.get(name="hand"), "COMET-tiny")
    assert {system: values.tolist() for system, values in imported.items()} == scores
    call_command(
        "import_scores",
        "hand",
        str(written),
        "--name",
        "COMET-file",
        "--higher-is-better",
        stdout=io.StringIO(),
    )
    from_file = external_segment_scores(Corpus.objects.get(name="hand"), "COMET-file")
    assert {system: values.tolist() for system, values in from_file.items()} == scores


def test_refusals_name_what_is_missing_and_download_nothing(
    corpus: Corpus, tiny_model: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    released = tmp_path / "released"  # its encoder named by its hub name, not on this machine
    shutil.copytree(tiny_model, released)
    hparams = released / "hparams.yaml"
    hparams.write_text(
        "\n".join(
            "pretrained_model: xlm-roberta-large" if line.startswith("pretrained_model:") else line
            for line in hparams.read_text(encoding="utf-8").splitlines()
        ),
        encoding="utf-8",
    )
    monkeypatch.setenv("HF_HOME", str(tmp_path / "empty-hf-cache"))
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "empty-hf-cache" / "hub"))
    nowhere = tmp_path / "nowhere" / "python"
    cases = [
        (["--python", str(nowhere)], f"no COMET python at {nowhere}: make comet makes"),
        (["--python", sys.executable], f"unbabel-comet is not installed for {sys.executable}"),
        (["--batch-size", "0"], "--batch-size 0: at least 1"),
        (["--import", "bleu"], "the name 'bleu' is taken by a metric evaltool computes"),
        (
            ["--model", "Unbabel/wmt22-comet-da"],
            "Unbabel/wmt22-comet-da: no such file or directory",
        ),
        (
            ["--model", str(tiny_model.parent / "encoder")],
            f"{tiny_model.parent / 'encoder'} is not a COMET model: it has no "
            "checkpoints/model.ckpt",
        ),
        (
            ["--model", str(released)],
            f"the model's encoder 'xlm-roberta-large' (pretrained_model in {hparams}) is "
            "neither a directory on this machine nor in the local Hugging Face cache",
        ),
    ]
    for args, message in cases:
        if "--model" not in args:
            args = [*args, "--model", str(tiny_model)]
        with pytest.raises(CommandError) as refused:
            comet_command("hand", *args)
        assert str(refused.value).startswith(message), args
        assert refused.value.returncode == 1
