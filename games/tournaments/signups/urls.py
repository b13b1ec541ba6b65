from django.urls import path

from games.tournaments.signups import views, views_add

# included by games/urls.py (namespace "games")
urlpatterns = [
    path("signups/<int:pk>/", views.sheet_detail, name="signup_sheet"),
    path("signups/<int:pk>/join/", views.join, name="signup_join"),
    path("signups/<int:pk>/leave/", views.leave, name="signup_leave"),
    path("signups/<int:pk>/remove/", views.remove, name="signup_remove"),
    path("signups/<int:pk>/add/", views_add.add, name="signup_add"),
    path("signups/<int:pk>/paste/", views_add.paste, name="signup_paste"),
    path("signups/<int:pk>/convert/", views.convert, name="signup_convert"),
    path("evenings/<int:pk>/signup/", views.sheet_edit, {"kind": "evening"}, name="evening_signup_edit"),
    path("tournaments/<int:pk>/signup/", views.sheet_edit, {"kind": "tournament"}, name="tournament_signup_edit"),
]
