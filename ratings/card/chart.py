"""The player card's chart: one series at a time (points · place · Elo), as plain numbers for an inline SVG.

Pure Python (no Django). The SVG is drawn in a small coordinate box (`WIDTH` × `HEIGHT`) with 14-unit labels, so
that on a 390 px phone, where the chart is about as wide as its box, every label is rendered at 12 px or more; on a
wide screen the chart is capped in CSS (`.card-chart svg`), so the labels grow only a little. Each point of a series
keeps its game (id, number, date) so that a tap or a hover shows the game, the value and a link to its protocol.
A long history arrives already sampled (`ratings.card.sampling.sample`), with each point's place among all the games.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass, field
from decimal import Decimal

WIDTH, HEIGHT = 360, 220
LEFT, RIGHT, TOP, BOTTOM = 52, 20, 16, 30
FONT = 14  # SVG units; the box is never drawn narrower than ~330 px on a phone (the card's padding)
TABLE_ROWS = 10


@dataclass(frozen=True)
class ChartGame:
    """One game of the history: its place among the player's games (from 0) and the three values after it."""

    n: int
    game_id: int
    number: int | None
    date: dt.date
    points: Decimal
    rank: int
    elo: float | None
    event: str = ""  # the tournament's or the club night's name (the history's rows say which game it was)
    table: int | None = None


@dataclass
class SeriesPoint:
    x: float
    y: float
    game: ChartGame
    value: Decimal | int | float


@dataclass
class Series:
    key: str  # "points", "rank", "elo": the switch's value and the CSS class, never shown
    points: list[SeriesPoint]
    line: str  # "x,y x,y …" for <polyline>
    y_ticks: list[tuple[float, Decimal | int | float]]  # (y, value); the template formats the value
    latest: SeriesPoint | None = None
    latest_label_y: float = 0.0  # above the latest point, or below it when it is near the top


@dataclass
class CardChart:
    width: int
    height: int
    series: list[Series]
    x_labels: list[tuple[float, dt.date, str]]  # (x, date, text-anchor)
    games: int
    table: list[ChartGame] = field(default_factory=list)
    font: int = FONT
    plot_left: int = LEFT
    plot_right: int = WIDTH - RIGHT
    plot_top: int = TOP
    plot_bottom: int = HEIGHT - BOTTOM


def _scale(low: float, high: float, *, invert: bool = False):
    y0, y1 = TOP, HEIGHT - BOTTOM
    if high == low:
        high = low + 1

    def y(v: float) -> float:
        share = (v - low) / (high - low)
        return y0 + (y1 - y0) * share if invert else y1 - (y1 - y0) * share

    return y


def _ticks(low: float, high: float, count: int = 3) -> list[float]:
    if high == low:
        return [low]
    return [low + (high - low) * k / (count - 1) for k in range(count)]


def _series(key: str, games: Sequence[ChartGame], xs: Sequence[float], values: Sequence, *,
            invert: bool = False, integer: bool = False) -> Series | None:
    drawn = [(x, g, v) for x, g, v in zip(xs, games, values, strict=True) if v is not None]
    if not drawn:
        return None
    numbers = [float(v) for _, _, v in drawn]
    low, high = min(numbers), max(numbers)
    if key == "points":
        low, high = min(0.0, low), max(0.0, high)
    y = _scale(low, high, invert=invert)
    points = [SeriesPoint(x=round(x, 1), y=round(y(float(v)), 1), game=g, value=v) for x, g, v in drawn]
    ticks = sorted({round(t) if integer else round(t, 1) for t in _ticks(low, high)})
    if integer and key == "rank":
        ticks = sorted({int(low), (int(low) + int(high)) // 2, int(high)})
    return Series(key=key, points=points, line=" ".join(f"{p.x:.1f},{p.y:.1f}" for p in points),
                  y_ticks=[(round(y(t), 1), t) for t in ticks], latest=points[-1],
                  latest_label_y=points[-1].y - 10 if points[-1].y > TOP + FONT + 6 else points[-1].y + FONT + 8)


def card_chart(games: Sequence[ChartGame], *, total: int) -> CardChart | None:
    """The chart of `games` (sampled, in order; `n` is each one's place among all `total` games)."""
    if not games:
        return None
    x0, x1 = LEFT, WIDTH - RIGHT

    def x(n: int) -> float:
        return x0 + (x1 - x0) * (n / (total - 1) if total > 1 else 0.5)

    xs = [x(g.n) for g in games]
    series = [s for s in (
        _series("points", games, xs, [g.points for g in games]),
        _series("rank", games, xs, [g.rank for g in games], invert=True, integer=True),
        _series("elo", games, xs, [g.elo for g in games], integer=True),
    ) if s is not None]
    ends = sorted({0, len(games) - 1})
    anchors = ["middle"] if len(ends) == 1 else ["start", "end"]
    x_labels = [(round(xs[i], 1), games[i].date, anchor) for i, anchor in zip(ends, anchors, strict=True)]
    step = max(1, -(-len(games) // TABLE_ROWS))
    rows = sorted({*range(0, len(games), step), len(games) - 1}, reverse=True)
    return CardChart(width=WIDTH, height=HEIGHT, series=series, x_labels=x_labels, games=total,
                     table=[games[i] for i in rows])
