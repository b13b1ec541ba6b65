"""Reads for the organiser's "add players to the list": the club's players not on it yet, a pasted list checked."""

from __future__ import annotations

from club.selectors import member_players
from club.selectors_roster import PastedLine, match_pasted, pasted_lines
from games.tournaments.signups.models import Signup, SignupSheet


def players_to_add(sheet: SignupSheet) -> list[str]:
    """The nicknames of the club's active members not signed up or waiting on this sheet, alphabetically."""
    on_list = Signup.objects.filter(sheet=sheet).exclude(status=Signup.Status.CANCELLED).values("player_id")
    return list(member_players(sheet.club_id).filter(active=True).exclude(pk__in=on_list)
                .order_by("nickname_key").values_list("nickname", flat=True))


def paste_preview(sheet: SignupSheet, text: str) -> list[PastedLine]:
    """A pasted list (one nickname a line) matched against the club's players (club.selectors_roster): a player
    already signed up or waiting is "registered" (skipped)."""
    on_list = set(Signup.objects.filter(sheet=sheet).exclude(status=Signup.Status.CANCELLED)
                  .values_list("player__nickname_key", flat=True))
    return match_pasted(sheet.club, [(nickname, "") for nickname in pasted_lines(text)], registered=on_list,
                        other_clubs=True)
