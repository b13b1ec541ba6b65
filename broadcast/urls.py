from django.urls import path

from broadcast import views

app_name = "broadcast"

urlpatterns = [
    # the organiser's page of an event's overlays (create, revoke, the URLs to paste)
    path("tournaments/<int:pk>/", views.manage, {"kind": "tournament"}, name="manage_tournament"),
    path("evenings/<int:pk>/", views.manage, {"kind": "evening"}, name="manage_evening"),
    # the overlays themselves, reached by the token alone (no login)
    path("<str:overlay>/tables/<int:table>/", views.table, name="table"),
    path("<str:overlay>/tables/<int:table>/state/", views.table_state, name="table_state"),
    path("<str:overlay>/tables/<int:table>/result/", views.result, name="result"),
    path("<str:overlay>/standings/", views.standings, name="standings"),
    path("<str:overlay>/players/<int:pk>/", views.player, name="player"),
    path("<str:overlay>/series/<int:pk>/", views.series, name="series"),
]
