"""``python -m metrics``: the command line leads script against, and its refusals."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
import sacrebleu
from sacrebleu.metrics.bleu import BLEU as SacreBLEU

from metrics.__main__ import main
from metrics.registry import build_metric
from metrics.tests.demo import REFERENCES, SYSTEMS, demo

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def files(tmp_path: Path) -> dict[str, Path]:
    """The demo corpus as plain one-segment-per-line files."""
    data = demo()
    out = {}
    for name in (*REFERENCES, *SYSTEMS):
        path = tmp_path / f"{name.replace(' ', '_')}.txt"
        path.write_text("\n".join(data[name]) + "\n", encoding="utf-8")
        out[name] = path
    return out


def run_cli(
    *args: str, stdin: str = "", env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "metrics", *args],
        cwd=ROOT,
        input=stdin,
        capture_output=True,
        text=True,
        check=False,
        env=env,
    )


def test_json_has_every_metric_per_hypothesis_file_with_sacrebleu_bleu(
    files: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    hyps = [str(files[s]) for s in SYSTEMS[:2]]
    args = ["--ref", str(files["first reference"]), "--ref", str(files["multi reference"])]

    assert (
        main(
            [
                *args,
                "--hyp",
                hyps[0],
                "--hyp",
                hyps[1],
                "--metric",
                "bleu,nist,wer,mwer,ser,per",
                "--json",
            ]
        )
        == 0
    )

    payload = json.loads(capsys.readouterr().out)
    assert list(payload) == hyps
    for hyp, system in zip(hyps, SYSTEMS[:2], strict=True):
        assert list(payload[hyp]) == ["bleu", "nist", "wer", "mwer", "ser", "per"]
        refs = [list(demo()[r]) for r in REFERENCES]
        expected = SacreBLEU().corpus_score(list(demo()[system]), refs).score
        assert payload[hyp]["bleu"]["score"] == pytest.approx(expected, abs=1e-9)
        assert payload[hyp]["bleu"]["signature"].startswith("nrefs:2|case:mixed|eff:no|tok:13a")
        assert "reflen:nearest" in payload[hyp]["mwer"]["signature"]
        assert payload[hyp]["wer"]["signature"].startswith("nrefs:1|")
        assert 0 < payload[hyp]["nist"]["score"] < 15  # raw, not percent
        assert payload[hyp]["mwer"]["score"] <= payload[hyp]["wer"]["score"]


def test_options_reach_the_metrics(
    files: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    base = ["--ref", str(files["first reference"]), "--hyp", str(files["Online-W"]), "--json"]

    main([*base, "--metric", "wer", "--tokenize", "none", "--lowercase"])
    signature = json.loads(capsys.readouterr().out)[str(files["Online-W"])]["wer"]["signature"]

    assert "tok:none" in signature
    assert "case:lc" in signature


def test_chrf_per2_and_nist_as_defined_on_the_command_line(
    files: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    refs = ["--ref", str(files["first reference"]), "--ref", str(files["multi reference"])]
    hyp = str(files["NiuTrans"])
    base = [*refs, "--hyp", hyp, "--json", "--metric", "chrf,chrf++,per2,nist"]

    assert main(base) == 0
    payload = json.loads(capsys.readouterr().out)[hyp]
    assert main([*base, "--nist-as-defined"]) == 0
    defined = json.loads(capsys.readouterr().out)[hyp]

    streams = [list(demo()[r]) for r in REFERENCES]
    for name, word_order in (("chrf", 0), ("chrf++", 2)):
        expected = sacrebleu.CHRF(word_order=word_order).corpus_score(
            list(demo()["NiuTrans"]), streams
        )
        assert payload[name]["score"] == pytest.approx(expected.score, abs=1e-9)
        assert f"|nw:{word_order}|" in payload[name]["signature"]
    assert "bounds:no" in payload["per2"]["signature"]
    assert payload["per2"]["score"] > 0
    assert "|mteval:yes|" in payload["nist"]["signature"]
    assert "|mteval:no|" in defined["nist"]["signature"]


def test_the_table_has_one_row_per_hypothesis_by_file_name_and_the_signatures(
    files: dict[str, Path],
) -> None:
    proc = run_cli(
        "--ref",
        str(files["first reference"]),
        "--hyp",
        str(files["DIDI-NLP"]),
        "--hyp",
        str(files["NiuTrans"]),
        "--metric",
        "bleu,wer",
    )

    lines = proc.stdout.splitlines()
    assert proc.returncode == 0
    assert lines[0].split() == ["hypothesis", "BLEU", "WER"]
    assert [line.split()[0] for line in lines[1:3]] == ["DIDI-NLP.txt", "NiuTrans.txt"]
    assert any(line.startswith("BLEU: nrefs:1|") for line in lines)


@pytest.mark.parametrize(
    "make_args, message",
    [
        (
            lambda f, t: ["--ref", str(f["first reference"]), "--hyp", str(t / "short.txt")],
            "short.txt line 3: has 2 lines but",
        ),
        (
            lambda f, t: ["--ref", str(f["first reference"]), "--hyp", str(t / "latin1.txt")],
            "latin1.txt line 2: invalid UTF-8 (byte 0xe9",
        ),
        (
            lambda f, t: ["--ref", str(f["first reference"]), "--hyp", str(t / "missing.txt")],
            "missing.txt: no such file",
        ),
        (
            lambda f, t: [
                "--ref",
                str(f["first reference"]),
                "--hyp",
                str(f["IIE-MT"]),
                "--metric",
                "bleu,meteorx",
            ],
            "unknown metric 'meteorx'",
        ),
        (
            lambda f, t: [
                "--ref",
                str(f["first reference"]),
                "--hyp",
                str(f["IIE-MT"]),
                "--tokenize",
                "flores200",  # sacreBLEU's, whose model it downloads: not offered here
            ],
            "unknown tokenizer 'flores200'",
        ),
        (
            lambda f, t: [
                "--ref",
                str(f["first reference"]),
                "--hyp",
                str(f["IIE-MT"]),
                "--ref-length",
                "long",
            ],
            "unknown --ref-length 'long'",
        ),
        (
            lambda f, t: [
                "--ref",
                str(f["first reference"]),
                "--hyp",
                str(f["IIE-MT"]),
                "--empty-ref",
                "cap",
            ],
            "unknown --empty-ref 'cap'",
        ),
        (
            lambda f, t: [
                "--ref",
                str(f["first reference"]),
                "--hyp",
                str(f["IIE-MT"]),
                "--colour",
            ],
            "unrecognized arguments: --colour",
        ),
        (lambda f, t: ["--hyp", str(f["IIE-MT"])], "the following arguments are required: --ref"),
    ],
    ids=[
        "line-counts",
        "utf8",
        "missing-file",
        "metric",
        "tokenizer",
        "ref-length",
        "empty-ref",
        "option",
        "no-ref",
    ],
)
def test_bad_input_exits_2_with_one_line_and_no_traceback(
    files: dict[str, Path], tmp_path: Path, make_args, message: str
) -> None:
    (tmp_path / "short.txt").write_text("one\ntwo\n", encoding="utf-8")
    (tmp_path / "latin1.txt").write_bytes("first line\ncaf\xe9\n".encode("latin-1"))

    proc = run_cli(*make_args(files, tmp_path))

    assert proc.returncode == 2
    assert proc.stdout == ""
    assert len(proc.stderr.strip().splitlines()) == 1
    assert message in proc.stderr
    assert proc.stderr.startswith("python -m metrics: error: ")


def test_importing_any_metrics_module_never_imports_django() -> None:
    code = (
        "import importlib, pkgutil, sys, metrics\n"
        "for m in pkgutil.iter_modules(metrics.__path__):\n"
        "    if m.name != 'tests': importlib.import_module('metrics.' + m.name)\n"
        "print(len([m for m in sys.modules if m.startswith('metrics.')]),"
        " sorted(m for m in sys.modules if m.split('.')[0] == 'django'))"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )

    loaded, django_modules = proc.stdout.strip().split(" ", 1)
    assert int(loaded) >= 10
    assert django_modules == "[]"


def test_sentence_adds_each_segments_score_as_sacrebleu_and_the_metrics_score_them(
    files: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    """``--sentence``: every metric object carries ``segments``, one score per segment on
    the metric's scale; sentence BLEU and chrF are sacreBLEU's ``sentence_score``, the
    rates are the metric's own sentence scores."""
    refs = [files["first reference"], files["multi reference"]]
    hyp = files[SYSTEMS[0]]
    args = [a for r in refs for a in ("--ref", str(r))]
    names = "bleu,chrf,wer,mwer,ser,ter"

    assert main([*args, "--hyp", str(hyp), "--metric", names, "--sentence", "--json"]) == 0
    got = json.loads(capsys.readouterr().out)[str(hyp)]
    data = demo()
    hyps = data[SYSTEMS[0]]
    ref_streams = [data[r] for r in REFERENCES]

    assert set(got) == set(names.split(","))
    assert all(len(figure["segments"]) == len(hyps) for figure in got.values())
    for k, h in enumerate(hyps):
        seg_refs = [stream[k] for stream in ref_streams]
        bleu = sacrebleu.sentence_bleu(h, seg_refs).score
        chrf = sacrebleu.sentence_chrf(h, seg_refs).score
        ter = sacrebleu.sentence_ter(h, seg_refs).score
        assert got["bleu"]["segments"][k] == pytest.approx(bleu, abs=1e-9)
        assert got["chrf"]["segments"][k] == pytest.approx(chrf, abs=1e-9)
        assert got["ter"]["segments"][k] == pytest.approx(ter, abs=1e-9)
    assert got["ser"]["segments"] == [
        0.0 if h == r else 100.0 for h, r in zip(hyps, ref_streams[0], strict=True)
    ]
    refs_per_segment = list(zip(*ref_streams, strict=True))
    for name in ("wer", "mwer"):
        own = build_metric(name).sentence_scores(hyps, refs_per_segment)
        assert got[name]["segments"] == own.tolist()


def test_sentence_in_the_table_prints_a_line_per_segment(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ref, hyp = tmp_path / "ref.txt", tmp_path / "hyp.txt"
    ref.write_text("a b c d\n\n", encoding="utf-8")  # an empty reference: 2 insertions over 1
    hyp.write_text("a b x d\nsomething else\n", encoding="utf-8")
    args = ["--ref", str(ref), "--hyp", str(hyp), "--metric", "wer", "--sentence"]

    assert main(args) == 0
    out = capsys.readouterr().out
    block = out.split(f"{hyp}, per segment:\n", 1)[1].splitlines()

    assert block[0].split() == ["segment", "WER"]
    assert block[1].split() == ["1", "25.00"]
    assert block[2].split() == ["2", "200.00"]

    assert main([*args, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)[str(hyp)]["wer"]["segments"] == [25.0, 200.0]
    assert main([*args, "--json", "--empty-ref", "100"]) == 0
    capped = json.loads(capsys.readouterr().out)[str(hyp)]["wer"]
    assert capped["segments"] == [25.0, 100.0]
    assert "|empty:100|" in capped["signature"]


def test_distinct_refs_reads_a_repeated_reference_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Files give every segment a reference per file; ``--distinct-refs`` undoes a
    repeat (a segment with fewer references), so the averaging metrics see the segment's
    own references: the figures of those references given directly."""
    refs = [("the cat sat on the mat .", "a cat sat on the mat ."), ("it rains .", "it rains .")]
    hyps = ["a cat sat on a mat .", "it is raining ."]
    paths = []
    for i in range(2):
        paths.append(tmp_path / f"ref{i}.txt")
        paths[-1].write_text("".join(f"{seg[i]}\n" for seg in refs), encoding="utf-8")
    (tmp_path / "hyp.txt").write_text("".join(f"{h}\n" for h in hyps), encoding="utf-8")
    args = [f"--ref={p}" for p in paths] + [f"--hyp={tmp_path / 'hyp.txt'}", "--json"]
    metrics = "nist,ter,mwer,bleu"

    assert main([*args, "--metric", metrics, "--distinct-refs"]) == 0
    distinct = json.loads(capsys.readouterr().out)[str(tmp_path / "hyp.txt")]
    assert main([*args, "--metric", metrics]) == 0
    repeated = json.loads(capsys.readouterr().out)[str(tmp_path / "hyp.txt")]

    own = [refs[0], refs[1][:1]]
    for name in metrics.split(","):
        direct = build_metric(name).corpus_score(hyps, own)
        assert distinct[name]["score"] == direct.score
        assert distinct[name]["signature"] == direct.signature
        assert "nrefs:var" in distinct[name]["signature"]
    assert repeated["bleu"]["score"] == distinct["bleu"]["score"]
    assert repeated["nist"]["score"] != distinct["nist"]["score"]
