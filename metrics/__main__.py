"""``python -m metrics``: score hypothesis files against reference files.

    python -m metrics --ref REF [--ref REF …] --hyp HYP [--hyp HYP …] \\
        --metric bleu,nist,wer,mwer,ser,per,per2,chrf,chrf++,ter,meteor,lepor,wngram-f,cer … \\
        [--tokenize 13a] [--lowercase] [--ref-length nearest] [--sentence] [--json] \\
        [--distinct-refs] [--empty-ref ins|100] \\
        [--lepor-alpha 1 --lepor-beta 1] [--weights tfidf|sscore] [--docs FILE] \\
        [--unsegmented [--segmented-out DIR] [--aswer-as-defined] [--resegment-cj]] \\
        [--paired-bs [--paired-bs-n 1000] | --paired-ar [--paired-ar-n 10000]] \\
        [--confidence [--confidence-n 1000]]

``python -m metrics estimate …`` estimates a system's full-corpus human score from its
judged segments, with automatic metrics as control variates (:mod:`metrics.estimate_cli`
has its options; ``docs/metrics.md`` the method). ``python -m metrics human …`` gives an
ESA or MQM campaign's figures per system with WMT's rank clusters
(:mod:`metrics.protocols_cli`).
``python -m metrics simulate …`` replays judging policies on a complete human-score file
(:mod:`metrics.simulate_cli` has its options; ``docs/simulate.md`` the results).

Installed (``pip install .``), the same command is ``evaltool-metrics``. Without
``--hyp`` (or with ``--hyp -``) the one hypothesis is read from standard input.

Files hold one segment per line (a leading byte-order mark is kept in the first word, as
sacreBLEU and jiwer read it; ``--docs`` drops it); ``wer``, ``ser``, jiwer's ``cer``,
``mer``, ``wil`` and ``wip`` and the weighted n-gram metrics
(``wngram-p``, ``wngram-r``, ``wngram-f``) use the first ``--ref``; ``--docs`` gives the
latter's document of each segment (one id per line), else the corpus is one document.
BLEU, chrF, LEPOR, the weighted n-grams and the error rates (TER too) are printed in
percent, NIST raw. TER ignores ``--tokenize`` and ``--lowercase``: it normalises as
sacreBLEU's TER (lowercased, split at whitespace), with sacreBLEU's options
``--ter-case-sensitive``, ``--ter-normalized``, ``--ter-no-punct`` and
``--ter-asian-support``. METEOR (percent) reads the tokenizer's words, lowercased, and
needs WordNet 3.0 (Debian's wordnet-base; without it, one line says so). Bad input exits
with status 2 and one line naming the file, the line and the problem — never a traceback.

``--empty-ref`` is the WER family's rate against an empty reference (``ins``, the default:
the insertions over 1, as jiwer; ``100``: 0 or 100 %; ``empty:…`` in the signatures).

``--sentence`` adds each segment's score, on the metric's own scale, computed from that
segment's statistics alone as the metric scores one sentence (BLEU with effective order,
as ``sacrebleu.sentence_bleu``); a segment whose score is undefined (not a finite
number) is ``null`` in the JSON and ``–`` in the table.

``--distinct-refs``: a segment's reference identical to an earlier one of the same segment
is read once, so a segment has as many references as it has different ones. Reference
files give every segment as many references as there are files, and a segment with fewer
repeats one (``manage.py export_references`` repeats the first); a repeated reference
changes the metrics that average over references (NIST, TER, mWER and PER with
``--ref-length nearest`` or ``average``: docs/metrics.md), so this reads them as the app
scores its grown reference pool.

``--unsegmented``: each ``--hyp`` file is one document (its line breaks are spaces),
re-segmented against the references (seed 002, :mod:`metrics.segment`) before every
metric is computed on the result; the metric ``aswer`` (AS-WER) exists only then. With
``--docs``, each line of a ``--hyp`` file is one document, the ``d``-th run of equal ids
of ``--docs``, re-segmented against that document's references alone (mweralign's
``--docid-file``). ``--resegment-cj`` re-segments over mweralign's ``cj`` words (its
``--tokenizer cj``, for Chinese and Japanese: :mod:`metrics.cj_words`).
The split is mwerSegmenter's (``mweralign``'s) unless ``--aswer-as-defined``: seed 002's
recursion as written, which does not charge the segment ends crossed before the
document's first word (:mod:`metrics.segment`; ``mweralign:yes|no`` in AS-WER's
signature). ``--segmented-out DIR`` writes each re-segmented hypothesis to
``DIR/<basename>``, one segment per line; with ``--json`` each hypothesis also carries
``"segmentation": {"boundaries": [...], "reference_per_segment": [...]}``.

Significance, as sacreBLEU 2.6's command line computes it (:mod:`metrics.paired` has the
rules; the seed is ``$SACREBLEU_SEED``, default 12345): ``--paired-bs`` (paired bootstrap
resampling) or ``--paired-ar`` (approximate randomization) compares every ``--hyp`` with
the first, the baseline, on every metric asked for; ``--confidence`` adds each system's
95 % bootstrap interval (``--paired-bs`` gives it anyway). The table then prints
sacreBLEU's cells, ``score (μ ± ci) (p = 0.0123)*`` (``*``: p < 0.05), the baseline's row
as ``Baseline: <file name>``, a legend, and the test's signature as its last line
(``test:paired-bs|bs:1000|seed:12345|version:…``). Rows are named by file name (the path as
given when two files share one; ``<stdin>`` for standard input); a ``--hyp`` given twice
is refused (its two rows would be one; sacreBLEU refuses a repeated system too).

A reader that stops reading (``| head -1``) ends the command quietly with status 141, as
sacreBLEU's (a process ended by SIGPIPE, to the shell), never a traceback.

JSON (``--json``)::

    {"<hyp path as given, - for standard input>": {
        "<metric>": {
            "score": <float>, "signature": "<str>",
            "segments": [<float or null>, ...],            # --sentence
            "p_value": <float>,                            # a paired test, not the baseline
            "mean": <float>, "ci": <float>,                # an interval: sacreBLEU's μ ± ci
            "low": <float>, "high": <float>,               #   and its percentile interval
            "baseline": "<the first hyp path>",            # a paired test
            "test": "test:paired-bs|bs:1000|seed:12345|version:…"   # any test
        }, ...,
        "segmentation": {"boundaries": [...], "reference_per_segment": [...]}  # --unsegmented
    }, ...}

Figures that are undefined (not finite) are ``null``.
"""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, cast

import numpy as np

from metrics import registry
from metrics.cli import (
    OneLineParser,
    program_name,
    quiet_when_the_reader_leaves,
    refused,
)
from metrics.cli_tables import Segments, Tests, score_table, segment_table
from metrics.json_out import json_dumps
from metrics.numerals import float_option, int_option
from metrics.paired import (
    CONFIDENCE_SAMPLES,
    PAIRED_AR_TRIALS,
    PAIRED_BS_SAMPLES,
    TestSetup,
    run_tests,
    seed_from_environment,
)
from metrics.registry import METRIC_NAMES, UNSEGMENTED_METRIC_NAMES, build_metric
from metrics.stats import Metric, Score
from metrics.textfiles import (
    STDIN,
    SegmentFileError,
    read_parallel,
    read_segments,
)
from metrics.tokenize import TOKENIZERS, Preprocessor

if TYPE_CHECKING:
    from metrics.segment import Segmentation

#: The first word that runs ``python -m metrics estimate`` (:mod:`metrics.estimate_cli`).
ESTIMATE = "estimate"
#: The first word that runs ``python -m metrics human`` (:mod:`metrics.protocols_cli`).
HUMAN = "human"
#: The first word that runs ``python -m metrics simulate`` (:mod:`metrics.simulate_cli`).
SIMULATE = "simulate"


class _Listed:
    """A list of choices in a help text, read when the help is printed: the choices live
    in the modules of the metrics that read them, which a run that scores other metrics
    never imports (``%(choices_of)s`` in the help, this object on the action)."""

    def __init__(self, read: Callable[[], Sequence[str]]) -> None:
        self.read = read

    def __str__(self) -> str:
        return ", ".join(self.read())


def _parser() -> argparse.ArgumentParser:
    p = OneLineParser(
        prog=program_name(),
        description=(
            "Corpus-level MT metrics (WER, SER, mWER, PER, BLEU, NIST, chrF, TER, METEOR, "
            "LEPOR, weighted n-gram P/R/F, CER, MER, WIL, WIP) with signatures."
        ),
        epilog=f"'{program_name()} estimate --help': a full-corpus human score estimated "
        "from the judged segments, with automatic metrics as control variates. "
        f"'{program_name()} human --help': an ESA or MQM campaign's figures per system. "
        f"'{program_name()} simulate --help': judging policies replayed on complete data.",
    )
    _add_inputs(p)
    _add_preprocessing(p)
    _add_metric_options(p)
    _add_output(p)
    _add_significance(p)
    return p


def _add_inputs(p: argparse.ArgumentParser) -> None:
    """The files to score and the metrics to score them with."""
    p.add_argument(
        "--ref",
        action="append",
        required=True,
        metavar="REF",
        help="reference file (repeatable; the first is the one WER and SER use)",
    )
    p.add_argument(
        "--hyp",
        action="append",
        metavar="HYP",
        help="hypothesis file (repeatable; - or none given: standard input)",
    )
    p.add_argument(
        "--metric",
        default=None,
        help=f"comma-separated, from {','.join(METRIC_NAMES + UNSEGMENTED_METRIC_NAMES)} "
        "(default: all; aswer only with --unsegmented)",
    )


def _add_preprocessing(p: argparse.ArgumentParser) -> None:
    """How the texts are read before any metric: tokens, case, boundaries, the
    reference length and the empty reference."""
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
        help="reference length of mWER and PER: %(choices_of)s (default nearest)",
    ).choices_of = _Listed(lambda: registry.REF_LENGTHS)  # type: ignore[attr-defined]
    p.add_argument(
        "--empty-ref",
        default="ins",
        help="rate of the WER family (wer, mwer, per, per2, aswer) against an empty reference: "
        "ins, the insertions over 1 as jiwer; 100, 0 or 100 %% (default ins)",
    )


def _add_metric_options(p: argparse.ArgumentParser) -> None:
    """The options of one metric family each (BLEU, NIST, LEPOR, weighted n-grams)."""
    p.add_argument(
        "--smooth",
        default="exp",
        help="BLEU smoothing: %(choices_of)s (default exp; nltk0 … nltk7: NLTK's methods "
        "0–7, BLEU computed as NLTK computes it)",
    ).choices_of = _Listed(lambda: registry.SMOOTH_METHODS)  # type: ignore[attr-defined]
    p.add_argument(
        "--bleu-weights",
        type=weight_list,
        metavar="W,W,…",
        help="BLEU's n-gram weights, one per order from unigrams (NLTK's weights; default: "
        "the mean of orders 1–4)",
    )
    p.add_argument(
        "--nist-as-defined",
        action="store_true",
        help="NIST information of a bigram after the token 0 from the count of 0, as "
        "defined (default: from the total word count, as mteval-v13a.pl)",
    )
    p.add_argument(
        "--lepor-alpha",
        type=float_option,
        default=1.0,
        help="LEPOR's weight of recall (default 1)",
    )
    p.add_argument(
        "--lepor-beta",
        type=float_option,
        default=1.0,
        help="LEPOR's weight of precision (default 1)",
    )
    p.add_argument(
        "--weights",
        default="tfidf",
        help="word weights of wngram-p/r/f: %(choices_of)s (default tfidf)",
    ).choices_of = _Listed(lambda: registry.NGRAM_WEIGHTS)  # type: ignore[attr-defined]
    _add_ter_options(p)
    p.add_argument(
        "--docs",
        metavar="FILE",
        help="document id of each segment, one per line (wngram-p/r/f weigh words per "
        "document; with --unsegmented each --hyp line is a document, re-segmented within "
        "its own, as mweralign's --docid-file; default: the whole file is one document)",
    )


#: TER's options (dest → help), named as sacreBLEU's command line names them.
TER_OPTIONS = {
    "ter_case_sensitive": "TER keeps case (default: lowercased)",
    "ter_normalized": "TER: tercom's normalisation (punctuation split off, XML escapes read)",
    "ter_no_punct": "TER: tercom's punctuation removed",
    "ter_asian_support": "TER: with --ter-normalized or --ter-no-punct, CJK characters "
    "and punctuation as tercom treats them",
}


def _add_ter_options(p: argparse.ArgumentParser) -> None:
    """sacreBLEU's ``--ter-*`` options (:mod:`metrics.ter_tokenize`)."""
    for dest, help_text in TER_OPTIONS.items():
        p.add_argument(f"--{dest.replace('_', '-')}", action="store_true", help=help_text)


def weight_list(text: str) -> tuple[float, ...]:
    """``--bleu-weights``: comma-separated numbers (argparse's one-line error otherwise)."""
    try:
        return tuple(float_option(w.strip()) for w in text.split(","))
    except (argparse.ArgumentTypeError, ValueError):
        raise argparse.ArgumentTypeError(
            f"{text!r}: one number a weight, comma-separated (0.4,0.3,0.2,0.1)"
        ) from None


def _add_output(p: argparse.ArgumentParser) -> None:
    """What is printed, how the references are read, and the unsegmented documents."""
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
        "--aswer-as-defined",
        action="store_true",
        help="with --unsegmented: re-segment by seed 002's recursion as written (default: "
        "deleting whole segments before the document's first word costs one more edit per "
        "segment end, as mwerSegmenter and mweralign)",
    )
    p.add_argument(
        "--resegment-cj",
        action="store_true",
        help="with --unsegmented: re-segment over mweralign's cj words (its --tokenizer cj, "
        "for Chinese and Japanese): each character above Latin-1 a word, each run of "
        "Latin-1 characters with its spaces one; segments written as the text was",
    )
    p.add_argument(
        "--segmented-out",
        metavar="DIR",
        help="with --unsegmented: write each re-segmented hypothesis to DIR/<basename>",
    )


def _add_significance(p: argparse.ArgumentParser) -> None:
    """The paired tests and confidence intervals, as sacreBLEU's options name them."""
    tests = p.add_argument_group(
        "significance (sacreBLEU 2.6's, seed $SACREBLEU_SEED, default 12345)"
    )
    paired = tests.add_mutually_exclusive_group()
    paired.add_argument(
        "--paired-bs",
        "-pbs",
        action="store_true",
        help="paired bootstrap resampling test of every --hyp against the first (the baseline)",
    )
    paired.add_argument(
        "--paired-ar",
        "-par",
        action="store_true",
        help="paired approximate randomization test of every --hyp against the first",
    )
    tests.add_argument(
        "--paired-bs-n",
        "-pbsn",
        type=int_option,
        default=PAIRED_BS_SAMPLES,
        metavar="N",
        help=f"resampled test sets of --paired-bs (default {PAIRED_BS_SAMPLES})",
    )
    tests.add_argument(
        "--paired-ar-n",
        "-parn",
        type=int_option,
        default=PAIRED_AR_TRIALS,
        metavar="N",
        help=f"trials of --paired-ar (default {PAIRED_AR_TRIALS})",
    )
    tests.add_argument(
        "--confidence",
        "-ci",
        action="store_true",
        help="each system's 95%% bootstrap confidence interval (given by --paired-bs anyway)",
    )
    tests.add_argument(
        "--confidence-n",
        "-cin",
        type=int_option,
        default=CONFIDENCE_SAMPLES,
        metavar="N",
        help=f"bootstrap resamples of --confidence (default {CONFIDENCE_SAMPLES})",
    )


def test_setup(args: argparse.Namespace) -> TestSetup | None:
    """The significance options as a :class:`~metrics.paired.TestSetup` (None: none asked)."""
    if not (args.paired_bs or args.paired_ar or args.confidence):
        return None
    test = "bs" if args.paired_bs else "ar" if args.paired_ar else None
    for option in ("paired_bs_n", "paired_ar_n", "confidence_n"):
        if getattr(args, option) < 1:
            raise ValueError(
                f"--{option.replace('_', '-')} {getattr(args, option)}: must be a positive integer"
            )
    if test and len(args.hyp) < 2:
        raise ValueError(
            f"--paired-{test} compares systems: give at least two --hyp (the first is the baseline)"
        )
    return TestSetup(
        test=test,
        n=args.paired_bs_n if test == "bs" else args.paired_ar_n,
        confidence_n=args.confidence_n if args.confidence else 0,
        seed=seed_from_environment(),
    )


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
        if getattr(args, option) != _parser().get_default(option):
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


def main(argv: Sequence[str] | None = None) -> int:
    words = list(sys.argv[1:] if argv is None else argv)
    return quiet_when_the_reader_leaves(lambda: _run(words))


def _run(words: list[str]) -> int:
    """Score and print (or estimate: :mod:`metrics.estimate_cli`); the exit status."""
    if words[:1] == [ESTIMATE]:
        from metrics import estimate_cli

        return estimate_cli.main(words[1:], program_name())
    if words[:1] == [HUMAN]:
        from metrics import protocols_cli

        return protocols_cli.main(words[1:], program_name())
    if words[:1] == [SIMULATE]:
        from metrics import simulate_cli

        return simulate_cli.main(words[1:], program_name())
    parser = _parser()
    args = parser.parse_args(words)
    args.hyp = args.hyp or [STDIN]
    segmentations: dict[str, Segmentation] = {}
    try:
        setup = test_setup(args)
        results = score_files(args, segmentations)
        tests = significance(results, args, setup) if setup else None
    except (SegmentFileError, ValueError, OSError) as exc:
        return refused(parser.prog, exc)
    segments = segment_scores(results, args) if args.sentence else None
    if args.json:
        baseline = args.hyp[0] if setup and setup.test else None
        payload = {
            hyp: {
                m: {
                    **score.as_json(),
                    **({"segments": segments[hyp][m]} if segments else {}),
                    **(tests[hyp][m].as_json() if tests else {}),
                    **({"baseline": baseline} if baseline else {}),
                    **({"test": setup.signature()} if setup else {}),
                }
                for m, score in scores.items()
            }
            for hyp, scores in results.items()
        }
        for hyp, segmentation in segmentations.items():
            payload[hyp]["segmentation"] = {
                "boundaries": list(segmentation.boundaries),
                "reference_per_segment": list(segmentation.reference_per_segment),
            }
        print(json_dumps(payload))
    else:
        print(score_table(results, tests, setup) + (segment_table(segments) if segments else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
