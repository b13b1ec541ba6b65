"""Merging two players who are one person (games.people.services, docs/persons.md): a guest's copies in two clubs
become one person whose stored tables, statistics and Elo equal a full recompute; the removed card's URL
redirects; a merge of two who sat in one game, or without the right over both, is refused with the database as it
was; the command does the same and `--dry-run` changes nothing."""

from __future__ import annotations

import datetime as dt
from io import StringIO

import pytest
from django.core.exceptions import PermissionDenied
from django.core.management import CommandError, call_command
from django.urls import reverse
from django.utils import translation

from club.models import Club, ClubMember, Membership, Player, PlayerMerge
from club.permissions import forget_roles
from club.services import ServiceError
from club.tests.factories import MembershipFactory, UserFactory
from club.tests.test_audit_permissions import snapshot
from games.models import Seat
from games.people.services import merge_players
from ratings.models import EloChange, EloRating, PlayerGame
from ratings.standings import services
from ratings.tests.conftest import generated, make_tournament
from ratings.tests.test_rebuild_ratings import stored

pytestmark = pytest.mark.django_db

WANDERER = "Странник"


@pytest.fixture
def two_copies():
    """A wanderer who played at club A and, as a guest before players were people, at club B (a copy there)."""
    a, b = Club.objects.create(name="Полночь"), Club.objects.create(name="Рассвет")
    generated(make_tournament(a, "Весна", start=dt.date(2026, 3, 1)), 6, seed=5, start=dt.date(2026, 3, 1),
              pool=[f"a{i}" for i in range(11)] + [WANDERER])
    generated(make_tournament(b, "Кубок Рассвета", start=dt.date(2026, 3, 2)), 6, seed=6,
              start=dt.date(2026, 3, 2), pool=[f"b{i}" for i in range(11)] + [WANDERER])
    keep, other = Player.objects.get(club=a, nickname=WANDERER), Player.objects.get(club=b, nickname=WANDERER)
    assert Seat.objects.filter(player=keep).exists() and Seat.objects.filter(player=other).exists()
    return a, b, keep, other


def test_two_copies_become_one_person_equal_to_a_full_recompute(two_copies, client):
    a, b, keep, other = two_copies
    games = Seat.objects.filter(player__in=[keep, other]).count()
    merge_players(keep=keep, other=other)
    assert not Player.objects.filter(pk=other.pk).exists()
    assert Seat.objects.filter(player=keep).count() == games
    assert set(ClubMember.objects.filter(player=keep).values_list("club__name", flat=True)) == {a.name, b.name}
    assert PlayerGame.objects.filter(player=keep).count() == games
    assert EloRating.objects.get(player=keep).games == games == EloChange.objects.filter(player=keep).count()
    merged = stored()
    services.recompute_all()  # the reference: every stored table, statistic and Elo rebuilt from the games
    assert merged == stored()
    record = PlayerMerge.objects.get(merged_id=other.pk)
    assert record.kept == keep and record.moved["games"] > 0
    response = client.get(reverse("player_detail", args=[other.pk]) + "?club=1")
    assert response.status_code == 301 and response["Location"] == reverse("player_detail", args=[keep.pk]) + "?club=1"
    html = client.get(reverse("player_detail", args=[keep.pk]) + "?everywhere=1").content.decode()
    assert html.count('data-testid="game-anywhere"') == games  # both clubs' games on the one card
    assert a.name in html and "Кубок Рассвета" in html


def test_a_merge_of_two_who_sat_in_one_game_is_refused_and_nothing_changes(two_copies):
    a, _b, keep, _other = two_copies
    game = Seat.objects.filter(player=keep).first().game
    neighbour = game.seats.exclude(player=keep).first().player
    before = snapshot()
    with translation.override("en"), pytest.raises(ServiceError, match="one game"):
        merge_players(keep=keep, other=neighbour)
    with pytest.raises(CommandError, match="refused: "):
        call_command("merge_players", str(keep.pk), str(neighbour.pk), stdout=StringIO())
    assert snapshot() == before


def test_the_right_over_both_clubs_is_needed(two_copies):
    a, b, keep, other = two_copies
    admin_of_a = UserFactory(username="admin_a")
    MembershipFactory(club=a, user=admin_of_a, role=Membership.Role.ADMIN)
    before = snapshot()
    with pytest.raises(PermissionDenied):
        merge_players(keep=keep, other=other, by=admin_of_a)
    assert snapshot() == before
    MembershipFactory(club=b, user=admin_of_a, role=Membership.Role.ADMIN)  # an admin of both clubs may
    forget_roles(admin_of_a)  # (the roles are cached on the user for a request)
    merge_players(keep=keep, other=other, by=admin_of_a)
    assert PlayerMerge.objects.get(merged_id=other.pk).by == admin_of_a


def test_the_command_dry_run_prints_what_would_move_and_changes_nothing(two_copies):
    _a, _b, keep, other = two_copies
    before = snapshot()
    out = StringIO()
    call_command("merge_players", str(keep.pk), str(other.pk), "--dry-run", stdout=out)
    assert "would move" in out.getvalue()
    assert f"games: {Seat.objects.filter(player=other).count()}" in out.getvalue()
    assert snapshot() == before
    call_command("merge_players", str(keep.pk), str(other.pk), stdout=StringIO())
    assert not Player.objects.filter(pk=other.pk).exists()
