"""Writes of the stored ratings: per-game facts, per-scope aggregates, rating history.

`refresh(game_ids)` runs in the scoring transaction (`ratings.receivers` on `games.signals.scores_changed`). Its
cost follows what changed, not the season:

* the `PlayerGame` facts of the games are rebuilt in memory and compared with the stored ones; games whose facts
  did not change (a sign-off, the other games of a rescored tournament) are left alone — nothing else runs for them;
* each scope holding a changed game (the tournament, the seasons covering its date) has its `PlayerStats` updated
  incrementally: the changed games' old rows subtracted, the new ones added, the few hundred players re-ranked in
  Python; only the rows whose values or rank moved are written;
* the `RatingPoint` history is rewritten from the first changed game on, starting from the cumulative totals the
  stats give (no scan of the earlier history): at once for a short tail — a new game at the end is an append —
  and by the task worker for a long one (`recompute_history`), the pages saying "пересчитывается" meanwhile;
* the club statistics are computed when read (`ratings.standings.selectors.club_statistics`, cached per scope version);
* the club Elo follows the same rule (`ratings.elo.services`).

`recompute_scope` rebuilds a scope from its facts (one SQL aggregate): for a moved season, and by the rebuild beside
the running site (`ratings.standings.rebuild`, `manage.py rebuild_ratings`). `recompute_all` clears and rebuilds
every derived table at once, fast but only with no write meanwhile: the benches, and the reference the tests
compare the incremental path and the rebuild with.
"""

from __future__ import annotations

import bisect
import datetime as dt
from collections.abc import Iterable
from decimal import Decimal
from typing import Any

from django.db import connection, transaction
from django.db.models import Count, F, Q, Sum
from django.utils import timezone
from django_tasks import task

from club.bulk import analyze_tables, clear_tables, insert_rows, update_rows
from club.processes import part_transaction, run_parts, usable_workers
from games.models import Game, Tournament
from ratings.elo import services as services_elo
from ratings.keys import history_key
from ratings.models import (
    EloChange,
    EloRating,
    Lot,
    PendingTail,
    PlayerGame,
    PlayerStats,
    RatingPoint,
    RatingScope,
    Season,
    at_or_after,
)
from ratings.standings.facts import (
    changed_games,
    counted_games,
    fresh_facts,
    insert_facts,
    store_player_games,
    stored_facts,
)
from ratings.standings.table import StatsWrites, add_row, stats_values, store_stats, stored_stats_of
from ratings.tasks import pause_for_tests, requeue, stale_reason

UNITS = 1_000_000  # points are stored with 6 decimals: rank on integers


# ---------------------------------------------------------------------------------------------- entry points
def refresh(game_ids: Iterable[int]) -> int:
    """Bring the stored ratings up to date after these games were (re)scored. Call inside the scoring transaction.

    Creates the scopes the games belong to when missing (their tournament, the club's seasons covering their
    dates): scopes are made here, when games are scored, never by a page that reads them. Returns the number of
    games whose stored facts changed.
    """
    game_ids = list(game_ids)
    if not game_ids:
        return 0
    # No savepoint here nor in the writes it calls: a failure undoes the caller's whole write anyway, and each
    # savepoint cost PostgreSQL two more round trips (a protest decision made ten).
    with transaction.atomic(savepoint=False):
        old_rows = stored_facts(game_ids)
        new_rows, counting = fresh_facts(game_ids)
        changed = changed_games(old_rows, new_rows)
        if not changed:
            return 0
        old = [r for r in old_rows.values() if r["game_id"] in changed]
        new = [r for r in new_rows.values() if r["game_id"] in changed]
        PlayerGame.objects.filter(game_id__in=changed).delete()
        insert_facts(new)
        changed_keys = _game_keys(changed, counting)
        touched = ({(r["club_id"], r["tournament_id"], r["date"], r["game_id"]) for r in old + new}
                   | {row[:4] for row in changed_keys})
        since = min((date, pk) for _, _, date, pk in touched)
        tournament_ids = {t for _, t, _, _ in touched if t}
        dates_by_club: dict[int, set[dt.date]] = {}
        for club_id, _, date, _ in touched:
            dates_by_club.setdefault(club_id, set()).add(date)
        rulesets = {row[4] for row in changed_keys}
        update_scopes([(scope, [r for r in old if _in_scope(scope, r)], [r for r in new if _in_scope(scope, r)])
                       for scope in [*_tournament_scopes(tournament_ids), *_season_scopes(dates_by_club)]],
                      since=since, rulesets=rulesets)
        # Elo reads only who played on which side, the result and the date: a change of points leaves it alone.
        elo_key = ("player_id", "role", "won", "date", "club_id")

        def sides(rows):
            found: dict[int, set] = {}
            for r in rows:
                found.setdefault(r["game_id"], set()).add(tuple(r[k] for k in elo_key))
            return found

        before, after = sides(old), sides(new)
        moved = {g for g in before.keys() | after.keys() if before.get(g) != after.get(g)}
        services_elo.games_changed((club_id, date, pk) for club_id, _, date, pk in touched if pk in moved)
        return len(changed)


def _game_keys(game_ids: set[int], counting: dict[int, dict]) -> list[tuple]:
    """(club, tournament, date, id, rule set) of the games: from `counting` (the GAME_VALUES read with their facts),
    and read for the games that stopped counting."""
    keys = ("club_id", "tournament_id", "date", "pk", "ruleset_id")
    gone = game_ids - counting.keys()
    return [tuple(counting[pk][k] for k in keys) for pk in game_ids if pk in counting] + (
        list(Game.objects.filter(pk__in=gone).values_list(*keys)) if gone else [])


def update_scopes(changes: list[tuple[RatingScope, list[dict], list[dict]]], *, since: tuple[dt.date, int],
                  rulesets: set[int]) -> None:
    """Apply changed games to scopes, each given with its old and new PlayerGame rows: stats by difference,
    history from `since` (inline or queued), version. The scopes' rows are locked in one statement, their queued
    history tails read in one (after the lock, as the worker reads and deletes them holding it), their tables'
    rows and short history tails written together (`StatsWrites`, `PointWrites`) and their stamps in one UPDATE."""
    for scope in [s for s, _, _ in changes if s.refreshed_at is None]:  # never computed (just made): built whole
        recompute_scope(scope)
        changes = [c for c in changes if c[0] is not scope]
    if not changes:
        return
    with transaction.atomic(savepoint=False):
        versions = dict(RatingScope.objects.select_for_update().filter(pk__in=[s.pk for s, _, _ in changes])
                        .order_by("pk").values_list("pk", "version"))
        queued = {p.key: p for p in PendingTail.objects.filter(key__in=[history_key(pk) for pk in versions])}
        writes = PointWrites()  # the short history tails of all the scopes, written at once
        tables = StatsWrites()  # and their tables' rows
        totals: dict[int, dict[int, tuple[Decimal, int]]] = {}
        stored_of = stored_stats_of(list(versions))  # every scope's table in one read
        for scope, old, new in changes:
            if scope.ruleset_id is None or rulesets - {scope.ruleset_id} or len(old) > len(new):
                scope.ruleset_id = _scope_ruleset_id(scope)  # only when the games' mix of rule sets may have moved
            stored = stored_of[scope.pk]
            values = {p: dict(row) for p, row in stored.items()}  # (a copy: `stored` is compared with it)
            for row, sign in [*((r, -1) for r in old), *((r, 1) for r in new)]:
                add_row(values, row, sign)
            values = {p: v for p, v in values.items() if v["games"] > 0}
            store_stats(scope, values, stored, tables)
            totals[scope.pk] = {p: (v["total"], v["games"]) for p, v in values.items()}
        tables.flush()  # before any history: a queued tail may run at once (TASKS_BACKEND=immediate) and read them
        for scope, _, _ in changes:
            schedule_history(scope, since, totals=totals[scope.pk], queued=queued, writes=writes)
        writes.flush()
        now = timezone.now()
        update_rows(RatingScope, ["ruleset", "refreshed_at", "version"], [
            (scope.pk, {"ruleset": scope.ruleset_id, "refreshed_at": now, "version": versions[scope.pk] + 1})
            for scope, _, _ in changes])
        for scope, _, _ in changes:
            scope.version, scope.refreshed_at = versions[scope.pk] + 1, now


def _stamp(scope: RatingScope) -> None:
    """The scope's rule set and refresh time stored, its version bumped (the page caches' key), in one UPDATE."""
    RatingScope.objects.filter(pk=scope.pk).update(ruleset_id=scope.ruleset_id, refreshed_at=timezone.now(),
                                                   version=F("version") + 1)
    scope.refresh_from_db(fields=["version", "refreshed_at"])


def recompute_scope(scope: RatingScope, *, since: tuple[dt.date, int] | None = None,
                    rebuild_games: bool = False) -> None:
    """Recompute a scope's table (one SQL aggregate) and history (from `since` = (date, game id) on; all if None)."""
    with part_transaction():  # atomic, but in a process of a rebuild on SQLite (club.processes)
        if rebuild_games:
            PlayerGame.objects.filter(scope.games_q()).delete()
            store_player_games(counted_games().filter(scope.games_q()))
        scope.ruleset_id = _scope_ruleset_id(scope)
        store_stats(scope, {row["player_id"]: row for row in stats_values(scope)})
        PendingTail.objects.filter(key=history_key(scope.pk)).delete()
        _store_history(scope, since)
        _stamp(scope)


SCOPES_PER_TRANSACTION = 50  # a full recompute commits every so many scopes (each commit may checkpoint the WAL)


def recompute_all(club=None, *, workers: int | None = None) -> int:
    """Rebuild every stored aggregate from the stored seat scores, with no write meanwhile (the benches; beside the
    running site, `ratings.standings.rebuild`). Outside a transaction, in `workers` processes
    (settings.REBUILD_WORKERS; club.processes): the facts by ranges of games, then the scopes in batches and each
    club's Elo. Returns the scopes rebuilt."""
    workers = usable_workers(workers)
    games = counted_games() if club is None else counted_games().filter(club=club)
    with transaction.atomic():
        # Every fact, history and Elo change is rewritten below: cleared at once, so that no scope deletes its old
        # rows one index entry at a time.
        if club is None:
            clear_tables(RatingPoint, PlayerGame, EloChange)  # no database key points into them (derived_key)
            EloRating.objects.all().delete()  # one row a player, and keyed: a plain DELETE
        else:
            RatingPoint.objects.filter(scope__club=club)._raw_delete(RatingPoint.objects.db)
            PlayerGame.objects.filter(club=club).delete()
        if workers == 1:
            store_player_games(games)
    if workers > 1:
        ids = list(games.order_by("pk").values_list("pk", flat=True))
        step = -(-len(ids) // (2 * workers))  # two ranges a process: one slow range does not keep the other idle
        run_parts(_rebuild_part, [("facts", (ids[i], ids[min(i + step, len(ids)) - 1]))
                                  for i in range(0, len(ids), step)], workers)
    tournament_ids = set(games.exclude(tournament=None).values_list("tournament_id", flat=True).distinct())
    dates_by_club: dict[int, set[dt.date]] = {}
    for club_id, date in games.values_list("club_id", "date").distinct():
        dates_by_club.setdefault(club_id, set()).add(date)
    seasons = _season_scopes(dates_by_club)
    tournaments = _tournament_scopes(tournament_ids)
    # The longest parts first (a club's Elo, a season's history), so that the processes finish together.
    parts = [("elo", None)] + [("scopes", [s.pk]) for s in seasons]  # the site's one Elo
    parts += [("scopes", [s.pk for s in tournaments[i:i + SCOPES_PER_TRANSACTION]])
              for i in range(0, len(tournaments), SCOPES_PER_TRANSACTION)]
    if workers == 1:
        found = {s.pk: s for s in seasons + tournaments}  # read already: not again
        scopes = sum(_rebuild_part(part, found) for part in parts)
    else:
        scopes = sum(run_parts(_rebuild_part, parts, workers))
    analyze_tables(PlayerGame, PlayerStats, RatingPoint, EloChange, EloRating)
    return scopes


def _rebuild_part(part: tuple[str, Any], found: dict[int, RatingScope] | None = None) -> int:
    """One part of `recompute_all` in its own transaction: ("facts", (first, last game id)) the PlayerGame rows of
    those games, ("scopes", [scope ids]) their tables and histories, ("elo", None) the site's Elo. Returns
    the scopes rebuilt."""
    kind, what = part
    with part_transaction():
        if kind == "facts":
            store_player_games(counted_games().filter(pk__gte=what[0], pk__lte=what[1]))
            return 0
        if kind == "elo":
            services_elo.recompute()
            return 0
        scopes = ([found[pk] for pk in what] if found is not None else list(
            RatingScope.objects.select_related("season", "tournament", "ruleset").filter(pk__in=what)))
        for scope in scopes:
            recompute_scope(scope)
        return len(scopes)


def season_changed(season: Season) -> None:
    """A club admin created or moved a season: rebuild its table and history."""
    scope, _ = RatingScope.objects.get_or_create(season=season, defaults={"kind": RatingScope.Kind.SEASON,
                                                                          "club_id": season.club_id})
    recompute_scope(scope)


def bump_versions(scopes) -> None:
    scopes.update(version=F("version") + 1)


def invalidate_standings(tournament_ids: Iterable[int | None], club_ids: Iterable[int | None]) -> None:
    """Scores or protests changed: bump the stored versions the page caches are keyed by (the tournaments' scopes
    and every season of the clubs)."""
    tournament_ids = [i for i in tournament_ids if i is not None]
    club_ids = [i for i in club_ids if i is not None]
    bump_versions(RatingScope.objects.filter(Q(tournament_id__in=tournament_ids)
                                             | Q(kind=RatingScope.Kind.SEASON, club_id__in=club_ids)))


def store_lots(tournament_id: int, lots: dict[int, int]) -> None:
    """Keep a tournament's lot as an import carried it (player id -> number; drawn once, 000 T6.2.4)."""
    for player_id, number in lots.items():
        Lot.objects.update_or_create(tournament_id=tournament_id, player_id=player_id, defaults={"number": number})


# ---------------------------------------------------------------------------------------------- scopes


def _tournament_scopes(tournament_ids: set[int]) -> list[RatingScope]:
    existing = {s.tournament_id: s for s in RatingScope.objects.select_related("ruleset").filter(
        tournament_id__in=tournament_ids)}
    for t in Tournament.objects.filter(pk__in=tournament_ids - set(existing)):
        existing[t.pk] = RatingScope.objects.create(kind=RatingScope.Kind.TOURNAMENT, club_id=t.club_id, tournament=t)
    return [existing[t] for t in sorted(existing)]  # type: ignore[type-var]


def _season_scopes(dates_by_club: dict[int, set[dt.date]]) -> list[RatingScope]:
    """The seasons covering these dates; a date no season covers gets its calendar year as a season (the default)."""
    scopes: list[RatingScope] = []
    for club_id, dates in dates_by_club.items():
        seasons = list(Season.objects.filter(club_id=club_id, start__lte=max(dates), end__gte=min(dates))
                       .select_related("scope__ruleset"))  # with their scopes: one query
        for year in sorted({d.year for d in dates if not any(s.covers(d) for s in seasons)}):
            # Two scorings (tables of two tournaments) may make the same new year at once: the unique constraint
            # on the club and dates makes the second wait for the first, fail in get_or_create's savepoint and read
            # the first's season; the scope, one to one with its season, the same.
            season, _ = Season.objects.get_or_create(club_id=club_id, start=dt.date(year, 1, 1),
                                                     end=dt.date(year, 12, 31), defaults={"name": str(year)})
            seasons.append(season)
        for season in seasons:
            if any(season.covers(d) for d in dates):
                try:
                    scope = season.scope
                except RatingScope.DoesNotExist:  # a new season, or one no game was scored in yet
                    scope, _ = RatingScope.objects.select_related("ruleset").get_or_create(
                        season=season, defaults={"kind": RatingScope.Kind.SEASON, "club_id": club_id})
                scope.season = season
                scopes.append(scope)
    return scopes


def _scope_ruleset_id(scope: RatingScope) -> int | None:
    if scope.kind == RatingScope.Kind.TOURNAMENT:
        return scope.tournament.ruleset_id  # type: ignore[union-attr]
    # A season may mix rule sets: the one most of its games were played under orders the table.
    top = (counted_games().filter(scope.games_q()).values("ruleset_id").annotate(n=Count("id"))
           .order_by("-n", "-ruleset_id").first())
    return top["ruleset_id"] if top else None


def _in_scope(scope: RatingScope, row: dict) -> bool:
    if scope.kind == RatingScope.Kind.TOURNAMENT:
        return row["tournament_id"] == scope.tournament_id
    season = scope.season
    return row["club_id"] == season.club_id and season.start <= row["date"] <= season.end  # type: ignore[union-attr]


# ---------------------------------------------------------------------------------------------- the history
# Games after a change rewritten in the request; a longer tail goes to the worker. A protest upheld on a tournament's
# first game rewrote the tournament's whole history in the request at 50 (500 points: 7 ms of a 42 ms decision on
# SQLite at 100,000 games); at 20 the request writes at most 200 and the worker the rest, within a second.
INLINE_HISTORY = 20


class PointWrites:
    """The history rewrites of several scopes in the request, written together when `flush`ed: the old points of
    every scope dropped by one DELETE, the new ones stored by one INSERT."""

    def __init__(self) -> None:
        self.cuts: list[tuple[int, int]] = []  # (scope id, first seq rewritten)
        self.rows: list[tuple] = []  # POINT_FIELDS

    def flush(self) -> int:
        """Write what was gathered (and forget it); returns the points inserted."""
        if self.cuts:
            cut = Q()
            for scope_id, seq in self.cuts:
                cut |= Q(scope_id=scope_id, seq__gte=seq)
            RatingPoint.objects.filter(cut).delete()
        written = insert_rows(RatingPoint, POINT_FIELDS, self.rows)
        self.cuts.clear()
        self.rows.clear()  # (in place: a rewrite in progress appends to this list)
        return written


def schedule_history(scope: RatingScope, since: tuple[dt.date, int],
                     totals: dict[int, tuple[Decimal, int]] | None = None,
                     queued: dict[str, PendingTail] | None = None, writes: PointWrites | None = None) -> None:
    """Rewrite the scope's history from `since` now, or queue it for the worker when the tail is long (`totals`:
    each player's total and games in the scope as just stored, and `queued`: the queued tails by key, read with
    the scope locked, when the caller has them; `writes`: a short tail's points go there, for the caller to
    write)."""
    key = history_key(scope.pk)
    pending = PendingTail.objects.filter(key=key).first() if queued is None else queued.get(key)
    if pending is not None:  # a rewrite is queued: it will cover this change too
        if since < (pending.since_date, pending.since_game):
            pending.since_date, pending.since_game = since
            pending.save()
        if stale_reason(pending):  # ... unless its task is gone (failed, or lost with its worker)
            requeue(recompute_history, pending, scope.pk)
        return
    date, game_id = since
    # The tail's rows, read once: up to a row per seat of INLINE_HISTORY + 1 games (a game has ten seats): fewer
    # rows than the limit is the whole tail, and if it is short its rows are the ones the rewrite goes through.
    limit = (INLINE_HISTORY + 1) * 10
    tail = list(_tail_rows(scope, since)[:limit])
    if len(tail) < limit and len({row[1] for row in tail}) <= INLINE_HISTORY:
        _store_history(scope, since, totals, tail=tail, writes=writes)
        return
    pending = PendingTail.objects.create(key=history_key(scope.pk), since_date=date, since_game=game_id)
    requeue(recompute_history, pending, scope.pk)


@task()
def recompute_history(scope_id: int) -> int:
    """The worker's task: the queued history tail of a scope (the table is already up to date)."""
    with transaction.atomic():
        scope = RatingScope.objects.select_for_update().filter(pk=scope_id).first()
        pending = PendingTail.objects.filter(key=history_key(scope_id)).first()
        if scope is None or pending is None:
            return 0
        pending.delete()
        pause_for_tests()  # the fault tests kill the worker here: the transaction, and so the marker, stay
        written = _store_history(scope, (pending.since_date, pending.since_game))
        bump_versions(RatingScope.objects.filter(pk=scope_id))
        return written


POINT_FIELDS = ["scope_id", "player_id", "game_id", "date", "seq", "n", "points", "cumulative", "rank"]


def _tail_rows(scope: RatingScope, since: tuple[dt.date, int] | None):
    """The scope's PlayerGame rows from `since` on, in the history's order: (player, game, date, total)."""
    return (PlayerGame.objects.filter(scope.games_q(since=since)).order_by("date", "game_id")
            .values_list("player_id", "game_id", "date", "total"))


def _store_history(scope: RatingScope, since: tuple[dt.date, int] | None,
                   stats: dict[int, tuple[Decimal, int]] | None = None, *, tail: list[tuple] | None = None,
                   writes: PointWrites | None = None) -> int:
    """Cumulative points and rank after each game, rewritten from the first game at or after `since`.

    The totals just before `since` are the stored PlayerStats minus the rows from `since` on, so the cost is the
    tail's (plus the scope's few hundred players), not the whole history's. `stats`: player → (total, games) as
    the PlayerStats hold them, and `tail`: the rows from `since` on as `_tail_rows` gives them,
    when the caller has them. Returns the points written (with `writes`, a short tail's: its points and the
    deletion of the old ones are left to the caller's `PointWrites`).
    """
    out = writes if writes is not None else PointWrites()
    points = RatingPoint.objects.filter(scope=scope)
    games = PlayerGame.objects.filter(scope.games_q(since=since))
    totals: dict[int, int] = {}  # player → cumulative points in 1/1,000,000
    played: dict[int, int] = {}  # player → his games before the rows written (the next point's `n`)
    seq = 0
    if since is None:
        points.delete()
    else:
        last = points.exclude(at_or_after(*since)).order_by("-seq").values_list("seq", flat=True).first()
        seq = 0 if last is None else last + 1
        if stats is None:
            stats = {player_id: (total, games) for player_id, total, games in
                     PlayerStats.objects.filter(scope=scope).values_list("player_id", "total", "games")}
        for player_id, (total, n) in stats.items():
            totals[player_id], played[player_id] = int(total * UNITS), n
        if tail is None:
            for player_id, total, n in games.values("player_id").order_by("player_id").annotate(
                    t=Sum("total"), n=Count("id")).values_list("player_id", "t", "n"):
                totals[player_id] -= int(total * UNITS)
                played[player_id] -= n
        else:
            for player_id, _game_id, _date, total in tail:
                totals[player_id] -= round(total * UNITS)
                played[player_id] -= 1
        totals = {p: t for p, t in totals.items() if played[p] > 0}  # only players with a game before `since`
        out.cuts.append((scope.pk, seq))  # the old points from there on
    ranking = sorted(-units for units in totals.values())  # ascending: the leader first
    rows = out.rows
    gathered = len(rows)  # (the caller's `writes` may hold other scopes' points)
    written = 0
    # The cumulative total as the database stores it: on SQLite a double (units / UNITS, the same double SQLite makes
    # of the decimal's text), on PostgreSQL a Decimal.
    cumulative = (lambda units: units / UNITS) if connection.vendor == "sqlite" else (
        lambda units: Decimal(units) / UNITS)
    current: list[tuple] = []

    def flush_game() -> None:
        for player_id, _game_id, _date, total in current:
            old = totals.get(player_id)
            if old is not None:
                del ranking[bisect.bisect_left(ranking, -old)]
            new = (old or 0) + round(total * UNITS)
            totals[player_id] = new
            bisect.insort(ranking, -new)
        for player_id, game_id, date, total in current:
            units = totals[player_id]
            n = played.get(player_id, 0)
            played[player_id] = n + 1
            rows.append((scope.pk, player_id, game_id, date, seq, n, total, cumulative(units),
                         bisect.bisect_left(ranking, -units) + 1))

    for row in (tail if tail is not None else _tail_rows(scope, since).iterator(chunk_size=5000)):
        if current and current[0][1] != row[1]:
            flush_game()
            seq += 1
            current = []
            if writes is None and len(rows) >= 5000:  # (a tail for `writes` is short)
                pause_for_tests()
                written += out.flush()
        current.append(row)
    if current:
        flush_game()
    return len(rows) - gathered if writes is not None else written + out.flush()
