"""Standings pages: thin views over ratings.selectors."""

import csv

from django.http import HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, render
from django.utils.translation import get_language

from games.models import Tournament
from ratings.selectors import standings_json, tournament_standings
from ratings.standings import METRICS

CSV_COLUMNS = ["rank", "player", "games", "wins", "main", "extras", "total"]


def tournament_standings(request, pk: int):
    tournament = get_object_or_404(Tournament.objects.select_related("ruleset", "club"), pk=pk)
    rows = tournament_standings(tournament)
    english = get_language() == "en"
    for row in rows:
        metric = METRICS.get(row.decided_by or "")
        row.decided_by_label = (metric.label_en if english else metric.label) if metric else ""
    return render(request, "ratings/tournament_standings.html", {
        "tournament": tournament, "rows": rows, "metrics": METRICS,
    })


def tournament_standings_csv(request, pk: int):
    tournament = get_object_or_404(Tournament, pk=pk)
    data = standings_json(tournament)
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="standings-{tournament.pk}.csv"'
    response.write("\ufeff")  # so spreadsheet programs read the Cyrillic as UTF-8
    writer = csv.writer(response)
    writer.writerow(CSV_COLUMNS)
    for row in data["rows"]:
        writer.writerow([row[c] for c in CSV_COLUMNS])
    return response


def tournament_standings_json(request, pk: int):
    tournament = get_object_or_404(Tournament, pk=pk)
    return JsonResponse(standings_json(tournament), json_dumps_params={"ensure_ascii": False})
