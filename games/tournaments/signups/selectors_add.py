"""Reads for the organiser's "add a player to the list": the club's players not on it yet."""

from __future__ import annotations

from club.models import Player
from games.tournaments.signups.models import Signup, SignupSheet


def players_to_add(sheet: SignupSheet) -> list[str]:
    """The nicknames of the club's active players not signed up or waiting on this sheet, alphabetically."""
    on_list = Signup.objects.filter(sheet=sheet).exclude(status=Signup.Status.CANCELLED).values("player_id")
    return list(Player.objects.filter(club_id=sheet.club_id, active=True).exclude(pk__in=on_list)
                .order_by("nickname_key").values_list("nickname", flat=True))
