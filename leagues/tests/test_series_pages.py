"""The series page shows its standings a page at a time (`?page=`), finds a nickname (`?q=`) and the reader's own row
(`?player=`, the "find me" link); the CSV and the API stay whole (leagues.views.series_detail)."""

import csv
import io
import json
import re

import pytest
from django.contrib.auth.models import User
from django.urls import reverse

from club.models import Player
from leagues import selectors
from leagues.selectors import standings_page
from leagues.tests.season import EXPECTED, season

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]

ROWS = [{"player_id": i, "player": name} for i, name in enumerate(["Ann", "bob", "Anna", "Cid", "Dan"], start=1)]


def test_a_page_a_search_and_a_players_page():
    first = standings_page(ROWS, per_page=2)
    assert [r["player"] for r in first.rows] == ["Ann", "bob"] and (first.page, first.pages, first.found) == (1, 3, 5)
    assert [r["player"] for r in standings_page(ROWS, page=3, per_page=2).rows] == ["Dan"]
    assert standings_page(ROWS, page=99, per_page=2).page == 3  # clamped to the pages there are
    assert standings_page(ROWS, page=0, per_page=2).page == 1
    found = standings_page(ROWS, query=" ann ", per_page=2)
    assert [r["player"] for r in found.rows] == ["Ann", "Anna"] and found.found == 2 and found.query == "ann"
    assert standings_page(ROWS, player_id=4, per_page=2).page == 2
    assert standings_page(ROWS, player_id=404, page=3, per_page=2).page == 3  # not in the table: the page asked
    nothing = standings_page(ROWS, query="zed", per_page=2)
    assert nothing.rows == [] and nothing.found == 0 and nothing.pages == 1


def _names(html: str) -> list[str]:
    return re.findall(r'data-testid="series-row" id="series-\d+"><td>\d+</td><td><a href="[^"]+">([^<]+)</a>', html)


def test_the_page_shows_every_row_in_order_when_they_fit_and_a_page_of_them_past_it(client, monkeypatch):
    s = season()
    url = reverse("leagues:series_detail", args=[s.series.pk])
    whole = client.get(url).content.decode()
    assert _names(whole) == [e[1] for e in EXPECTED]  # 20 rows: one page, as before the pages
    assert 'data-testid="series-pages"' not in whole
    monkeypatch.setattr(selectors, "SERIES_PAGE_ROWS", 8)
    pages = [client.get(url + f"?page={n}").content.decode() for n in (1, 2, 3)]
    assert [_names(p) for p in pages] == [[e[1] for e in EXPECTED[i:i + 8]] for i in (0, 8, 16)]
    assert "1 / 3" in pages[0] and "?page=2" in pages[0] and "3 / 3" in pages[2]
    # the note of a tie is on the page of its lower row
    assert "Places 4 and 5" in pages[0] and "Places 4 and 5" not in pages[1]
    searched = client.get(url + "?q=B1").content.decode()
    assert _names(searched) == ["b1", "b10"]
    assert "No player matches" in client.get(url + "?q=zz").content.decode()
    assert client.get(url + "?page=²").status_code == client.get(url + "?player=x").status_code == 200
    b6 = Player.objects.get(nickname="b6")
    assert "b6" in _names(client.get(url + f"?player={b6.pk}").content.decode())
    # the CSV and the API stay whole
    rows = list(csv.reader(io.StringIO(client.get(reverse("leagues:series_csv", args=[s.series.pk])).content.decode())))
    assert {r[1] for r in rows[1:]} == {e[1] for e in EXPECTED}
    api = json.loads(client.get(f"/api/v1/series/{s.series.pk}/standings/").content)
    assert len(api["rows"]) == len(EXPECTED)


def test_find_me_opens_the_page_holding_the_readers_row(client, monkeypatch):
    s = season()
    monkeypatch.setattr(selectors, "SERIES_PAGE_ROWS", 8)
    url = reverse("leagues:series_detail", args=[s.series.pk])
    assert 'data-testid="series-find-me"' not in client.get(url).content.decode()  # anonymous: no link
    user = User.objects.create_user("b8-login", password="x")
    b8 = Player.objects.get(nickname="b8")
    b8.user = user
    b8.save()
    client.force_login(user)
    page = client.get(url).content.decode()
    assert f'href="?player={b8.pk}#series-{b8.pk}"' in page and "b8" not in _names(page)
    assert "b8" in _names(client.get(url + f"?player={b8.pk}").content.decode())
