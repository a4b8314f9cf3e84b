"""``manage.py controls NAME [--on | --off] [--rate N] [--threshold P] [--drop D]
[--tolerance T] [--json]`` — a corpus's control items (:mod:`annotation.controls`):
change the settings, then print them and how each judge does.

``--drop`` and ``--tolerance`` are an ESA or MQM corpus's (:mod:`annotation.controls.
scored`), in its protocol's points: how much worse a candidate with injected errors must
score than its original, how near its first score a repeat. The values go through the
lead's settings form (:class:`annotation.controls.forms.ControlSettingsForm`), so the
command refuses exactly what the page refuses, naming the option and the reason.
``--json`` prints ``{"corpus", "enabled", "rate", "per_run", "threshold", "drop",
"tolerance", "judges": {name: {"done", "passed", "pass_rate", "repeats", "consistency",
"flagged", "bad_references", "bad_references_passed"}}}`` (rates in percent, null before
a judge's first control item; drop and tolerance null in an aWER corpus).
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from annotation.controls.forms import ControlSettingsForm
from annotation.controls.quality import corpus_controls
from annotation.controls.runs import controls_per_run, controls_summary
from annotation.controls.scored import score_rule
from annotation.formatting import number
from annotation.management.lookup import corpus_named
from metrics.json_out import json_dumps

#: The form's fields and the options that set them (a corpus's form has the drop and
#: tolerance of its protocol only).
OPTIONS = {
    "control_rate": "--rate",
    "control_pass_threshold": "--threshold",
    "control_esa_drop": "--drop",
    "control_esa_tolerance": "--tolerance",
    "control_mqm_drop": "--drop",
    "control_mqm_tolerance": "--tolerance",
}
#: What an option given for an aWER corpus is told.
ERR_NO_SCORE_RULE = "{option}: {corpus}'s controls compare new references, not scores"


class Command(BaseCommand):
    help = "Set a corpus's control items (on/off, rate, threshold); print judges' pass rates."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("name")
        switch = parser.add_mutually_exclusive_group()
        switch.add_argument("--on", action="store_true", help="Mix control items in.")
        switch.add_argument("--off", action="store_true", help="Stop mixing them in.")
        parser.add_argument("--rate", help="One control item in every N items (3–100).")
        parser.add_argument("--threshold", help="Flag judges who pass fewer (percent, 0–100).")
        parser.add_argument(
            "--drop", help="ESA / MQM: how much worse injected errors must score (points)."
        )
        parser.add_argument(
            "--tolerance", help="ESA / MQM: how near its first score a repeat must be (points)."
        )
        parser.add_argument("--json", action="store_true")

    def handle(self, *args: Any, **options: Any) -> None:
        corpus = corpus_named(options["name"])
        changes = {name: getattr(corpus, name) for name in ControlSettingsForm.fields_of(corpus)}
        if options["on"] or options["off"]:
            changes["controls_enabled"] = options["on"]
        for option in ("--drop", "--tolerance"):
            if options[option[2:]] is not None and score_rule(corpus) is None:
                raise CommandError(ERR_NO_SCORE_RULE.format(option=option, corpus=corpus.name))
        for field, option in OPTIONS.items():
            if field in changes and options[option[2:]] is not None:
                changes[field] = options[option[2:]]
        form = ControlSettingsForm(
            {k: v for k, v in changes.items() if v is not False}, instance=corpus
        )
        if not form.is_valid():
            field, errors = next(iter(form.errors.items()))
            raise CommandError(f"{OPTIONS.get(field, field)}: {' '.join(map(str, errors))}")
        corpus = form.save()
        judges = corpus_controls(corpus)
        rule = score_rule(corpus)
        if options["json"]:
            payload = {
                "corpus": corpus.name,
                "enabled": corpus.controls_enabled,
                "rate": corpus.control_rate,
                "per_run": controls_per_run(corpus.control_rate, corpus.n_systems),
                "threshold": corpus.control_pass_threshold,
                "drop": None if rule is None else rule.drop,
                "tolerance": None if rule is None else rule.tolerance,
                "judges": {
                    j.name: {
                        "done": j.done,
                        "passed": j.passed,
                        "pass_rate": j.pass_rate,
                        "repeats": j.repeats,
                        "consistency": j.consistency,
                        "flagged": j.flagged,
                        "bad_references": j.bad_references,
                        "bad_references_passed": j.bad_references_passed,
                    }
                    for j in judges
                },
            }
            self.stdout.write(json_dumps(payload))
            return
        state = (
            f"on, one in every {corpus.control_rate} items ({controls_summary(corpus)})"
            if corpus.controls_enabled
            else "off"
        )
        self.stdout.write(
            f"{corpus.name}: control items {state}; "
            f"judges below {corpus.control_pass_threshold} % are flagged."
        )
        if rule is not None:
            self.stdout.write(
                f"Injected errors must score at least {rule.drop:g} {rule.unit} worse than "
                f"the original; a repeat within {rule.tolerance:g} {rule.unit} of the first."
            )
        for j in judges:
            flag = "  FLAGGED" if j.flagged else ""
            self.stdout.write(
                f"{j.name}: {j.passed}/{j.done} passed ({number(j.pass_rate, 1)} %), "
                f"consistency {number(j.consistency, 1)} % ({j.consistent}/{j.repeats}), "
                f"bad references {j.bad_references_passed}/{j.bad_references} passed{flag}"
            )
