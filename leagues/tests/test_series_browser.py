"""The season in chromium: two clubs join a league (one asks and the manager accepts, the other is invited and
accepts), the manager pastes the gaining table and makes a series, adds two tournaments (one 2.5 stars, one the
finals), a club's admin adds his club's tournament and the manager confirms its stars; the three tournaments were
played out from mafclub/1 imports. The standings equal the hand calculation (leagues/tests/season.py: a tie on a
place, a cut-off and a finals outside the best N) on the page, in the CSV, the API and the command."""

from __future__ import annotations

import csv
import io
import json
from io import StringIO

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from playwright.sync_api import expect

from club.models import Club, Membership
from leagues import services
from leagues.models import Series
from leagues.tests.builders import played
from leagues.tests.season import EXPECTED, JUDGE, TABLE, A, B, as_expected

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PASSWORD = "Полночь-2027-лига"


def log_in(browser, live_server, username: str):
    context = browser.new_context(base_url=live_server.url, locale="ru-RU", viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.goto("/login/")
    page.get_by_label("Имя пользователя").fill(username)
    page.get_by_label("Пароль").fill(PASSWORD)
    page.get_by_role("button", name="Войти").click()
    expect(page.get_by_test_id("nav-user")).to_have_text(username)
    return page


def _world():
    club_a, club_b = Club.objects.create(name="Клуб А", city="Москва"), Club.objects.create(name="Клуб Б", city="Казань")
    users = {}
    for name, club in (("manager", None), ("admin_a", club_a), ("admin_b", club_b)):
        users[name] = User.objects.create_user(name, password=PASSWORD)
        if club:
            Membership.objects.create(club=club, user=users[name], role=Membership.Role.ADMIN)
    league = services.league_create(name="Лига", managers=[users["manager"]])
    tournaments = {"T1": played(club_a, "T1", A, date="2027-01-10", judge=JUDGE),
                   "T2": played(club_b, "T2", B, date="2027-01-17", judge=JUDGE),
                   "T3": played(club_a, "T3", A[::-1], date="2027-01-24", judge=JUDGE)}
    for day, t in zip((10, 17, 24), tournaments.values(), strict=True):
        t.start_date = t.end_date = f"2027-01-{day}"
        t.save()
    return league, tournaments


def _rows(page) -> list[tuple]:
    cells = page.eval_on_selector_all(
        "[data-testid=series-row]", "rows => rows.map(r => [...r.cells].map(c => c.innerText.trim()))")
    return [(int(c[0]), c[1], c[-1].replace(",", ".").replace("\xa0", "")) for c in cells]


def test_two_clubs_a_series_of_three_tournaments_and_its_standings_everywhere(browser, live_server):
    league, tournaments = _world()
    league_url = f"/leagues/{league.pk}/"

    club_a = log_in(browser, live_server, "admin_a")  # club A asks to join
    club_a.goto(league_url)
    club_a.get_by_test_id("join").click()
    expect(club_a.get_by_test_id("league-club").filter(has_text="Клуб А")).to_contain_text("клуб просит принять")

    manager = log_in(browser, live_server, "manager")  # the manager accepts club A and invites club B
    manager.goto(league_url)
    manager.get_by_test_id("league-club").filter(has_text="Клуб А").get_by_role("button", name="Принять").click()
    expect(manager.get_by_test_id("league-club").filter(has_text="Клуб А")).to_contain_text("участник")
    manager.locator("#invite-club").select_option(label="Клуб Б")
    manager.get_by_test_id("invite").click()

    club_b = log_in(browser, live_server, "admin_b")  # club B accepts the invitation
    club_b.goto(league_url)
    club_b.get_by_test_id("league-club").filter(has_text="Клуб Б").get_by_role("button", name="Принять").click()
    expect(club_b.get_by_test_id("league-club").filter(has_text="Клуб Б")).to_contain_text("участник")

    manager.goto(league_url)  # the gaining table pasted, the series made
    manager.get_by_text("Новая таблица начисления").click()
    manager.get_by_label("Таблица (JSON)").fill(json.dumps(TABLE, ensure_ascii=False))
    manager.get_by_role("button", name="Создать").first.click()
    expect(manager.get_by_role("heading", name="Лига 2027")).to_be_visible()
    manager.goto(league_url)
    manager.get_by_text("Новая серия").click()
    manager.locator("[name=series-name]").fill("Сезон 2027")
    manager.locator("form[action$='/series/new/'] button").click()
    expect(manager.get_by_test_id("series-version")).to_contain_text("версия 1")
    series_url = manager.url
    for name, stars, finals in (("T1", "2.5", False), ("T3", "3", True)):
        form = manager.get_by_test_id("add-tournament")
        form.locator("[name=tournament]").select_option(label=f"Клуб А · {name}")
        form.locator("[name=stars]").fill(stars)
        if finals:
            form.locator("[name=finals]").check()
        form.get_by_role("button").click()
        expect(manager.get_by_test_id("series-events")).to_contain_text(name)

    club_b.goto(series_url)  # club B's admin adds his club's tournament; it waits for the manager's stars
    form = club_b.get_by_test_id("add-tournament")
    form.locator("[name=tournament]").select_option(label="Клуб Б · T2")
    form.locator("[name=stars]").fill("2")
    form.get_by_role("button").click()
    expect(club_b.get_by_test_id("series-events")).to_contain_text("звёзды ждут подтверждения управляющего")

    manager.goto(series_url)
    entry = manager.locator("form[action*='/series/entries/']").filter(has_text="T2")
    entry.locator("[name=stars]").fill("1")
    entry.get_by_role("button", name="Подтвердить").click()
    expect(manager.get_by_test_id("series-events")).not_to_contain_text("ждут подтверждения")

    # the page
    manager.goto(series_url)
    assert _rows(manager) == [(rank, player, f"{float(total):.2f}") for rank, player, total, *_ in EXPECTED]
    expect(manager.get_by_test_id("tie-notes")).to_contain_text("больше турниров в зачёте")
    # the CSV and the API, fetched by the browser
    text = manager.request.get(f"{series_url}standings.csv").text()
    first = {}
    for row in list(csv.reader(io.StringIO(text)))[1:]:
        first.setdefault(row[1], (int(row[0]), row[3]))
    assert [(first[p][0], p, first[p][1]) for _r, p, *_ in EXPECTED] == [
        (r, p, f"{float(t):.2f}") for r, p, t, *_ in EXPECTED]
    series = Series.objects.get(name="Сезон 2027")
    api = manager.request.get(f"/api/v1/series/{series.pk}/standings/").json()
    assert as_expected(api["rows"]) == EXPECTED
    # the command
    out = StringIO()
    call_command("series", "standings", "Сезон 2027", "--format", "json", stdout=out)
    assert [r[:4] for r in as_expected(json.loads(out.getvalue())["rows"])] == [e[:4] for e in EXPECTED]
