"""A player's result of a signed game, as his private message says it: the result, his points, his Elo change,
the protocol's link. Nothing of a game whose results are hidden (a hidden round) nor of one not signed."""

from __future__ import annotations

from django.conf import settings
from django.urls import reverse
from django.utils.formats import number_format

from games.models import Game, Seat
from ratings.models import EloChange


def facts(game_id: int, player_id: int) -> dict | None:
    game = Game.objects.select_related("tournament", "evening").filter(pk=game_id).first()
    if game is None or game.status != Game.Status.SIGNED or game.results_hidden:
        return None
    seat = Seat.objects.filter(game=game, player_id=player_id).first()
    if seat is None:
        return None
    change = EloChange.objects.filter(game=game, player_id=player_id).values_list("delta", flat=True).first()
    url = reverse("games:game_detail", args=[game.pk])
    return {"game": game.listed_name, "outcome": game.get_result_display(), "won": seat.won,
            "points": number_format(seat.total, decimal_pos=2),
            "elo": None if change is None else f"{change:+.1f}", "counts": game.counts,
            "url": settings.SITE_URL + url if settings.SITE_URL else ""}
