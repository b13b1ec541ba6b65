"""`/protocol/blank.pdf` lives at the site root (club/urls.py includes this with one line)."""

from django.urls import path

from games.sheets import views as views_sheets

urlpatterns = [
    path("", views_sheets.blank_protocol_pdf, name="protocol_blank_pdf"),
]
