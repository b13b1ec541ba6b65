"""The rating history chart as plain numbers for an inline SVG (pure Python, no Django, no JavaScript).

Three lines over the same x axis (the player's games in order): cumulative points (left scale), rank (right
scale, 1 at the top) and the club Elo after each game (its own scale, labelled at its ends). A long history is
downsampled to the plot's pixel width (at most one point per two pixel columns, `SAMPLES`, keeping the first and
the last game), so the SVG does not grow with the number of games. The template draws them; `table` keeps a sample of the values as text for screen readers
and phones, the full series is the CSV download.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal

WIDTH, HEIGHT = 640, 240
LEFT, RIGHT, TOP, BOTTOM = 44, 36, 12, 24
TABLE_ROWS = 12


@dataclass
class Chart:
    width: int
    height: int
    points_line: str  # "x,y x,y …" for <polyline>
    rank_line: str
    y_ticks: list[tuple[float, str]]  # (y, label) of the points scale
    rank_ticks: list[tuple[float, str]]
    x_labels: list[tuple[float, dt.date]]  # the first and last game's dates, formatted by the template
    zero_y: float | None
    games: int
    final_points: Decimal
    final_rank: int
    best_rank: int
    table: list[tuple[int, dt.date, Decimal, int]]  # (game number, date, cumulative, rank) sampled
    elo_line: str = ""
    elo_labels: list[tuple[float, str]] = ()  # (y, label) of the lowest and highest Elo drawn
    final_elo: float | None = None
    plot_left: int = LEFT
    plot_right: int = WIDTH - RIGHT
    plot_top: int = TOP
    plot_bottom: int = HEIGHT - BOTTOM


def _fmt(value: float) -> str:
    return f"{value:.1f}".rstrip("0").rstrip(".") if value % 1 else str(int(value))


def sample(n: int, width: int) -> list[int]:
    """At most `width` indices of 0..n-1, evenly spread, the first and the last kept."""
    if n <= width:
        return list(range(n))
    return sorted({round(i * (n - 1) / (width - 1)) for i in range(width)})


PLOT_WIDTH = WIDTH - LEFT - RIGHT  # the plot's width in SVG pixels
# At most one point per two pixel columns (`sample`): the line looks the same (on a phone the whole chart is narrower
# than PLOT_WIDTH), and a long history is read as 280 points, not 560 (bench/bench_ratings.py, the busiest profile).
SAMPLES = PLOT_WIDTH // 2


def history_chart(history: Sequence[tuple[dt.date, Decimal, int]],
                  elo: Sequence[float | None] | None = None, *, positions: Sequence[int] | None = None,
                  total: int | None = None, best_rank: int | None = None) -> Chart:
    """`history`: (date, cumulative points, rank) after each game; `elo`: the Elo after the same games (or None).

    A caller that read only a sample of a long history (`sample(total, SAMPLES)`, so that the page costs the same
    at 100 games or 10,000) passes the sampled points with their `positions` among all `total` games and the best
    rank over all of them.
    """
    if positions is None:
        total = len(history)
        best_rank = min(r for _, _, r in history)
        positions = sample(total, SAMPLES)  # the x of a kept point is its place among all the games
        history = [history[i] for i in positions]
        elo = [elo[i] for i in positions] if elo is not None else None
    final = history[-1]
    n = len(history)
    values = [float(c) for _, c, _ in history]
    ranks = [r for _, _, r in history]
    low, high = min(0.0, *values), max(0.0, *values)
    if high == low:
        high = low + 1
    worst = max(ranks)
    x0, x1, y0, y1 = LEFT, WIDTH - RIGHT, TOP, HEIGHT - BOTTOM

    def x(i: int) -> float:
        return x0 + (x1 - x0) * (positions[i] / (total - 1) if total > 1 else 0.5)

    def y_points(v: float) -> float:
        return y1 - (y1 - y0) * (v - low) / (high - low)

    def y_rank(r: int) -> float:
        return y0 + (y1 - y0) * ((r - 1) / (worst - 1) if worst > 1 else 0)

    points_line = " ".join(f"{x(i):.1f},{y_points(v):.1f}" for i, v in enumerate(values))
    rank_line = " ".join(f"{x(i):.1f},{y_rank(r):.1f}" for i, r in enumerate(ranks))
    y_ticks = [(y_points(low + (high - low) * k / 4), _fmt(low + (high - low) * k / 4)) for k in range(5)]
    rank_ticks = sorted({(y_rank(r), str(r)) for r in {1, (worst + 1) // 2, worst}})
    x_labels = [(x(i), history[i][0]) for i in sorted({0, n - 1})]
    elo_line, elo_labels, final_elo = "", [], None
    drawn = [(i, e) for i, e in enumerate(elo or ()) if e is not None]
    if drawn:
        e_low, e_high = min(e for _, e in drawn), max(e for _, e in drawn)
        span = (e_high - e_low) or 1.0

        def y_elo(v: float) -> float:
            return y1 - (y1 - y0) * (v - e_low) / span

        elo_line = " ".join(f"{x(i):.1f},{y_elo(e):.1f}" for i, e in drawn)
        elo_labels = sorted({(y_elo(e_low), f"{e_low:.0f}"), (y_elo(e_high), f"{e_high:.0f}")})
        final_elo = drawn[-1][1]
    rows = sorted({*range(0, n, max(1, -(-n // TABLE_ROWS))), n - 1})
    return Chart(
        width=WIDTH, height=HEIGHT, points_line=points_line, rank_line=rank_line, y_ticks=y_ticks,
        rank_ticks=rank_ticks, x_labels=x_labels, zero_y=y_points(0.0) if low < 0 < high else None, games=total,
        final_points=final[1], final_rank=final[2], best_rank=best_rank,
        table=[(positions[i] + 1, history[i][0], history[i][1], history[i][2]) for i in rows],
        elo_line=elo_line, elo_labels=elo_labels, final_elo=final_elo,
    )
