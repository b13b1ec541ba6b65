"""The superuser makes a league on the site (`/leagues/new/`) and in /admin/; nobody else reaches either, and a
refused or bad request writes nothing (docs/leagues.md)."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from club.models import Club, Membership
from club.tests.factories import MembershipFactory
from games.models import RuleSetVersion
from leagues.models import League, LeagueClub, LeagueManager

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]
URL = "/leagues/new/"


def _client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _state():
    return (list(League.objects.values_list("name", "rulesets")),
            list(LeagueManager.objects.values_list("league_id", "user_id")))


@pytest.fixture
def root():
    return User.objects.create_superuser("root", "root@example.com", "x-Root-2026-long")


def test_the_superuser_creates_a_league_with_managers_and_rule_sets(root):
    manager = User.objects.create_user("fed", password="x-Fed-2026-long")
    preset = RuleSetVersion.objects.filter(is_preset=True).order_by("slug").first()
    assert preset is not None, "the presets are seeded by a migration"
    client = _client(root)
    listing = client.get(reverse("leagues:league_list")).content.decode()
    assert f'href="{URL}"' in listing
    assert 'type="checkbox"' in client.get(URL).content.decode()
    response = client.post(URL, {"name": "  Лига Севера ", "managers": "fed, fed", "rulesets": [preset.slug]})
    league = League.objects.get()
    assert response.status_code == 302 and response["Location"] == reverse("leagues:league_detail", args=[league.pk])
    assert league.name == "Лига Севера" and league.rulesets == [preset.slug]
    assert list(league.managers.values_list("user__username", flat=True)) == ["fed"]
    assert league.history.get().history_user == root
    assert manager.managed_leagues.count() == 1


def test_bad_input_names_the_field_and_writes_nothing(root):
    League.objects.create(name="Есть")
    client = _client(root)
    before = _state()
    for data, text in [({"name": ""}, "This field is required."),
                       ({"name": "Новая", "managers": "nobody ghost"}, "no user named nobody, ghost"),
                       ({"name": "Есть"}, "a league named Есть exists"),
                       ({"name": "Новая", "rulesets": ["no-such-code"]}, "Select a valid choice")]:
        answer = client.post(URL, data)
        assert answer.status_code == 400 and text in answer.content.decode(), data
    assert _state() == before


def test_nobody_but_the_superuser_creates_a_league(root):
    club = Club.objects.create(name="Полночь")
    admin = User.objects.create_user("club_admin", password="x-Adm-2026-long", is_staff=True)
    MembershipFactory(club=club, user=admin, role=Membership.Role.ADMIN)
    client = _client(admin)
    before = _state()
    assert Client().get(URL).status_code == 302  # the login page
    assert Client().post(URL, {"name": "Захват"}).status_code == 302
    assert client.get(URL).status_code == 403
    assert client.post(URL, {"name": "Захват"}).status_code == 403
    assert f'href="{URL}"' not in client.get(reverse("leagues:league_list")).content.decode()
    assert _state() == before


def test_the_admin_lists_leagues_for_the_superuser_only(root):
    club = Club.objects.create(name="Полночь")
    league = League.objects.create(name="Лига")
    LeagueClub.objects.create(league=league, club=club, status=LeagueClub.Status.ACTIVE)
    admin = User.objects.create_user("club_admin", password="x-Adm-2026-long", is_staff=True)
    MembershipFactory(club=club, user=admin, role=Membership.Role.ADMIN)
    superuser = _client(root)
    for model in ("league", "leaguemanager", "leagueclub"):
        assert superuser.get(reverse(f"admin:leagues_{model}_changelist")).status_code == 200, model
        assert _client(admin).get(reverse(f"admin:leagues_{model}_changelist")).status_code == 403, model
    assert superuser.get(reverse("admin:leagues_league_change", args=[league.pk])).status_code == 200
    before = list(League.objects.values_list("name", flat=True))
    assert _client(admin).post(reverse("admin:leagues_league_change", args=[league.pk]),
                               {"name": "Чужая"}).status_code == 403
    assert list(League.objects.values_list("name", flat=True)) == before
