"""Standings tables rendered in Python: one formatted string per row, joined, for a lean template.

The Django template engine spends most of a first render on a few hundred rows of nine cells (a loop, filters and
`{% url %}` per row); here a row is one f-string over values read with `values_list`, numbers formatted as the
`|points` and `|floatformat:"3"` filters do (the locale's decimal separator, never thousands separators).
"""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal

from django.urls import reverse
from django.utils.dateformat import format as format_date
from django.utils.formats import get_format
from django.utils.html import escape
from django.utils.translation import gettext as _

from games.i18n import role_letter
from ratings.models import PlayerStats, RatingScope
from ratings.selectors import label_of

THOUSANDTH = Decimal("0.001")


def _points(value: Decimal, sep: str) -> str:
    """As the `|points` filter: at most 3 decimals, no trailing zeros."""
    number = value.quantize(THOUSANDTH, rounding=ROUND_HALF_UP).normalize()
    if number == 0:
        return "0"
    return f"{number:f}".replace(".", sep)


def _three(value: Decimal, sep: str) -> str:
    """As `|floatformat:"3"`: exactly 3 decimals."""
    return f"{value.quantize(THOUSANDTH, rounding=ROUND_HALF_UP):f}".replace(".", sep)


def standings_rows_html(scope: RatingScope, provisional: set[int]) -> tuple[str, int, str]:
    """The <tr> rows of the scope's table, their number, and the footnotes of the ties a tie-breaker decided.

    A decided tie is marked on both of its rows (the tie-breaker describes the pair, not the lower player alone):
    a footnote number in the tie-breaker column, and under the table «¹ Места 3 и 4: суммы равны, порядок решил
    показатель «…»»."""
    sep = get_format("DECIMAL_SEPARATOR")
    profile = reverse("player_detail", args=[0]).replace("/0/", "/%d/")
    title, text = escape(_("A game of this player is under protest: the row may change.")), escape(_("provisional"))
    badge = f' <span class="badge text-bg-warning" title="{title}">{text}</span>'
    warning = ' class="table-warning" data-provisional="1"'
    rows = list(PlayerStats.objects.filter(scope=scope).order_by("rank", "id").values_list(
        "rank", "player_id", "player__nickname", "games", "wins", "main", "extras", "total", "decided_by"))
    marks: list[list[int]] = [[] for _row in rows]
    notes = []
    for i, row in enumerate(rows):
        if row[8] and i > 0:
            notes.append(_("Places %(upper)s and %(lower)s: equal totals; the order was decided by «%(label)s».")
                         % {"upper": rows[i - 1][0], "lower": row[0], "label": label_of(row[8])})
            marks[i - 1].append(len(notes))
            marks[i].append(len(notes))
    out = []
    for (rank, player_id, nickname, games, wins, main, extras, total, _decided), refs in zip(rows, marks,
                                                                                             strict=True):
        mark = player_id in provisional
        average = total / games if games else Decimal(0)
        tie = " ".join(f'<a href="#tie-{n}" class="tie-ref">{n}</a>' for n in refs)
        out.append(
            f'<tr{warning if mark else ""}><td>{rank}</td>'
            f'<td><a href="{profile % player_id}">{escape(nickname)}</a>{badge if mark else ""}</td>'
            f'<td class="text-end">{games}</td><td class="text-end fold">{wins}</td>'
            f'<td class="text-end fold">{_points(main, sep)}</td><td class="text-end fold">{_points(extras, sep)}</td>'
            f'<td class="text-end"><strong>{_points(total, sep)}</strong></td>'
            f'<td class="text-end fold">{_three(average, sep)}</td>'
            f'<td class="small text-muted fold">{tie}</td></tr>')
    footnotes = "".join(f'<li id="tie-{n}">{escape(note)}</li>' for n, note in enumerate(notes, start=1))
    return "\n".join(out), len(out), footnotes


def profile_games_rows_html(games: list[dict]) -> str:
    """The <tr> rows of a profile's page of games (`selectors_card.player_card(...).games`)."""
    sep, short_date = get_format("DECIMAL_SEPARATOR"), get_format("SHORT_DATE_FORMAT")
    url = reverse("games:game_detail", args=[0]).replace("/0/", "/%d/")
    word = escape(_("game"))
    out = []
    for g in games:
        tournament = (f'<span class="d-none d-sm-inline">{escape(g["tournament_name"])} — </span>'
                      if g["tournament_name"] else "")
        out.append(
            f'<tr><td>{format_date(g["date"], short_date)}</td>'
            f'<td><a href="{url % g["game_id"]}">{tournament}{word} {g["number"]}</a></td>'
            f'<td>{escape(role_letter(g["role"]))}{" ✓" if g["won"] else ""}</td>'
            f'<td class="text-end">{_points(g["total"], sep)}</td></tr>')
    return "\n".join(out)


def player_tournaments_rows_html(rows: list[tuple]) -> str:
    """The <tr> rows of a profile's latest tournaments (`selectors.player_tournaments`)."""
    sep = get_format("DECIMAL_SEPARATOR")
    url = reverse("ratings:tournament_standings", args=[0]).replace("/0/", "/%d/")
    return "\n".join(
        f'<tr><td><a href="{url % tournament_id}">{escape(name)}</a></td><td class="text-end">{rank}</td>'
        f'<td class="text-end">{games}</td><td class="text-end">{_points(total, sep)}</td></tr>'
        for tournament_id, name, rank, games, total in rows)
