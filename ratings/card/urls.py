"""The players list and the player card live at the club's player address (`/players/`, `/players/<id>/`), served by the ratings app, which reads
both the club and its ratings (the root URLconf includes it before `club.urls_site`)."""

from django.urls import path

from ratings.card import views as views_card

urlpatterns = [
    path("players/", views_card.player_list, name="player_list"),
    path("players/<int:pk>/", views_card.player_card, name="player_detail"),
    path("players/<int:pk>/card/<slug:section>/", views_card.card_section, name="player_card_section"),
    path("players/<int:pk>/everywhere/", views_card.player_everywhere, name="player_everywhere"),
]
