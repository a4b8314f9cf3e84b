"""Every metric of a corpus, per system, through ``metrics/``.

The app's one bridge between stored corpora and the metrics engine: it gathers the texts
(references segment-major, the first reference first) and the judgments, and hands them
to the same metric objects ``python -m metrics`` uses. ``manage.py scores`` and the
dashboard read their figures from here.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from annotation.models import Corpus, Judgment, Target, Translator
from metrics import human
from metrics.registry import build_metric
from metrics.stats import Score
from metrics.tokenize import Preprocessor

AUTOMATIC_METRICS = ("wer", "ser", "mwer", "per", "bleu", "nist")
HUMAN_METRICS = ("sser", "awer", "aser")


@dataclass(frozen=True)
class CorpusTexts:
    """A corpus as the metrics see it.

    ``refs[k]`` are sentence k's references, the first reference first and the others in
    file order; ``systems[name][k]`` is the system's candidate ("" where it has none).
    """

    refs: list[tuple[str, ...]]
    systems: dict[str, list[str]]


def corpus_texts(corpus: Corpus) -> CorpusTexts:
    """All texts of a corpus in two queries."""
    translators = {t.pk: t for t in corpus.translators.all()}
    n = corpus.sentences.count()
    refs: list[list[tuple[int, int, str]]] = [[] for _ in range(n)]
    systems = {t.name: [""] * n for t in translators.values() if not t.is_reference}
    rows = Target.objects.filter(sentence__corpus=corpus).values_list(
        "sentence__position", "translator_id", "position", "text"
    )
    for k, translator_id, position, text in rows:
        translator = translators[translator_id]
        if translator.is_reference:
            first = translator.role == Translator.Role.FIRST_REFERENCE
            refs[k].append((0 if first else 1, position, text))
        else:
            systems[translator.name][k] = text
    return CorpusTexts(
        refs=[tuple(text for _, _, text in sorted(seg)) for seg in refs], systems=systems
    )


def automatic_scores(
    texts: CorpusTexts,
    *,
    metrics: tuple[str, ...] = AUTOMATIC_METRICS,
    preprocessor: Preprocessor | None = None,
    ref_length: str = "nearest",
) -> dict[str, dict[str, Score]]:
    """Each metric prepares the references once and scores every system against them."""
    pp = preprocessor or Preprocessor()
    out: dict[str, dict[str, Score]] = {name: {} for name in texts.systems}
    for metric_name in metrics:
        metric = build_metric(metric_name, preprocessor=pp, ref_length=ref_length)
        prepared = metric.prepare_references(texts.refs)
        for system, hyps in texts.systems.items():
            out[system][metric_name] = metric.corpus_score(hyps, texts.refs, prepared)
    return out


def human_scores(corpus: Corpus) -> dict[str, dict[str, Score]]:
    """SSER, aWER and aSER per system over done judgments (``metrics.human`` definitions)."""
    rows = (
        Judgment.objects.done()
        .filter(target__sentence__corpus=corpus)
        .values_list("target__translator__name", "sser", "edits", "ref_length")
    )
    edits: dict[str, list[int]] = defaultdict(list)
    lengths: dict[str, list[int]] = defaultdict(list)
    sser: dict[str, list[int]] = defaultdict(list)
    for system, score, n_edits, length in rows:
        if score is not None:
            sser[system].append(score)
        if n_edits is not None and length is not None:
            edits[system].append(n_edits)
            lengths[system].append(length)
    out: dict[str, dict[str, Score]] = defaultdict(dict)
    for system, scores in sser.items():
        out[system]["sser"] = human.SSER.corpus_score(human.sser_stats(scores))
    for system in edits:
        out[system]["awer"] = human.AWER.corpus_score(
            human.awer_stats(edits[system], lengths[system])
        )
        out[system]["aser"] = human.ASER.corpus_score(human.aser_stats(edits[system]))
    return out


def corpus_scores(
    corpus: Corpus, *, preprocessor: Preprocessor | None = None, ref_length: str = "nearest"
) -> dict[str, dict[str, Score]]:
    """Every automatic metric and, where judgments exist, every human one, per system."""
    scores = automatic_scores(
        corpus_texts(corpus), preprocessor=preprocessor, ref_length=ref_length
    )
    for system, figures in human_scores(corpus).items():
        scores.setdefault(system, {}).update(figures)
    return scores
