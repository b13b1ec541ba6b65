"""Values the long tables and the card's chart need written once per table or series, not once per cell: the
chart's coordinates as SVG wants them (a point, never the reader's decimal comma), its tap texts and its links.

The rows themselves are templates' partials (`ratings/_standings_table.html#standings-row`,
`ratings/_card_body.html#game-row`, `#tournament-row`, `ratings/_card_chart.html#chart-figure`): a row rendered
alone and in its table are the same HTML, and the template engine escapes every value. These tags return plain
data, never HTML (tests/test_no_html_in_python.py).
"""

from __future__ import annotations

from dataclasses import dataclass

from django import template
from django.template.defaultfilters import floatformat
from django.utils.dateformat import format as format_date
from django.utils.formats import get_format
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from club.html import url_of
from ratings.card.chart import CardChart, Series, SeriesPoint
from ratings.card.selectors import ROLE_KEYS
from ratings.standings.selectors import RoleLine
from ratings.standings.selectors_tables import points_text

register = template.Library()


@dataclass(frozen=True)
class RoleBar:
    """One of the card's role bars: the role's line, its bar's length (`|floatformat:"0u"`) and its rate shown."""

    line: RoleLine
    css: str
    share: str
    rate: str


@register.simple_tag
def role_bars(roles: list[RoleLine]) -> list[RoleBar]:
    """The card's role bars: the role's colour, a bar as long as the win rate («0» without games)."""
    return [RoleBar(r, ROLE_KEYS[r.letter], "0", "") if r.win_rate is None else
            RoleBar(r, ROLE_KEYS[r.letter], floatformat(r.win_rate, "0u"), floatformat(r.win_rate, "0"))
            for r in roles]


class PointText:
    """What a tap or a hover on a point of one series says: the game, its date (the locale's DATE_FORMAT, as
    everywhere on the card, written once per date) and the series' value."""

    def __init__(self, key: str):
        self.key = key
        self.game = _("game %(number)s, %(date)s")
        self.value = {"points": _("%(points)s points"), "rank": _("place %(rank)s")}.get(key, _("Elo %(elo)s"))
        self.dates: dict = {}
        self.date_format = get_format("DATE_FORMAT")
        self.sep = get_format("DECIMAL_SEPARATOR")

    def __call__(self, point: SeriesPoint) -> str:
        date = point.game.date
        written = self.dates.get(date) or self.dates.setdefault(date, format_date(date, self.date_format))
        game = self.game % {"number": point.game.number, "date": written}
        if self.key == "points":
            value = self.value % {"points": points_text(point.value, self.sep)}  # type: ignore[arg-type]
        elif self.key == "rank":
            value = self.value % {"rank": point.value}
        else:
            value = self.value % {"elo": round(point.value)}
        return f"{game}: {value}"


@dataclass(frozen=True)
class ChartTick:
    y: str
    label: str


@dataclass(frozen=True)
class ChartDate:
    x: str
    date: object
    anchor: str


@dataclass(frozen=True)
class ChartLatest:
    x: str
    y: str
    label_y: str
    text: str


@dataclass(frozen=True)
class ChartFigure:
    """One series of the card's chart, its numbers written as `|floatformat:"1u"` writes them (they are rounded to
    0.1 already), its tick values as `|floatformat` does."""

    key: str
    title: str
    ticks: list[ChartTick]
    dates: list[ChartDate]
    line: str
    points: list[dict[str, str]]
    latest: ChartLatest | None
    date_y: int


def _series_title(key: str) -> str:
    if key == "points":
        return _("Cumulative points after each game")
    return _("Place after each game") if key == "rank" else _("Elo after each game")


def _latest_text(series: Series, sep: str) -> str:
    value = series.latest.value  # type: ignore[union-attr]
    if series.key == "points":
        return points_text(value, sep)  # type: ignore[arg-type]
    return f"{pgettext('standings', 'place')} {value}" if series.key == "rank" else floatformat(value, "0")


def series_points(series: Series) -> list[dict[str, str]]:
    """The series' points: a link to the game's protocol, titled with `PointText`. Dicts: the template finds a key
    at once, an attribute only after a failed key lookup (up to 450 points of four values)."""
    url, text_of = url_of("games:game_detail"), PointText(series.key)
    return [{"url": url % p.game.game_id, "text": text_of(p), "x": f"{p.x:.1f}", "y": f"{p.y:.1f}"}
            for p in series.points]


@register.simple_tag
def chart_figure(chart: CardChart, series: Series) -> ChartFigure:
    """One series of the card's chart (`ratings/_card_chart.html#chart-figure`): its grid, dates, line, points
    and latest value."""
    latest = None
    if series.latest is not None:
        p = series.latest
        latest = ChartLatest(f"{p.x:.1f}", f"{p.y:.1f}", f"{series.latest_label_y:.1f}",
                             _latest_text(series, get_format("DECIMAL_SEPARATOR")))
    return ChartFigure(
        key=series.key, title=_series_title(series.key),
        ticks=[ChartTick(f"{y:.1f}", floatformat(value, "-1" if series.key == "points" else "0"))
               for y, value in series.y_ticks],
        dates=[ChartDate(f"{x:.1f}", date, anchor) for x, date, anchor in chart.x_labels],
        line=series.line, points=series_points(series), latest=latest, date_y=chart.height - 8)


@register.filter
def elo_change(delta: float | None) -> str:
    """A game's Elo change as «+12» / «−7» / «±0»; «—» for a game that changed no Elo."""
    if delta is None:
        return "—"
    n = round(delta)
    return f"+{n:d}" if n > 0 else f"−{-n:d}" if n < 0 else "±0"
