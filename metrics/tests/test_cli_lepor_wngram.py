"""``python -m metrics`` with LEPOR and the weighted n-gram metrics: their options reach
them (``--lepor-alpha``, ``--lepor-beta``, ``--weights``, ``--docs``), and bad values are
refused in one line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from metrics.__main__ import main
from metrics.lepor import LEPOR
from metrics.tests.demo import REFERENCES, demo, demo_refs
from metrics.tests.test_cli import run_cli
from metrics.wngram import WNGramF, WNGramP, WNGramR

SYSTEM = "NiuTrans"
NAMES = ("lepor", "wngram-p", "wngram-r", "wngram-f")


@pytest.fixture
def paths(tmp_path: Path) -> dict[str, Path]:
    """The two references, one system and a file of document ids (four talks of ten)."""
    data = demo()
    out = {}
    for name in (*REFERENCES, SYSTEM):
        out[name] = tmp_path / f"{name.replace(' ', '_')}.txt"
        out[name].write_text("\n".join(data[name]) + "\n", encoding="utf-8")
    out["docs"] = tmp_path / "docs.txt"
    out["docs"].write_text("".join(f"talk{k // 10}\n" for k in range(len(data[SYSTEM]))))
    return out


def _args(paths: dict[str, Path], *extra: str) -> list[str]:
    refs = [a for r in REFERENCES for a in ("--ref", str(paths[r]))]
    return [*refs, "--hyp", str(paths[SYSTEM]), "--metric", ",".join(NAMES), "--json", *extra]


def test_options_reach_lepor_and_the_weighted_ngrams(
    paths: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    extra = ("--lepor-alpha", "9", "--weights", "sscore", "--docs", str(paths["docs"]))

    assert main(_args(paths, *extra)) == 0

    got = json.loads(capsys.readouterr().out)[str(paths[SYSTEM])]
    hyps, refs = list(demo()[SYSTEM]), demo_refs()
    docs = [f"talk{k // 10}" for k in range(len(hyps))]
    want = {
        "lepor": LEPOR(alpha=9).corpus_score(hyps, refs),
        **{
            cls.info.name: cls(weights="sscore", documents=docs).corpus_score(hyps, refs)
            for cls in (WNGramP, WNGramR, WNGramF)
        },
    }
    for name in NAMES:
        assert got[name] == want[name].as_json()
    assert "|alpha:9|beta:1|" in got["lepor"]["signature"]
    assert "|wt:sscore|order:4|ngw:max|docs:4|" in got["wngram-f"]["signature"]


def test_defaults_are_alpha_beta_one_tfidf_and_one_document(
    paths: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(_args(paths)) == 0

    got = json.loads(capsys.readouterr().out)[str(paths[SYSTEM])]
    assert "|alpha:1|beta:1|" in got["lepor"]["signature"]
    assert "|wt:tfidf|order:4|ngw:max|docs:1|" in got["wngram-p"]["signature"]
    # one document: no weight above 1, so tf.idf and S-score count alike
    assert main(_args(paths, "--weights", "sscore")) == 0
    plain = json.loads(capsys.readouterr().out)[str(paths[SYSTEM])]
    assert plain["wngram-p"]["score"] == got["wngram-p"]["score"]


@pytest.mark.parametrize(
    "extra, message",
    [
        (("--weights", "bm25"), "unknown --weights 'bm25'"),
        (("--lepor-alpha", "0"), "alpha=0.0 must be a positive number"),
        (("--lepor-beta", "x"), "argument --lepor-beta: invalid float value: 'x'"),
        (("--docs", "SHORT"), "short_docs.txt line 3: has 2 lines but"),
    ],
    ids=["weights", "alpha", "beta", "docs"],
)
def test_bad_values_exit_2_with_one_line(
    paths: dict[str, Path], tmp_path: Path, extra: tuple[str, ...], message: str
) -> None:
    short = tmp_path / "short_docs.txt"
    short.write_text("a\nb\n", encoding="utf-8")
    args = [str(short) if a == "SHORT" else a for a in extra]

    proc = run_cli(*_args(paths, *args))

    assert proc.returncode == 2
    assert proc.stdout == ""
    assert len(proc.stderr.strip().splitlines()) == 1
    assert message in proc.stderr
