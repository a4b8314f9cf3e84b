"""What a command names on its command line, found or refused in one line: the corpus
``NAME`` of every corpus command (``manage.py scores NAME``, ``export_evaltrans NAME``, …)."""

from __future__ import annotations

from django.core.management.base import CommandError

from annotation.models import Corpus, CorpusQuerySet


def corpus_named(name: str, corpora: CorpusQuerySet | None = None) -> Corpus:
    """The corpus ``name`` among ``corpora`` (default: the complete ones, as every page
    sees them), or the command's refusal ``no corpus named 'NAME'`` (exit 1)."""
    corpus = (Corpus.objects.all() if corpora is None else corpora).filter(name=name).first()
    if corpus is None:
        raise CommandError(f"no corpus named {name!r}")
    return corpus
