"""Standings tables' rows as plain values for the templates' row partials (`ratings/_standings_table.html`,
`ratings/_card_body.html`): Python reads and formats, the templates write the HTML.

A table of a few hundred rows is read with `values_list`, its numbers formatted here as the `|points` and
`|floatformat:"3"` filters do (the locale's decimal separator, never thousands separators) and its links built
from one reversed URL, so a row's template applies no filter and no `{% url %}`. The
rendered table is cached under the scope's version (`ratings.standings.views._standings_table`, the player card's
`selectors.cached`), so a render happens once per change of the scope, whatever the number of readers.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal

from django.utils.formats import get_format
from django.utils.translation import gettext as _

from club.html import url_of
from games.i18n import role_letter
from ratings.models import PlayerStats, RatingScope
from ratings.standings.selectors import label_of

THOUSANDTH = Decimal("0.001")


def points_text(value: Decimal, sep: str) -> str:
    """As the `|points` filter: at most 3 decimals, no trailing zeros."""
    number = value.quantize(THOUSANDTH, rounding=ROUND_HALF_UP).normalize()
    if number == 0:
        return "0"
    return f"{number:f}".replace(".", sep)


def _three(value: Decimal, sep: str) -> str:
    """As `|floatformat:"3"`: exactly 3 decimals."""
    return f"{value.quantize(THOUSANDTH, rounding=ROUND_HALF_UP):f}".replace(".", sep)


class _Points(dict):
    """`points_text` with a memo, for one table: a column repeats its values (the main points are whole numbers, the
    extras a few steps of 0.1), and the formatting is most of a row's cost."""

    def __init__(self, sep: str):
        super().__init__()
        self.sep = sep

    def __missing__(self, value: Decimal) -> str:
        text = self[value] = points_text(value, self.sep)
        return text


@dataclass(frozen=True)
class StandingsRow:
    rank: int
    url: str
    nickname: str
    games: int
    wins: int
    main: str
    extras: str
    total: str
    average: str
    ties: list[int]  # the footnotes of the decided ties this row is part of
    provisional: bool  # a game of this player is under protest


def standings_rows(scope: RatingScope, provisional: set[int]) -> tuple[list[StandingsRow], list[str]]:
    """The rows of the scope's table and the footnotes of the ties a tie-breaker decided.

    A decided tie is marked on both of its rows (the tie-breaker describes the pair, not the lower player alone):
    a footnote number in the tie-breaker column, and under the table «¹ Места 3 и 4: суммы равны, порядок решил
    показатель «…»»."""
    sep, profile = get_format("DECIMAL_SEPARATOR"), url_of("player_detail")
    stored = list(PlayerStats.objects.filter(scope=scope).order_by("rank", "id").values_list(
        "rank", "player_id", "player__nickname", "games", "wins", "main", "extras", "total", "decided_by"))
    marks: list[list[int]] = [[] for _row in stored]
    notes, note = [], _("Places %(upper)s and %(lower)s: equal totals; the order was decided by «%(label)s».")
    labels = {}
    for i, row in enumerate(stored):
        if row[8] and i > 0:
            label = labels.get(row[8]) or labels.setdefault(row[8], label_of(row[8]))
            notes.append(note % {"upper": stored[i - 1][0], "lower": row[0], "label": label})
            marks[i - 1].append(len(notes))
            marks[i].append(len(notes))
    points = _Points(sep)
    rows = [StandingsRow(rank=rank, url=profile % player_id, nickname=nickname, games=games, wins=wins,
                         main=points[main], extras=points[extras], total=points[total],
                         average=_three(total / games if games else Decimal(0), sep), ties=refs,
                         provisional=player_id in provisional)
            for (rank, player_id, nickname, games, wins, main, extras, total, _decided), refs
            in zip(stored, marks, strict=True)]
    return rows, notes


@dataclass(frozen=True)
class GameRow:
    date: dt.date  # shown with the SHORT_DATE_FORMAT
    url: str
    tournament: str
    number: int
    role: str
    won: bool
    total: str


def profile_games_rows(games: list[dict]) -> list[GameRow]:
    """The rows of a profile's page of games (`selectors_card.player_card(...).games`)."""
    sep, url = get_format("DECIMAL_SEPARATOR"), url_of("games:game_detail")
    return [GameRow(date=g["date"], url=url % g["game_id"], tournament=g["tournament_name"] or "",
                    number=g["number"], role=role_letter(g["role"]), won=bool(g["won"]),
                    total=points_text(g["total"], sep))
            for g in games]


@dataclass(frozen=True)
class TournamentRow:
    url: str
    name: str
    rank: int
    games: int
    total: str


def player_tournaments_rows(rows: list[tuple]) -> list[TournamentRow]:
    """The rows of a profile's latest tournaments (`selectors.player_tournaments`)."""
    sep, url = get_format("DECIMAL_SEPARATOR"), url_of("ratings:tournament_standings")
    return [TournamentRow(url=url % tournament_id, name=name, rank=rank, games=games, total=points_text(total, sep))
            for tournament_id, name, rank, games, total in rows]
