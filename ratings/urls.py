from django.urls import path

from ratings.card import views as views_card
from ratings.seasons import views as views_seasons
from ratings.standings import views

app_name = "ratings"
urlpatterns = [
    path("", views.club_rating, name="club_rating"),
    path("elo/", views.club_elo, name="club_elo"),
    path("statistics/", views.club_stats, name="club_stats"),
    path("seasons/", views_seasons.season_list, name="season_list"),
    path("seasons/<int:pk>/edit/", views_seasons.season_edit, name="season_edit"),
    path("seasons/<int:pk>/delete/", views_seasons.season_delete, name="season_delete"),
    path("seasons/<int:pk>/standings.csv", views.season_standings_csv, name="season_standings_csv"),
    path("players/<int:pk>/", views_card.old_profile, name="player_profile"),
    path("players/<int:pk>/history.csv", views.player_history_csv, name="player_history_csv"),
    path("tournaments/<int:pk>/", views.tournament_standings, name="tournament_standings"),
    path("tournaments/<int:pk>/standings.csv", views.tournament_standings_csv, name="tournament_standings_csv"),
    path("tournaments/<int:pk>/standings.json", views.tournament_standings_json, name="tournament_standings_json"),
]
