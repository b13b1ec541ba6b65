"""A club's admin brings the club's past in (real chromium): downloads the results template, fills it (the test
writes it with openpyxl), uploads it, reviews who is who (one name matched, the rest new), confirms, and sees the
season table and a player's card with the past games."""

from __future__ import annotations

import io

import pytest
from django.contrib.auth import get_user_model
from openpyxl import load_workbook
from playwright.sync_api import expect

from club.models import Club, Membership, Player
from club.tests.factories import PASSWORD
from games.models import Game
from games.tests.judge_screen import login
from ratings.models import Season

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ROLES = ["К", "Ш", "К", "Ч", "К", "К", "К", "Ч", "Д", "К"]


def _fill(template: bytes) -> bytes:
    book = load_workbook(io.BytesIO(template))
    sheet = book["results"]
    for game, result in ((1, "красные"), (2, "чёрные")):
        for seat in range(1, 11):
            nickname = "Старожил" if seat == 1 else f"Гость {seat}"
            role = ROLES[(seat + game) % 10]
            sheet.append(["2026-03-14", "Архив", 1, game, seat, nickname, role, result, 0, "", "",
                          0.3 if seat == 2 else None, "за игру" if seat == 2 else ""])
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def test_the_admin_brings_the_club_history_in(page, tmp_path):
    club = Club.objects.create(name="Клуб с историей")
    season = Season.objects.create(club=club, name="2026", start="2026-01-01", end="2026-12-31")
    admin = get_user_model().objects.create_user("admin", password=PASSWORD)
    Membership.objects.create(club=club, user=admin, role=Membership.Role.ADMIN)
    old = Player.objects.create(club=club, nickname="Старожил")
    login(page, "admin")

    page.goto("/games/import/history/")
    with page.expect_download() as download:
        page.get_by_test_id("results-template").click()
    filled = tmp_path / "history.xlsx"
    filled.write_bytes(_fill(download.value.path().read_bytes()))

    page.get_by_label("Формат").select_option("xlsx")
    page.locator('input[type="file"]').set_input_files(str(filled))
    page.get_by_test_id("history-upload").click()
    rows = page.get_by_test_id("match-row")
    expect(rows).to_have_count(10)
    expect(page.locator('[data-testid="match-row"][data-status="matched"]')).to_have_count(1)
    expect(page.locator('[data-testid="match-row"][data-status="new"]')).to_have_count(9)
    assert not Game.objects.exists() and Player.objects.filter(club=club).count() == 1  # nothing before confirming

    page.get_by_test_id("history-confirm").click()
    expect(page.locator("h1")).to_contain_text("Архив")
    assert Game.objects.filter(club=club).count() == 2

    page.goto(f"/ratings/?season={season.pk}")
    expect(page.get_by_role("link", name="Старожил")).to_be_visible()
    expect(page.get_by_role("link", name="Гость 2")).to_be_visible()
    page.goto(f"/players/{old.pk}/")
    page.get_by_test_id("recent-form").wait_for()
    expect(page.get_by_test_id("form-chip")).to_have_count(2)
