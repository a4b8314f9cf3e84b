"""COMET segment scores, computed by the COMET environment's python (``make comet``):
a script the app runs as a child process, never a module it imports. It imports nothing
of the project and needs nothing but unbabel-comet (whose numpy<2 the project's own
environment cannot have: :mod:`annotation.comet`).

    python scorer.py --model PATH --input FILE [--batch-size N]

``PATH`` is a COMET model on this machine: its directory (``checkpoints/model.ckpt`` and
``hparams.yaml``, as COMET's models are published) or that ``model.ckpt``. ``FILE`` holds
one JSON object a line, ``{"src": …, "mt": …, "ref": …}``.

What it writes on standard output is one JSON object a line, for the app to read:
``{"loaded": N}`` once the model is loaded (N segments to score), ``{"done": k}`` as the
segments are scored, and ``{"scores": [...]}`` at the end, one float per input line in
input order. Anything a library prints goes to standard error, so nothing else ever
reaches standard output. A refusal is ``{"refused": "reason"}`` and exit status 2:
unbabel-comet missing, or a model path that is not a COMET model on this machine.

**Nothing is downloaded.** Hugging Face's libraries run offline (their ``HF_HUB_OFFLINE``
and ``TRANSFORMERS_OFFLINE``), and the model's encoder (``pretrained_model`` in its
``hparams.yaml``, e.g. ``xlm-roberta-large``) must be a local directory or already in
the local Hugging Face cache: otherwise the model is refused before it is read. The
model is read with the settings of its ``hparams.yaml`` (not the copy inside the
checkpoint), so pointing ``pretrained_model`` there to a directory is enough.

**One model load, sorted batches.** Every segment of every system comes in one file, so
the model is loaded once. The segments are sorted by source length (as COMET's own
``predict`` does, so a batch pads little), then scored a few batches at a time, each
call reporting its progress; the same input always makes the same batches, so the same
scores.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import logging
import os
import sys
import warnings
from pathlib import Path
from typing import IO, Any

# Before any Hugging Face library is imported: they read these once, at import.
os.environ["HF_HUB_OFFLINE"] = "1"
os.environ["TRANSFORMERS_OFFLINE"] = "1"

#: Exit status of a refusal (``{"refused": …}`` on standard output).
REFUSED = 2
#: Batches scored by one ``predict`` call: progress is reported after each call.
BATCHES_PER_REPORT = 8
CHECKPOINT = Path("checkpoints") / "model.ckpt"


class Refused(Exception):
    """Why nothing was scored: the message the app shows."""


def checkpoint_of(model: Path) -> Path:
    """The checkpoint COMET loads for ``model`` (its directory or its ``model.ckpt``),
    once the files COMET reads beside it are there."""
    if not model.exists():
        raise Refused(
            f"{model}: no such file or directory (a COMET model on this machine: download "
            "it beforehand, then give its directory)"
        )
    checkpoint = model / CHECKPOINT if model.is_dir() else model
    if not checkpoint.is_file():
        raise Refused(f"{model} is not a COMET model: it has no {CHECKPOINT}")
    hparams = checkpoint.parents[1] / "hparams.yaml"
    if not hparams.is_file():
        raise Refused(f"{model} is not a COMET model: {hparams} is missing")
    check_encoder(hparams)
    return checkpoint


def check_encoder(hparams: Path) -> None:
    """Refuse a model whose encoder would have to be downloaded: ``pretrained_model``
    must be a local directory or a model the local Hugging Face cache holds."""
    import yaml

    try:
        settings = yaml.safe_load(hparams.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, yaml.YAMLError) as exc:
        raise Refused(f"{hparams} cannot be read: {exc}") from None
    encoder = settings.get("pretrained_model") if isinstance(settings, dict) else None
    if not isinstance(encoder, str) or not encoder:
        raise Refused(f"{hparams} names no pretrained_model")
    if Path(encoder).is_dir() or _in_hub_cache(encoder):
        return
    raise Refused(
        f"the model's encoder {encoder!r} (pretrained_model in {hparams}) is neither a "
        "directory on this machine nor in the local Hugging Face cache: download it "
        'beforehand (docs/metrics.md, "COMET computed here"); nothing is downloaded here'
    )


def _in_hub_cache(name: str) -> bool:
    from huggingface_hub import try_to_load_from_cache

    try:
        found = try_to_load_from_cache(name, "config.json")
    except ValueError:  # not a repository's name either (HFValidationError)
        return False
    return isinstance(found, str)


def read_samples(path: Path) -> list[dict[str, str]]:
    samples = []
    with path.open(encoding="utf-8") as lines:
        for number, line in enumerate(lines, start=1):
            sample = json.loads(line)
            if not isinstance(sample, dict) or not {"src", "mt", "ref"} <= sample.keys():
                raise Refused(f"{path} line {number}: expected src, mt and ref")
            samples.append({k: str(sample[k]) for k in ("src", "mt", "ref")})
    return samples


def score(
    checkpoint: Path, samples: list[dict[str, str]], batch_size: int, out: IO[str]
) -> list[float]:
    """Each sample's score, in the samples' order, reporting progress on ``out``."""
    from comet import load_from_checkpoint
    from torch import cuda

    try:
        # hparams.yaml, not the checkpoint's copy, names the encoder: the file a user
        # edits to point a released model's encoder to a local directory.
        model = load_from_checkpoint(str(checkpoint), reload_hparams=True, local_files_only=True)
    except OSError as exc:  # a file its encoder needs is missing: never fetched
        raise Refused(f"{checkpoint} cannot be loaded from this machine's files: {exc}") from None
    gpus = 1 if cuda.is_available() else 0
    say(out, loaded=len(samples))
    order = sorted(range(len(samples)), key=lambda i: len(samples[i]["src"]))
    scores = [0.0] * len(samples)
    step = batch_size * BATCHES_PER_REPORT
    for start in range(0, len(order), step):
        chunk = order[start : start + step]
        found = model.predict(
            [samples[i] for i in chunk],
            batch_size=batch_size,
            gpus=gpus,
            progress_bar=False,
            length_batching=False,  # sorted already, across every chunk
        )
        for i, value in zip(chunk, found.scores, strict=True):
            scores[i] = float(value)
        say(out, done=start + len(chunk))
    return scores


def say(out: IO[str], **message: Any) -> None:
    out.write(json.dumps(message) + "\n")
    out.flush()


def quiet_libraries() -> IO[str]:
    """Standard output for our messages alone: a stream on the process's own standard
    output, which then points to standard error, where whatever the libraries print
    (Lightning's notices, warnings) goes."""
    ours = os.fdopen(os.dup(sys.stdout.fileno()), "w", encoding="utf-8")
    sys.stdout.flush()
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    for name in ("pytorch_lightning", "lightning", "lightning.pytorch", "lightning_fabric"):
        logging.getLogger(name).setLevel(logging.ERROR)
    warnings.simplefilter("ignore")
    return ours


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--model", type=Path, required=True)
    parser.add_argument("--input", type=Path, required=True)
    parser.add_argument("--batch-size", type=int, default=16)
    args = parser.parse_args(argv)
    out = quiet_libraries()
    try:
        if importlib.util.find_spec("comet") is None:
            raise Refused(
                f"unbabel-comet is not installed for {sys.executable} (make comet makes "
                "the environment it runs in)"
            )
        if args.batch_size < 1:
            raise Refused(f"--batch-size {args.batch_size}: at least 1")
        checkpoint = checkpoint_of(args.model)
        samples = read_samples(args.input)
        scores = score(checkpoint, samples, args.batch_size, out)
    except Refused as refused:
        say(out, refused=str(refused))
        return REFUSED
    say(out, scores=scores)
    return 0


if __name__ == "__main__":
    sys.exit(main())
