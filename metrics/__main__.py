"""``python -m metrics``: score hypothesis files against reference files.

    python -m metrics --ref REF [--ref REF …] --hyp HYP [--hyp HYP …] \\
        --metric bleu,nist,wer,mwer,ser,per,per2,chrf,chrf++,ter,meteor [--tokenize 13a] \\
        [--lowercase] [--ref-length nearest] [--json]

Files hold one segment per line; ``wer`` and ``ser`` use the first ``--ref``. BLEU, chrF
and the error rates (TER too) are printed in percent, NIST raw. TER ignores
``--tokenize`` and ``--lowercase``: it normalises as sacreBLEU's TER (lowercased, split at
whitespace). METEOR (percent) reads the tokenizer's words, lowercased, and needs
WordNet 3.0 (Debian's wordnet-base; without it, one line says so). Bad input exits with
status 2 and one line naming the file, the line and the problem — never a traceback.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import NoReturn

from metrics.registry import METRIC_NAMES, REF_LENGTHS, SMOOTH_METHODS, build_metric
from metrics.stats import Score
from metrics.textfiles import SegmentFileError, read_parallel
from metrics.tokenize import TOKENIZERS, Preprocessor

EXIT_BAD_INPUT = 2


class _OneLineParser(argparse.ArgumentParser):
    """argparse, but an error is one line on stderr and exit status 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_BAD_INPUT, f"{self.prog}: error: {message}\n")


def _parser() -> argparse.ArgumentParser:
    p = _OneLineParser(
        prog="python -m metrics",
        description=(
            "Corpus-level MT metrics (WER, SER, mWER, PER, BLEU, NIST, chrF, TER, METEOR) "
            "with signatures."
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
        default=",".join(METRIC_NAMES),
        help=f"comma-separated, from {','.join(METRIC_NAMES)} (default: all)",
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
        "--json", action="store_true", help="print JSON: {hyp: {metric: {score, signature}}}"
    )
    return p


def _choose(value: str, allowed: Sequence[str], what: str) -> str:
    if value not in allowed:
        raise ValueError(f"unknown {what} {value!r} (choose from {', '.join(allowed)})")
    return value


def score_files(args: argparse.Namespace) -> dict[str, dict[str, Score]]:
    """Every requested metric for every hypothesis file; references are prepared once per metric."""
    names = [m.strip() for m in args.metric.split(",") if m.strip()]
    for name in names:
        _choose(name, METRIC_NAMES, "metric")
    _choose(args.tokenize, list(TOKENIZERS), "tokenizer")
    _choose(args.ref_length, REF_LENGTHS, "--ref-length")
    _choose(args.smooth, SMOOTH_METHODS, "--smooth")
    pp = Preprocessor(
        tokenize=args.tokenize,
        lowercase=args.lowercase,
        sentence_boundaries=args.sentence_boundaries,
    )
    columns = read_parallel([*args.ref, *args.hyp])
    ref_streams, hyp_streams = columns[: len(args.ref)], columns[len(args.ref) :]
    refs = [tuple(seg) for seg in zip(*ref_streams, strict=True)]
    results: dict[str, dict[str, Score]] = {hyp: {} for hyp in args.hyp}
    for name in names:
        metric = build_metric(
            name,
            preprocessor=pp,
            ref_length=args.ref_length,
            smooth=args.smooth,
            mteval=not args.nist_as_defined,
        )
        prepared = metric.prepare_references(refs)
        for hyp_path, hyps in zip(args.hyp, hyp_streams, strict=True):
            results[hyp_path][name] = metric.corpus_score(hyps, refs, prepared)
    return results


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
    try:
        results = score_files(args)
    except (SegmentFileError, ValueError) as exc:
        print(f"{parser.prog}: error: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    if args.json:
        payload = {
            hyp: {m: score.as_json() for m, score in scores.items()}
            for hyp, scores in results.items()
        }
        print(json.dumps(payload, indent=2, ensure_ascii=False))
    else:
        print(_table(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
