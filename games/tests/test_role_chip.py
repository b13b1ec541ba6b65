"""The role chip (games_tags.role_chip, static/css/roles.css): one rendering of a role on every page that shows roles
— the protocol, the spectator view, the protest review, the overlay — in the role's colour with Ш and Д marked, and
never on a public page of a game in play."""

import re

import pytest
from django.template import Context, Template
from django.test import Client
from django.urls import reverse

from games.live.tests.test_live_spectator import in_night_one
from games.models import Game
from games.tests.live_fixtures import ROLES

pytestmark = pytest.mark.django_db

CHIP = re.compile(r'<span class="role-chip (role-[a-z]+)" title="([^"]+)">([^<]+)</span>')
# the colours the rule books give the roles: К red, Ч black, Ш (red) and Д (black) marked
COLOUR = {"К": "role-red", "Ч": "role-black", "Ш": "role-sheriff", "Д": "role-don"}
ENGLISH = {"К": "C", "Ч": "M", "Ш": "S", "Д": "D"}


def _pages(game):
    return [reverse("games:game_detail", args=[game.pk]), reverse("games:live", args=[game.pk])]


def _chips(client, url):
    return CHIP.findall(client.get(url).content.decode())


def test_a_game_in_play_shows_no_chip_to_the_public_and_its_chips_to_the_judge(live):
    game = in_night_one(live)
    for url in _pages(game):
        assert _chips(Client(), url) == [], url
    judge = Client()
    judge.force_login(live.judge)
    assert [css for css, _title, _letter in _chips(judge, _pages(game)[0])] == [COLOUR[ROLES[n]] for n in range(1, 11)]


def test_after_the_end_the_protocol_and_the_spectator_view_show_every_seat_as_its_chip(live):
    game = in_night_one(live)
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED, result="red")
    for url in _pages(game):
        chips = _chips(Client(), url)
        assert [css for css, _title, _letter in chips] == [COLOUR[ROLES[n]] for n in range(1, 11)], url
        assert [letter for _css, _title, letter in chips] == [ENGLISH[ROLES[n]] for n in range(1, 11)], url
        titles = {letter: title for _css, title, letter in chips}
        assert titles["D"] == "D — don" and titles["S"] == "S — sheriff", url


def test_no_role_no_chip():
    chip = Template("{% load games_tags %}{% role_chip code %}")
    assert [chip.render(Context({"code": code})) for code in (None, "", "X")] == ["", "", ""]
    assert chip.render(Context({"code": "Ш"})) == '<span class="role-chip role-sheriff" title="Ш — шериф">Ш</span>'
    hostile = Template('{% load games_tags %}{% role_chip "Д" extra %}').render(Context({"extra": '"><b>'}))
    assert hostile == '<span class="role-chip role-don &quot;&gt;&lt;b&gt;" title="Д — дон">Д</span>'


def test_the_site_and_the_overlay_load_the_same_role_colours():
    page = Client().get(reverse("login")).content.decode()
    assert re.search(r'href="[^"]*/css/roles(\.[0-9a-f]+)?\.css"', page)
    overlay_base = open("templates/broadcast/_overlay_base.html", encoding="utf-8").read()
    assert "{% static 'css/roles.css' %}" in overlay_base
    overlay_css = open("static/css/overlay.css", encoding="utf-8").read()
    assert not re.search(r"\.role-(red|black|sheriff|don)\s*\{[^}]*background", overlay_css)  # no colour of its own
