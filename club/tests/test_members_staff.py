"""A club's admin takes a player of another club (or a guest) into his club and ends his own club's membership of a
player, from the player's card (club.services_members); anyone else is refused with the database as it was."""

from __future__ import annotations

import datetime

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from club.models import Club, ClubMember, Membership, Player
from club.tests.factories import MembershipFactory, UserFactory
from club.tests.test_audit_permissions import snapshot

pytestmark = pytest.mark.django_db


@pytest.fixture
def world():
    a, b = Club.objects.create(name="Полночь"), Club.objects.create(name="Рассвет")
    player = Player.objects.create(club=a, nickname="Странник")
    admin_a, admin_b = UserFactory(username="admin_a"), UserFactory(username="admin_b")
    MembershipFactory(club=a, user=admin_a, role=Membership.Role.ADMIN)
    MembershipFactory(club=b, user=admin_b, role=Membership.Role.ADMIN)
    return a, b, player, admin_a, admin_b


def _client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _clubs(player: Player) -> set[str]:
    return set(ClubMember.objects.filter(player=player).values_list("club__name", flat=True))


def test_the_card_offers_the_admin_his_club_and_nobody_else_the_form(world):
    a, b, player, admin_a, admin_b = world
    url = reverse("player_detail", args=[player.pk])
    page = _client(admin_b).get(url).content.decode()
    assert 'data-testid="member-add"' in page and reverse("player_member_add", args=[player.pk]) in page
    assert f'<option value="{b.pk}">' in page and f'<option value="{a.pk}">' not in page
    assert 'data-testid="member-staff"' not in Client().get(url).content.decode()
    judge = UserFactory(username="judge_b")
    MembershipFactory(club=b, user=judge, role=Membership.Role.JUDGE)
    assert 'data-testid="member-staff"' not in _client(judge).get(url).content.decode()
    home = _client(admin_a).get(url).content.decode()  # his own member: only the end button of his club
    assert 'data-testid="member-end"' in home and 'data-testid="member-add"' not in home


def test_admin_takes_another_clubs_player_into_his_club_with_a_date_and_a_trail(world):
    _a, b, player, _admin_a, admin_b = world
    response = _client(admin_b).post(reverse("player_member_add", args=[player.pk]),
                                     {"club": b.pk, "joined": "2026-03-01"})
    assert response.status_code == 302
    member = ClubMember.objects.get(player=player, club=b)
    assert member.joined == datetime.date(2026, 3, 1)
    assert _clubs(player) == {"Полночь", "Рассвет"}
    assert Player.objects.get(pk=player.pk).club_id == player.club_id  # the home club stays his
    trail = member.history.get()
    assert trail.history_user == admin_b and trail.history_type == "+"


def test_the_date_joined_defaults_to_today_and_a_guest_may_be_taken(world):
    _a, b, _player, _admin_a, admin_b = world
    guest = Player.objects.create(club=None, nickname="Лиса")
    assert _client(admin_b).post(reverse("player_member_add", args=[guest.pk]), {"club": b.pk}).status_code == 302
    assert ClubMember.objects.get(player=guest, club=b).joined == timezone.localdate()
    assert Player.objects.get(pk=guest.pk).club is None


def test_refused_additions_leave_the_database_unchanged(world):
    a, b, player, _admin_a, admin_b = world
    url = reverse("player_member_add", args=[player.pk])
    client = _client(admin_b)
    future = (timezone.localdate() + datetime.timedelta(days=3)).isoformat()
    stranger = _client(UserFactory(username="stranger"))
    before = snapshot()
    assert client.post(url, {"club": a.pk}).status_code == 403  # not his club (and already a member there)
    answer = client.post(url, {"club": b.pk, "joined": future})
    assert answer.status_code == 400 and 'data-testid="member-form"' in answer.content.decode()
    assert client.post(url, {"club": b.pk, "joined": "not a date"}).status_code == 400
    assert client.post(url, {}).status_code == 400
    assert Client().post(url, {"club": b.pk}).status_code == 302  # the login page
    assert stranger.post(url, {"club": b.pk}).status_code == 403
    assert client.get(url).status_code == 405
    assert snapshot() == before


def test_taking_a_member_twice_is_refused_with_a_message(world):
    _a, b, player, _admin_a, admin_b = world
    ClubMember.objects.create(player=player, club=b)
    client = _client(admin_b)
    before = snapshot()
    answer = client.post(reverse("player_member_add", args=[player.pk]), {"club": b.pk})
    assert answer.status_code == 400 and "Странник" in answer.content.decode()
    assert snapshot() == before


def test_admin_ends_his_clubs_membership_but_not_another_clubs(world):
    a, b, player, admin_a, admin_b = world
    ClubMember.objects.create(player=player, club=b)
    url = reverse("player_member_end", args=[player.pk])
    client_a, client_b = _client(admin_a), _client(admin_b)
    before = snapshot()
    assert client_b.post(url, {"club": a.pk}).status_code == 403  # the home club is not B's to end
    assert client_a.post(url, {"club": 999999}).status_code == 400
    assert snapshot() == before
    assert client_b.post(url, {"club": b.pk}).status_code == 302
    assert _clubs(player) == {"Полночь"}
    trail = ClubMember.history.filter(club_id=b.pk, player_id=player.pk).latest("history_date")
    assert trail.history_type == "-" and trail.history_user == admin_b
    before = snapshot()
    assert client_b.post(url, {"club": b.pk}).status_code == 400  # no longer a member: nothing to end
    assert snapshot() == before


def test_ending_the_home_membership_is_the_home_admins_and_leaves_no_home_club(world):
    a, b, player, admin_a, _admin_b = world
    ClubMember.objects.create(player=player, club=b)
    assert _client(admin_a).post(reverse("player_member_end", args=[player.pk]), {"club": a.pk}).status_code == 302
    player.refresh_from_db()
    assert player.club is None and _clubs(player) == {"Рассвет"}
    assert player.history.latest("history_date").history_user == admin_a
    # no player keeps a home club he is not a member of
    assert not Player.objects.exclude(club=None).exclude(club_memberships__club_id=a.pk).filter(club=a).exists()
