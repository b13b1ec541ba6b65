from django.urls import path

from games.protocol import views

# included by games/urls.py (namespace "games")
urlpatterns = [
    path("import/", views.import_upload, name="import"),
    path("<int:pk>/", views.game_detail, name="game_detail"),
    path("<int:pk>/protocol.json", views.game_json, name="game_json"),
]
