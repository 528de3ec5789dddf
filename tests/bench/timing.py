"""What every benchmark measures with: a timed call in milliseconds and a percentile of the samples."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any


def percentile(values: list[float], q: float) -> float:
    """The sample at fraction `q` (0.95 for p95) of the sorted values."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def timed(fn: Callable[..., Any], *args: Any) -> tuple[float, Any]:
    """(milliseconds, result) of one call."""
    start = time.perf_counter()
    out = fn(*args)
    return (time.perf_counter() - start) * 1000, out


def cpu_timed(fn: Callable[..., Any], *args: Any) -> tuple[float, Any]:
    """(milliseconds of this thread's CPU time, result) of one call: unlike the wall clock, not inflated by
    other processes on a shared machine."""
    start = time.thread_time()
    out = fn(*args)
    return (time.thread_time() - start) * 1000, out
