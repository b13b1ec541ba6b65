"""Club evenings: findable from /games/ and the home page, one-tap start at a table, games by table with results,
the new-evening form's defaults, dates in Russian."""

import datetime as dt
import re

import pytest
from django.urls import reverse
from django.utils import timezone

from games.models import ClubEvening, Game, RuleSetVersion
from games.tests.live_fixtures import make_cast

pytestmark = pytest.mark.django_db


@pytest.fixture
def cast(db):
    return make_cast()


@pytest.fixture
def evening(cast):
    xcraft = RuleSetVersion.objects.get(slug="xcraft", club__isnull=True)
    return ClubEvening.objects.create(club=cast.club, date=dt.date(2026, 10, 3), ruleset=xcraft)


def _text(response) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode()))


def test_an_evening_is_listed_on_the_games_page_and_the_home_page_with_a_russian_date(client, evening):
    for url in (reverse("games:tournament_list"), reverse("home")):
        response = client.get(url)
        assert reverse("games:evening_detail", args=[evening.pk]) in response.content.decode(), url
        text = _text(response)
        assert "Клубный вечер 3 октября 2026" in text, url
        assert "2026-10-03" not in text and "Club evening" not in text


def test_a_judge_starts_a_table_from_the_evening_page_in_one_tap(client, cast, evening):
    Game.objects.create(club=cast.club, evening=evening, ruleset=evening.ruleset, number=1, table=1,
                        date=evening.date, judge=cast.other_judge)
    client.force_login(cast.judge)
    page = client.get(reverse("games:evening_detail", args=[evening.pk])).content.decode()
    # a button per table in use and one for the next table, each a complete form (one tap)
    assert 'data-testid="start-table-1"' in page and 'data-testid="start-table-2"' in page
    form = re.search(r'<form[^>]*>(?:(?!</form>).)*data-testid="start-table-2".*?</form>', page, re.S).group(0)
    fields = dict(re.findall(r'name="(\w+)" value="([^"]*)"', form))
    response = client.post(reverse("games:game_new"), fields)
    game = Game.objects.get(evening=evening, table=2)
    assert response.status_code == 302 and response["Location"] == reverse("games:judge", args=[game.pk])
    assert game.judge == cast.judge and game.number == 2


def test_a_player_sees_no_start_buttons_and_cannot_start(client, cast, evening):
    client.force_login(cast.player)
    assert 'data-testid="start-table' not in client.get(
        reverse("games:evening_detail", args=[evening.pk])).content.decode()
    assert client.post(reverse("games:game_new"), {"evening": evening.pk, "table": 1}).status_code == 403
    assert not evening.games.exists()


def test_the_evening_page_lists_games_by_table_and_number_with_results(client, cast, evening):
    def game(number, table, result="", status=Game.Status.DRAFT):
        return Game.objects.create(club=cast.club, evening=evening, ruleset=evening.ruleset, number=number,
                                   table=table, date=evening.date, judge=cast.judge, result=result, status=status)

    game(1, 2, "red", Game.Status.FINISHED)
    game(2, 1, "black", Game.Status.SIGNED)
    game(3, 1)
    text = _text(client.get(reverse("games:evening_detail", args=[evening.pk])))
    table1 = text[text.index("Стол 1"):text.index("Стол 2")]
    table2 = text[text.index("Стол 2"):]
    assert "Игра 2" in table1 and "Игра 3" in table1 and "Игра 1" not in table1
    assert "Игра 1" in table2 and "Победа красных" in table2
    assert "Победа черных" in table1 or "Победа чёрных" in table1
    assert "суббота, 3 октября 2026" in text.lower()
    assert "игра 7" not in text and "2026-10-03" not in text


def test_the_new_evening_form_defaults_to_today_and_the_clubs_rule_set(client, cast):
    cml = RuleSetVersion.objects.get(slug="cml", club__isnull=True)
    cast.club.default_ruleset = cml
    cast.club.save()
    client.force_login(cast.club_admin)
    page = client.get(reverse("games:evening_new")).content.decode()
    assert f'value="{timezone.localdate().isoformat()}"' in page
    assert re.search(rf'<option value="{cml.pk}"[^>]*selected', page)
