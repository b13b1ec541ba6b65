"""A club night's game names its judge and its event: the signed sheet's «Судья» and «Турнир» are filled (the
judge's login when he has neither a player card nor a name; the evening's name), and the game page names both
and links back to the evening."""

from __future__ import annotations

import datetime as dt
import io
import re

import pytest
from django.test import Client
from django.urls import reverse
from pypdf import PdfReader

from games.models import ClubEvening, Game
from games.sheets import cache as sheet_cache
from games.tests.live_fixtures import make_cast, seat_everyone

pytestmark = pytest.mark.django_db


@pytest.fixture
def evening_game(db):
    cast = make_cast()  # «judge» is a login only: no player card, no first or last name
    evening = ClubEvening.objects.create(club=cast.club, date=dt.date(2026, 5, 12), name="Вечер клуба",
                                         ruleset=cast.game.ruleset)
    game = Game.objects.create(club=cast.club, evening=evening, ruleset=cast.game.ruleset, number=3, table=1,
                               date=evening.date, judge=cast.judge, judge_name="",
                               status=Game.Status.SIGNED, result="red")
    seat_everyone(game, cast.players)
    return game


def _pdf_text(response) -> str:
    content = b"".join(response.streaming_content) if response.streaming else response.content
    return re.sub(r"\s+", " ", "\n".join(p.extract_text() for p in PdfReader(io.BytesIO(content)).pages))


def test_the_signed_sheet_of_a_club_night_names_its_judge_and_the_evening(evening_game):
    text = _pdf_text(Client().get(reverse("games:protocol_pdf", args=[evening_game.pk])))
    assert "Вечер клуба" in text
    assert "judge" in text  # his login: the only name he has
    assert evening_game.judge_display == "judge"


def test_the_game_page_names_the_judge_and_links_back_to_the_evening(evening_game):
    html = Client().get(reverse("games:game_detail", args=[evening_game.pk])).content.decode()
    link = reverse("games:evening_detail", args=[evening_game.evening_id])
    assert re.search(rf'<a href="{link}"[^>]*>Вечер клуба</a>', html)
    meta = html[html.index('data-testid="game-meta"'):]
    assert "Судья: judge" in re.sub(r"\s+", " ", meta[:meta.index("</p>")])


def test_a_name_given_later_changes_the_cached_sheet(evening_game):
    """The cached signed sheet is keyed by what it prints: the evening's name and the judge's name among it, and by
    the sheet's own code (its sources exist)."""
    assert all(path.exists() for path in sheet_cache._SOURCES)
    before = sheet_cache.etag(evening_game, language="ru", show_secrets=False)
    ClubEvening.objects.filter(pk=evening_game.evening_id).update(name="Пятничный вечер")
    assert sheet_cache.etag(evening_game, language="ru", show_secrets=False) != before
    text = _pdf_text(Client().get(reverse("games:protocol_pdf", args=[evening_game.pk])))
    assert "Пятничный вечер" in text
