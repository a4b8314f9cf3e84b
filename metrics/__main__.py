"""``python -m metrics``: score hypothesis files against reference files.

    python -m metrics --ref REF [--ref REF …] --hyp HYP [--hyp HYP …] \\
        --metric bleu,nist,wer,mwer,ser,per,per2,chrf,chrf++,ter,meteor,lepor,wngram-f … \\
        [--tokenize 13a] [--lowercase] [--ref-length nearest] [--sentence] [--json] \\
        [--distinct-refs] \\
        [--lepor-alpha 1 --lepor-beta 1] [--weights tfidf|sscore] [--docs FILE] \\
        [--unsegmented [--segmented-out DIR]]

Files hold one segment per line; ``wer``, ``ser`` and the weighted n-gram metrics
(``wngram-p``, ``wngram-r``, ``wngram-f``) use the first ``--ref``; ``--docs`` gives the
latter's document of each segment (one id per line), else the corpus is one document.
BLEU, chrF, LEPOR, the weighted n-grams and the error rates (TER too) are printed in
percent, NIST raw. TER ignores
``--tokenize`` and ``--lowercase``: it normalises as sacreBLEU's TER (lowercased, split at
whitespace). METEOR (percent) reads the tokenizer's words, lowercased, and needs
WordNet 3.0 (Debian's wordnet-base; without it, one line says so). Bad input exits with
status 2 and one line naming the file, the line and the problem — never a traceback.

``--sentence`` adds each segment's score, on the metric's own scale, computed from that
segment's statistics alone as the metric scores one sentence (BLEU with effective order,
as ``sacrebleu.sentence_bleu``); a segment whose score is undefined (an error rate
against an empty reference) is ``null`` in the JSON and ``–`` in the table.

``--distinct-refs``: a segment's reference identical to an earlier one of the same segment
is read once, so a segment has as many references as it has different ones. Reference
files give every segment as many references as there are files, and a segment with fewer
repeats one (``manage.py export_references`` repeats the first); a repeated reference
changes the metrics that average over references (NIST, TER, mWER and PER with
``--ref-length nearest`` or ``average``: docs/metrics.md), so this reads them as the app
scores its grown reference pool.

``--unsegmented``: each ``--hyp`` file is one document (its line breaks are spaces),
re-segmented against the references (seed 002, :mod:`metrics.segment`) before every
metric is computed on the result; the metric ``aswer`` (AS-WER) exists only then.
``--segmented-out DIR`` writes each re-segmented hypothesis to ``DIR/<basename>``, one
segment per line; with ``--json`` each hypothesis also carries
``"segmentation": {"boundaries": [...], "reference_per_segment": [...]}``.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import NoReturn

import numpy as np

from metrics.aswer import ASWER, resegment_text
from metrics.registry import (
    METRIC_NAMES,
    NGRAM_WEIGHTS,
    REF_LENGTHS,
    SMOOTH_METHODS,
    UNSEGMENTED_METRIC_NAMES,
    build_metric,
)
from metrics.segment import Segmentation
from metrics.stats import Metric, Score
from metrics.textfiles import SegmentFileError, read_parallel, read_segments
from metrics.tokenize import TOKENIZERS, Preprocessor

EXIT_BAD_INPUT = 2
#: The installed command (``pip install .``; pyproject's ``[project.scripts]``).
CONSOLE_SCRIPT = "evaltool-metrics"
#: Per hypothesis, per metric, each segment's score (None: undefined).
Segments = dict[str, dict[str, list[float | None]]]


class _OneLineParser(argparse.ArgumentParser):
    """argparse, but an error is one line on stderr and exit status 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_BAD_INPUT, f"{self.prog}: error: {message}\n")


def _prog() -> str:
    """The command's name in usage and error lines: the installed script's when run as
    it, else ``python -m metrics``."""
    return CONSOLE_SCRIPT if Path(sys.argv[0]).name == CONSOLE_SCRIPT else "python -m metrics"


def _parser() -> argparse.ArgumentParser:
    p = _OneLineParser(
        prog=_prog(),
        description=(
            "Corpus-level MT metrics (WER, SER, mWER, PER, BLEU, NIST, chrF, TER, METEOR, "
            "LEPOR, weighted n-gram P/R/F) with signatures."
        ),
    )
    p.add_argument(
        "--ref",
        action="append",
        required=True,
        metavar="REF",
        help="reference file (repeatable; the first is the one WER and SER use)",
    )
    p.add_argument(
        "--hyp", action="append", required=True, metavar="HYP", help="hypothesis file (repeatable)"
    )
    p.add_argument(
        "--metric",
        default=None,
        help=f"comma-separated, from {','.join(METRIC_NAMES + UNSEGMENTED_METRIC_NAMES)} "
        "(default: all; aswer only with --unsegmented)",
    )
    p.add_argument(
        "--tokenize", default="13a", help=f"one of {', '.join(TOKENIZERS)} (default 13a)"
    )
    p.add_argument("--lowercase", action="store_true", help="ignore case")
    p.add_argument(
        "--sentence-boundaries",
        action="store_true",
        help="add <s> … </s> for the n-gram metrics (seed 000 §3.4)",
    )
    p.add_argument(
        "--ref-length",
        default="nearest",
        help=f"reference length of mWER and PER: {', '.join(REF_LENGTHS)} (default nearest)",
    )
    p.add_argument(
        "--smooth", default="exp", help=f"BLEU smoothing: {', '.join(SMOOTH_METHODS)} (default exp)"
    )
    p.add_argument(
        "--nist-as-defined",
        action="store_true",
        help="NIST information of a bigram after the token 0 from the count of 0, as "
        "defined (default: from the total word count, as mteval-v13a.pl)",
    )
    p.add_argument(
        "--lepor-alpha", type=float, default=1.0, help="LEPOR's weight of recall (default 1)"
    )
    p.add_argument(
        "--lepor-beta", type=float, default=1.0, help="LEPOR's weight of precision (default 1)"
    )
    p.add_argument(
        "--weights",
        default="tfidf",
        help=f"word weights of wngram-p/r/f: {', '.join(NGRAM_WEIGHTS)} (default tfidf)",
    )
    p.add_argument(
        "--docs",
        metavar="FILE",
        help="document id of each segment, one per line (wngram-p/r/f weigh words per "
        "document; default: the whole file is one document)",
    )
    p.add_argument(
        "--sentence",
        action="store_true",
        help='also each segment\'s score (JSON: "segments": [...] in every metric object)',
    )
    p.add_argument(
        "--json", action="store_true", help="print JSON: {hyp: {metric: {score, signature}}}"
    )
    p.add_argument(
        "--distinct-refs",
        action="store_true",
        help="read a segment's reference identical to an earlier one of the segment once "
        "(undoes the repeated references of a segment with fewer references than files)",
    )
    p.add_argument(
        "--unsegmented",
        action="store_true",
        help="each --hyp file is one document, re-segmented against the references "
        "(seed 002) before scoring; enables the metric aswer",
    )
    p.add_argument(
        "--segmented-out",
        metavar="DIR",
        help="with --unsegmented: write each re-segmented hypothesis to DIR/<basename>",
    )
    return p


def _choose(value: str, allowed: Sequence[str], what: str) -> str:
    if value not in allowed:
        raise ValueError(f"unknown {what} {value!r} (choose from {', '.join(allowed)})")
    return value


def _preprocessor(args: argparse.Namespace) -> Preprocessor:
    return Preprocessor(
        tokenize=args.tokenize,
        lowercase=args.lowercase,
        sentence_boundaries=args.sentence_boundaries,
    )


def _build(
    name: str,
    args: argparse.Namespace,
    pp: Preprocessor | None = None,
    documents: Sequence[str] | None = None,
) -> Metric:
    """The metric ``name`` with the command line's choices (``documents``: the weighted
    n-grams' document of each segment; scores from statistics rows need none)."""
    return build_metric(
        name,
        preprocessor=pp or _preprocessor(args),
        ref_length=args.ref_length,
        smooth=args.smooth,
        mteval=not args.nist_as_defined,
        lepor_alpha=args.lepor_alpha,
        lepor_beta=args.lepor_beta,
        weights=args.weights,
        documents=documents,
    )


def score_files(
    args: argparse.Namespace, segmentations: dict[str, Segmentation] | None = None
) -> dict[str, dict[str, Score]]:
    """Every requested metric for every hypothesis file; references are prepared once per
    metric. With ``--unsegmented``, ``segmentations`` (if given) receives each file's."""
    unsegmented = getattr(args, "unsegmented", False)
    default = METRIC_NAMES + UNSEGMENTED_METRIC_NAMES if unsegmented else METRIC_NAMES
    names = [m.strip() for m in (args.metric or ",".join(default)).split(",") if m.strip()]
    for name in names:
        _choose(name, METRIC_NAMES + UNSEGMENTED_METRIC_NAMES, "metric")
        if name in UNSEGMENTED_METRIC_NAMES and not unsegmented:
            raise ValueError(f"metric {name!r} needs --unsegmented (hypotheses as documents)")
    if getattr(args, "segmented_out", None) and not unsegmented:
        raise ValueError("--segmented-out needs --unsegmented")
    _choose(args.tokenize, list(TOKENIZERS), "tokenizer")
    _choose(args.ref_length, REF_LENGTHS, "--ref-length")
    _choose(args.smooth, SMOOTH_METHODS, "--smooth")
    _choose(args.weights, NGRAM_WEIGHTS, "--weights")
    pp = _preprocessor(args)
    found: list[tuple[Segmentation, list[str]]] = []
    documents = None
    if unsegmented:
        columns = read_parallel([*args.ref, *([args.docs] if args.docs else [])])
        documents = columns.pop() if args.docs else None
        refs = [tuple(seg) for seg in zip(*columns, strict=True)]
        found = _resegment_files(args.hyp, refs, pp, getattr(args, "segmented_out", None))
        hyp_streams = [segments for _, segments in found]
        if segmentations is not None:
            segmentations.update(zip(args.hyp, (seg for seg, _ in found), strict=True))
    else:
        columns = read_parallel([*args.ref, *args.hyp, *([args.docs] if args.docs else [])])
        documents = columns.pop() if args.docs else None
        ref_streams, hyp_streams = columns[: len(args.ref)], columns[len(args.ref) :]
        refs = [tuple(seg) for seg in zip(*ref_streams, strict=True)]
    if getattr(args, "distinct_refs", False):
        refs = distinct_references(refs)
    results: dict[str, dict[str, Score]] = {hyp: {} for hyp in args.hyp}
    for name in names:
        if name == "aswer":
            aswer = ASWER(pp)
            for hyp_path, (segmentation, _) in zip(args.hyp, found, strict=True):
                results[hyp_path][name] = aswer.score_segmentation(segmentation, refs)
            continue
        metric = _build(name, args, pp, documents)
        prepared = metric.prepare_references(refs)
        for hyp_path, hyps in zip(args.hyp, hyp_streams, strict=True):
            results[hyp_path][name] = metric.corpus_score(hyps, refs, prepared)
    return results


def distinct_references(refs: Sequence[tuple[str, ...]]) -> list[tuple[str, ...]]:
    """Each segment's references with a text identical to an earlier one of the segment
    left out (``--distinct-refs``); the first reference stays first."""
    return [tuple(dict.fromkeys(seg)) for seg in refs]


def _resegment_files(
    paths: Sequence[str], refs: list[tuple[str, ...]], pp: Preprocessor, out_dir: str | None
) -> list[tuple[Segmentation, list[str]]]:
    """Each hypothesis file as one document, re-segmented; written to ``out_dir`` if given."""
    names = [Path(p).name for p in paths]
    if out_dir and len(set(names)) < len(names):
        raise ValueError(f"--segmented-out: hypothesis files share a basename ({', '.join(names)})")
    found = []
    for path, name in zip(paths, names, strict=True):
        document = " ".join(read_segments(path))
        segmentation, segments = resegment_text(document, refs, pp)
        if out_dir:
            Path(out_dir).mkdir(parents=True, exist_ok=True)
            lines = "".join(f"{segment}\n" for segment in segments)
            (Path(out_dir) / name).write_text(lines, encoding="utf-8")
        found.append((segmentation, segments))
    return found


def segment_scores(results: dict[str, dict[str, Score]], args: argparse.Namespace) -> Segments:
    """Each hypothesis's per-segment scores of each metric (None where undefined), from
    the statistics rows its corpus score was summed from."""
    out: Segments = {}
    for hyp, scores in results.items():
        out[hyp] = {}
        for name, score in scores.items():
            metric = _build(name, args)
            if score.stats is None:
                raise ValueError(f"{name}: no per-segment statistics")
            values = np.asarray(metric.sentence_score_from_stats(score.stats), dtype=np.float64)
            out[hyp][name] = [float(v) if math.isfinite(v) else None for v in values.reshape(-1)]
    return out


def _segment_table(segments: Segments) -> str:
    """One block per hypothesis: a line per segment, a column per metric."""
    lines: list[str] = []
    for hyp, by_metric in segments.items():
        metrics = list(by_metric)
        lines.append("")
        lines.append(f"{hyp}, per segment:")
        lines.append("  ".join(["segment".rjust(7), *(m.upper().rjust(8) for m in metrics)]))
        n = len(next(iter(by_metric.values()), []))
        for k in range(n):
            cells = [_cell(by_metric[m][k]) for m in metrics]
            lines.append("  ".join([str(k + 1).rjust(7), *cells]))
    return "\n".join(lines)


def _cell(value: float | None) -> str:
    return "–".rjust(8) if value is None else f"{value:8.2f}"


def _table(results: dict[str, dict[str, Score]]) -> str:
    metrics = list(next(iter(results.values())).keys()) if results else []
    width = max([len("hypothesis"), *(len(h) for h in results)])
    lines = ["  ".join(["hypothesis".ljust(width), *(m.upper().rjust(8) for m in metrics)])]
    for hyp, scores in results.items():
        lines.append("  ".join([hyp.ljust(width), *(f"{scores[m].score:8.2f}" for m in metrics)]))
    lines.append("")
    first = next(iter(results.values()), {})
    lines.extend(f"{m.upper()}: {score.signature}" for m, score in first.items())
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    segmentations: dict[str, Segmentation] = {}
    try:
        results = score_files(args, segmentations)
    except (SegmentFileError, ValueError, OSError) as exc:
        print(f"{parser.prog}: error: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    segments = segment_scores(results, args) if args.sentence else None
    if args.json:
        payload = {
            hyp: {
                m: {**score.as_json(), **({"segments": segments[hyp][m]} if segments else {})}
                for m, score in scores.items()
            }
            for hyp, scores in results.items()
        }
        for hyp, segmentation in segmentations.items():
            payload[hyp]["segmentation"] = {
                "boundaries": list(segmentation.boundaries),
                "reference_per_segment": list(segmentation.reference_per_segment),
            }
        print(json.dumps(payload, indent=2, ensure_ascii=False, allow_nan=False))
    else:
        print(_table(results) + (_segment_table(segments) if segments else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
