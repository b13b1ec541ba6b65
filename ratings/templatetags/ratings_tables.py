"""The long tables' body rows and the card chart's points, written in Python: the standings
(`ratings/_standings_table.html`), the profile's games and tournaments (`ratings/_card_body.html`) and the points
of the card's chart (`ratings/_card_chart.html`).

A table of hundreds of rows, or a chart of three series of up to 150 points, cost the template engine thousands of
node renders (a lookup, a `localize`, a `conditional_escape` and a `get_language` per cell; a `{% url %}`, two
`floatformat`s, two translations and a date per point). Here a row or a point is one f-string: every string goes
through `escape` (a nickname or a tournament name is what a player or an admin typed), integers are written with
`:d`, the decimals come preformatted (`ratings.standings.selectors_tables`), the words are translated and the URL
reversed once per table or series. These are template tags (tests/test_no_html_in_python.py: HTML is written by
templates and template tags only), and the row partials of the templates call them too, so a row rendered alone
(`…#standings-row`) and in its table are the same HTML.
"""

from __future__ import annotations

from collections.abc import Iterable
from html import escape as _escape

from django import template
from django.urls import reverse
from django.utils.dateformat import format as format_date
from django.utils.dates import MONTHS_ALT
from django.utils.formats import get_format
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from ratings.card.chart import Series, SeriesPoint
from ratings.standings.selectors_tables import GameRow, StandingsRow, TournamentRow, points_text

register = template.Library()


def escape(value: object) -> str:
    """As `django.utils.html.escape` (the same entities: `&amp; &lt; &gt; &quot; &#x27;`), without its lazy-string
    wrapper: called thousands of times per table."""
    return _escape(str(value), quote=True)


def _standings_row(row: StandingsRow, badge: str) -> str:
    ties = " ".join(f'<a href="#tie-{n:d}" class="tie-ref">{n:d}</a>' for n in row.ties)
    marked = ' class="table-warning" data-provisional="1"' if row.provisional else ""
    return (f'<tr{marked}><td>{row.rank:d}</td><td><a href="{escape(row.url)}">{escape(row.nickname)}</a>'
            f'{badge if row.provisional else ""}</td><td class="text-end">{row.games:d}</td>'
            f'<td class="text-end fold">{row.wins:d}</td><td class="text-end fold">{escape(row.main)}</td>'
            f'<td class="text-end fold">{escape(row.extras)}</td><td class="text-end"><strong>{escape(row.total)}'
            f'</strong></td><td class="text-end fold">{escape(row.average)}</td>'
            f'<td class="small text-muted fold">{ties}</td></tr>')


@register.simple_tag
def standings_rows(rows: Iterable[StandingsRow]) -> SafeString:
    """The `<tr>`s of a standings table, one a line."""
    title, word = escape(_("A game of this player is under protest: the row may change.")), escape(_("provisional"))
    badge = f' <span class="badge text-bg-warning" title="{title}">{word}</span>'
    return mark_safe("\n".join(_standings_row(row, badge) for row in rows))  # every value escaped


@register.simple_tag
def tie_notes(notes: Iterable[str]) -> SafeString:
    """The footnotes under a standings table (`<li id="tie-1">…</li>`, the targets of the rows' marks)."""
    return mark_safe("".join(  # every note escaped
        f'<li id="tie-{n:d}">{escape(note)}</li>' for n, note in enumerate(notes, start=1)))


def _game_row(g: GameRow, date_format: str, game: str) -> str:
    tournament = f'<span class="d-none d-sm-inline">{escape(g.tournament)} — </span>' if g.tournament else ""
    return (f'<tr><td>{escape(format_date(g.date, date_format))}</td><td><a href="{escape(g.url)}">{tournament}'
            f'{game} {escape(g.number)}</a></td><td>{escape(g.role)}{" ✓" if g.won else ""}</td>'
            f'<td class="text-end">{escape(g.total)}</td></tr>')


@register.simple_tag
def game_rows(rows: Iterable[GameRow]) -> SafeString:
    """The `<tr>`s of a profile's page of games (the date in the SHORT_DATE_FORMAT, as `|date:"SHORT_DATE_FORMAT"`)."""
    date_format, game = get_format("SHORT_DATE_FORMAT"), escape(_("game"))
    return mark_safe("\n".join(_game_row(g, date_format, game) for g in rows))  # every value escaped


@register.simple_tag
def tournament_rows(rows: Iterable[TournamentRow]) -> SafeString:
    """The `<tr>`s of a profile's latest tournaments."""
    return mark_safe("\n".join(  # every value escaped
        f'<tr><td><a href="{escape(t.url)}">{escape(t.name)}</a></td><td class="text-end">{t.rank:d}</td>'
        f'<td class="text-end">{t.games:d}</td><td class="text-end">{escape(t.total)}</td></tr>' for t in rows))


class PointText:
    """What a tap or a hover on a point of one series says: the game, its date («12 марта 2026», as the
    `|date:"j E Y"` filter writes it, the month's name read once) and the series' value."""

    def __init__(self, key: str):
        self.key = key
        self.game = _("game %(number)s, %(date)s")
        self.value = {"points": _("%(points)s points"), "rank": _("place %(rank)s")}.get(key, _("Elo %(elo)s"))
        self.months = {month: str(name) for month, name in MONTHS_ALT.items()}
        self.sep = get_format("DECIMAL_SEPARATOR")

    def __call__(self, point: SeriesPoint) -> str:
        date = point.game.date
        game = self.game % {"number": point.game.number, "date": f"{date.day} {self.months[date.month]} {date.year:04d}"}
        if self.key == "points":
            value = self.value % {"points": points_text(point.value, self.sep)}
        elif self.key == "rank":
            value = self.value % {"rank": point.value}
        else:
            value = self.value % {"elo": round(point.value)}
        return f"{game}: {value}"


@register.simple_tag(name="chart_points")
def series_points(series: Series) -> SafeString:
    """The series' points: a link to the game's protocol around a circle, titled with `PointText`."""
    url, text_of = reverse("games:game_detail", args=[0]).replace("/0/", "/%d/"), PointText(series.key)
    html = []
    for p in series.points:
        text = escape(text_of(p))
        html.append(f'<a href="{escape(url % p.game.game_id)}" class="chart-point" aria-label="{text}"><title>{text}'
                    f'</title><circle cx="{p.x:.1f}" cy="{p.y:.1f}" r="7"/></a>')
    return mark_safe("".join(html))  # every text escaped, the coordinates are numbers


@register.simple_tag
def standings_row(row: StandingsRow) -> SafeString:
    return standings_rows([row])


@register.simple_tag
def game_row(row: GameRow) -> SafeString:
    return game_rows([row])


@register.simple_tag
def tournament_row(row: TournamentRow) -> SafeString:
    return tournament_rows([row])
