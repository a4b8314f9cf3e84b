"""Running the COMET scorer for a corpus: its candidates as COMET reads them, the child
process in the COMET environment, its scores back per system (:mod:`annotation.comet`)."""

from __future__ import annotations

import json
import os
import subprocess
import tempfile
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from django.conf import settings

from annotation.models import Corpus
from annotation.statistics import corpus_texts
from metrics.segment_scores import check_scores

#: The script the COMET environment's python runs (never imported here).
SCORER = Path(__file__).with_name("scorer.py")
#: COMET's own default (its ``comet-score --batch_size``).
DEFAULT_BATCH_SIZE = 16

ERR_NO_PYTHON = (
    "no COMET python at {python}: make comet makes the COMET environment "
    "(or name another python with --python or EVALTOOL_COMET_PYTHON)"
)
ERR_NO_SYSTEM = "the corpus {corpus!r} has no MT system to score"
ERR_NO_REFERENCE = (
    "sentence {number} has no reference: COMET scores each candidate against the sentence's "
    "first reference"
)
ERR_FAILED = "the COMET scorer stopped (exit status {status}) without scores: {said}"

#: ``progress(done, total)``: called once the model is loaded (``done`` 0), then as
#: the segments are scored; ``total`` counts distinct segments.
Progress = Callable[[int, int], None]


class CometRefused(Exception):
    """Nothing was scored, and why (the message a command prints)."""


@dataclass(frozen=True)
class CometSamples:
    """A corpus's candidates as COMET reads them: ``samples`` are the distinct
    ``{"src", "mt", "ref"}`` (source, candidate, first reference), and
    ``index[system][k]`` is the sample of the system's candidate for sentence k."""

    samples: list[dict[str, str]]
    index: dict[str, list[int]]


def comet_python() -> Path:
    """The COMET environment's python: the ``EVALTOOL_COMET_PYTHON`` setting."""
    return Path(settings.EVALTOOL_COMET_PYTHON)


def comet_samples(corpus: Corpus) -> CometSamples:
    """What COMET scores for ``corpus``: each system's candidates with the sentence's
    source and first reference (:class:`CometRefused` for a sentence without one, or a
    corpus without systems)."""
    texts = corpus_texts(corpus)
    if not texts.systems:
        raise CometRefused(ERR_NO_SYSTEM.format(corpus=corpus.name))
    for k, refs in enumerate(texts.refs):
        if not refs:
            raise CometRefused(ERR_NO_REFERENCE.format(number=k + 1))
    sources = list(corpus.sentences.order_by("position").values_list("source", flat=True))
    seen: dict[tuple[str, str, str], int] = {}
    index = {
        system: [
            seen.setdefault((sources[k], candidate, texts.refs[k][0]), len(seen))
            for k, candidate in enumerate(candidates)
        ]
        for system, candidates in texts.systems.items()
    }
    samples = [{"src": src, "mt": mt, "ref": ref} for src, mt, ref in seen]
    return CometSamples(samples, index)


def comet_scores(
    corpus: Corpus,
    *,
    model: Path,
    python: Path | None = None,
    batch_size: int = DEFAULT_BATCH_SIZE,
    progress: Progress | None = None,
) -> dict[str, list[float]]:
    """Each system's COMET scores, one per sentence in corpus order, by the model at
    ``model`` run in the COMET environment (``python``, default :func:`comet_python`);
    :class:`CometRefused` with the reason when nothing could be scored."""
    found = comet_samples(corpus)
    scores = run_scorer(
        found.samples,
        model=model,
        python=python or comet_python(),
        batch_size=batch_size,
        progress=progress,
    )
    by_system = {system: [scores[i] for i in index] for system, index in found.index.items()}
    try:  # the rule every imported metric's scores follow
        check_scores(by_system, corpus.n_sentences)
    except ValueError as exc:
        raise CometRefused(f"COMET's scores: {exc}") from None
    return by_system


def run_scorer(
    samples: Sequence[Mapping[str, str]],
    *,
    model: Path,
    python: Path,
    batch_size: int = DEFAULT_BATCH_SIZE,
    progress: Progress | None = None,
) -> list[float]:
    """Each sample's score, in order, from :mod:`annotation.comet.scorer` run by
    ``python``. Its standard error goes to a file (what the libraries print would
    otherwise fill a pipe nobody reads) and is shown only when it stops without scores."""
    if not (python.is_file() and os.access(python, os.X_OK)):
        raise CometRefused(ERR_NO_PYTHON.format(python=python))
    with tempfile.TemporaryDirectory(prefix="evaltool-comet-") as tmp:
        given = Path(tmp) / "samples.jsonl"
        with given.open("w", encoding="utf-8") as out:
            for sample in samples:
                out.write(json.dumps(dict(sample), ensure_ascii=False) + "\n")
        with (Path(tmp) / "stderr.txt").open("w+", encoding="utf-8") as errors:
            command = [
                str(python),
                "-I",  # its own environment only: no PYTHONPATH, no user site, no checkout
                str(SCORER),
                "--model",
                str(model),
                "--input",
                str(given),
                "--batch-size",
                str(batch_size),
            ]
            with subprocess.Popen(  # noqa: S603 (the configured python, our own script)
                command,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=errors,
                text=True,
                encoding="utf-8",
            ) as child:
                try:
                    said = _read_messages(child.stdout, len(samples), progress)
                except BaseException:
                    child.kill()
                    raise
            if "refused" in said:
                raise CometRefused(said["refused"])
            if child.returncode != 0 or "scores" not in said:
                errors.seek(0)
                tail = errors.read().strip().splitlines()[-3:]
                raise CometRefused(
                    ERR_FAILED.format(status=child.returncode, said=" / ".join(tail) or "nothing")
                )
    scores: list[float] = said["scores"]
    if len(scores) != len(samples):
        raise CometRefused(
            ERR_FAILED.format(status=0, said=f"{len(scores)} scores for {len(samples)} segments")
        )
    return scores


def _read_messages(stream: IO[str] | None, total: int, progress: Progress | None) -> dict[str, Any]:
    """The scorer's last words (its scores, or its refusal), passing its progress on."""
    said: dict[str, Any] = {}
    for line in stream or ():
        message = json.loads(line)
        if "loaded" in message and progress is not None:
            progress(0, total)
        elif "done" in message and progress is not None:
            progress(int(message["done"]), total)
        said.update(message)
    return said
