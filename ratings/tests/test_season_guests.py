"""A club's season rating counts everybody who played at its events (the default, as clubs always did), or only
its members when the club says so (Club.season_counts_guests; docs/persons.md)."""

from __future__ import annotations

import datetime as dt

import pytest

from club.models import Club, ClubMember, Player
from ratings.models import Season
from ratings.standings.selectors import scope_rows, season_scope

from .conftest import generated, make_tournament

pytestmark = pytest.mark.django_db


def test_the_season_rating_counts_guests_unless_the_club_says_members_only(club):
    generated(make_tournament(club, "Весна", start=dt.date(2026, 3, 1)), 6, seed=7, start=dt.date(2026, 3, 1),
              pool=[f"p{i}" for i in range(12)])
    visitor = Club.objects.create(name="Рассвет")
    guests = list(Player.objects.filter(club=club, nickname__in=["p0", "p1"]))
    for guest in guests:  # two of them are another club's members who came as guests
        ClubMember.objects.filter(player=guest).delete()
        guest.club = visitor
        guest.save()
    scope = season_scope(Season.objects.get(club=club))
    everybody = scope_rows(scope)
    assert {g.pk for g in guests} <= {r.player_id for r in everybody}
    Club.objects.filter(pk=club.pk).update(season_counts_guests=False)
    members = scope_rows(scope)
    assert {r.player_id for r in members} == {r.player_id for r in everybody} - {g.pk for g in guests}
    assert members[0].rank == 1 and [r.player_id for r in members] == [r.player_id for r in everybody
                                                                        if r.player_id in {m.player_id for m in members}]
    assert all(a.rank <= b.rank for a, b in zip(members, members[1:], strict=False))
