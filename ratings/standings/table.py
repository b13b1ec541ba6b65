"""A scope's table: its players' `PlayerStats` rows (the registry's statistics), ranked by the rule set's
tie-breakers and written where they changed — from one SQL aggregate (`stats_values`, the full recompute) or by
difference (`add_row`, the incremental update)."""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping
from operator import itemgetter
from typing import Any, cast

from club.bulk import insert_rows, update_rows
from club.models import Player
from ratings.models import Lot, PlayerGame, PlayerStats, RatingScope
from ratings.standings.ranking import PlayerRecord, draw_lots, rank
from ratings.statistics.registry import STAT_FIELDS, STATISTICS


def stats_values(scope: RatingScope) -> Iterator[dict]:
    """One SQL aggregate over the scope's PlayerGame rows: a dict of PlayerStats fields per player (the registry's
    `Statistic.aggregate` of each)."""
    aggregates = {s.key: s.aggregate() for s in STATISTICS}
    # aliased: an annotation may not shadow the model field it sums
    rows = (PlayerGame.objects.filter(scope.games_q()).values("player_id").order_by("player_id")
            .annotate(**{f"agg_{k}": v for k, v in aggregates.items()}))
    # the aggregates' names are made here: no TypedDict of the stubs knows them
    for row in cast("Iterator[Mapping[str, Any]]", iter(rows)):
        yield {"player_id": row["player_id"], **{k: row[f"agg_{k}"] for k in aggregates}}


def add_row(values: dict[int, dict], row: dict, sign: int) -> None:
    """Add (sign 1) or subtract (-1) one PlayerGame row's share of its player's PlayerStats values (the registry's
    `Statistic.share` of each)."""
    v = values.get(row["player_id"])
    if v is None:
        v = values[row["player_id"]] = {"player_id": row["player_id"], **{s.key: s.zero() for s in STATISTICS}}
    for statistic in STATISTICS:
        v[statistic.key] += sign * statistic.share(row)


class StatsWrites:
    """The PlayerStats rows several scopes' rankings change, written together when `flush`ed: one DELETE, one
    UPDATE of the changed rows, one of the re-ranked rows and one INSERT for all the scopes."""

    def __init__(self) -> None:
        self.gone: list[int] = []  # ids
        self.changed: list[tuple[int, dict]] = []  # (id, rank, decided_by and STAT_FIELDS)
        self.moved: list[tuple[int, dict]] = []  # (id, rank and decided_by)
        self.create: list[tuple] = []  # scope_id, player_id, rank, decided_by, *STAT_FIELDS

    def flush(self) -> None:
        if self.gone:
            PlayerStats.objects.filter(pk__in=self.gone).delete()
        update_rows(PlayerStats, ["rank", "decided_by", *STAT_FIELDS], self.changed)
        update_rows(PlayerStats, ["rank", "decided_by"], self.moved)  # a re-rank moves many rows: two columns each
        insert_rows(PlayerStats, ["scope_id", "player_id", "rank", "decided_by", *STAT_FIELDS], self.create)
        self.__init__()  # type: ignore[misc]


def store_stats(scope: RatingScope, values: dict[int, dict], stored: dict[int, dict] | None = None,
                 writes: StatsWrites | None = None) -> None:
    """Rank the players' values (player id → PlayerStats fields) and write the rows that changed (`stored`: the
    scope's PlayerStats rows as read (`stored_stats`), when the caller has them; `writes`: the rows go there,
    for the caller to write)."""
    if stored is None:
        stored = stored_stats(scope)
    nicknames = {p: stored[p]["player__nickname"] for p in values if p in stored}
    if len(nicknames) < len(values):
        nicknames.update(Player.objects.filter(pk__in=[p for p in values if p not in stored])
                         .values_list("pk", "nickname"))
    records = {}
    for player_id, row in values.items():
        records[player_id] = PlayerRecord.of(nicknames[player_id], row)
    ruleset = scope.ruleset.ruleset() if scope.ruleset_id else None  # type: ignore[union-attr]  # read with the scope
    tiebreakers = ruleset.tiebreakers if ruleset else ()
    lots = _lots(scope, {nicknames[p]: p for p in values}) if scope.kind == RatingScope.Kind.TOURNAMENT else {}
    ids = {nick: pid for pid, nick in nicknames.items()}
    stored = dict(stored)
    out = writes if writes is not None else StatsWrites()
    create, moved, changed = out.create, out.moved, out.changed
    for standing in rank(list(records.values()), tiebreakers, lots):
        player_id = ids[standing.player]
        new = _stat_values(values[player_id])
        ranked = {"rank": standing.rank, "decided_by": standing.decided_by or ""}
        old = stored.pop(player_id, None)
        if old is None:
            create.append((scope.pk, player_id, ranked["rank"], ranked["decided_by"], *new))
        elif _stat_values(old) != new:
            changed.append((old["id"], {**ranked, **dict(zip(STAT_FIELDS, new, strict=True))}))
        elif (old["rank"], old["decided_by"]) != (ranked["rank"], ranked["decided_by"]):
            moved.append((old["id"], ranked))
    out.gone += [row["id"] for row in stored.values()]
    if writes is None:
        out.flush()


_getter: list = [(), None]  # (the STAT_FIELDS it was made for, the itemgetter)


def _stat_values(row: dict) -> tuple:
    """A row's STAT_FIELDS as a tuple (compared and written for every player): one itemgetter, made again only
    when a statistic was registered since (as a test does)."""
    fields = tuple(STAT_FIELDS)
    if _getter[0] != fields:
        _getter[:] = [fields, itemgetter(*fields)]
    return _getter[1](row)


def stored_stats(scope: RatingScope) -> dict[int, dict]:
    """The scope's PlayerStats rows by player: id, rank, decided_by, the nickname and the registry's values."""
    return stored_stats_of([scope.pk])[scope.pk]


def stored_stats_of(scope_ids: list[int]) -> dict[int, dict[int, dict]]:
    """`stored_stats` of several scopes in one query: scope id → player id → row."""
    found: dict[int, dict[int, dict]] = {pk: {} for pk in scope_ids}
    for row in PlayerStats.objects.filter(scope_id__in=scope_ids).values(
            "scope_id", "id", "player_id", "player__nickname", "rank", "decided_by", *STAT_FIELDS):
        found[row.pop("scope_id")][row["player_id"]] = row
    return found


def _lots(scope: RatingScope, players: dict[str, int]) -> dict[str, int]:
    """The stored lot; players without one get theirs drawn now, once (000 T6.2.4, 002 III.14.6)."""
    stored = dict(Lot.objects.filter(tournament_id=scope.tournament_id).values_list(  # type: ignore[misc]
        "player_id", "number"))
    missing = [pid for pid in players.values() if pid not in stored]
    if missing:
        start = max(stored.values(), default=0)
        numbers = draw_lots([str(pid) for pid in missing], random.SystemRandom())
        Lot.objects.bulk_create([Lot(tournament_id=scope.tournament_id, player_id=pid,  # type: ignore[misc]
                                     number=start + numbers[str(pid)]) for pid in missing], ignore_conflicts=True)
        stored = dict(Lot.objects.filter(tournament_id=scope.tournament_id).values_list(  # type: ignore[misc]
            "player_id", "number"))
    return {nick: stored[pid] for nick, pid in players.items() if pid in stored}
