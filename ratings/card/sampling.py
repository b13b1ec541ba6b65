"""Sampling a long rating history for a chart (pure Python, no Django).

A long history is downsampled to the plot's width (`sample`: evenly spread, the first and the last game kept), so
that the SVG and the read do not grow with the number of games (`ratings.card.selectors`, `ratings.card.chart`).
"""

from __future__ import annotations


def sample(n: int, width: int) -> list[int]:
    """At most `width` indices of 0..n-1, evenly spread, the first and the last kept."""
    if n <= width:
        return list(range(n))
    return sorted({round(i * (n - 1) / (width - 1)) for i in range(width)})
