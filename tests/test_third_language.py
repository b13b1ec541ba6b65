"""Adding a language is `LANGUAGES` plus one catalogue: a Ukrainian club, added at test time.

The settings gain ("uk", "Українська") as the club's language, and a temporary locale folder holds a catalogue
with one translated message («Players» → «Гравці»). The main pages, the judge's screen, the overlay and an API
error are drawn in it: the one translated label in Ukrainian, every other label in the msgid language (English),
never in Russian, and nothing breaks.
"""

from __future__ import annotations

import re
import subprocess
from datetime import datetime
from html.parser import HTMLParser
from pathlib import Path
from types import SimpleNamespace

import pytest
from django.conf import settings
from django.template.loader import render_to_string
from django.test import Client, override_settings
from django.urls import reverse
from django.utils import translation

from broadcast.models import OverlayToken
from club.models import Player
from games.live.apply import live_apply
from games.models import Game
from games.sheets.render import blank_sheet, render_sheets_html, sheet_language
from games.tests.live_fixtures import make_cast, seat_everyone

pytestmark = pytest.mark.django_db

UKRAINIAN = """msgid ""
msgstr ""
"Content-Type: text/plain; charset=UTF-8\\n"
"Language: uk\\n"

msgid "Players"
msgstr "Гравці"
"""
CYRILLIC_WORD = re.compile(r"[А-Яа-яЁёІіЇїЄєҐґ]+(?:[-'’][А-Яа-яЁёІіЇїЄєҐґ]+)*")


class _Text(HTMLParser):
    """The text a reader sees: outside <script> and <style>, plus the attributes read aloud or shown."""

    def __init__(self):
        super().__init__()
        self.parts: list[str] = []
        self._hidden = 0

    def handle_starttag(self, tag, attrs):
        if tag in {"script", "style"}:
            self._hidden += 1
        self.parts.extend(value or "" for name, value in attrs if name in {"title", "aria-label", "placeholder",
                                                                             "alt"})

    def handle_endtag(self, tag):
        if tag in {"script", "style"}:
            self._hidden = max(0, self._hidden - 1)

    def handle_data(self, data):
        if not self._hidden:
            self.parts.append(data)


def seen_text(html: str) -> str:
    parser = _Text()
    parser.feed(html)
    return " ".join(parser.parts)


def russian_words() -> set[str]:
    """Every word of the site's Russian catalogue (its msgstrs): the words a Russian leftover would show."""
    text = (Path(settings.BASE_DIR) / "locale" / "ru" / "LC_MESSAGES" / "django.po").read_text(encoding="utf-8")
    words: set[str] = set()
    for line in text.splitlines():
        if line.startswith(("msgstr", '"')):
            words.update(w.lower() for w in CYRILLIC_WORD.findall(line) if len(w) > 2)
    return words


def russian_leftovers(text: str, ukrainian: set[str]) -> set[str]:
    return {w for w in CYRILLIC_WORD.findall(text) if w.lower() in RUSSIAN and w.lower() not in ukrainian}


RUSSIAN = russian_words()


@pytest.fixture
def ukrainian_club(tmp_path):
    """The club's language is Ukrainian, a language the site had not heard of: LANGUAGES + one catalogue."""
    folder = tmp_path / "locale" / "uk" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    (folder / "django.po").write_text(UKRAINIAN, encoding="utf-8")
    subprocess.run(["msgfmt", "-o", str(folder / "django.mo"), str(folder / "django.po")], check=True)
    languages = [("uk", "Українська"), *settings.LANGUAGES]
    with override_settings(LANGUAGE_CODE="uk", LANGUAGES=languages,
                           LOCALE_PATHS=[tmp_path / "locale", *settings.LOCALE_PATHS]):
        yield
    translation.activate(settings.LANGUAGE_CODE)


@pytest.fixture
def cast(ukrainian_club):
    """The live cast with Latin names (so that any Cyrillic word on a page is the site's, not the data's), its game
    at table 1 started and in day one."""
    cast = make_cast()
    cast.club.name = "Midnight"
    cast.club.save()
    Game.objects.filter(tournament=cast.tournament).update(stage="")
    cast.tournament.name = "Cup"
    cast.tournament.save()
    for number, player in enumerate(cast.players, start=1):
        Player.objects.filter(pk=player.pk).update(nickname=f"Player{number}")
    seat_everyone(cast.game, cast.players, {1: "К", 2: "Д", 3: "К", 4: "К", 5: "Ч", 6: "К", 7: "Ш", 8: "К",
                                            9: "Ч", 10: "К"})
    version = Game.objects.values_list("version", flat=True).get(pk=cast.game.pk)
    live_apply(game_id=cast.game.pk, by=cast.judge, kind="start", payload={}, version=version, action_id="start1")
    return cast


# Cyrillic words that are no Russian leftover on a Ukrainian page: Django's own Ukrainian («Змінити пароль») spelt
# as Russian spells it, each language's name in its own tongue (the switch's titles: «Русский»), and the rule
# books' own abbreviations, cited as they are in every language like a clause number (ППК, team defeat; СК, the
# sport committee).
UKRAINIAN_TOO = {"пароль", "русский", "ппк", "ск"}


def check_page(response, *, ukrainian_label: str | None = None) -> str:
    assert response.status_code == 200, (response.status_code, response.content[:300])
    html = response.content.decode()
    text = seen_text(html) if "html" in response["Content-Type"] else html
    leftovers = russian_leftovers(text, UKRAINIAN_TOO)
    assert not leftovers, f"Russian words on a Ukrainian page: {sorted(leftovers)}"
    if ukrainian_label:
        assert ukrainian_label in text
    return text


def test_the_main_pages_speak_the_new_language(cast, client):
    players = check_page(client.get(reverse("player_list")), ukrainian_label="Гравці")
    assert 'lang="uk"' in client.get(reverse("player_list")).content.decode()
    assert "Player1" in players
    for name, args in (("home", []), ("games:tournament_list", []),
                       ("games:tournament_detail", [cast.tournament.pk]),
                       ("games:game_detail", [cast.game.pk]), ("games:live", [cast.game.pk]),
                       ("player_detail", [cast.players[0].pk])):
        check_page(client.get(reverse(name, args=args)))


def test_the_judges_screen_speaks_the_new_language(cast, client):
    client.force_login(cast.judge)
    text = check_page(client.get(reverse("games:judge", args=[cast.game.pk])))
    # the role letters fall back to the msgids' English letters, not to the stored Russian codes
    words = set(text.split())
    assert "C" in words and "S" in words and not words & {"К", "Ч", "Ш", "Д"}


def test_the_overlay_speaks_the_new_language(cast):
    token = OverlayToken.objects.create(club=cast.club, tournament=cast.tournament, kind=OverlayToken.Kind.PUBLIC)
    client = Client()
    check_page(client.get(reverse("broadcast:table", args=[token.token, 1])))
    check_page(client.get(reverse("broadcast:standings", args=[token.token])))
    check_page(client.get(reverse("broadcast:player", args=[token.token, cast.players[0].pk])))


def test_an_api_error_speaks_the_new_language(cast):
    response = Client().get("/api/v1/games/999999/")
    assert response.status_code == 404
    assert response.json()["detail"] == "Not found, or not visible to you."
    response = Client().get("/api/v1/games/not-a-number/")
    assert response.status_code in {404, 422}
    assert not russian_leftovers(response.content.decode(), set())


def test_the_protocol_sheet_is_drawn_in_the_clubs_language(cast, client):
    # The paper protocol follows the club's language, not a hard-wired Russian; another site language on request.
    assert (sheet_language(None), sheet_language("xx"), sheet_language("en")) == ("uk", "uk", "en")
    html = render_sheets_html([blank_sheet()])
    assert 'lang="uk"' in html
    assert not russian_leftovers(seen_text(html), UKRAINIAN_TOO)


def test_a_language_without_a_catalogue_falls_back_to_english_not_russian(cast, client):
    # The switch offers the new language; a visitor who picks English sees English labels, one who keeps the
    # club's Ukrainian sees the one Ukrainian label and English for the rest.
    with translation.override("uk"):
        assert translation.pgettext("role letter", "C") == "C"
        assert translation.gettext("Nominated blacks") == "Nominated blacks"
    with translation.override("ru"):
        assert translation.pgettext("role letter", "C") == "К"
    page = client.get(reverse("player_list")).content.decode()
    assert 'value="uk"' in page


@pytest.mark.parametrize("status", ["confirmed", "waiting"])
def test_the_sign_up_letters_are_written_in_the_clubs_language(ukrainian_club, status):
    # The letters were Russian-only templates; now they go through the catalogue like every page.
    moment = datetime(2026, 12, 11, 19, 0)
    context = {"signup": SimpleNamespace(status=status), "event": "Friday evening", "path": "https://club/signup/1/",
               "player": SimpleNamespace(nickname="Fox"),
               "sheet": SimpleNamespace(starts_at=moment, place="Bar", cancel_deadline=moment)}
    letters = {}
    for language in ("uk", "ru"):
        with translation.override(language):
            letters[language] = "".join(render_to_string(f"registration/{name}.txt", context) for name in (
                "signup_confirmed_subject", "signup_confirmed_email", "signup_moved_up_subject",
                "signup_moved_up_email"))
    assert not russian_leftovers(letters["uk"], UKRAINIAN_TOO), letters["uk"]
    assert "Hello, Fox!" in letters["uk"] and "https://club/signup/1/" in letters["uk"]
    assert "Здравствуйте, Fox!" in letters["ru"] and "Место освободилось: Friday evening" in letters["ru"]
    assert ("Лист ожидания: Friday evening" if status == "waiting" else "Вы записаны: Friday evening") in letters["ru"]
