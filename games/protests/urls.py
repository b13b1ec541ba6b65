from django.urls import path

from games.protests import views

# included by games/urls.py (namespace "games")
urlpatterns = [
    path("protests/", views.protest_queue_view, name="protest_queue"),
    path("protests/mine/", views.my_protests_view, name="my_protests"),
    path("protests/<int:pk>/", views.protest_detail_view, name="protest_detail"),
    path("protests/<int:pk>/decide/", views.protest_decide_view, name="protest_decide"),
    path("<int:pk>/protests/file/", views.protest_file_view, name="protest_file"),
    path("<int:pk>/protests/paper/", views.protest_paper_view, name="protest_paper"),
]
