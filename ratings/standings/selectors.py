"""Reads of the stored ratings: standings tables, seasons, a player's profile, club statistics.

Every page reads the aggregates `ratings.standings.services` keeps (PlayerStats, RatingPoint, RatingScope.summary) in a
fixed number of queries, whatever the number of games. Rendered tables are cached under the scope's `version`,
a counter stored in the database and bumped in the scoring transaction, so a cache that loses or culls entries
can only miss, never serve a stale table.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.core.cache import cache
from django.db.models import Count
from django.utils import timezone
from django.utils.translation import get_language

from club.models import Club
from club.reads import CompiledRead
from club.selectors import member_players
from club.shell import people_generation
from games.models import Protest, RuleSetVersion, Seat, Tournament
from games.rules.interchange import points_json
from games.visibility import counting_games
from ratings.keys import ELO_KEY, history_key
from ratings.models import PendingTail, PlayerGame, PlayerStats, RatingScope, Season
from ratings.standings.ranking import PlayerRecord, StandingRow
from ratings.statistics.registry import tiebreaker_label

CACHE_TIMEOUT = 24 * 3600
GAMES_PER_PAGE = 25


# ---------------------------------------------------------------------------------------------- scopes
def tournament_scope(tournament: Tournament) -> RatingScope | None:
    """The tournament's stored scope; None until one of its games is scored (scoring creates it)."""
    scope = RatingScope.objects.filter(tournament=tournament).first()
    if scope is not None:
        scope.tournament = tournament
    return scope


def club_seasons(club) -> list[Season]:
    return list(Season.objects.filter(club=club).select_related("scope")) if club else []


def default_season(seasons: list[Season], today: dt.date | None = None) -> Season | None:
    """The season covering today (the shortest if several), else the latest one."""
    today = today or timezone.localdate()
    covering = [s for s in seasons if s.covers(today)]
    if covering:
        return min(covering, key=lambda s: (s.end - s.start, -s.pk))
    return max(seasons, key=lambda s: (s.start, s.pk), default=None)


def season_scope(season: Season) -> RatingScope | None:
    """The season's stored scope; None until the season is saved by its service or one of its games is scored."""
    try:
        scope = season.scope
    except RatingScope.DoesNotExist:
        return None
    scope.season = season
    return scope


# ---------------------------------------------------------------------------------------------- standings
def provisional_players(scope: RatingScope) -> set[int]:
    """Players with a game under protest in the scope: their rows are provisional until the decision."""
    # Pending protests are few at any time: read them (with their game's scope fields) and match in Python, so the
    # cost does not grow with the games of a season (a date-range join over a season's games did).
    # A hidden game (games.visibility) counts in no public table, and its protest marks no row: it would tell.
    pending = Protest.objects.filter(status=Protest.Status.PENDING, game__results_hidden=False).values_list(
        "game_id", "game__tournament_id", "game__club_id", "game__date")
    if scope.kind == RatingScope.Kind.TOURNAMENT:
        games = [g for g, tournament_id, _club, _date in pending if tournament_id == scope.tournament_id]
    else:
        season = scope.season
        games = [g for g, _t, club_id, date in pending
                 if club_id == season.club_id and season.start <= date <= season.end]  # type: ignore[union-attr]
    if not games:
        return set()
    return set(Seat.objects.filter(game_id__in=games).values_list("player_id", flat=True))


def label_of(name: str) -> str:
    """A tie-breaker's label in the page's language."""
    return tiebreaker_label(name)


def _members_only(scope: RatingScope) -> bool:
    """A season of a club that counts only its members (Club.season_counts_guests off; docs/persons.md)."""
    return (scope.kind == RatingScope.Kind.SEASON
            and not Club.objects.filter(pk=scope.club_id).values_list("season_counts_guests", flat=True).first())


def scope_rows(scope: RatingScope, provisional: set[int] | None = None) -> list[StandingRow]:
    """The scope's table from the stored rows; a season of a club that leaves guests out lists its members only,
    each ranked among them (the stored order, ties kept)."""
    if provisional is None:
        provisional = provisional_players(scope)
    rows = []
    stats = PlayerStats.objects.filter(scope=scope).select_related("player").order_by("rank", "id")
    members_only = _members_only(scope)
    if members_only:
        stats = stats.filter(player__in=member_players(scope.club_id))
    ranks: dict[int, int] = {}
    for position, s in enumerate(stats, start=1):
        rank = ranks.setdefault(s.rank, position) if members_only else s.rank
        record = PlayerRecord.of(s.player.nickname, s)
        row = StandingRow(rank, s.player.nickname, record, s.decided_by or None,
                          provisional=s.player_id in provisional, player_id=s.player_id)
        row.decided_by_label = label_of(s.decided_by)  # type: ignore[attr-defined]
        row.average = s.total / s.games if s.games else Decimal(0)  # type: ignore[attr-defined]
        rows.append(row)
    return rows


def tournament_standings(tournament: Tournament) -> list[StandingRow]:
    """The tournament's table, ordered by total and the rule set's tie-breakers (docs/rules.md D8), from stored rows;
    empty before any of its games is scored."""
    scope = tournament_scope(tournament)
    return scope_rows(scope) if scope is not None else []


def standings_recomputing(tournament: Tournament) -> bool:
    """The tournament's rating history (or the club's Elo) is queued for the task worker: figures may still move."""
    return (history_pending(tournament_scope(tournament))
            or PendingTail.objects.filter(key=ELO_KEY).exists())


def standings_json(tournament: Tournament) -> dict[str, Any]:
    return {
        "tournament": tournament.name,
        "rows": [
            {"rank": r.rank, "player": r.player, "games": r.record.games, "wins": r.record.wins,
             "main": _num(r.record.main), "extras": _num(r.record.extras), "total": _num(r.record.total),
             **({"decided_by": r.decided_by} if r.decided_by else {}),
             **({"provisional": True} if r.provisional else {})}
            for r in tournament_standings(tournament)
        ],
    }


def _num(value):
    return points_json(value)


def cached(parts: tuple, render: Callable[[], str]) -> tuple[str, bool]:
    """The rendered fragment for `parts` (which include the scope's stored version) and whether it was cached. The
    people generation is in the key too: a fragment names players and shows their photos, which a rename or a new
    photo changes without moving any scope's version (club.shell)."""
    raw = ":".join(str(p) for p in (*parts, get_language(), people_generation()))
    key = "ratings:" + hashlib.sha1(raw.encode()).hexdigest()
    html = cache.get(key)
    if html is not None:
        return html, True
    html = render()
    cache.set(key, html, CACHE_TIMEOUT)
    return html, False


def cached_value(parts: tuple, compute: Callable[[], Any]) -> tuple[Any, bool]:
    """Like `cached`, for any picklable value."""
    key = "ratings:" + hashlib.sha1(":".join(str(p) for p in parts).encode()).hexdigest()
    value = cache.get(key)
    if value is not None:
        return value, True
    value = compute()
    cache.set(key, value, CACHE_TIMEOUT)
    return value, False


def history_pending(scope: RatingScope | None) -> bool:
    """A long rewrite of the scope's rating history is queued: the chart says "пересчитывается"."""
    return scope is not None and PendingTail.objects.filter(key=history_key(scope.pk)).exists()


def provisional_key(provisional: set[int]) -> str:
    return ",".join(map(str, sorted(provisional))) or "-"


def club_ratings_key(seasons: list[Season]) -> str:
    """A cache key part that changes whenever any stored aggregate of the club may have changed.

    Every scored game's date lies in a season (a calendar year is made when none covers it), and every change of
    scores bumps the versions of the seasons covering the game, so the seasons' versions, read with the season list
    (no extra query), stand for the state of all the club's scopes, tournaments included.
    """
    parts = []
    for s in seasons:
        try:
            version = s.scope.version
        except RatingScope.DoesNotExist:
            version = -1
        parts.append(f"{s.pk}.{version}.{s.start:%Y%m%d}.{s.end:%Y%m%d}.{s.name}")
    return hashlib.sha1("|".join(parts).encode()).hexdigest()


# ---------------------------------------------------------------------------------------------- the player
@dataclass
class RoleLine:
    letter: str
    games: int
    wins: int

    @property
    def win_rate(self) -> float | None:
        return 100 * self.wins / self.games if self.games else None


def role_lines(stats: PlayerStats | None) -> list[RoleLine]:
    if stats is None:
        return []
    return [RoleLine(letter, getattr(stats, f"{name}_games"), getattr(stats, f"{name}_wins"))
            for letter, name in (("К", "citizen"), ("Ч", "mafia"), ("Ш", "sheriff"), ("Д", "don"))]


TOURNAMENTS_SHOWN = 20  # the card's latest tournaments


def player_tournaments(player, limit: int = TOURNAMENTS_SHOWN) -> list[tuple]:
    """The latest tournaments the player played, newest first: (tournament id, name, rank, games, total), the
    final (current) rank.

    The tournaments are found from the player's latest games (the (player, date, game) index, newest first, a batch
    at a time), not by sorting every tournament line he ever had: a regular of ten years has a thousand of them. (One
    query with his latest thousand games as a subquery cost PostgreSQL 3 ms for a player of 700 games.)
    """
    recent: list[int] = []
    games = PlayerGame.objects.filter(player=player, tournament__isnull=False).order_by("-date", "-game_id")
    batch = 8 * limit
    for start in range(0, 1_000_000, batch):
        if start == 0 and batch == _FIRST_BATCH:  # the usual case: one read, compiled once
            ids = [row[0] for row in _RECENT_TOURNAMENTS.rows(player.pk)]
        else:
            ids = list(games.values_list("tournament_id", flat=True)[start:start + batch])
        recent += [t for t in dict.fromkeys(ids) if t not in recent]
        if len(recent) >= limit or len(ids) < batch:
            break
    return [tuple(row) for row in _TOURNAMENT_LINES.rows(player.pk, *recent[:limit])]


_FIRST_BATCH = 8 * TOURNAMENTS_SHOWN  # `player_tournaments`' first batch of his games, at its default limit
_RECENT_TOURNAMENTS = CompiledRead(PlayerGame, lambda player_id: PlayerGame.objects.filter(
    player_id=player_id, tournament__isnull=False).order_by("-date", "-game_id").values_list(
    "tournament_id")[:_FIRST_BATCH], fields=("tournament_id",))


def _tournament_lines(player_id: int, *tournament_ids: int):
    return (PlayerStats.objects.filter(player_id=player_id, scope__tournament_id__in=tournament_ids)
            .order_by("-scope__tournament__start_date", "-scope_id"))


# his lines of those tournaments, compiled once per number of tournaments (club.reads.CompiledRead)
_TOURNAMENT_LINES = CompiledRead(PlayerStats, _tournament_lines, fields=(
    "scope__tournament_id", "scope__tournament__name", "rank", "games", "total"))


# ---------------------------------------------------------------------------------------------- the club
@dataclass
class ClubStatistics:
    scope: RatingScope
    rulesets: list[dict]
    months: list[dict]
    games: int
    most_active: list[PlayerStats]


def club_statistics(scope: RatingScope, *, top: int = 10) -> ClubStatistics:
    summary, _ = cached_value(("summary", scope.pk, scope.version), lambda: season_summary(scope))
    rulesets = []
    for entry in summary.get("rulesets", []):
        n = entry["games"] or 1
        rulesets.append({**entry, "red_share": 100 * entry["red"] / n, "black_share": 100 * entry["black"] / n,
                         "draw_share": 100 * entry["draw"] / n})
    months = summary.get("months", [])
    peak = max((m["games"] for m in months), default=0) or 1
    months = [{**m, "width": round(100 * m["games"] / peak, 1)} for m in months]
    most_active = list(PlayerStats.objects.filter(scope=scope).select_related("player").order_by("-games", "rank")[:top])
    return ClubStatistics(scope=scope, rulesets=rulesets, months=months, games=summary.get("games", 0),
                          most_active=most_active)


def season_summary(scope: RatingScope) -> dict:
    """The club statistics of a season: results per rule set, games per month (computed when read). One read of
    the scope's counted games grouped by day, result and rule set (a few rows a day), from the `game_club_stats`
    index alone (games/migrations/0020_game_club_stats.py), summed here into the months, the rule sets' results and
    the first and last day: not three scans of the games (on SQLite one of them truncated each game's date to its
    month in Python), and the rule sets' names read for the few rule sets, not joined to every game."""
    days = list(counting_games().filter(scope.games_q()).order_by().values_list("date", "result", "ruleset_id")
                .annotate(n=Count("*")).order_by("date", "result", "ruleset_id"))
    names = dict(RuleSetVersion.objects.filter(pk__in={row[2] for row in days}).values_list("pk", "name"))
    by_ruleset: dict[str, dict] = {}
    months: dict[dt.date, int] = {}
    for date, result, ruleset_id, n in days:
        name = names[ruleset_id]
        entry = by_ruleset.setdefault(name, {"ruleset": name, "games": 0, "red": 0, "black": 0, "draw": 0})
        entry["games"] += n
        entry[result] += n
        months[date.replace(day=1)] = months.get(date.replace(day=1), 0) + n
    return {"rulesets": sorted(by_ruleset.values(), key=lambda e: -e["games"]),
            "months": [{"month": m.strftime("%Y-%m"), "start": m, "games": n} for m, n in sorted(months.items())],
            "games": sum(e["games"] for e in by_ruleset.values()),
            "first": days[0][0].isoformat() if days else None, "last": days[-1][0].isoformat() if days else None}
