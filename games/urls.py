from django.urls import path

from games import views

app_name = "games"
urlpatterns = [
    path("", views.tournament_list, name="tournament_list"),
    path("import/", views.import_upload, name="import"),
    path("tournaments/<int:pk>/", views.tournament_detail, name="tournament_detail"),
    path("tournaments/<int:pk>/protocols.json", views.tournament_json, name="tournament_json"),
    path("<int:pk>/", views.game_detail, name="game_detail"),
    path("<int:pk>/protocol.json", views.game_json, name="game_json"),
    # --- printable sheets (issue 5) register below
    # --- live entry (issue 4) registers below
    # --- protests (issue 6) register below
]
