"""The page shell's cached parts (club.shell, `{% cache %}` in templates/base.html): each role sees its own header
from the cache, never another's, and every write that changes what the header shows is seen on the next page."""

from __future__ import annotations

import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from club import shell
from club.models import Club, Membership, Player
from club.setup.services import club_settings_update
from club.tests.craft import picture
from club.tests.factories import MembershipFactory, UserFactory

pytestmark = pytest.mark.django_db

MANAGE = 'data-testid="nav-manage"'
PROTESTS = reverse("games:my_protests")


def _header(client, user=None) -> str:
    """The page's header (the nav) as `user` sees it (anonymous when None), the cache kept between calls."""
    client.logout()
    if user is not None:
        client.force_login(user)
    return _nav(client)


def _nav(client) -> str:
    """The header (the nav) of the players' page as the client's visitor sees it now."""
    html = client.get(reverse("player_list")).content.decode()
    return html[html.index("<nav"):html.index("</nav>")]


def _brand(header: str) -> str:
    return re.search(r'class="navbar-brand"[^>]*>(.*?)</a>', header, re.S).group(1)


def test_each_role_is_served_its_own_header_whichever_was_cached_first(cast, client):
    orders = [["club_admin", "judge", "anonymous", "player"], ["anonymous", "player", "judge", "club_admin"]]
    for order in orders:
        for name in order:
            header = _header(client, None if name == "anonymous" else cast[name])
            assert (MANAGE in header) is (name == "club_admin"), name
            assert (PROTESTS in header) is (name != "anonymous"), name
            assert (reverse("login") in header) is (name == "anonymous"), name
            if name != "anonymous":  # their own login, never the one of a header cached before
                assert 'data-testid="nav-user" title="' in header
                assert f">{name}</a>" in header
                others = {"club_admin", "judge", "player"} - {name}
                assert not any(f">{other}</a>" in header for other in others), name


def test_a_role_given_or_taken_changes_the_menu_on_the_next_page(cast, client):
    user = UserFactory(username="newcomer")
    assert MANAGE not in _header(client, user)
    membership = MembershipFactory(club=cast.club, user=user, role=Membership.Role.ADMIN)
    assert MANAGE in _header(client, user)
    membership.delete()
    assert MANAGE not in _header(client, user)


def test_the_name_in_the_header_follows_a_rename_of_the_linked_player(cast, client):
    assert 'title="Лиса · ' in _header(client, cast.player)
    fox = Player.objects.get(user=cast.player)
    fox.nickname = "Лисица"
    fox.save()
    assert 'title="Лисица · ' in _header(client, cast.player)


def test_a_rename_a_new_colour_and_a_new_logo_of_the_club_are_in_the_next_header(cast, client, settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    before = client.get(reverse("player_list")).content.decode()
    assert "Полночь" in _brand(_header(client)) and "--club-accent" in before
    club_settings_update(club=cast.club, by=cast.club_admin, fields={"name": "Новолуние", "accent_color": "#c62828"})
    html = client.get(reverse("player_list")).content.decode()
    assert "Новолуние" in _brand(html[html.index("<nav"):]) and "Полночь" not in html
    assert "--club-accent: #c62828" in html
    assert "<img" not in _brand(_header(client))
    logo = SimpleUploadedFile("logo.png", picture("PNG", (64, 64)), content_type="image/png")
    club_settings_update(club=cast.club, by=cast.club_admin, fields={}, logo=logo)
    cast.club.refresh_from_db()
    assert f'<img src="{cast.club.logo.url}"' in _brand(_header(client))


def test_the_header_is_kept_per_language(cast, client):
    russian = _header(client)
    client.post(reverse("set_language"), {"language": "en", "next": "/"})
    english = client.get(reverse("player_list")).content.decode()
    assert "Игроки" in russian and ">Players<" in english and "Игроки" not in english[:english.index("</nav>")]


def test_no_token_nor_address_is_kept_in_the_cached_parts(cast, client):
    """The CSRF token and the page's address are filled in per request, around the cached parts."""
    first = client.get(reverse("player_list")).content.decode()
    client.cookies.clear()
    second = client.get(reverse("player_list") + "?page=1").content.decode()
    token = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
    assert token.findall(first) and set(token.findall(first)).isdisjoint(token.findall(second))
    assert 'name="next" value="/players/?page=1"' in second


def test_people_changed_forgets_every_kept_role(cast, client, monkeypatch):
    """A role kept before a write no signal saw (a queryset UPDATE) is gone once the people generation moves (a
    cache every process shares, as Redis: the test's memory cache stands for it)."""
    monkeypatch.setattr(shell, "shared", lambda: True)
    user = UserFactory(username="quiet")
    membership = MembershipFactory(club=cast.club, user=user, role=Membership.Role.JUDGE)
    client.force_login(user)

    assert MANAGE not in _nav(client)
    Membership.objects.filter(pk=membership.pk).update(role=Membership.Role.ADMIN)  # no signal
    assert MANAGE not in _nav(client)  # the kept roles (the pages themselves check the database)
    shell.people_changed()
    assert MANAGE in _nav(client)


def test_a_per_process_cache_keeps_no_role_or_look_another_process_could_change(cast, client):
    """gunicorn's workers with `locmem://`: no process hears another's writes, so the header reads the roles and
    the club's look afresh — a write no signal of this process saw is in the next header."""
    user = UserFactory(username="worker")
    membership = MembershipFactory(club=cast.club, user=user, role=Membership.Role.JUDGE)
    client.force_login(user)

    assert MANAGE not in _nav(client)
    Membership.objects.filter(pk=membership.pk).update(role=Membership.Role.ADMIN)  # as if in another process
    Club.objects.filter(pk=cast.club.pk).update(name="Другой процесс")
    assert MANAGE in _nav(client) and "Другой процесс" in _nav(client)


def test_the_club_time_zone_is_read_afresh_in_a_per_process_cache_and_kept_in_a_shared_one(cast, monkeypatch):
    """The zone every page shows its times in (club.middleware_tz): with a per-process cache (the tests' locmem, as
    gunicorn's workers) a change no process here heard of (a queryset UPDATE, as another worker's save is to this
    one) is on the next page; a shared cache keeps it until the club's save deletes it (club.signals)."""
    from club.shell import site_club_look, site_time_zone

    Club.objects.filter(pk=cast.club.pk).update(time_zone="Europe/Moscow")
    assert site_time_zone(site_club_look()) == "Europe/Moscow"
    Club.objects.filter(pk=cast.club.pk).update(time_zone="Asia/Yekaterinburg")
    assert site_time_zone(site_club_look()) == "Asia/Yekaterinburg"  # not kept: read each time
    monkeypatch.setattr("club.cache.shared", lambda: True)
    assert site_time_zone(site_club_look()) == "Asia/Yekaterinburg"
    Club.objects.filter(pk=cast.club.pk).update(time_zone="Europe/Moscow")
    assert site_time_zone(site_club_look()) == "Asia/Yekaterinburg"  # kept in the shared cache, no save seen
    club = Club.objects.get(pk=cast.club.pk)
    club.save()  # the signal deletes the kept zone
    assert site_time_zone(site_club_look()) == "Europe/Moscow"
