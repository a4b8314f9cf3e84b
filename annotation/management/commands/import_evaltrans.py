"""``manage.py import_evaltrans FILE [--name NAME] [--reference TRANSLATOR …] [--assign]
[--campaign NAME] [--protocol NAME] [--wait]``.

The corpus is stored, then its scoring is queued for a worker (``make worker``; ``make
run`` starts one): the command returns once the rows are in. ``--wait`` shows the
scoring's progress until it is done (computed here if no worker takes it).
``--campaign`` puts the corpus in that campaign (made if there is none of that name), as
the upload form's campaign choice does: a lead imports the language pairs of a WMT-size
campaign from a script, one command each. ``--protocol`` says how its judges judge it
(``awer``, ``esa``, ``esa_prefill`` or ``mqm``), as the upload form's choice; without it,
the file's own (``judgingProtocol``, which an export of an ESA or MQM corpus writes), else
``awer``."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from django.core.checks import Tags
from django.core.management.base import BaseCommand, CommandError, CommandParser

from annotation.campaigns.membership import campaign_create
from annotation.corpora.import_state import ImportRefused
from annotation.corpora.imports import corpus_import, protocol_problem
from annotation.management.scoring import report_scoring
from annotation.models import Campaign, Protocol


class Command(BaseCommand):
    help = "Import an evalTrans XML file as a new corpus (all or nothing)."
    # The checks of what an import touches: the models and the database. The others
    # (URLs above all) import every view of the site, which an import never uses;
    # ``manage.py check`` and ``make serve`` run them all.
    requires_system_checks = [Tags.models, Tags.database]

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", type=Path)
        parser.add_argument(
            "--name", help="Corpus name (default: <evalTrans name=…>, else the file name)."
        )
        parser.add_argument(
            "--reference",
            action="append",
            default=[],
            metavar="TRANSLATOR",
            help="Treat this translator as a reference too (repeatable).",
        )
        parser.add_argument(
            "--assign",
            action="store_true",
            help="Assign the file's evaluators to the new corpus as judges (default: not).",
        )
        parser.add_argument(
            "--campaign",
            metavar="NAME",
            help="The campaign it joins, made if none has this name (default: its own).",
        )
        parser.add_argument(
            "--protocol",
            metavar="NAME",
            default=None,
            help=(
                f"How its judges judge it: {', '.join(Protocol.values)} (default: the "
                f"file's judgingProtocol, else {Protocol.AWER.value})."
            ),
        )
        parser.add_argument(
            "--wait",
            action="store_true",
            help="Wait for the scoring, showing its progress (default: leave it to a worker).",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        path: Path = options["file"]
        protocol = options["protocol"]
        problem = None if protocol is None else protocol_problem(protocol)
        if problem is not None:
            raise CommandError(f"--protocol: {problem}")
        if not path.is_file():
            raise CommandError(f"{path}: no such file")
        size = path.stat().st_size
        with path.open("rb") as stream:
            progress = _progress_bar(stream, size) if sys.stdout.isatty() else None
            try:
                summary = corpus_import(
                    source=stream,
                    name=options["name"],
                    filename=str(path),
                    reference_names=options["reference"],
                    progress=progress,
                    assign=options["assign"],
                    campaign=_campaign(options["campaign"]),
                    protocol=protocol,
                )
            except ImportRefused as exc:
                raise CommandError(str(exc)) from None
            finally:
                if progress is not None:
                    sys.stdout.write("\n")
        for line in summary.lines():
            self.stdout.write(line)
        report_scoring(self, summary.corpus, wait=options["wait"])


def _campaign(name: str | None) -> Campaign | None:
    """The campaign named ``name`` (made now if there is none), None for none named."""
    if name is None:
        return None
    if not name.strip():
        raise CommandError("--campaign: a campaign's name cannot be empty")
    found = Campaign.objects.filter(name=name).first()
    return found if found is not None else campaign_create(name=name)


def _progress_bar(stream: Any, size: int) -> Any:
    """A one-line progress bar for terminals: share of the file read, sentences so far."""

    def show(sentences: int) -> None:
        share = min(1.0, stream.tell() / size) if size else 1.0
        filled = int(share * 30)
        sys.stdout.write(
            f"\r[{'#' * filled}{'.' * (30 - filled)}] {share:4.0%}  {sentences} sentences"
        )
        sys.stdout.flush()

    return show
