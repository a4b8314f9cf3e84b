"""Student's t and the normal distribution, in Python only (scipy is no runtime dependency).

The estimates of :mod:`metrics.estimate` and the power of :mod:`metrics.power` need the
t distribution's tail and quantiles. The normal's come from the standard library
(:class:`statistics.NormalDist`). Student's t with ``ν`` degrees of freedom has

    P(T ≤ t) = 1 − ½ · I_x(ν/2, ½),   x = ν / (ν + t²),   for t ≥ 0

(Abramowitz & Stegun 26.7.1 with 26.5.27), where ``I_x(a, b)`` is the regularized
incomplete beta function, computed with its continued fraction (A&S 26.5.8) by the
modified Lentz method (Press et al., *Numerical Recipes*, 3rd ed., §6.4). The quantile
inverts that tail by Newton's method from the Cornish-Fisher expansion, kept inside a
bracket that bisection narrows when a step leaves it. Both agree with scipy's
``stats.t`` to 1e-10 below 10⁷ degrees of freedom (the tests compare them).
"""

from __future__ import annotations

import math
from functools import cache
from statistics import NormalDist

_NORMAL = NormalDist()
#: Past this many degrees of freedom, t is taken as the normal (its quantiles differ by
#: less than 1e-6 there), where the continued fraction loses its digits.
NORMAL_FROM_DF = 1e7
_EPS = 1e-16
_TINY = 1e-300


def normal_quantile(p: float) -> float:
    """The ``p`` quantile of the standard normal."""
    _check_probability(p)
    return _NORMAL.inv_cdf(p)


def normal_cdf(z: float) -> float:
    """P(Z ≤ z) for a standard normal Z."""
    return _NORMAL.cdf(z)


def _check_probability(p: float) -> None:
    if not 0.0 < p < 1.0:
        raise ValueError(f"probability {p!r}: must lie strictly between 0 and 1")


def _check_df(df: float) -> None:
    if not df > 0:
        raise ValueError(f"degrees of freedom {df!r}: must be positive")


def _beta_fraction(a: float, b: float, x: float) -> float:
    """The continued fraction of ``I_x(a, b)`` (A&S 26.5.8), modified Lentz."""
    c, d = 1.0, 1.0 - (a + b) * x / (a + 1.0)
    d = 1.0 / (d if abs(d) > _TINY else _TINY)
    h = d
    for m in range(1, 10_000):
        m2 = 2 * m
        for num in (
            m * (b - m) * x / ((a + m2 - 1.0) * (a + m2)),
            -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1.0)),
        ):
            d = 1.0 + num * d
            d = 1.0 / (d if abs(d) > _TINY else _TINY)
            c = 1.0 + num / c
            c = c if abs(c) > _TINY else _TINY
            h *= d * c
        if abs(d * c - 1.0) < _EPS:
            break
    return h


def _log_gamma_ratio_half(a: float) -> float:
    """``ln Γ(a + ½) − ln Γ(a)``; for large ``a`` from its asymptotic series, as the
    difference of two large ``lgamma`` values loses the digits that matter."""
    if a < 1e3:
        return math.lgamma(a + 0.5) - math.lgamma(a)
    # ln Γ(a + ½)/Γ(a) = ½ ln a − 1/(8a) + 1/(192a³) + 1/(640a⁵) − 17/(14336a⁷) + …
    inv = 1.0 / a
    inv2 = inv * inv
    return 0.5 * math.log(a) + inv * (-1 / 8 + inv2 * (1 / 192 + inv2 * (1 / 640)))


def regularized_beta_half(a: float, x: float, y: float) -> float:
    """``I_x(a, ½)``, the regularized incomplete beta function with b = ½, for
    0 ≤ x ≤ 1 and ``y = 1 − x`` given separately (it is small where x is near 1, and
    computed there without cancellation)."""
    if x <= 0.0:
        return 0.0
    if y <= 0.0:
        return 1.0
    b = 0.5
    log_x = math.log1p(-y) if y < 0.5 else math.log(x)
    log_y = math.log1p(-x) if x < 0.5 else math.log(y)
    log_front = _log_gamma_ratio_half(a) - math.lgamma(b) + a * log_x + b * log_y
    # the fraction converges fast below the mean a / (a + b); above it, by symmetry
    if x < (a + 1.0) / (a + b + 2.0):
        return math.exp(log_front) * _beta_fraction(a, b, x) / a
    return 1.0 - math.exp(log_front) * _beta_fraction(b, a, y) / b


def t_sf(t: float, df: float) -> float:
    """P(T > t) for Student's t with ``df`` degrees of freedom."""
    _check_df(df)
    if df >= NORMAL_FROM_DF:
        return 1.0 - normal_cdf(t)
    tail = 0.5 * regularized_beta_half(df / 2.0, df / (df + t * t), t * t / (df + t * t))
    return tail if t >= 0 else 1.0 - tail


def t_cdf(t: float, df: float) -> float:
    """P(T ≤ t) for Student's t with ``df`` degrees of freedom."""
    return t_sf(-t, df)


def t_pdf(t: float, df: float) -> float:
    """The density of Student's t with ``df`` degrees of freedom at ``t``."""
    log = (
        math.lgamma((df + 1.0) / 2.0)
        - math.lgamma(df / 2.0)
        - 0.5 * math.log(df * math.pi)
        - (df + 1.0) / 2.0 * math.log1p(t * t / df)
    )
    return math.exp(log)


@cache
def t_quantile(p: float, df: float) -> float:
    """The ``p`` quantile of Student's t with ``df`` degrees of freedom (cached: the
    simulations ask for the same few again and again)."""
    _check_probability(p)
    _check_df(df)
    if df >= NORMAL_FROM_DF:
        return normal_quantile(p)
    if p < 0.5:
        return -t_quantile(1.0 - p, df)
    if p == 0.5:
        return 0.0
    # Newton on P(T > t) = 1 − p from the Cornish-Fisher expansion (A&S 26.7.5), kept
    # inside the bracket [lo, hi] that every step narrows
    target = 1.0 - p
    t = max(_cornish_fisher(p, df), 0.0)
    lo, hi = 0.0, math.inf
    for _ in range(200):
        gap = t_sf(t, df) - target
        if gap == 0.0:
            return t
        if gap > 0:
            lo = t
        else:
            hi = t
        step = t + gap / t_pdf(t, df)
        if step == t or (hi < math.inf and hi - lo <= 4 * _EPS * hi):
            return t
        if not lo < step < hi:  # Newton left the bracket: bisect, or widen it
            step = (lo + hi) / 2.0 if hi < math.inf else 2.0 * max(lo, 1.0)
        t = step
    return t


def _cornish_fisher(p: float, df: float) -> float:
    """The t quantile's expansion in 1/ν around the normal's (A&S 26.7.5): close from
    ν ≈ 3 on, a start for Newton below."""
    z = normal_quantile(p)
    z2 = z * z
    return z * (
        1.0
        + (z2 + 1.0) / (4.0 * df)
        + ((5.0 * z2 + 16.0) * z2 + 3.0) / (96.0 * df**2)
        + (((3.0 * z2 + 19.0) * z2 + 17.0) * z2 - 15.0) / (384.0 * df**3)
    )
