from django.urls import path

from games.tournaments import views

# included by games/urls.py (namespace "games")
urlpatterns = [
    path("", views.tournament_list, name="tournament_list"),
    path("tournaments/<int:pk>/", views.tournament_detail, name="tournament_detail"),
    path("tournaments/<int:pk>/protocols.json", views.tournament_json, name="tournament_json"),
    path("evenings/<int:pk>/", views.evening_detail, name="evening_detail"),
    path("evenings/games/<int:pk>/take/", views.evening_table_take, name="evening_table_take"),
    # the schedule: participants, seating, rounds, judges, final, hidden results
    path("tournaments/<int:pk>/participants/", views.tournament_participants, name="tournament_participants"),
    path("tournaments/<int:pk>/schedule/", views.tournament_schedule, name="tournament_schedule"),
    path("tournaments/<int:pk>/schedule/<slug:kind>/", views.schedule_action, name="schedule_action"),
    path("tournaments/<int:pk>/seating.json", views.tournament_seating_json, name="tournament_seating_json"),
    path("tournaments/<int:pk>/rounds/<int:round_number>/seating.pdf", views.round_seating_pdf,
         name="round_seating_pdf"),
    path("tournaments/<int:pk>/cards.pdf", views.tournament_cards_pdf, name="tournament_cards"),
]
