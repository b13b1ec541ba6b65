"""The staff page shows each person once and by name, the site's superuser as what he is, and offers the least
power first."""

from __future__ import annotations

import pytest
from django.urls import reverse

from club.models import Membership
from club.tests.factories import ClubFactory, MembershipFactory, PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db
Role = Membership.Role


def _section(html: str, role: str) -> str:
    return html.split(f'data-testid="staff-{role}"', 1)[1].split("</section>", 1)[0]


def test_the_role_to_give_defaults_to_judge_the_least_power(client, cast):
    client.force_login(cast.club_admin)
    html = client.get(reverse("staff"), {"q": "outsider"}).content.decode()
    for testid in ("staff-add", "staff-invite"):
        form = html.split(f'data-testid="{testid}"', 1)[1].split("</form>", 1)[0]
        assert 'value="judge" selected' in form, testid
        assert 'value="admin" selected' not in form, testid


def test_a_superuser_who_runs_the_site_is_shown_as_the_sites_administrator_not_as_nobody(client):
    club = ClubFactory(name="Полночь")
    root = UserFactory(username="root", is_superuser=True, is_staff=True)
    client.force_login(root)
    html = client.get(reverse("staff"), HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    admins = _section(html, Role.ADMIN)
    assert "Никого" not in admins
    assert "root" in admins and "администратор сайта" in admins
    assert not Membership.objects.filter(club=club).exists()  # a read: nothing granted


def test_a_person_is_named_once_nickname_and_login_when_they_differ(client, cast):
    olga = MembershipFactory(club=cast.club, user=UserFactory(username="olga"), role=Role.JUDGE).user
    PlayerFactory(club=cast.club, nickname="Ольга", user=olga)
    same = MembershipFactory(club=cast.club, user=UserFactory(username="sova"), role=Role.HEAD_JUDGE).user
    PlayerFactory(club=cast.club, nickname="Sova", user=same)
    client.force_login(cast.club_admin)
    html = client.get(reverse("staff")).content.decode()
    judges = _section(html, Role.JUDGE)
    assert "Ольга (olga)" in judges and judges.count("olga") == 1
    heads = _section(html, Role.HEAD_JUDGE)
    assert heads.count("sova") + heads.count("Sova") == 1  # equal but for case: shown once
    assert 'data-testid="staff-name">judge<' in judges  # no player, no full name: the login, once


def test_the_login_search_shows_the_players_nickname_and_club_and_answers_htmx_with_a_fragment(client, cast):
    elsewhere = UserFactory(username="x-17")
    PlayerFactory(club=cast.other_club, nickname="Ворона", user=elsewhere)
    client.force_login(cast.club_admin)
    page = client.get(reverse("staff"), {"q": "ворон"}).content.decode()
    results = page.split('data-testid="login-results"', 1)[1]
    assert "Ворона" in results and "Рассвет" in results and "x-17" in results
    assert f'name="user" value="{elsewhere.pk}"' in results
    fragment = client.get(reverse("staff"), {"q": "ворон"}, HTTP_HX_REQUEST="true").content.decode()
    assert "<html" not in fragment and "Ворона" in fragment and 'data-testid="login-results"' in fragment
    assert "Ворона" not in client.get(reverse("staff"), {"q": "в"}).content.decode()  # one letter: no search
