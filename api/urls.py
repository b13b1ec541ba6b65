from django.urls import path

from api.endpoints import api

urlpatterns = [path("v1/", api.urls)]
