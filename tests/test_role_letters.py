"""English pages use the role letters C/M/S/D (with the legend), Russian pages К/Ч/Ш/Д: on the game page, the
protocol sheet and a player's profile."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from games.models import Game

pytestmark = pytest.mark.django_db


def _page(url: str, language: str) -> str:
    client = Client()
    client.cookies["django_language"] = language
    response = client.get(url)
    assert response.status_code == 200
    return response.content.decode()


def _roles(html: str) -> set[str]:
    # the page's role chip (games_tags.role_chip) or the printed sheet's bare letter
    return set(re.findall(r'<td class="role">(?:<span class="role-chip [^"]*"[^>]*>)?([^<]*)<', html)) - {""}


def test_the_game_page_shows_english_role_letters_with_their_legend(scene):
    game = Game.objects.filter(status="signed").first() or Game.objects.filter(status="finished").first()
    english = _page(f"/games/{game.pk}/", "en")
    assert _roles(english) and _roles(english) <= {"C", "M", "S", "D"}
    assert "C — citizen (red), M — mafia (black), S — sheriff, D — don" in english
    assert not re.search(r'class="role-chip [^"]*"[^>]*>[КЧШД]<', english)
    russian = _page(f"/games/{game.pk}/", "ru")
    assert _roles(russian) <= {"К", "Ч", "Ш", "Д"} and _roles(russian)


def test_the_protocol_sheet_in_english_uses_the_english_letters(scene):
    from games.protocol.selectors import with_protocol
    from games.sheets.render import game_sheet, render_sheets_html

    game = with_protocol(Game.objects.filter(status__in=["finished", "signed"])).prefetch_related(
        "seats__score_items").first()
    html = render_sheets_html([game_sheet(game, show_secrets=True)], language="en")
    assert _roles(html) and _roles(html) <= {"C", "M", "S", "D"}
    assert "C/M/S/D" in html and "К/Ч/Ш/Д" not in html  # the role column's header too
    assert "К/Ч/Ш/Д" in render_sheets_html([game_sheet(game, show_secrets=True)], language="ru")


def _visible(html: str) -> str:
    html = re.sub(r"<(script|style)\b.*?</\1>", " ", html, flags=re.S)
    return re.sub(r"<[^>]+>", " ", html)


LONE_CYRILLIC_ROLE = re.compile(r"(?<![А-Яа-яЁё])[КЧШД](?![А-Яа-яЁё])")


@pytest.mark.parametrize("started", [False, True])
def test_the_english_judge_screen_has_no_cyrillic_role_letters(started):
    from django.urls import reverse

    from games.tests.live_fixtures import ROLES, act, make_cast, seat_everyone

    cast = make_cast()
    # before the start: two roles placed (the prompt asks for the next); after it: every role, the correction buttons
    seat_everyone(cast.game, cast.players, ROLES if started else {7: "Ш", 5: "Ч"})
    client = Client()
    client.cookies["django_language"] = "en"
    client.force_login(cast.judge)
    if started:  # a correction too: the screen's message and its "last actions" line name the roles
        assert act(client, cast.game, "start").status_code == 200
        assert act(client, cast.game, "role_correct", seat=5, role="К").status_code == 200
    html = client.get(reverse("games:judge", args=[cast.game.pk])).content.decode()
    text = _visible(html)
    assert not LONE_CYRILLIC_ROLE.findall(text), LONE_CYRILLIC_ROLE.findall(text)
    assert re.search(r'class="tile-role role-sheriff"[^>]*>S<', html)
    assert re.search(r'class="tile-role role-mafia"[^>]*>M<', html)
    if started:
        assert re.search(r'data-testid="correct-К">C<', html) and re.search(r'data-testid="correct-Д">D<', html)
    else:
        assert "Tap the seat of D" in text and "S — sheriff, D — don" in text
    russian = Client()
    russian.cookies["django_language"] = "ru"
    russian.force_login(cast.judge)
    ru = russian.get(reverse("games:judge", args=[cast.game.pk])).content.decode()
    assert re.search(r'class="tile-role role-sheriff"[^>]*>Ш<', ru)
