from django.urls import path

from leagues import views, views_new

app_name = "leagues"
urlpatterns = [
    path("", views.league_list, name="league_list"),
    path("new/", views_new.league_new, name="league_new"),
    path("<int:pk>/", views.league_detail, name="league_detail"),
    path("<int:pk>/elo/", views.league_elo, name="league_elo"),
    path("<int:pk>/clubs/", views.membership, name="membership"),
    path("memberships/<int:pk>/", views.membership_change, name="membership_change"),
    path("<int:pk>/tables/new/", views.table_new, name="table_new"),
    path("tables/<int:pk>/", views.table_edit, name="table_edit"),
    path("tables/versions/<int:pk>.json", views.table_export, name="table_export"),
    path("<int:pk>/series/new/", views.series_new, name="series_new"),
    path("series/<int:pk>/", views.series_detail, name="series_detail"),
    path("series/<int:pk>/standings.csv", views.series_csv, name="series_csv"),
    path("series/<int:pk>/tournaments/", views.series_add, name="series_add"),
    path("series/<int:pk>/move/", views.series_move, name="series_move"),
    path("series/entries/<int:pk>/", views.entry_change, name="entry_change"),
]
