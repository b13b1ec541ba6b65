from django.urls import path

from api import views

urlpatterns = [
    path("", views.tokens, name="api_tokens"),
    path("revoke/", views.token_revoke, name="api_token_revoke"),
]
