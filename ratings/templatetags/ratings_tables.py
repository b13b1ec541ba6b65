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

from django import template
from django.template.defaultfilters import floatformat
from django.utils.dateformat import format as format_date
from django.utils.formats import get_format
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from club.html import escape, url_of
from ratings.card.chart import CardChart, Series, SeriesPoint
from ratings.card.selectors import FormGame
from ratings.standings.selectors import RoleLine
from ratings.standings.selectors_tables import GameRow, StandingsRow, TournamentRow, points_text

register = template.Library()


def _standings_row(row: StandingsRow, badge: str) -> str:
    ties = " ".join(f'<a href="#tie-{n:d}" class="tie-ref">{n:d}</a>' for n in row.ties)
    marked = ' class="table-warning" data-provisional="1"' if row.provisional else ""
    return (f'<tr{marked}><td>{escape(row.place)}</td><td><a href="{escape(row.url)}">{escape(row.nickname)}</a>'
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


def _elo_change(delta: float | None) -> str:
    """A game's Elo change as «+12» / «−7» / «±0»; «—» for a game that changed no Elo."""
    if delta is None:
        return "—"
    n = round(delta)
    return f"+{n:d}" if n > 0 else f"−{-n:d}" if n < 0 else "±0"


def _game_row(g: GameRow, date_format: str, game: str) -> str:
    event = f'<span class="d-none d-sm-inline">{escape(g.tournament)} — </span>' if g.tournament else ""
    return (f'<tr><td>{escape(format_date(g.date, date_format))}</td><td><a href="{escape(g.url)}">{event}'
            f'{game} {escape(g.number)}</a></td><td>{escape(g.role)}{" ✓" if g.won else ""}</td>'
            f'<td class="text-end">{escape(g.total)}</td>'
            f'<td class="text-end" data-testid="game-elo">{escape(_elo_change(g.elo_delta))}</td></tr>')


@register.simple_tag
def game_rows(rows: Iterable[GameRow]) -> SafeString:
    """The `<tr>`s of a profile's page of games (the date in the locale's DATE_FORMAT, as everywhere on the card)."""
    date_format, game = get_format("DATE_FORMAT"), escape(_("game"))
    return mark_safe("\n".join(_game_row(g, date_format, game) for g in rows))  # every value escaped


@register.simple_tag
def tournament_rows(rows: Iterable[TournamentRow]) -> SafeString:
    """The `<tr>`s of a profile's latest tournaments."""
    return mark_safe("\n".join(  # every value escaped
        f'<tr><td><a href="{escape(t.url)}">{escape(t.name)}</a></td><td class="text-end">{t.rank:d}</td>'
        f'<td class="text-end">{t.games:d}</td><td class="text-end">{escape(t.total)}</td></tr>' for t in rows))


@register.simple_tag
def season_options(seasons: Iterable, season) -> SafeString:
    """The `<option>`s of the ratings filter's seasons (`ratings/_filter.html`): name and dates, the shown one
    selected."""
    date_format, chosen = get_format("DATE_FORMAT"), season.pk if season else None
    return mark_safe("".join(  # every value escaped
        f'<option value="{s.pk:d}"{" selected" if s.pk == chosen else ""}>{escape(s.name)} '
        f'({escape(format_date(s.start, date_format))}–{escape(format_date(s.end, date_format))})</option>'
        for s in seasons))


@register.simple_tag
def tournament_options(tournaments: Iterable[tuple], tournament) -> SafeString:
    """The `<option>`s of the filter's tournaments (`selectors.player_tournaments` rows), the shown one selected."""
    chosen = tournament.pk if tournament else None
    return mark_safe("".join(  # every value escaped
        f'<option value="{t[0]:d}"{" selected" if t[0] == chosen else ""}>{escape(t[1])}</option>'
        for t in tournaments))


ROLE_BAR_CLASSES = ("citizen", "mafia", "sheriff", "don")  # the order of `selectors.role_lines`


@register.simple_tag
def role_bars(roles: Iterable[RoleLine]) -> SafeString:
    """The `<li>`s of the card's role bars: the letter, a bar as long as the win rate, games, wins and the rate."""
    numbers = _("%(letter)s: %(games)s games, %(wins)s wins")
    bars = []
    for r, css in zip(roles, ROLE_BAR_CLASSES, strict=False):
        rate = r.win_rate
        text = escape(numbers % {"letter": r.letter, "games": r.games, "wins": r.wins})
        share, shown = ("0", "") if rate is None else (floatformat(rate, "0u"), f" · {floatformat(rate, '0')}%")
        bars.append(
            f'\n      <li class="role-bar role-{css}" data-testid="role-bar">\n        <span class="role-letter" '
            f'aria-hidden="true">{escape(r.letter)}</span>\n        <span class="role-track"><span class="role-fill" '
            f'style="--share: {share}%"></span></span>\n        <span class="role-numbers">{text}{shown}'
            f'</span>\n      </li>')
    return mark_safe("".join(bars))  # every text escaped, the rates are numbers


@register.simple_tag
def form_chips(form: Iterable[FormGame]) -> SafeString:
    """The `<li>`s of the card's recent form: a chip per game, its role and result, a link to its protocol."""
    url, win, loss, game = url_of("games:game_detail"), escape(_("win")), escape(_("loss")), escape(_("game"))
    date_format = get_format("DATE_FORMAT")
    chips = []
    for g in form:
        tournament = f"{escape(g.tournament_name)}, " if g.tournament_name else ""
        chips.append(
            f'\n      <li><a class="result-chip {"chip-win" if g.won else "chip-loss"} role-{escape(g.role_key)}" '
            f'href="{escape(url % g.game_id)}" data-testid="form-chip">\n        <span class="chip-role">'
            f'{escape(g.role or "?")}</span><span class="chip-result">{win if g.won else loss}</span>\n        '
            f'<span class="visually-hidden">, {tournament}{game} {escape(g.number)}, '
            f'{escape(format_date(g.date, date_format))}</span></a></li>')
    return mark_safe("".join(chips))  # every value escaped


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


@register.simple_tag(name="chart_points")
def series_points(series: Series) -> SafeString:
    """The series' points: a link to the game's protocol around a circle, titled with `PointText`."""
    url, text_of = url_of("games:game_detail"), PointText(series.key)
    html = []
    for p in series.points:
        text = escape(text_of(p))
        html.append(f'<a href="{escape(url % p.game.game_id)}" class="chart-point" aria-label="{text}"><title>{text}'
                    f'</title><circle cx="{p.x:.1f}" cy="{p.y:.1f}" r="7"/></a>')
    return mark_safe("".join(html))  # every text escaped, the coordinates are numbers


def _series_title(key: str) -> str:
    if key == "points":
        return _("Cumulative points after each game")
    return _("Place after each game") if key == "rank" else _("Elo after each game")


def _latest_text(series: Series, sep: str) -> str:
    value = series.latest.value  # type: ignore[union-attr]
    if series.key == "points":
        return points_text(value, sep)
    return f"{pgettext('standings', 'place')} {value}" if series.key == "rank" else floatformat(value, "0")


@register.simple_tag
def chart_figure(chart: CardChart, series: Series) -> SafeString:
    """One series of the card's chart as its `<figure>`: axes, grid and its labels, the dates, the line, the points
    (`series_points`) and the latest value. The coordinates are written as `|floatformat:'1u'` does (they are
    rounded to 0.1 already), the tick values as `|floatformat` does, the dates in the locale's DATE_FORMAT."""
    key, sep, left, right, font = escape(series.key), get_format("DECIMAL_SEPARATOR"), chart.plot_left, chart.plot_right, chart.font
    date_format = get_format("DATE_FORMAT")
    ticks = "".join(
        f'\n            <line class="chart-grid" x1="{left:d}" x2="{right:d}" y1="{y:.1f}" y2="{y:.1f}"/>'
        f'\n            <text class="chart-label" x="{left - 6:d}" y="{y:.1f}" font-size="{font:d}" text-anchor="end" '
        f'dominant-baseline="middle">{escape(floatformat(value, "-1" if series.key == "points" else "0"))}</text>'
        for y, value in series.y_ticks)
    dates = "".join(
        f'<text class="chart-label" x="{x:.1f}" y="{chart.height - 8:d}" font-size="{font:d}" '
        f'text-anchor="{escape(anchor)}">{escape(format_date(date, date_format))}</text>'
        for x, date, anchor in chart.x_labels)
    latest = ""
    if series.latest is not None:
        p = series.latest
        latest = (f'<circle class="chart-latest" cx="{p.x:.1f}" cy="{p.y:.1f}" r="4"/>\n          <text class="chart-label '
                  f'chart-latest-label" x="{p.x:.1f}" y="{series.latest_label_y:.1f}" font-size="{font:d}" '
                  f'text-anchor="end" data-testid="latest-label">{escape(_latest_text(series, sep))}</text>')
    return mark_safe(  # every text escaped, the coordinates are numbers
        f'<figure class="chart-series chart-series-{key}" data-series="{key}">\n        <svg viewBox="0 0 '
        f'{chart.width:d} {chart.height:d}" width="100%" role="group" aria-labelledby="chart-title-{key}" '
        f'xmlns="http://www.w3.org/2000/svg">\n          <title id="chart-title-{key}">{escape(_series_title(series.key))}'
        f'</title>\n          <line class="chart-axis" x1="{left:d}" x2="{left:d}" y1="{chart.plot_top:d}" '
        f'y2="{chart.plot_bottom:d}"/>\n          <line class="chart-axis" x1="{left:d}" x2="{right:d}" '
        f'y1="{chart.plot_bottom:d}" y2="{chart.plot_bottom:d}"/>{ticks}\n          {dates}\n          '
        f'<polyline class="chart-line" points="{escape(series.line)}" fill="none"/>\n          {series_points(series)}'
        f'\n          {latest}\n        </svg>\n      </figure>')


@register.simple_tag
def standings_row(row: StandingsRow) -> SafeString:
    return standings_rows([row])


@register.simple_tag
def game_row(row: GameRow) -> SafeString:
    return game_rows([row])


@register.simple_tag
def tournament_row(row: TournamentRow) -> SafeString:
    return tournament_rows([row])
