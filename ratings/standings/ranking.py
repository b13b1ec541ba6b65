"""Standings: per-player aggregates, the tie-break metrics registry and the ranking (pure Python, no Django).

Shaped after Tabbycat's `standings/metrics.py`: every tie-breaker is a named `Metric` in `METRICS` with a label and a
function over a player's aggregate (`PlayerRecord`). A rule set lists the names in order (`RuleSet.tiebreakers`,
docs/rules.md D8; 000 T6.2–6.2.4, 002 III.14–14.6); `rank()` sorts by total, then by those names.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from games.rules.ruleset import TB_LOT, TIEBREAKER_LABELS
from games.rules.scoring import GameScore, SeatScore

ZERO = Decimal("0")
LOT = TB_LOT


@dataclass
class PlayerRecord:
    player: str
    games: int = 0
    wins: int = 0
    main: Decimal = ZERO
    extras: Decimal = ZERO
    total: Decimal = ZERO
    tiebreak_extras: Decimal = ZERO  # the "extras" bucket of the rule set (docs/rules.md A16)
    wins_difficult: int = 0  # 000 T6.2.2 wins as Д or Ш; 002 III.14.3 wins on a "difficult card" (docs/rules.md A17)
    extras_difficult: Decimal = ZERO  # 002 III.14.4 extras on a difficult card
    first_night_deaths: int = 0  # 000 T6.2.3, 002 III.14.5

    def add_game(self, seat_score: SeatScore, difficult_roles: Collection[str]) -> None:
        difficult = seat_score.role in difficult_roles
        self.games += 1
        self.main += seat_score.main
        self.extras += seat_score.extras
        self.total += seat_score.total
        self.tiebreak_extras += seat_score.tiebreak_extras
        if seat_score.won:
            self.wins += 1
            if difficult:
                self.wins_difficult += 1
        if difficult:
            self.extras_difficult += seat_score.tiebreak_extras
        if seat_score.first_night_death:
            self.first_night_deaths += 1


@dataclass(frozen=True)
class Metric:
    name: str
    label: str  # Russian UI
    label_en: str
    value: Callable[[PlayerRecord], Any]  # more is better


METRICS: dict[str, Metric] = {}


def register(name: str) -> Callable[[Callable[[PlayerRecord], Any]], Callable]:
    """Compute the tie-breaker `name` of the rule sets' vocabulary (labels: `games.rules.ruleset.TIEBREAKER_LABELS`)."""
    def decorator(func: Callable[[PlayerRecord], Any]) -> Callable[[PlayerRecord], Any]:
        METRICS[name] = Metric(name, *TIEBREAKER_LABELS[name], func)
        return func

    return decorator


@register("total")
def _total(record: PlayerRecord) -> Decimal:
    return record.total


@register("extras")
def _extras(record: PlayerRecord) -> Decimal:
    return record.tiebreak_extras


@register("wins")
def _wins(record: PlayerRecord) -> int:
    return record.wins


@register("wins_difficult")
def _wins_difficult(record: PlayerRecord) -> int:
    return record.wins_difficult


@register("extras_difficult")
def _extras_difficult(record: PlayerRecord) -> Decimal:
    return record.extras_difficult


@register("first_night_deaths")
def _first_night_deaths(record: PlayerRecord) -> int:
    return record.first_night_deaths


# The lot has no value over the record: it is drawn once and stored (docs/rules.md D8); `rank()` reads it from `lots`.
METRICS[LOT] = Metric(LOT, *TIEBREAKER_LABELS[LOT], lambda record: None)  # noqa: ARG005 — record: every metric is called with the record


@dataclass
class StandingRow:
    rank: int  # 1-based
    player: str
    record: PlayerRecord
    decided_by: str | None  # the tie-breaker that put this row below the previous one; None if the total did
    provisional: bool = False  # a game of this player in the scope is under protest (filled by ratings.standings.selectors)
    player_id: int | None = None  # the stored player, when the row comes from the database


def aggregate(game_scores: Iterable[GameScore], difficult_roles: Collection[str]) -> dict[str, PlayerRecord]:
    records: dict[str, PlayerRecord] = {}
    for game in game_scores:
        for seat_score in game.seats:
            record = records.setdefault(seat_score.player, PlayerRecord(seat_score.player))
            record.add_game(seat_score, difficult_roles)
    return records


def _key_part(name: str, lots: Mapping[str, int]) -> Callable[[PlayerRecord], Any]:
    """The sort key part of the tie-breaker `name` for a record (more is better, so negated; the lot: lower is
    better)."""
    if name == LOT:
        # 000 T6.2.4 / 002 III.14.6: the stored lot, lower first; players without a lot (no lot drawn: a season)
        # go last and are not told apart by it: equal on every other key, they share the place (listed by name).
        def lot(record: PlayerRecord) -> tuple:
            number = lots.get(record.player)
            return (0, number) if number is not None else (1, 0)
        return lot
    try:
        value = METRICS[name].value
    except KeyError as exc:
        raise KeyError(f"unknown tie-breaker {name!r}; known: {', '.join(METRICS)}") from exc
    return lambda record: -value(record)


def rank(
    records: Mapping[str, PlayerRecord] | Iterable[PlayerRecord],
    tiebreakers: Sequence[str],
    lots: Mapping[str, int],
) -> list[StandingRow]:
    """Sort by total (desc), then each tie-breaker in order (more is better; the lot: lower is better).

    Rows equal on every key share a rank (possible only without a lot); they are listed by name.
    """
    rows = list(records.values()) if isinstance(records, Mapping) else list(records)
    names = [n for n in tiebreakers if n != "total"]  # within a group of equal totals
    parts = [_key_part(name, lots) for name in names]  # refuses an unknown name even when no tie needs it

    def key(record: PlayerRecord) -> tuple:
        return (*(part(record) for part in parts), record.player)

    # By total first; the tie-breakers are computed only inside a group of equal totals (most totals differ).
    by_total: dict[Decimal, list[PlayerRecord]] = {}
    for record in rows:
        by_total.setdefault(record.total, []).append(record)
    standings: list[StandingRow] = []
    position = 0
    for total in sorted(by_total, reverse=True):
        group = by_total[total]
        # each key made once: the sort and the comparison with the row above read the same tuples
        keyed = sorted(((key(r), r) for r in group), key=lambda pair: pair[0]) if len(group) > 1 else [((), group[0])]
        previous: tuple = ()
        for index, (values, record) in enumerate(keyed):
            position += 1
            if index == 0:  # below a higher total (or the first row)
                standings.append(StandingRow(position, record.player, record, None))
                previous = values
                continue
            above = standings[-1]
            decided_by = next((name for i, name in enumerate(names) if values[i] != previous[i]), None)
            previous = values
            if decided_by is None:  # equal on every key: same rank
                standings.append(StandingRow(above.rank, record.player, record, None))
            else:
                standings.append(StandingRow(position, record.player, record, decided_by))
    return standings


def draw_lots(players: Iterable[str], rng: random.Random) -> dict[str, int]:
    """Lot numbers 1..n in a random order, drawn once and stored (docs/rules.md D8)."""
    order = sorted(set(players))
    rng.shuffle(order)
    return {player: number for number, player in enumerate(order, start=1)}
