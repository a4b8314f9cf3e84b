"""A tiny COMET model for the tests, and COMET's own scores with it: run by the COMET
environment's python (``make comet``), never by the project's, importing nothing of the
project.

    python tiny_comet.py build DIR
    python tiny_comet.py predict MODEL FILE

``build`` writes ``DIR/encoder/`` (a tiny XLM-RoBERTa: hidden size 32, 2 layers, 2 heads, its
configuration and a sentencepiece tokenizer trained here on a few sentences) and
``DIR/model/`` (a COMET regression metric on it, laid out as a released COMET model:
``checkpoints/model.ckpt`` and ``hparams.yaml``, whose ``pretrained_model`` is the local
``DIR/encoder``, while the checkpoint's own copy names ``xlm-roberta-large``, as the
released ones do). Its weights are random (seeded): the tests check the plumbing, not the
scores' meaning. Nothing is downloaded.

``predict`` prints, as a JSON list, the scores COMET's own ``predict`` gives the samples of
``FILE`` (JSON lines ``{"src", "mt", "ref"}``) with the model at ``MODEL`` (its
directory): what the app's scores are checked against.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

os.environ["HF_HUB_OFFLINE"] = "1"
os.environ["TRANSFORMERS_OFFLINE"] = "1"

import pytorch_lightning  # noqa: E402
import sentencepiece  # noqa: E402
import torch  # noqa: E402
import yaml  # noqa: E402
from comet import load_from_checkpoint  # noqa: E402
from comet.models import RegressionMetric  # noqa: E402
from transformers import XLMRobertaConfig, XLMRobertaTokenizerFast  # noqa: E402

#: The encoder a released COMET model names (wmt22-comet-da's).
RELEASED_ENCODER = "xlm-roberta-large"
#: What the tokenizer learns its pieces from: the words of the tests' corpora and a few more.
SENTENCES = [
    "a b c d e f g h i j k l m n o p q r s t u v w x y z",
    "source 0 source 1 source 2 source 3 first reference multi reference",
    "the cat sat on the mat . the black cat , the black dog !",
    "this figure shows the method . chart represents the procedure ?",
    "reference 0 of sentence 1 . system 2 says sentence 3 .",
    "la figura muestra el método . el gato negro",
]


def build_encoder(directory: Path) -> None:
    directory.mkdir(parents=True)
    sentencepiece.SentencePieceTrainer.train(
        sentence_iterator=iter(SENTENCES * 20),
        model_prefix=str(directory / "spm"),
        vocab_size=60,
        hard_vocab_limit=False,
        model_type="unigram",
        character_coverage=1.0,
        num_threads=1,
        minloglevel=2,
    )
    tokenizer = XLMRobertaTokenizerFast(vocab_file=str(directory / "spm.model"))
    tokenizer.save_pretrained(directory)
    (directory / "spm.model").unlink()
    (directory / "spm.vocab").unlink()
    config = XLMRobertaConfig(
        vocab_size=len(tokenizer),
        hidden_size=32,
        num_hidden_layers=2,
        num_attention_heads=2,
        intermediate_size=64,
        max_position_embeddings=514,
        pad_token_id=tokenizer.pad_token_id,
        bos_token_id=tokenizer.bos_token_id,
        eos_token_id=tokenizer.eos_token_id,
    )
    config.save_pretrained(directory)


def build_model(encoder: Path, directory: Path) -> None:
    torch.manual_seed(0)
    model = RegressionMetric(
        pretrained_model=str(encoder),
        load_pretrained_weights=False,
        local_files_only=True,
        hidden_sizes=[64, 32],
        layer_transformation="softmax",
    )
    hparams = dict(model.hparams)
    (directory / "checkpoints").mkdir(parents=True)
    torch.save(
        {
            "state_dict": model.state_dict(),
            # As in a released model, the checkpoint's copy names the encoder by its hub
            # name; hparams.yaml names the local directory, as a user points it there.
            "hyper_parameters": {**hparams, "pretrained_model": RELEASED_ENCODER},
            "pytorch-lightning_version": pytorch_lightning.__version__,
        },
        directory / "checkpoints" / "model.ckpt",
    )
    (directory / "hparams.yaml").write_text(yaml.safe_dump(hparams), encoding="utf-8")


def predict(model: Path, samples: Path) -> list[float]:
    with samples.open(encoding="utf-8") as lines:
        data = [json.loads(line) for line in lines]
    comet = load_from_checkpoint(
        str(model / "checkpoints" / "model.ckpt"), reload_hparams=True, local_files_only=True
    )
    found = comet.predict(data, batch_size=16, gpus=0, progress_bar=False)
    return [float(score) for score in found.scores]


def main() -> None:
    command, *args = sys.argv[1:]
    if command == "build":
        root = Path(args[0])
        build_encoder(root / "encoder")
        build_model(root / "encoder", root / "model")
    else:
        print(json.dumps(predict(Path(args[0]), Path(args[1]))))  # the last line


if __name__ == "__main__":
    main()
