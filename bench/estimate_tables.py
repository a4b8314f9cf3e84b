"""What ``bench/estimate.py`` reports: its rows (one covariate set at one judged
fraction; power at one fraction; the plan from a pilot) and the markdown tables and
target verdicts it prints from them."""

from __future__ import annotations

import math
from dataclasses import dataclass, field


@dataclass
class Row:
    """One covariate set at one judged fraction, over all systems and subsets."""

    campaign: str
    covariates: str
    correlation: float
    fraction: float
    n: int
    mae_simple: float
    mae_plain: float
    mae_estimate: float
    mse_plain: float
    mse_estimate: float
    cover_plain: float
    cover_estimate: float
    variance_ratio: float
    taken: float
    worse: bool
    mae_stratified: float | None = None
    cover_stratified: float | None = None
    worse_stratified: bool | None = None
    mae_reweighted: float | None = None
    cover_reweighted: float | None = None
    worse_reweighted: bool | None = None
    proportional: float | None = None
    proportional_simple: float | None = None
    #: The standard error of each coverage over the subsets (the systems of one subset
    #: move together): "estimate", "stratified", "reweighted".
    cover_noise: dict[str, float] = field(default_factory=dict)

    @property
    def gain(self) -> float:
        return 1.0 - self.mae_estimate / self.mae_plain

    @property
    def mse_gain(self) -> float:
        return 1.0 - self.mse_estimate / self.mse_plain

    @property
    def stratified_gain(self) -> float | None:
        return None if self.mae_stratified is None else 1.0 - self.mae_stratified / self.mae_plain

    @property
    def reweighted_gain(self) -> float | None:
        return None if self.mae_reweighted is None else 1.0 - self.mae_reweighted / self.mae_plain


@dataclass
class PowerRow:
    campaign: str
    fraction: float
    n: int
    pairs: int
    predicted: float
    predicted_finite: float
    observed: float
    largest_gap: float


@dataclass
class PlanRow:
    campaign: str
    pairs: int
    pilots: int
    separated: float
    not_separable: float
    needed: float
    median_needed: float
    observed: float


# ------------------------------------------------------------------ tables


def _pct(value: float | None, digits: int = 1) -> str:
    return "–" if value is None or math.isnan(value) else f"{100 * value:.{digits}f}"


def estimate_table(rows: list[Row]) -> list[str]:
    lines = [
        "| covariates | r | judged | n | MAE plain | MAE estimate | gain % | MSE gain % "
        "| MAE with documents | gain % | cover plain % | cover estimate % "
        "| cover with documents % | variance ratio | regression used % "
        "| worse? estimate / with documents |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        r_text = "–" if math.isnan(r.correlation) else f"{r.correlation:.2f}"
        stratified = "–" if r.mae_stratified is None else f"{r.mae_stratified:.4f}"
        lines.append(
            f"| {r.covariates} | {r_text} | {_pct(r.fraction, 0)} % | {r.n} "
            f"| {r.mae_plain:.4f} | {r.mae_estimate:.4f} | {_pct(r.gain)} | {_pct(r.mse_gain)} "
            f"| {stratified} | {_pct(r.stratified_gain)} | {_pct(r.cover_plain)} "
            f"| {_pct(r.cover_estimate)} | {_pct(r.cover_stratified)} | {r.variance_ratio:.3f} "
            f"| {_pct(r.taken, 0)} | {_worse(r.worse)} / {_worse(r.worse_stratified)} |"
        )
    return lines


def _worse(flag: bool | None) -> str:
    return "–" if flag is None else "WORSE" if flag else "no"


def design_table(rows: list[Row]) -> list[str]:
    """What the stratified draw adds: the plain mean on simple random and on stratified
    subsets."""
    lines = [
        "| judged | MAE plain, simple random subsets | MAE plain, stratified subsets | gain % |",
        "|---|---|---|---|",
    ]
    for r in rows:
        if r.covariates != "none":
            continue
        lines.append(
            f"| {_pct(r.fraction, 0)} % | {r.mae_simple:.4f} | {r.mae_plain:.4f} "
            f"| {_pct(1 - r.mae_plain / r.mae_simple)} |"
        )
    return lines


def documents_table(rows: list[Row]) -> list[str]:
    """Documents in the estimator: how often the allocation passed the proportionality
    test, the estimate with documents (on a proportional allocation: the one without
    strata, with the stratified variance) against the strata always reweighted."""
    lines = [
        "| covariates | judged | proportional %, stratified / simple subsets "
        "| MAE with documents | gain % | cover % | MAE strata reweighted | gain % | cover % "
        "| worse? with documents / reweighted |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        if r.mae_stratified is None or r.mae_reweighted is None:
            continue
        lines.append(
            f"| {r.covariates} | {_pct(r.fraction, 0)} % "
            f"| {_pct(r.proportional, 0)} / {_pct(r.proportional_simple, 0)} "
            f"| {r.mae_stratified:.4f} | {_pct(r.stratified_gain)} | {_pct(r.cover_stratified)} "
            f"| {r.mae_reweighted:.4f} | {_pct(r.reweighted_gain)} | {_pct(r.cover_reweighted)} "
            f"| {_worse(r.worse_stratified)} / {_worse(r.worse_reweighted)} |"
        )
    return lines


def _table(columns: list[str], rows: list[list[str]]) -> list[str]:
    """A markdown table of ``columns`` over ``rows`` of cells."""
    return [
        "| " + " | ".join(columns) + " |",
        "|" + "---|" * len(columns),
        *("| " + " | ".join(cells) + " |" for cells in rows),
    ]


def power_table(rows: list[PowerRow]) -> list[str]:
    columns = ["judged", "n", "pairs", "predicted power %", "predicted, finite corpus %"]
    columns += ["observed separation %", "largest gap (finite) %"]
    return _table(
        columns,
        [
            [f"{_pct(r.fraction, 0)} %", str(r.n), str(r.pairs), _pct(r.predicted)]
            + [_pct(r.predicted_finite), _pct(r.observed), _pct(r.largest_gap)]
            for r in rows
        ],
    )


def plan_table(rows: list[PlanRow]) -> list[str]:
    columns = ["campaign", "pairs × pilots", "already separated %", "not separable %"]
    columns += ["needed %", "median needed", "separated at the planned n %"]
    return _table(
        columns,
        [
            [r.campaign, f"{r.pairs} × {r.pilots}", _pct(r.separated), _pct(r.not_separable)]
            + [_pct(r.needed), f"{r.median_needed:.0f}", _pct(r.observed)]
            for r in rows
        ],
    )


def _beyond_noise(coverage: float, noise: float) -> bool:
    return coverage - 2 * noise > 0.97 or coverage + 2 * noise < 0.93


def _miss(where: str, coverage: float, noise: float) -> str:
    return f"{where}: {_pct(coverage)} ± {_pct(2 * noise)} % ({_side(coverage)})"


def _side(coverage: float) -> str:
    """Which way a coverage misses 93–97 %: over is a wide interval (on the safe side),
    under one that claims more than the data support."""
    return "over: wide" if coverage > 0.97 else "UNDER"


def verdicts(rows: list[Row]) -> list[str]:
    """The issue's targets, met or not, for the estimate without documents, with them, and
    with the strata always reweighted."""

    def where(r: Row) -> str:
        return f"{r.campaign} {r.covariates} {_pct(r.fraction, 0)} %"

    def met(found: list[str]) -> str:
        return "met" if not found else f"NOT met ({'; '.join(found)})"

    strong = [r for r in rows if r.covariates == "ρ = 0.7" and r.fraction in (0.10, 0.20)]
    gains = ", ".join(
        f"{r.campaign} {_pct(r.fraction, 0)} %: MAE {_pct(r.gain)} %, MSE {_pct(r.mse_gain)} %"
        for r in strong
    )
    out = []
    for label, key, worse, cover in (
        ("estimate", "estimate", lambda r: r.worse, lambda r: r.cover_estimate),
        (
            "estimate with documents",
            "stratified",
            lambda r: r.worse_stratified,
            lambda r: r.cover_stratified,
        ),
        (
            "strata always reweighted",
            "reweighted",
            lambda r: r.worse_reweighted,
            lambda r: r.cover_reweighted,
        ),
    ):
        out.append(
            f"- {label} never worse than the plain mean beyond noise: "
            + met([where(r) for r in rows if worse(r)])
        )
        outside = [r for r in rows if cover(r) is not None and not 0.93 <= cover(r) <= 0.97]
        beyond = [r for r in outside if _beyond_noise(cover(r), r.cover_noise[key])]
        out.append(
            f"- {label}: coverage of the 95 % intervals within 93–97 % up to the simulation's "
            "noise (2 standard errors over the subsets): "
            + met([_miss(where(r), cover(r), r.cover_noise[key]) for r in beyond])
            + (
                "; outside the band within noise: "
                + "; ".join(_miss(where(r), cover(r), r.cover_noise[key]) for r in outside)
                if outside and not beyond
                else ""
            )
        )
    out.append(
        "- at ρ = 0.7, ≥ 30 % lower error at 10–20 % judged: "
        + ("met" if strong and all(r.gain >= 0.30 for r in strong) else "NOT met")
        + " in mean absolute error, "
        + ("met" if strong and all(r.mse_gain >= 0.30 for r in strong) else "NOT met")
        + f" in mean squared error ({gains}; in expectation 1 − √(1 − ρ²) = "
        + f"{_pct(1 - math.sqrt(1 - 0.7**2))} % and ρ² = 49 %)"
    )
    return out
