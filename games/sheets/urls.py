from django.urls import path

from games.sheets import views

# included by games/urls.py (namespace "games"); the blank sheet at the site's root is urls_site.py
urlpatterns = [
    path("<int:pk>/protocol.pdf", views.game_protocol_pdf, name="protocol_pdf"),
    path("tournaments/<int:pk>/sheets.pdf", views.round_sheets_pdf, name="round_sheets_pdf"),
]
