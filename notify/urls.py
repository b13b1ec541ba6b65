from django.urls import path

from notify import views, views_calendar, views_club

app_name = "notify"
urlpatterns = [
    path("telegram/webhook/", views.webhook, name="webhook"),
    path("telegram/club/", views_club.club_chat, name="club_chat"),
    path("notices/", views.notice_settings, name="settings"),
    path("notices/unsubscribe/<str:token>/", views.unsubscribe, name="unsubscribe"),
    path("notices/signups/<int:pk>/message/", views_club.sheet_message, name="sheet_message"),
    path("calendar/club.ics", views_calendar.club_calendar, name="club_calendar"),
    path("calendar/<str:secret>.ics", views_calendar.my_calendar, name="my_calendar"),
]
