"""The long tables' body rows written in Python: the standings (`ratings/_standings_table.html`) and the profile's
games and tournaments (`ratings/_card_body.html`).

A table of hundreds of rows cost the template engine tens of thousands of node renders (a variable lookup, a
`localize`, a `conditional_escape` and a `get_language` per cell); here a row is one format string. Every value
goes through `escape` (a nickname or a tournament name is what a player or an admin typed), numbers are written
with `%d` and the decimals come preformatted from `ratings.standings.selectors_tables`. The words of a row are
translated once per table, not once per row. The row partials of the templates call these functions, so a row
rendered alone (`…#standings-row`) and in its table are the same HTML.
"""

from __future__ import annotations

from collections.abc import Iterable
from html import escape as _escape

from django.utils.dateformat import format as format_date
from django.utils.formats import get_format
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from ratings.standings.selectors_tables import GameRow, StandingsRow, TournamentRow


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


def standings_rows(rows: Iterable[StandingsRow]) -> SafeString:
    """The `<tr>`s of a standings table, one a line."""
    title, word = escape(_("A game of this player is under protest: the row may change.")), escape(_("provisional"))
    badge = f' <span class="badge text-bg-warning" title="{title}">{word}</span>'
    return mark_safe("\n".join(_standings_row(row, badge) for row in rows))  # every value escaped


def tie_notes(notes: Iterable[str]) -> SafeString:
    """The footnotes under a standings table (`<li id="tie-1">…</li>`, the targets of the rows' marks)."""
    return mark_safe("".join(  # every note escaped
        f'<li id="tie-{n:d}">{escape(note)}</li>' for n, note in enumerate(notes, start=1)))


def _game_row(g: GameRow, date_format: str, game: str) -> str:
    tournament = f'<span class="d-none d-sm-inline">{escape(g.tournament)} — </span>' if g.tournament else ""
    return (f'<tr><td>{escape(format_date(g.date, date_format))}</td><td><a href="{escape(g.url)}">{tournament}'
            f'{game} {g.number:d}</a></td><td>{escape(g.role)}{" ✓" if g.won else ""}</td>'
            f'<td class="text-end">{escape(g.total)}</td></tr>')


def game_rows(rows: Iterable[GameRow]) -> SafeString:
    """The `<tr>`s of a profile's page of games (the date in the SHORT_DATE_FORMAT, as `|date:"SHORT_DATE_FORMAT"`)."""
    date_format, game = get_format("SHORT_DATE_FORMAT"), escape(_("game"))
    return mark_safe("\n".join(_game_row(g, date_format, game) for g in rows))  # every value escaped


def tournament_rows(rows: Iterable[TournamentRow]) -> SafeString:
    """The `<tr>`s of a profile's latest tournaments."""
    return mark_safe("\n".join(  # every value escaped
        f'<tr><td><a href="{escape(t.url)}">{escape(t.name)}</a></td><td class="text-end">{t.rank:d}</td>'
        f'<td class="text-end">{t.games:d}</td><td class="text-end">{escape(t.total)}</td></tr>' for t in rows))
