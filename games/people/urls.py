from django.urls import path

from games.people import views

# included by games/urls.py (namespace "games")
urlpatterns = [
    path("players/merge/", views.player_merge, name="player_merge"),
]
