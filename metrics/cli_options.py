"""The options of ``python -m metrics`` (scoring files): the parser, each group of its
options, and the significance options read as a :class:`~metrics.paired.TestSetup`.

Its own module so that what the command line accepts is read in one place, apart from
what a run does with it (:mod:`metrics.cli_scoring`) and from the dispatch to the
subcommands (:mod:`metrics.__main__`, whose docstring describes the options).
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence

from metrics import registry
from metrics.cli import OneLineParser, program_name
from metrics.numerals import float_option, int_option
from metrics.paired import (
    CONFIDENCE_SAMPLES,
    PAIRED_AR_TRIALS,
    PAIRED_BS_SAMPLES,
    TestSetup,
    seed_from_environment,
)
from metrics.registry import METRIC_NAMES, UNSEGMENTED_METRIC_NAMES
from metrics.tokenize import TOKENIZERS


class _Listed:
    """A list of choices in a help text, read when the help is printed: the choices live
    in the modules of the metrics that read them, which a run that scores other metrics
    never imports (``%(choices_of)s`` in the help, this object on the action)."""

    def __init__(self, read: Callable[[], Sequence[str]]) -> None:
        self.read = read

    def __str__(self) -> str:
        return ", ".join(self.read())


def score_parser() -> argparse.ArgumentParser:
    """The parser of ``python -m metrics`` when it scores files (no subcommand)."""
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
