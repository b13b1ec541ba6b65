from django.urls import path

from games.live import views

# included by games/urls.py (namespace "games")
urlpatterns = [
    path("tournaments/new/", views.tournament_new, name="tournament_new"),
    path("evenings/new/", views.evening_new, name="evening_new"),
    path("new/", views.game_new, name="game_new"),
    path("judge-sw.js", views.judge_service_worker, name="judge_sw"),
    path("<int:pk>/judge/", views.judge, name="judge"),
    path("<int:pk>/judge/players/", views.player_suggest, name="judge_players"),
    path("<int:pk>/judge/<slug:kind>/", views.judge_action, name="judge_action"),
    path("<int:pk>/live/", views.live, name="live"),
]
