"""Club evenings and tournament schedules: thin views over games.evenings / games.schedule."""

from __future__ import annotations

from django.shortcuts import get_object_or_404, render

from games.evenings import evening_tables, next_tables
from games.models import ClubEvening
from games.permissions import can_start_game


def evening_detail(request, pk: int):
    evening = get_object_or_404(ClubEvening.objects.select_related("club", "ruleset"), pk=pk)
    tables = evening_tables(evening)
    return render(request, "games/evening_detail.html", {
        "evening": evening, "tables": tables, "start_tables": next_tables(tables),
        "can_start": can_start_game(request.user, evening.club)})
