from django.urls import path

from games.rulesets import views

# included by games/urls.py (namespace "games")
urlpatterns = [
    path("rulesets/", views.ruleset_list, name="ruleset_list"),
    path("rulesets/<int:pk>/", views.ruleset_detail, name="ruleset_detail"),
    path("rulesets/<int:pk>/copy/", views.ruleset_copy_view, name="ruleset_copy"),
    path("rulesets/<int:pk>/edit/", views.ruleset_edit, name="ruleset_edit"),
    path("rulesets/<int:pk>/default/", views.ruleset_make_default, name="ruleset_default"),
]
