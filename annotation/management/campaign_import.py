"""The command line of an import of another tool's judgments (``import_appraise``,
``import_mqm``): a file, and either WMT's plain-text files to make a new corpus of
(``--texts DIR --pair SRC-TGT --name NAME``) or a corpus already imported
(``--corpus NAME``); the refusal in one line (exit 1)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from annotation.corpora.import_state import ImportRefused
from annotation.corpora.imported_judgments import CampaignImport
from annotation.management.lookup import corpus_named
from metrics.textfiles import SegmentFileError, display_name, read_bytes


def add_campaign_arguments(parser: CommandParser, what: str) -> None:
    """The file ``what`` is (``the Appraise CSV``) and where its texts come from."""
    parser.add_argument("file", help=f"{what} (- : standard input).")
    parser.add_argument(
        "--texts",
        type=Path,
        metavar="DIR",
        help="WMT's plain-text layout: sources/, references/, system-outputs/, documents/.",
    )
    parser.add_argument("--pair", metavar="SRC-TGT", help="The language pair, e.g. en-de.")
    parser.add_argument("--name", help="The new corpus's name (with --texts).")
    parser.add_argument("--corpus", metavar="NAME", help="A corpus already imported.")


def run_campaign_import(
    command: BaseCommand, options: dict[str, Any], service: CampaignImport
) -> None:
    """Run ``service`` on the command's options, and print what it stored."""
    texts, pair, name, existing = (options[k] for k in ("texts", "pair", "name", "corpus"))
    if (existing is None) == (texts is None):
        raise CommandError("give either --texts DIR (with --pair and --name) or --corpus NAME")
    if texts is not None and (pair is None or name is None):
        raise CommandError("--texts needs --pair SRC-TGT and --name NAME")
    corpus = None if existing is None else corpus_named(existing)
    try:
        summary = service(
            data=read_bytes(options["file"]),
            filename=display_name(options["file"]),
            pair=pair,
            texts=texts,
            name=name,
            corpus=corpus,
        )
    except (ImportRefused, SegmentFileError) as exc:
        raise CommandError(str(exc)) from None
    for line in summary.lines():
        command.stdout.write(line)
