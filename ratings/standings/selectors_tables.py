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
from collections.abc import Iterable
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


def _places(values: Iterable[Decimal]) -> int:
    """The decimals a column of points needs (at most 3, as `points_text`): every value of it is written with them."""
    most = 0
    for value in values:
        exponent = value.quantize(THOUSANDTH, rounding=ROUND_HALF_UP).normalize().as_tuple().exponent
        most = max(most, -exponent if isinstance(exponent, int) else 0)
    return min(most, 3)


class _Points(dict):
    """One column's points with a memo: every value with the column's decimals (one format per column: «1,50» and
    «1,00», never «1,5» beside «1»); a column repeats its values, and the formatting is most of a row's cost."""

    def __init__(self, sep: str, places: int):
        super().__init__()
        self.sep = sep
        self.step = Decimal(1).scaleb(-places)

    def __missing__(self, value: Decimal) -> str:
        text = self[value] = f"{value.quantize(self.step, rounding=ROUND_HALF_UP):f}".replace(".", self.sep)
        return text


def _shared_places(ranks: list[int]) -> list[str]:
    """A place as the table writes it: «3» alone, «3–8» when six rows share place 3 (equal on every criterion)."""
    count: dict[int, int] = {}
    for rank in ranks:
        count[rank] = count.get(rank, 0) + 1
    return [f"{rank}–{rank + count[rank] - 1}" if count[rank] > 1 else str(rank) for rank in ranks]


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
    place: str = ""  # the rank as written: «3», or «3–8» for a place shared by rows equal on every criterion

    def __post_init__(self) -> None:
        if not self.place:
            object.__setattr__(self, "place", str(self.rank))


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
    labels = {}  # type: ignore[var-annotated]
    for i, row in enumerate(stored):
        if row[8] and i > 0:
            label = labels.get(row[8]) or labels.setdefault(row[8], label_of(row[8]))
            notes.append(note % {"upper": stored[i - 1][0], "lower": row[0], "label": label})
            marks[i - 1].append(len(notes))
            marks[i].append(len(notes))
    mains, extras_, totals = (_Points(sep, _places(r[k] for r in stored)) for k in (5, 6, 7))  # type: ignore[misc]
    places = _shared_places([r[0] for r in stored])
    rows = [StandingsRow(rank=rank, url=profile % player_id, nickname=nickname, games=games, wins=wins,
                         main=mains[main], extras=extras_[extras], total=totals[total],
                         average=_three(total / games if games else Decimal(0), sep), ties=refs,
                         provisional=player_id in provisional, place=place)
            for (rank, player_id, nickname, games, wins, main, extras, total, _decided), refs, place
            in zip(stored, marks, places, strict=True)]
    return rows, notes


@dataclass(frozen=True)
class GameRow:
    date: dt.date  # shown with the locale's DATE_FORMAT
    url: str
    tournament: str  # the event: the tournament's name, or the club night's
    number: int
    role: str
    won: bool
    total: str
    elo_delta: float | None = None  # the game's change of his Elo (None: it changed none)


def profile_games_rows(games: list[dict]) -> list[GameRow]:
    """The rows of a profile's page of games (`selectors_card.player_card(...).games`)."""
    sep, url = get_format("DECIMAL_SEPARATOR"), url_of("games:game_detail")
    evening = _("Club evening")
    return [GameRow(date=g["date"], url=url % g["game_id"],
                    tournament=g["tournament_name"] or g.get("evening_name") or (evening if g.get("evening_id") else ""),
                    number=g["number"], role=role_letter(g["role"]), won=bool(g["won"]),
                    total=points_text(g["total"], sep), elo_delta=g.get("elo_delta"))
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
