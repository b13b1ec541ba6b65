from django.urls import path

from club.setup import views

urlpatterns = [
    path("setup/", views.first_run, name="first_run"),
    path("setup/next/", views.next_steps, name="club_next_steps"),
    path("club/settings/", views.club_settings, name="club_settings"),
]
