from django.urls import path

from ratings import views

app_name = "ratings"
urlpatterns = [
    path("tournaments/<int:pk>/", views.tournament_standings, name="tournament_standings"),
    path("tournaments/<int:pk>/standings.csv", views.tournament_standings_csv, name="tournament_standings_csv"),
    path("tournaments/<int:pk>/standings.json", views.tournament_standings_json, name="tournament_standings_json"),
]
