"""Confidence intervals for arena results (normal approximations, z = 1.96 for 95 %)."""

from __future__ import annotations

import math
from collections.abc import Sequence

Z95 = 1.96


def mean_ci(values: Sequence[float], low: float = -math.inf, high: float = math.inf,
            z: float = Z95) -> tuple[float, float, float]:
    """(mean, low, high): mean ± z·s/√n with the sample standard deviation, clipped to [low, high].

    With fewer than two values nothing is known about the spread, and the interval is [low, high].
    """
    n = len(values)
    if n == 0:
        raise ValueError("no values")
    m = math.fsum(values) / n
    if n < 2:
        return m, low, high
    var = math.fsum((v - m) ** 2 for v in values) / (n - 1)
    half = z * math.sqrt(var / n)
    return m, max(low, m - half), min(high, m + half)


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a proportion: sensible even at 0 % or 100 %."""
    if n <= 0:
        raise ValueError("no trials")
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def ratio_ci(nums: Sequence[float], dens: Sequence[float], z: float = Z95) -> tuple[float, float, float]:
    """(R, low, high) for R = Σnum / Σden over independent units (the delta method).

    Used for points per hand, where each duplicate pair contributes its points and its hands.
    """
    n = len(nums)
    if n != len(dens) or n == 0:
        raise ValueError("need as many denominators as numerators, at least one")
    total_den = math.fsum(dens)
    if total_den <= 0:
        raise ValueError("denominators must add up to more than zero")
    r = math.fsum(nums) / total_den
    if n < 2:
        return r, -math.inf, math.inf
    mean_den = total_den / n
    resid = math.fsum((x - r * d) ** 2 for x, d in zip(nums, dens, strict=True))
    se = math.sqrt(resid / (n * (n - 1))) / mean_den
    return r, r - z * se, r + z * se


def percentile(values: Sequence[float], q: float) -> float:
    """Nearest-rank percentile (``q`` from 0 to 100) of unsorted values."""
    if not values:
        return 0.0
    ordered = sorted(values)
    rank = max(1, math.ceil(q / 100 * len(ordered)))
    return ordered[min(rank, len(ordered)) - 1]
