"""What ``python -m metrics`` does with its options when it scores files: every metric
for every hypothesis file (:func:`score_files`), re-segmented first with
``--unsegmented``, then the paired tests (:func:`significance`) and the per-segment
scores (:func:`segment_scores`).

Its own module so that the scoring of a run can be read apart from its options
(:mod:`metrics.cli_options`) and from the printing and the dispatch to the subcommands
(:mod:`metrics.__main__`).
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, cast

import numpy as np

from metrics import registry
from metrics.cli_options import TER_OPTIONS, score_parser
from metrics.cli_tables import Segments, Tests
from metrics.paired import TestSetup, run_tests
from metrics.registry import METRIC_NAMES, UNSEGMENTED_METRIC_NAMES, build_metric
from metrics.stats import Metric, Score
from metrics.textfiles import STDIN, read_parallel, read_segments
from metrics.tokenize import TOKENIZERS, Preprocessor

if TYPE_CHECKING:
    from metrics.segment import Segmentation


def significance(
    results: dict[str, dict[str, Score]], args: argparse.Namespace, setup: TestSetup
) -> Tests:
    """Per hypothesis, per metric, the test's :class:`~metrics.paired.SystemResult`."""
    out: Tests = {hyp: {} for hyp in results}
    names = list(next(iter(results.values()), {}))
    for name in names:
        stats = {hyp: _stats_of(scores[name], name) for hyp, scores in results.items()}
        found = run_tests(stats, _build(name, args).score_from_stats, setup)
        for hyp, result in found.items():
            out[hyp][name] = result
    return out


def _stats_of(score: Score, name: str) -> np.ndarray:
    if score.stats is None:
        raise ValueError(f"{name}: no per-segment statistics")
    return score.stats


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
        empty_reference=args.empty_ref,
        mweralign=not args.aswer_as_defined,
        smooth=args.smooth,
        mteval=not args.nist_as_defined,
        lepor_alpha=args.lepor_alpha,
        lepor_beta=args.lepor_beta,
        weights=args.weights,
        documents=documents,
        **{dest: getattr(args, dest) for dest in TER_OPTIONS},
        bleu_weights=args.bleu_weights,
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
    for option in ("segmented_out", "aswer_as_defined", "resegment_cj"):
        if getattr(args, option, None) and not unsegmented:
            raise ValueError(f"--{option.replace('_', '-')} needs --unsegmented")
    _choose(args.tokenize, list(TOKENIZERS), "tokenizer")
    refuse_repeated_hypotheses(args.hyp)
    # a default is valid: its choices (and the modules that own them) need not be read
    for option, choices in (
        ("ref_length", "REF_LENGTHS"),
        ("empty_ref", "EMPTY_REFERENCE_RULES"),
        ("smooth", "SMOOTH_METHODS"),
        ("weights", "NGRAM_WEIGHTS"),
    ):
        if getattr(args, option) != score_parser().get_default(option):
            allowed = getattr(registry, choices)
            _choose(getattr(args, option), allowed, f"--{option.replace('_', '-')}")
    pp = _preprocessor(args)
    found: list[tuple[Segmentation, list[str]]] = []
    documents = None
    if unsegmented:
        paths, keep_bom = _texts_then_ids(args.ref, args.docs)
        columns = read_parallel(paths, keep_bom=keep_bom)
        documents = columns.pop() if args.docs else None
        refs = [tuple(seg) for seg in zip(*columns, strict=True)]
        found = _resegment_files(
            args.hyp,
            refs,
            pp,
            getattr(args, "segmented_out", None),
            not args.aswer_as_defined,
            documents,
            cj=getattr(args, "resegment_cj", False),
        )
        hyp_streams = [segments for _, segments in found]
        if segmentations is not None:
            segmentations.update(zip(args.hyp, (seg for seg, _ in found), strict=True))
    else:
        paths, keep_bom = _texts_then_ids([*args.ref, *args.hyp], args.docs)
        columns = read_parallel(paths, keep_bom=keep_bom)
        documents = columns.pop() if args.docs else None
        ref_streams, hyp_streams = columns[: len(args.ref)], columns[len(args.ref) :]
        refs = [tuple(seg) for seg in zip(*ref_streams, strict=True)]
    if getattr(args, "distinct_refs", False):
        refs = distinct_references(refs)
    from metrics.corpus import score_corpus

    metrics = [_build(name, args, pp, documents) for name in names if name != "aswer"]
    systems = dict(zip(args.hyp, hyp_streams, strict=True))
    scored = score_corpus(refs, systems, metrics)
    results: dict[str, dict[str, Score]] = {hyp: {} for hyp in args.hyp}
    for name in names:
        if name == "aswer":
            from metrics.aswer import ASWER

            aswer = cast(ASWER, _build(name, args, pp))  # the registry's class for "aswer"
            aswer.cj = getattr(args, "resegment_cj", False)
            for hyp_path, (segmentation, _) in zip(args.hyp, found, strict=True):
                results[hyp_path][name] = aswer.score_segmentation(segmentation, refs)
            continue
        for hyp_path in args.hyp:
            results[hyp_path][name] = scored[hyp_path][name]
    return results


def refuse_repeated_hypotheses(paths: Sequence[str]) -> None:
    """A ValueError for a ``--hyp`` given twice. Each file is a row of the output, keyed
    by its path as given, so a repeat would silently be one row; sacreBLEU's command line
    refuses a repeated system name too. (The same file under two different paths is two
    rows, each named by its path.)"""
    seen: set[str] = set()
    for path in paths:
        if path in seen:
            name = "- (standard input)" if path == STDIN else path
            raise ValueError(f"--hyp {name} is given twice: give each system once")
        seen.add(path)


def _texts_then_ids(texts: Sequence[str], docs: str | None) -> tuple[list[str], list[bool]]:
    """The files to read in parallel and whether each keeps a leading byte-order mark:
    the texts do, as sacreBLEU and jiwer read them (:mod:`metrics.textfiles`); the
    document ids (``--docs``) do not, a mark there would make the first id another."""
    paths = [*texts, *([docs] if docs else [])]
    return paths, [True] * len(texts) + [False] * bool(docs)


def distinct_references(refs: Sequence[tuple[str, ...]]) -> list[tuple[str, ...]]:
    """Each segment's references with a text identical to an earlier one of the segment
    left out (``--distinct-refs``); the first reference stays first."""
    return [tuple(dict.fromkeys(seg)) for seg in refs]


def _resegment_files(
    paths: Sequence[str],
    refs: list[tuple[str, ...]],
    pp: Preprocessor,
    out_dir: str | None,
    mweralign: bool,
    documents: Sequence[str] | None = None,
    *,
    cj: bool = False,
) -> list[tuple[Segmentation, list[str]]]:
    """Each hypothesis file as one document, re-segmented (``mweralign``: with
    mwerSegmenter's charge, :mod:`metrics.segment`); with ``documents`` (``--docs``) each
    line of it a document, re-segmented within that document's references as mweralign's
    ``--docid-file`` does; written to ``out_dir`` if given. ``cj`` (``--resegment-cj``):
    over mweralign's ``cj`` words, each line stripped first as mweralign strips it (a
    space is a word there)."""
    from metrics.aswer import resegment_documents, resegment_text

    names = [Path(p).name for p in paths]
    if out_dir and len(set(names)) < len(names):
        raise ValueError(f"--segmented-out: hypothesis files share a basename ({', '.join(names)})")
    found = []
    for path, name in zip(paths, names, strict=True):
        lines = read_segments(path, keep_bom=True)
        if cj:
            lines = [line.strip() for line in lines]
        if documents is None:
            segmentation, segments = resegment_text(
                " ".join(lines), refs, pp, mweralign=mweralign, cj=cj
            )
        else:
            try:
                segmentation, segments = resegment_documents(
                    lines, refs, documents, pp, mweralign=mweralign, cj=cj
                )
            except ValueError as exc:
                raise ValueError(f"{path}: {exc}") from None
        if out_dir:
            Path(out_dir).mkdir(parents=True, exist_ok=True)
            text = "".join(f"{segment}\n" for segment in segments)
            (Path(out_dir) / name).write_text(text, encoding="utf-8")
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
