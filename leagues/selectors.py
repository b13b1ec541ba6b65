"""Reads of leagues and series (docs/leagues.md): the league's players and Elo table, a series' standings, a
player's series, a tournament's strength. Reads never write (the stored standings are the task's, leagues.tasks)."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal

from django.core.cache import cache
from django.db.models import Q, QuerySet
from django.utils import timezone

from club.html import url_of
from club.models import Player
from club.selectors import member_players
from games.models import Game, Participant, RuleSetVersion, Tournament
from leagues import gaining, ranking
from leagues.models import League, LeagueClub, LeagueManager, Series, SeriesResult, SeriesTournament
from ratings.models import EloRating, PlayerStats

CACHE_TIMEOUT = 24 * 3600
TOP_FIELD = 20

# The states of a series' tournament, as the standings' header shows them
COUNTS, HIDDEN, UNCONFIRMED, UNSUPPORTED = "counts", "hidden", "unconfirmed", "unsupported"


# ---------------------------------------------------------------------------------------------- people
def league_players(league: League) -> QuerySet[Player]:
    """The members of the league's clubs: ONE place that says who they are — the players with a membership in any
    of the league's active clubs (club.selectors.member_players), each person once however many of them he is in."""
    return member_players(list(active_clubs(league).values_list("club_id", flat=True)))


def player_elos(player_ids) -> dict[int, float]:
    """Each player's one Elo (ratings.elo's stored rating; absent before his first counted game)."""
    return dict(EloRating.objects.filter(player_id__in=player_ids).values_list("player_id", "elo"))


@dataclass
class LeagueEloRow:
    rank: int
    player_id: int
    player: str
    club: str
    elo: float
    games: int


ELO_PAGE = 100


def league_elo_table(league: League, page: int = 1, per_page: int = ELO_PAGE) -> tuple[list[LeagueEloRow], bool]:
    """A page of the members of the league's clubs by their Elo (highest first; equal Elo by nickname), and
    whether a next page exists."""
    start = (max(page, 1) - 1) * per_page
    rows = list(EloRating.objects.filter(player_id__in=league_players(league).values("pk"))
                .order_by("-elo", "player__nickname", "pk")
                .values_list("player_id", "player__nickname", "player__club__name", "elo", "games")
                [start:start + per_page + 1])
    found = [LeagueEloRow(i, pid, nick, club, elo, games)
             for i, (pid, nick, club, elo, games) in enumerate(rows[:per_page], start + 1)]
    return found, len(rows) > per_page


# ---------------------------------------------------------------------------------------------- leagues
def active_clubs(league: League) -> QuerySet[LeagueClub]:
    return LeagueClub.objects.filter(league=league, status=LeagueClub.Status.ACTIVE)


def is_member(league: League, club_id: int) -> bool:
    return active_clubs(league).filter(club_id=club_id).exists()


def league_memberships(league: League) -> list[LeagueClub]:
    return list(LeagueClub.objects.filter(league=league).exclude(status=LeagueClub.Status.ENDED)
                .select_related("club").order_by("status", "club__name"))


def league_managers(league: League) -> list[str]:
    return list(LeagueManager.objects.filter(league=league).order_by("user__username")
                .values_list("user__username", flat=True))


def coming_tournaments(league: League, today: dt.date | None = None) -> list[Tournament]:
    today = today or timezone.localdate()
    return list(Tournament.objects.filter(club__in=active_clubs(league).values("club_id"))
                .filter(Q(start_date__gte=today) | Q(end_date__gte=today)).select_related("club")
                .order_by("start_date", "name")[:50])


def league_series(league: League) -> list[Series]:
    return list(Series.objects.filter(league=league).select_related("gaining__table"))


def ruleset_names(league: League) -> list[str]:
    """The names of the rule sets the league's series may use (empty: any)."""
    if not league.rulesets:
        return []
    return sorted(set(RuleSetVersion.objects.filter(slug__in=league.rulesets, is_preset=True)
                      .values_list("name", flat=True)))


def ruleset_family(tournament: Tournament) -> str:
    """The preset code the tournament's rule set is (or a club's copy is based on)."""
    ruleset: RuleSetVersion | None = tournament.ruleset
    seen = set()
    while ruleset is not None and not ruleset.is_preset and ruleset.based_on_id and ruleset.pk not in seen:
        seen.add(ruleset.pk)
        ruleset = ruleset.based_on
    return ruleset.slug if ruleset is not None else ""


def unsupported_ruleset(league: League, tournament: Tournament) -> str | None:
    """The tournament's rule-set code when the league's series may not use it, else None."""
    family = ruleset_family(tournament)
    return family if league.rulesets and family not in league.rulesets else None


# ---------------------------------------------------------------------------------------------- standings
def table_of(series: Series) -> gaining.GainingTable:
    return gaining.parse(series.gaining.data)


def _entries(series: Series) -> list[SeriesTournament]:
    entries = SeriesTournament.objects.filter(series=series).select_related("tournament__ruleset", "tournament__club")
    return sorted(entries, key=lambda e: (e.tournament.start_date or dt.date.max, e.tournament_id))


def _state(series: Series, entry: SeriesTournament, hidden: set[int]) -> str:
    if unsupported_ruleset(series.league, entry.tournament):
        return UNSUPPORTED
    if not entry.confirmed:
        return UNCONFIRMED
    return HIDDEN if entry.tournament_id in hidden else COUNTS


def _places(tournament_ids: list[int]) -> dict[int, list[tuple[int, int]]]:
    """Each tournament's final places: (player id, place) with the place shared by tied players (the stored
    standings, ratings.standings)."""
    places: dict[int, list[tuple[int, int]]] = {t: [] for t in tournament_ids}
    rows = (PlayerStats.objects.filter(scope__tournament_id__in=tournament_ids)
            .values_list("scope__tournament_id", "player_id", "rank"))
    for tournament_id, player_id, rank in rows:
        places[tournament_id].append((player_id, rank))
    return places


def _event(table: gaining.GainingTable, entry: SeriesTournament, places: list[tuple[int, int]]) -> ranking.Event:
    tied: dict[int, int] = {}
    for _player, rank in places:
        tied[rank] = tied.get(rank, 0) + 1
    column = table.places_points(entry.stars, len(places))
    by_place = {rank: gaining.shared(column, rank, count) for rank, count in tied.items()}
    results = {player: (rank, by_place[rank]) for player, rank in places}
    return ranking.Event(entry.tournament_id, entry.finals, results)


def compute_standings(series: Series) -> dict:
    """The series' standings as data (the command line's JSON, plus the header of tournaments and the tie notes)."""
    table = table_of(series)
    entries = _entries(series)
    ids = [e.tournament_id for e in entries]
    hidden = set(Game.objects.filter(tournament_id__in=ids, results_hidden=True).order_by()
                 .values_list("tournament_id", flat=True).distinct())
    states = {e.tournament_id: _state(series, e, hidden) for e in entries}
    counting = [e for e in entries if states[e.tournament_id] == COUNTS]
    places = _places([e.tournament_id for e in counting])
    events = [_event(table, e, places[e.tournament_id]) for e in counting]
    rows = ranking.standings(events, series.best_of)
    players = dict(Player.objects.filter(pk__in=[r.player_id for r in rows]).values_list("pk", "nickname"))
    clubs = dict(Player.objects.filter(pk__in=[r.player_id for r in rows]).values_list("pk", "club__name"))
    names = {e.tournament_id: e.tournament.name for e in entries}
    rows.sort(key=lambda r: (r.rank, players.get(r.player_id, "").casefold(), r.player_id))  # a shared place by name
    return {
        "series": series.name,
        "gaining_version": series.gaining.number,
        "gaining_table": series.gaining.table.name,
        "best_of": series.best_of,
        "events": [{"tournament_id": e.tournament_id, "tournament": e.tournament.name, "club": e.tournament.club.name,
                    "stars": float(e.stars), "finals": e.finals, "state": states[e.tournament_id]}
                   for e in entries],
        "rows": [{"rank": r.rank, "player_id": r.player_id, "player": players.get(r.player_id, ""),
                  "club": clubs.get(r.player_id) or "", "total": _num(r.total), "decided_by": r.decided_by,
                  "tournaments": [{"tournament": names[x.tournament_id], "tournament_id": x.tournament_id,
                                   "place": x.place, "points": _num(x.points), "counted": x.counted}
                                  for x in r.results]}
                 for r in rows],
    }


def _num(value: Decimal) -> float:
    return float(value.quantize(gaining.HUNDREDTH))


def standings_key(series: Series) -> str:
    return f"leagues:standings:{series.pk}:{series.stamp}:{series.gaining_id}:{series.best_of}"


def series_standings(series: Series) -> dict:
    """The standings: the worker's stored ones when they are of the series' current stamp, else computed here and
    cached under the stamp (a reader never writes the database)."""
    stored = SeriesResult.objects.filter(series=series, stamp=series.stamp).values_list("data", flat=True).first()
    if stored is not None and stored.get("gaining_version") == series.gaining.number:
        return stored
    key = standings_key(series)
    data = cache.get(key)
    if data is None:
        data = compute_standings(series)
        cache.set(key, data, CACHE_TIMEOUT)
    return data


def series_of_tournament(tournament_id: int | None, series_id: int) -> Series | None:
    """The series `series_id` when it holds the tournament (an overlay's token reaches only its event's series)."""
    if tournament_id is None:
        return None
    return (Series.objects.filter(pk=series_id, entries__tournament_id=tournament_id)
            .select_related("league", "gaining__table").first())


def series_of(tournament_id: int) -> list[Series]:
    return list(Series.objects.filter(entries__tournament_id=tournament_id).order_by("name"))


@dataclass
class TableRow:
    rank: str
    url: str
    player: str
    club: str
    total: str
    # one per event of the series: {"points": as written, "place": as written, "cut": not counted}, or None.
    # Dicts and texts: a template finds a key at once, and writes a text as it is (a number is localised per cell)
    cells: list[dict | None]
    player_id: int = 0  # the row's anchor (`#series-<id>`: the page a "find me" link opens)


def table_rows(data: dict, sep: str = ".", shown: list[dict] | None = None) -> list[TableRow]:
    """The standings' rows (`shown` of them, or all) with one cell per tournament of the series (the page's
    columns), the points written with two decimals and the locale's separator `sep` (formatted here once: the
    template only places them)."""
    profile = url_of("player_detail")
    order = {e["tournament_id"]: i for i, e in enumerate(data["events"])}
    rows = []
    for r in data["rows"] if shown is None else shown:
        cells: list[dict | None] = [None] * len(order)
        for t in r["tournaments"]:
            cells[order[t["tournament_id"]]] = {"points": f"{t['points']:.2f}".replace(".", sep),
                                                "place": str(t["place"]), "cut": not t["counted"]}
        rows.append(TableRow(str(r["rank"]), profile % r["player_id"], r["player"], r["club"],
                             f"{r['total']:.2f}".replace(".", sep), cells, r["player_id"]))
    return rows


SERIES_PAGE_ROWS = 50  # the series page shows its standings so many rows a page (the CSV and the API: whole)


@dataclass
class StandingsPage:
    rows: list[dict]  # the standings' rows shown (of `data["rows"]`)
    page: int
    pages: int
    query: str  # a part of a nickname searched for ("" for none)
    found: int  # the rows the search found (every row without one)


def standings_page(rows: list[dict], *, page: int = 1, query: str = "", player_id: int | None = None,
                   per_page: int = SERIES_PAGE_ROWS) -> StandingsPage:
    """A page of the standings' `rows`: the page `page` (clamped to the pages there are), or, with `player_id`, the
    page holding that player's row; with `query`, only the rows whose nickname holds it (case aside), paged too."""
    query = query.strip()
    matched = [r for r in rows if query.casefold() in r["player"].casefold()] if query else rows
    if player_id is not None and not query:
        at = next((i for i, r in enumerate(rows) if r["player_id"] == player_id), None)
        page = page if at is None else at // per_page + 1
    pages = max(1, -(-len(matched) // per_page))
    page = min(max(1, page), pages)
    return StandingsPage(matched[(page - 1) * per_page:page * per_page], page, pages, query, len(matched))


def own_player_id(user) -> int | None:
    """The player linked to the reader's login (his "find me" link in a series' standings), None for anyone else."""
    if not getattr(user, "is_authenticated", False):
        return None
    return Player.objects.filter(user=user).values_list("pk", flat=True).first()


def standings_pending(series: Series) -> bool:
    """The worker has not yet stored the standings of the series' current stamp (the page says so)."""
    return not SeriesResult.objects.filter(series=series, stamp=series.stamp).exists()


@dataclass
class PlayerSeriesLine:
    series_id: int
    series: str
    league: str
    rank: int
    total: float


def player_series(player_id: int) -> list[PlayerSeriesLine]:
    """The series a player has points in, with his place and total (the player card's part)."""
    played = (PlayerStats.objects.filter(player_id=player_id, scope__tournament__series_entries__isnull=False)
              .values_list("scope__tournament__series_entries__series_id", flat=True))
    lines = []
    for series in Series.objects.filter(pk__in=set(played)).select_related("league", "gaining__table"):
        found = _places_of(series).get(player_id)
        if found is not None:
            lines.append(PlayerSeriesLine(series.pk, series.name, series.league.name, *found))
    return lines


def _places_of(series: Series) -> dict[int, tuple[int, float]]:
    """Player id -> (place, total) in the series, cached under its stamp (every card of its players reads it)."""
    key = "leagues:places:" + standings_key(series)
    places = cache.get(key)
    if places is None:
        places = {r["player_id"]: (r["rank"], r["total"]) for r in series_standings(series)["rows"]}
        cache.set(key, places, CACHE_TIMEOUT)
    return places


# ---------------------------------------------------------------------------------------------- strength
@dataclass
class Strength:
    participants: int
    clubs: list[str]
    cities: list[str]
    mean_elo: float | None
    top_mean_elo: float | None
    top: int


def _mean(values: list[float]) -> float | None:
    return round(sum(values) / len(values), 1) if values else None


def tournament_strength(tournament: Tournament) -> Strength:
    """The field: its participants (registered, else those who played), their clubs and cities, the mean Elo of
    the field and of its best TOP_FIELD."""
    player_ids = list(Participant.objects.filter(tournament=tournament).values_list("player_id", flat=True))
    if not player_ids:
        player_ids = list(PlayerStats.objects.filter(scope__tournament=tournament)
                          .values_list("player_id", flat=True))
    people = Player.objects.filter(pk__in=player_ids)
    clubs = sorted({name for name in people.values_list("club__name", flat=True) if name})
    cities = sorted({c.strip() for c in people.values_list("city", flat=True) if c and c.strip()})
    elos = sorted(player_elos(player_ids).values(), reverse=True)
    return Strength(len(player_ids), clubs, cities, _mean(elos), _mean(elos[:TOP_FIELD]), min(TOP_FIELD, len(elos)))
