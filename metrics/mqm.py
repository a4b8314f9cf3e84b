"""MQM's weighted score of a segment's error spans (Freitag, Foster, Grangier, Ratnakar,
Tan & Macherey 2021, "Experts, Errors, and Context: A Large-Scale Study of Human
Evaluation for Machine Translation", TACL 9).

An annotator marks each error of a candidate as a span with a *category* from a
taxonomy and a *severity*; the segment's score is the sum of its errors' penalty points,
the system's the mean over its segments (:mod:`metrics.protocols`). Freitag et al.'s
Table 2 weighs a minor error 1 point, a minor ``Fluency/Punctuation`` error 0.1, a major
error 5 and a major ``Non-translation`` 25 (a segment too badly translated to mark its
errors; the guidelines have it marked as the segment's one error, which the sum here
does not enforce). WMT's findings and mt-metrics-eval print the same sums negated
(−1, −0.1, −5, −25, so higher is better there); here they are penalty points as in the
paper, lower is better and 0 a perfect candidate, the direction and unit of the
project's ``mqm`` figure (:data:`metrics.facts.METRIC_FACTS`), whose aWER variant counts
1 and 5 points too (:func:`metrics.human.mqm_stats`).

A corpus may use another taxonomy and other weights (:class:`Taxonomy`), kept as JSON
(:meth:`Taxonomy.as_json`, read back and checked by :func:`taxonomy_from_json`):

.. code-block:: json

    {"weights": {"minor": 1, "major": 5},
     "categories": [{"name": "Accuracy/Addition"}, …,
                    {"name": "Fluency/Punctuation", "weights": {"minor": 0.1}},
                    {"name": "Non-translation", "weights": {"major": 25}}]}

``weights`` gives every severity's points, and a category's own ``weights`` replace
them for that category. The categories are a list, in the order a page offers them (a
JSON object's keys lose their order in PostgreSQL's ``jsonb``). A span without a
category (ESA marks none) counts its severity's points.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

MINOR, MAJOR = "minor", "major"
#: The severities a span may have, mildest first (ESA's and MQM's two).
SEVERITIES: tuple[str, ...] = (MINOR, MAJOR)
#: Freitag et al.'s points of a minor and a major error, whatever the category (also
#: those of the aWER page's MQM-style figure, :mod:`metrics.human`).
MINOR_POINTS, MAJOR_POINTS = 1, 5
PUNCTUATION = "Fluency/Punctuation"
NON_TRANSLATION = "Non-translation"
#: WMT's MQM files' spelling of the taxonomy's categories, where it differs: read so
#: (``python -m metrics human``, ``manage.py import_mqm``) and written so (``export_mqm``).
WMT_SPELLINGS = {"Non-translation!": NON_TRANSLATION}
#: The taxonomy's name → WMT's spelling.
WMT_SPELLING_OF = {ours: theirs for theirs, ours in WMT_SPELLINGS.items()}
#: A category's name: at most this many characters.
CATEGORY_MAX_LENGTH = 100

#: The error categories of Freitag et al. 2021 (Table 10), the taxonomy of WMT's MQM
#: annotations since 2020, in the paper's order.
WMT_CATEGORIES: tuple[str, ...] = (
    "Accuracy/Addition",
    "Accuracy/Omission",
    "Accuracy/Mistranslation",
    "Accuracy/Untranslated text",
    "Fluency/Punctuation",
    "Fluency/Spelling",
    "Fluency/Grammar",
    "Fluency/Register",
    "Fluency/Inconsistency",
    "Fluency/Character encoding",
    "Terminology/Inappropriate for context",
    "Terminology/Inconsistent use",
    "Style/Awkward",
    "Locale convention/Address format",
    "Locale convention/Currency format",
    "Locale convention/Date format",
    "Locale convention/Name format",
    "Locale convention/Telephone format",
    "Locale convention/Time format",
    "Other",
    "Source error",
    NON_TRANSLATION,
)


@dataclass(frozen=True)
class Category:
    """One category of a taxonomy and the points it gives instead of its severity's
    (``weights``: severity → points, only those it changes)."""

    name: str
    weights: tuple[tuple[str, float], ...] = ()


@dataclass(frozen=True)
class Taxonomy:
    """The categories a span may have and the points of each severity (module doc)."""

    weights: tuple[tuple[str, float], ...]
    categories: tuple[Category, ...]

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(c.name for c in self.categories)

    def points(self, severity: str, category: str = "") -> float:
        """The points of one error: its category's own weight for ``severity`` if it has
        one, else the severity's. A ``ValueError`` names an unknown severity or category."""
        own = dict(self.weights)
        if severity not in own:
            raise ValueError(f"severity {severity!r}: choose one of {', '.join(own)}")
        if not category:
            return own[severity]
        for c in self.categories:
            if c.name == category:
                return dict(c.weights).get(severity, own[severity])
        raise ValueError(f"category {category!r} is not in the taxonomy")

    def as_json(self) -> dict[str, Any]:
        """The taxonomy as the corpus stores it (module doc); :func:`taxonomy_from_json`
        reads it back equal."""
        return {
            "weights": dict(self.weights),
            "categories": [
                {"name": c.name, **({"weights": dict(c.weights)} if c.weights else {})}
                for c in self.categories
            ],
        }


#: The categories with points of their own in Freitag et al.'s Table 2.
_WMT_OWN_WEIGHTS: dict[str, tuple[tuple[str, float], ...]] = {
    PUNCTUATION: ((MINOR, 0.1),),
    NON_TRANSLATION: ((MAJOR, 25),),
}

#: WMT's MQM taxonomy with Freitag et al.'s weights: every corpus's default.
WMT_TAXONOMY = Taxonomy(
    weights=((MINOR, MINOR_POINTS), (MAJOR, MAJOR_POINTS)),
    categories=tuple(Category(name, _WMT_OWN_WEIGHTS.get(name, ())) for name in WMT_CATEGORIES),
)


def wmt_taxonomy_json() -> dict[str, Any]:
    """:data:`WMT_TAXONOMY` as JSON, a new object each call (a field's default)."""
    return WMT_TAXONOMY.as_json()


def _weights(value: object, where: str, *, every: bool) -> tuple[tuple[str, float], ...]:
    """Severity → points from JSON: an object whose keys are severities (all of them if
    ``every``) and whose values are finite numbers ≥ 0."""
    if not isinstance(value, dict):
        raise ValueError(f"{where}: expected an object of severity: points")
    unknown = [k for k in value if k not in SEVERITIES]
    if unknown:
        raise ValueError(f"{where}: unknown severity {unknown[0]!r} (choose from minor, major)")
    missing = [s for s in SEVERITIES if s not in value]
    if every and missing:
        raise ValueError(f"{where}: no points for {missing[0]!r}")
    out: list[tuple[str, float]] = []
    for severity in SEVERITIES:
        if severity not in value:
            continue
        points = value[severity]
        if isinstance(points, bool) or not isinstance(points, (int, float)):
            raise ValueError(f"{where}.{severity}: {points!r} is not a number")
        if not math.isfinite(points) or points < 0:
            raise ValueError(
                f"{where}.{severity}: {points!r} must be a finite number of penalty points "
                "≥ 0 (Freitag et al.'s table: 5 for a major error, not −5)"
            )
        out.append((severity, points))
    return tuple(out)


def _category(value: object, where: str) -> Category:
    if not isinstance(value, dict):
        raise ValueError(f"{where}: expected an object with a name")
    unknown = [k for k in value if k not in ("name", "weights")]
    if unknown:
        raise ValueError(f"{where}: unknown key {unknown[0]!r} (name, weights)")
    name = value.get("name")
    if not isinstance(name, str) or not name.strip():
        raise ValueError(f"{where}.name: a category needs a name")
    if name != name.strip() or len(name) > CATEGORY_MAX_LENGTH:
        raise ValueError(
            f"{where}.name: {name!r} must have no spaces around it and at most "
            f"{CATEGORY_MAX_LENGTH} characters"
        )
    weights = (
        ()
        if "weights" not in value
        else _weights(value["weights"], f"{where}.weights", every=False)
    )
    return Category(name, weights)


def taxonomy_from_json(data: object) -> Taxonomy:
    """The :class:`Taxonomy` stored as ``data`` (module doc), or a ``ValueError`` saying
    where it is wrong (``categories[3].weights.minor: …``)."""
    if not isinstance(data, dict):
        raise ValueError("expected an object with weights and categories")
    unknown = [k for k in data if k not in ("weights", "categories")]
    if unknown:
        raise ValueError(f"unknown key {unknown[0]!r} (weights, categories)")
    if "weights" not in data:
        raise ValueError("weights: missing")
    weights = _weights(data["weights"], "weights", every=True)
    listed = data.get("categories")
    if not isinstance(listed, list) or not listed:
        raise ValueError("categories: expected a non-empty list")
    categories = tuple(_category(c, f"categories[{k}]") for k, c in enumerate(listed))
    seen: set[str] = set()
    for k, c in enumerate(categories):
        if c.name in seen:
            raise ValueError(f"categories[{k}].name: {c.name!r} is listed twice")
        seen.add(c.name)
    return Taxonomy(weights, categories)


def segment_points(errors: Iterable[tuple[str, str]], taxonomy: Taxonomy = WMT_TAXONOMY) -> float:
    """One annotator's MQM score of one segment: the sum of its errors' points, each
    error ``(severity, category)`` (category "" for none). 0 without errors."""
    return float(sum(taxonomy.points(severity, category) for severity, category in errors))
