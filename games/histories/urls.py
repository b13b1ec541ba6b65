from django.urls import path

from games.histories import views

# included by games/urls.py (namespace "games")
urlpatterns = [
    path("import/history/", views.history_import, name="history_import"),
    path("import/history/<int:pk>/", views.history_review, name="history_review"),
    path("import/results-template.xlsx", views.results_template_xlsx, name="results_template"),
    path("import/protocol-template.xlsx", views.protocol_template_xlsx, name="protocol_template"),
    path("tournaments/<int:pk>/mafiaratings.json", views.tournament_mafiaratings, name="tournament_mafiaratings"),
]
