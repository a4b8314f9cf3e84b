"""``manage.py figures NAME [--on | --off | --auto] [--json]`` — whether a corpus's judges
see the system's live figures on their page (``Corpus.judges_see_figures``): set it, then
print it.

``--auto`` leaves the choice to the corpus's blindness (hidden when blind, shown when
named), as a new corpus has it. ``--json`` prints ``{"corpus", "setting": "on" | "off" |
"auto", "blind", "shown"}``.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from annotation.management.lookup import corpus_named
from metrics.json_out import json_dumps

#: The setting's values by option, and back.
SETTINGS = {"on": True, "off": False, "auto": None}
#: What each option does.
SWITCHES = {
    "on": "Judges see the figures.",
    "off": "Judges see none.",
    "auto": "Hidden when blind, shown when named.",
}


def setting_name(value: bool | None) -> str:
    """``judges_see_figures`` as the command names it: on, off or auto."""
    return next(name for name, v in SETTINGS.items() if v is value)


class Command(BaseCommand):
    help = "Show or hide the system's live figures on a corpus's judging page."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("name")
        parser.add_argument("--json", action="store_true")
        switch = parser.add_mutually_exclusive_group()
        for name, meaning in SWITCHES.items():
            switch.add_argument(f"--{name}", action="store_true", help=meaning)

    def handle(self, *args: Any, **options: Any) -> None:
        corpus = corpus_named(options["name"])
        chosen = [name for name in SETTINGS if options[name]]
        if chosen:
            corpus.judges_see_figures = SETTINGS[chosen[0]]
            # this field only: a whole-row save would write back stamps a click moved since
            corpus.save(update_fields=["judges_see_figures"])
        setting = setting_name(corpus.judges_see_figures)
        if options["json"]:
            payload = {
                "corpus": corpus.name,
                "setting": setting,
                "blind": corpus.blind,
                "shown": corpus.shows_live_figures,
            }
            self.stdout.write(json_dumps(payload))
            return
        shown = "shown to" if corpus.shows_live_figures else "hidden from"
        blind = "blind" if corpus.blind else "named"
        self.stdout.write(f"{corpus.name}: live figures {shown} judges ({setting}, {blind}).")
