"""Ratings pages: thin views over ratings.standings.selectors. Tables are rendered once per stored scope version and cached."""

import csv

from django.conf import settings
from django.http import Http404, HttpResponse, JsonResponse, StreamingHttpResponse
from django.shortcuts import get_object_or_404, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.functional import SimpleLazyObject

from club.models import Player
from club.page_cache import day_stamp, public_page
from club.selectors import get_site_club
from games.models import Tournament
from games.page_cache import club_generation
from ratings.elo import selectors as selectors_elo
from ratings.models import RatingPoint, RatingScope, Season
from ratings.standings import selectors
from ratings.standings import selectors_tables as tables
from ratings.standings.csv_cells import safe_row

CSV_COLUMNS = ["rank", "player", "games", "wins", "main", "extras", "total"]


def _int(value) -> int | None:
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


def _standings_table(request, scope: RatingScope | None, csv_url: str) -> tuple[str, bool]:  # noqa: ARG001 — request: Django's view signature
    if scope is None:  # nothing scored yet: the scope is created when the first game is scored
        return render_to_string("ratings/_standings_table.html", {"rows": [], "csv_url": ""}), False
    provisional = selectors.provisional_players(scope)
    return selectors.cached(
        ("table", scope.pk, scope.version, selectors.provisional_key(provisional)),
        lambda: _render_table(scope, provisional, csv_url))


def _render_table(scope: RatingScope, provisional: set[int], csv_url: str) -> str:
    rows, ties = tables.standings_rows(scope, provisional)
    # The rows as dicts: the template finds `row.rank` as a key at once, and as an attribute only after a failed key
    # lookup (an exception per cell: a fifth of a 300-row table's render).
    return render_to_string("ratings/_standings_table.html", {
        "rows": [vars(row) for row in rows], "csv_url": csv_url, "ties": ties,
        "provisional": bool(rows and provisional)})


@public_page(day_stamp)
def tournament_standings(request, pk: int):
    tournament = get_object_or_404(Tournament.objects.select_related("ruleset", "club"), pk=pk)
    scope = selectors.tournament_scope(tournament)
    table, _ = _standings_table(request, scope, reverse("ratings:tournament_standings_csv", args=[pk]))
    return render(request, "ratings/tournament_standings.html", {"tournament": tournament, "table": table})


def _csv_response(name: str, header: list[str], rows) -> HttpResponse:
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    response.write("\ufeff")  # so spreadsheet programs read the Cyrillic as UTF-8
    writer = csv.writer(response)
    writer.writerow(header)
    writer.writerows(safe_row(row) for row in rows)  # a nickname like "=HYPERLINK(…)" stays text
    return response


def tournament_standings_csv(request, pk: int):  # noqa: ARG001 — request: Django's view signature
    tournament = get_object_or_404(Tournament, pk=pk)
    data = selectors.standings_json(tournament)
    return _csv_response(f"standings-{tournament.pk}.csv", CSV_COLUMNS,
                         ([row[c] for c in CSV_COLUMNS] for row in data["rows"]))


def tournament_standings_json(request, pk: int):  # noqa: ARG001 — request: Django's view signature
    tournament = get_object_or_404(Tournament, pk=pk)
    return JsonResponse(selectors.standings_json(tournament), json_dumps_params={"ensure_ascii": False})


def _season_from(request, seasons: list[Season]) -> Season | None:
    wanted = _int(request.GET.get("season"))
    chosen = next((s for s in seasons if s.pk == wanted), None)
    return chosen or selectors.default_season(seasons)


@public_page(day_stamp)
def club_rating(request):
    club = get_site_club()
    seasons = selectors.club_seasons(club)
    season = _season_from(request, seasons)
    table = ""
    if season is not None:
        scope = selectors.season_scope(season)
        table, _ = _standings_table(request, scope, reverse("ratings:season_standings_csv", args=[season.pk]))
    template = "ratings/club_rating.html#rating-body" if request.htmx else "ratings/club_rating.html"
    return render(request, template, {"club": club, "seasons": seasons, "season": season, "table": table})


def season_standings_csv(request, pk: int):  # noqa: ARG001 — request: Django's view signature
    season = get_object_or_404(Season, pk=pk)
    scope = selectors.season_scope(season)
    rows = selectors.scope_rows(scope) if scope is not None else []
    return _csv_response(f"rating-{season.pk}.csv", CSV_COLUMNS,
                         ([r.rank, r.player, r.record.games, r.record.wins, r.record.main, r.record.extras,
                           r.record.total] for r in rows))


def _player_scope(request, player) -> tuple[list[Season], Season | None, Tournament | None, RatingScope | None]:
    seasons = selectors.club_seasons(player.club)
    tournament_id = _int(request.GET.get("tournament"))
    if tournament_id:
        tournament = get_object_or_404(Tournament, pk=tournament_id)  # any club's: he may have played there
        return seasons, None, tournament, selectors.tournament_scope(tournament)
    season = _season_from(request, seasons)
    return seasons, season, None, (selectors.season_scope(season) if season else None)


def player_history_csv(request, pk: int):
    """The whole rating history as text: every game with the cumulative points and rank after it."""
    player = get_object_or_404(Player.objects.select_related("club"), pk=pk)
    _, _, _, scope = _player_scope(request, player)
    if scope is None:
        raise Http404
    points = (RatingPoint.objects.filter(scope=scope, player=player).order_by("n")
              .values_list("date", "game_id", "points", "cumulative", "rank"))

    def lines():
        yield "\ufeffgame,date,game_id,points,cumulative,rank\r\n"
        for number, (date, game_id, points_, cumulative, rank) in enumerate(points.iterator(), start=1):
            yield f"{number},{date.isoformat()},{game_id},{points_.normalize()},{cumulative.normalize()},{rank}\r\n"

    response = StreamingHttpResponse(lines(), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="rating-history-{player.pk}-{scope.pk}.csv"'
    return response


@public_page(day_stamp)
def club_stats(request):
    club = get_site_club()
    seasons = selectors.club_seasons(club)
    season = _season_from(request, seasons)
    scope = selectors.season_scope(season) if season else None
    stats = selectors.club_statistics(scope) if scope is not None else None
    template = "ratings/club_stats.html#stats-body" if request.htmx else "ratings/club_stats.html"
    return render(request, template, {"club": club, "seasons": seasons, "season": season, "stats": stats})


@public_page(day_stamp)
def club_elo(request):
    """The club's Elo table (docs/elo.md), read from the stored current ratings. The table is the same for every
    reader: its rendering is kept under the club's generation (games.page_cache, dropped by every Elo write and
    every renamed player) and read only when it is not."""
    club = get_site_club()
    return render(request, "ratings/elo.html", {
        "club": club, "rows": SimpleLazyObject(lambda: selectors_elo.elo_table(club)),
        "elo_generation": club_generation(club.pk) if club is not None else "",
        "recomputing": selectors_elo.recomputing(club), "elo_start": settings.ELO_START, "elo_k": settings.ELO_K})
