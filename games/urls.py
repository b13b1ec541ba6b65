"""The `games:` namespace: each room's own urls.py, included here (names and paths as they always were)."""

from django.urls import include, path

app_name = "games"
urlpatterns = [
    path("", include("games.tournaments.urls")),
    path("", include("games.protocol.urls")),
    path("", include("games.rulesets.urls")),
    path("", include("games.sheets.urls")),
    path("", include("games.live.urls")),
    path("", include("games.protests.urls")),
    path("", include("games.tournaments.signups.urls")),
    path("", include("games.histories.urls")),
    path("", include("games.people.urls")),
]
