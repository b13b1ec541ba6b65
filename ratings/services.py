"""Writes of the stored ratings: per-game facts, per-scope aggregates, rating history (issue 7).

`refresh(game_ids)` runs in the scoring transaction (`ratings.receivers` on `games.signals.scores_changed`): it rebuilds the `PlayerGame`
rows of those games, then for every scope that holds them (the tournament, the seasons covering their dates)
recomputes the `PlayerStats` table with one SQL aggregate, the `RatingPoint` history from the first changed game
onwards, the club statistics, and bumps `RatingScope.version` — the key of every cached page of that scope.

Work streams over games in chunks: a season of 300,000 seats is never held in Python at once.
"""

from __future__ import annotations

import bisect
import datetime as dt
import random
from collections.abc import Iterable, Iterator
from decimal import Decimal

from django.db import transaction
from django.db.models import Count, F, Max, Min, Q, Sum
from django.db.models.functions import Coalesce, TruncMonth
from django.utils import timezone

from club.models import Club, Player
from games.models import Game, Night, RuleSetVersion, Seat
from games.rules.protocol import BLACK_ROLES, SHERIFF
from ratings import services_elo
from ratings.models import Lot, PlayerGame, PlayerStats, RatingPoint, RatingScope, Season
from ratings.standings import PlayerRecord, draw_lots, rank

CHUNK = 2000  # games per streamed chunk
UNITS = 1_000_000  # points are stored with 6 decimals: rank on integers
COUNTED = [Game.Status.FINISHED, Game.Status.SIGNED]
ROLE_FIELDS = {"К": "citizen", "Ч": "mafia", "Ш": "sheriff", "Д": "don"}
ZERO = Decimal(0)


def counted_games():
    """Games that count in scores and standings (Game.counts, as a queryset)."""
    return Game.objects.filter(status__in=COUNTED).exclude(result="")


# ---------------------------------------------------------------------------------------------- entry points
def refresh(game_ids: Iterable[int]) -> None:
    """Bring the stored ratings up to date after these games were (re)scored. Call inside the scoring transaction.

    Creates the scopes the games belong to when missing (their tournament, the club's seasons covering their
    dates): scopes are made here, when games are scored, never by a page that reads them.
    """
    game_ids = list(game_ids)
    if not game_ids:
        return
    with transaction.atomic():
        old = list(PlayerGame.objects.filter(game_id__in=game_ids)
                   .values_list("club_id", "tournament_id", "date", "game_id").distinct())
        PlayerGame.objects.filter(game_id__in=game_ids).delete()
        new = list(Game.objects.filter(pk__in=game_ids).values_list("club_id", "tournament_id", "date", "pk"))
        _store_player_games(counted_games().filter(pk__in=game_ids))
        touched = old + new
        since = min((date, pk) for _, _, date, pk in touched)
        tournament_ids = {t for _, t, _, _ in touched if t}
        for scope in _tournament_scopes(tournament_ids):
            recompute_scope(scope, since=since)
        dates_by_club: dict[int, set[dt.date]] = {}
        for club_id, _, date, _ in touched:
            dates_by_club.setdefault(club_id, set()).add(date)
        for scope in _season_scopes(dates_by_club):
            recompute_scope(scope, since=since)
        services_elo.games_changed((club_id, date, pk) for club_id, _, date, pk in touched)


def recompute_scope(scope: RatingScope, *, since: tuple[dt.date, int] | None = None,
                    rebuild_games: bool = False) -> None:
    """Recompute a scope's table, history (from `since` = (date, game id) on; all if None) and statistics."""
    with transaction.atomic():
        if rebuild_games:
            PlayerGame.objects.filter(scope.games_q()).delete()
            _store_player_games(counted_games().filter(scope.games_q()))
        scope.ruleset_id = _scope_ruleset_id(scope)
        _store_stats(scope)
        _store_history(scope, since)
        scope.summary = _summary(scope) if scope.kind == RatingScope.Kind.SEASON else {}
        scope.refreshed_at = timezone.now()
        scope.save(update_fields=["ruleset", "summary", "refreshed_at"])
        bump_versions(RatingScope.objects.filter(pk=scope.pk))
        scope.refresh_from_db(fields=["version"])


def recompute_all(club=None) -> int:
    """Rebuild every stored aggregate from the stored seat scores (after an upgrade, or by the bench)."""
    scopes = 0
    games = counted_games() if club is None else counted_games().filter(club=club)
    PlayerGame.objects.filter(**({} if club is None else {"club": club})).delete()
    _store_player_games(games)
    tournament_ids = set(games.exclude(tournament=None).values_list("tournament_id", flat=True).distinct())
    for scope in _tournament_scopes(tournament_ids):
        recompute_scope(scope)
        scopes += 1
    dates_by_club: dict[int, set[dt.date]] = {}
    for club_id, date in games.values_list("club_id", "date").distinct():
        dates_by_club.setdefault(club_id, set()).add(date)
    for scope in _season_scopes(dates_by_club):
        recompute_scope(scope)
        scopes += 1
    for club_id in (Club.objects.values_list("pk", flat=True) if club is None else [club.pk]):
        services_elo.recompute(club_id)
    return scopes


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
    from games.models import Tournament

    existing = {s.tournament_id: s for s in RatingScope.objects.filter(tournament_id__in=tournament_ids)}
    for t in Tournament.objects.filter(pk__in=tournament_ids - set(existing)):
        existing[t.pk] = RatingScope.objects.create(kind=RatingScope.Kind.TOURNAMENT, club_id=t.club_id, tournament=t)
    return [existing[t] for t in sorted(existing)]


def _season_scopes(dates_by_club: dict[int, set[dt.date]]) -> list[RatingScope]:
    """The seasons covering these dates; a date no season covers gets its calendar year as a season (the default)."""
    scopes: list[RatingScope] = []
    for club_id, dates in dates_by_club.items():
        seasons = list(Season.objects.filter(club_id=club_id, start__lte=max(dates), end__gte=min(dates)))
        for year in sorted({d.year for d in dates if not any(s.covers(d) for s in seasons)}):
            season, _ = Season.objects.get_or_create(club_id=club_id, start=dt.date(year, 1, 1),
                                                     end=dt.date(year, 12, 31), defaults={"name": str(year)})
            seasons.append(season)
        for season in seasons:
            if any(season.covers(d) for d in dates):
                scope, _ = RatingScope.objects.get_or_create(
                    season=season, defaults={"kind": RatingScope.Kind.SEASON, "club_id": club_id})
                scope.season = season
                scopes.append(scope)
    return scopes


def _scope_ruleset_id(scope: RatingScope) -> int | None:
    if scope.kind == RatingScope.Kind.TOURNAMENT:
        return scope.tournament.ruleset_id
    # A season may mix rule sets: the one most of its games were played under orders the table.
    top = (counted_games().filter(scope.games_q()).values("ruleset_id").annotate(n=Count("id"))
           .order_by("-n", "-ruleset_id").first())
    return top["ruleset_id"] if top else None


# ---------------------------------------------------------------------------------------------- per-game facts
def _chunks(games) -> Iterator[list[dict]]:
    ids = list(games.order_by("pk").values_list("pk", flat=True))
    for start in range(0, len(ids), CHUNK):
        yield list(Game.objects.filter(pk__in=ids[start:start + CHUNK]).values(
            "pk", "club_id", "tournament_id", "date", "best_move", "ruleset_id", "tournament__difficult_roles"))


def _store_player_games(games) -> int:
    difficult_by_ruleset: dict[int, tuple[str, ...]] = {}
    stored = 0
    for chunk in _chunks(games):
        ids = [g["pk"] for g in chunk]
        seats: dict[int, list[tuple]] = {}
        for row in Seat.objects.filter(game_id__in=ids).values_list(
                "game_id", "number", "player_id", "role", "won", "main", "extras", "total", "tiebreak_extras",
                "fouls", "first_night_death"):
            seats.setdefault(row[0], []).append(row)
        nights: dict[int, list[tuple]] = {}
        for row in Night.objects.filter(game_id__in=ids).order_by("game_id", "index").values_list(
                "game_id", "index", "kill", "don_check", "sheriff_check"):
            nights.setdefault(row[0], []).append(row)
        rows: list[PlayerGame] = []
        for g in chunk:
            difficult = tuple(g["tournament__difficult_roles"] or ()) or _ruleset_difficult(
                g["ruleset_id"], difficult_by_ruleset)
            rows += _game_rows(g, seats.get(g["pk"], []), nights.get(g["pk"], []), difficult)
        PlayerGame.objects.bulk_create(rows, batch_size=2000)
        stored += len(rows)
    return stored


def _ruleset_difficult(ruleset_id: int, memo: dict[int, tuple[str, ...]]) -> tuple[str, ...]:
    if ruleset_id not in memo:
        memo[ruleset_id] = RuleSetVersion.objects.get(pk=ruleset_id).ruleset().difficult_roles
    return memo[ruleset_id]


def _game_rows(game: dict, seats: list[tuple], nights: list[tuple], difficult: tuple[str, ...]) -> list[PlayerGame]:
    roles = {number: role for _, number, _, role, *_ in seats}
    first_victim = nights[0][2] if nights and nights[0][1] == 1 else None
    best_move = game["best_move"]
    # 000 S7.12 / 002 III.2: the best move of the Night-1 victim; "accuracy" = the blacks it names.
    bm_blacks = (sum(1 for n in set(best_move) if roles.get(n) in BLACK_ROLES)
                 if best_move is not None and first_victim else None)
    sheriff_finds = sum(1 for n in nights if n[4] and roles.get(n[4]) in BLACK_ROLES)
    don_finds = sum(1 for n in nights if n[3] and roles.get(n[3]) == SHERIFF)
    rows = []
    for _, number, player_id, role, won, main, extras, total, tb_extras, fouls, fnd in seats:
        rows.append(PlayerGame(
            game_id=game["pk"], player_id=player_id, club_id=game["club_id"], tournament_id=game["tournament_id"],
            date=game["date"], seat=number, role=role or "", won=won, main=main, extras=extras, total=total,
            tiebreak_extras=tb_extras, difficult=role in difficult, fouls=fouls, first_night_death=fnd,
            best_move_blacks=bm_blacks if number == first_victim else None,
            sheriff_black_finds=sheriff_finds if role == SHERIFF else 0,
            don_sheriff_finds=don_finds if role == "Д" else 0,
        ))
    return rows


# ---------------------------------------------------------------------------------------------- the table
def _stats_values(scope: RatingScope) -> Iterator[dict]:
    """One SQL aggregate over the scope's PlayerGame rows: a dict of PlayerStats fields per player."""
    dec = {"output_field": PlayerGame._meta.get_field("total")}
    aggregates = {
        "games": Count("id"), "wins": Count("id", filter=Q(won=True)),
        "main": Sum("main"), "extras": Sum("extras"), "total": Sum("total"), "tiebreak_extras": Sum("tiebreak_extras"),
        "wins_difficult": Count("id", filter=Q(won=True, difficult=True)),
        "extras_difficult": Coalesce(Sum("tiebreak_extras", filter=Q(difficult=True)), ZERO, **dec),
        "first_night_deaths": Count("id", filter=Q(first_night_death=True)),
        "fouls": Sum("fouls"),
        "best_moves": Count("id", filter=Q(best_move_blacks__isnull=False)),
        "best_move_blacks": Coalesce(Sum("best_move_blacks"), 0),
        "sheriff_black_finds": Sum("sheriff_black_finds"), "don_sheriff_finds": Sum("don_sheriff_finds"),
    }
    for letter, name in ROLE_FIELDS.items():
        aggregates[f"{name}_games"] = Count("id", filter=Q(role=letter))
        aggregates[f"{name}_wins"] = Count("id", filter=Q(role=letter, won=True))
    # aliased: an annotation may not shadow the model field it sums
    rows = (PlayerGame.objects.filter(scope.games_q()).values("player_id").order_by("player_id")
            .annotate(**{f"agg_{k}": v for k, v in aggregates.items()}))
    for row in rows:
        yield {"player_id": row["player_id"], **{k: row[f"agg_{k}"] for k in aggregates}}


def _store_stats(scope: RatingScope) -> None:
    values = {row["player_id"]: row for row in _stats_values(scope)}
    nicknames = dict(Player.objects.filter(pk__in=list(values)).values_list("pk", "nickname"))
    records = {}
    for player_id, row in values.items():
        records[player_id] = PlayerRecord(
            player=nicknames[player_id], games=row["games"], wins=row["wins"], main=row["main"],
            extras=row["extras"], total=row["total"], tiebreak_extras=row["tiebreak_extras"],
            wins_difficult=row["wins_difficult"], extras_difficult=row["extras_difficult"],
            first_night_deaths=row["first_night_deaths"])
    ruleset = RuleSetVersion.objects.get(pk=scope.ruleset_id).ruleset() if scope.ruleset_id else None
    tiebreakers = ruleset.tiebreakers if ruleset else ()
    lots = _lots(scope, {nicknames[p]: p for p in values}) if scope.kind == RatingScope.Kind.TOURNAMENT else {}
    ids = {nick: pid for pid, nick in nicknames.items()}
    rows = []
    for standing in rank(list(records.values()), tiebreakers, lots):
        player_id = ids[standing.player]
        row = values[player_id]
        rows.append(PlayerStats(scope=scope, player_id=player_id, rank=standing.rank,
                                decided_by=standing.decided_by or "",
                                **{k: v for k, v in row.items() if k != "player_id"}))
    PlayerStats.objects.filter(scope=scope).delete()
    PlayerStats.objects.bulk_create(rows, batch_size=1000)


def _lots(scope: RatingScope, players: dict[str, int]) -> dict[str, int]:
    """The stored lot; players without one get theirs drawn now, once (000 T6.2.4, 002 III.14.6)."""
    stored = dict(Lot.objects.filter(tournament_id=scope.tournament_id).values_list("player_id", "number"))
    missing = [pid for pid in players.values() if pid not in stored]
    if missing:
        start = max(stored.values(), default=0)
        numbers = draw_lots([str(pid) for pid in missing], random.SystemRandom())
        Lot.objects.bulk_create([Lot(tournament_id=scope.tournament_id, player_id=pid,
                                     number=start + numbers[str(pid)]) for pid in missing], ignore_conflicts=True)
        stored = dict(Lot.objects.filter(tournament_id=scope.tournament_id).values_list("player_id", "number"))
    return {nick: stored[pid] for nick, pid in players.items() if pid in stored}


# ---------------------------------------------------------------------------------------------- the history
def _store_history(scope: RatingScope, since: tuple[dt.date, int] | None) -> None:
    """Cumulative points and rank after each game, rewritten from the first game at or after `since`."""
    points = RatingPoint.objects.filter(scope=scope)
    totals: dict[int, int] = {}  # player → cumulative points in 1/10,000
    seq = 0
    if since is None:
        points.delete()
    else:
        date, game_id = since
        after = Q(date__gt=date) | Q(date=date, game_id__gte=game_id)
        seq = (points.exclude(after).aggregate(m=Max("seq"))["m"] or -1) + 1
        last = dict(points.filter(seq__lt=seq).values("player_id").annotate(s=Max("seq"))
                    .values_list("player_id", "s"))
        for player_id, last_seq, cumulative in points.filter(seq__in=set(last.values())).values_list(
                "player_id", "seq", "cumulative"):
            if last.get(player_id) == last_seq:
                totals[player_id] = int(cumulative * UNITS)
        points.filter(seq__gte=seq).delete()
    ranking = sorted(-units for units in totals.values())  # ascending: the leader first
    games = PlayerGame.objects.filter(scope.games_q())
    if since is not None:
        games = games.filter(Q(date__gt=since[0]) | Q(date=since[0], game_id__gte=since[1]))
    rows: list[RatingPoint] = []
    current: list[tuple[int, int, dt.date, Decimal]] = []

    def flush_game() -> None:
        for player_id, _game_id, _date, total in current:
            old = totals.get(player_id)
            if old is not None:
                del ranking[bisect.bisect_left(ranking, -old)]
            new = (old or 0) + int(total * UNITS)
            totals[player_id] = new
            bisect.insort(ranking, -new)
        for player_id, game_id, date, total in current:
            units = totals[player_id]
            rows.append(RatingPoint(scope_id=scope.pk, player_id=player_id, game_id=game_id, date=date, seq=seq,
                                    points=total, cumulative=Decimal(units) / UNITS,
                                    rank=bisect.bisect_left(ranking, -units) + 1))

    for row in games.order_by("date", "game_id").values_list("player_id", "game_id", "date", "total").iterator(
            chunk_size=5000):
        if current and current[0][1] != row[1]:
            flush_game()
            seq += 1
            current = []
            if len(rows) >= 5000:
                RatingPoint.objects.bulk_create(rows)
                rows = []
        current.append(row)
    if current:
        flush_game()
    RatingPoint.objects.bulk_create(rows, batch_size=5000)


# ---------------------------------------------------------------------------------------------- club statistics
def _summary(scope: RatingScope) -> dict:
    games = counted_games().filter(scope.games_q())
    by_ruleset: dict[str, dict] = {}
    for name, result, n in games.order_by().values_list("ruleset__name", "result").annotate(n=Count("id")):
        entry = by_ruleset.setdefault(name, {"ruleset": name, "games": 0, "red": 0, "black": 0, "draw": 0})
        entry["games"] += n
        entry[result] += n
    months = [{"month": row["m"].strftime("%Y-%m"), "games": row["n"]} for row in
              games.order_by().annotate(m=TruncMonth("date")).values("m").annotate(n=Count("id")).order_by("m")]
    first_last = games.aggregate(first=Min("date"), last=Max("date"))
    return {"rulesets": sorted(by_ruleset.values(), key=lambda e: -e["games"]), "months": months,
            "games": sum(e["games"] for e in by_ruleset.values()),
            "first": first_last["first"].isoformat() if first_last["first"] else None,
            "last": first_last["last"].isoformat() if first_last["last"] else None}
