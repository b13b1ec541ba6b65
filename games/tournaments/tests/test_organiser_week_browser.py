"""The organiser's week in Debian's chromium: the organiser (desktop) pastes 20 participants, checks the list,
draws and publishes the seating; the table judge (390×844 phone) opens his scheduled game, finds no redraw, plays
it and signs; a player's protest is decided by the head judge on the protest queue; the seating chart, the cards
and the schedule page still agree, and every game shows the day it was played."""

from __future__ import annotations

import datetime as dt
import io
import re

import pytest
from django.utils import timezone, translation
from django.utils.formats import date_format
from playwright.sync_api import expect
from pypdf import PdfReader

from club.models import Player
from club.tests.factories import UserFactory
from games.models import Game, Protest, Seat
from games.protests.services import protest_file
from games.tests.judge_screen import PHONE, login, settle
from games.tests.live_fixtures import make_cast
from games.tournaments import services as schedule
from games.tournaments.tests.test_tournament_browser import do, speeches_to_the_end

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
NEW = [f"Гость {i}" for i in range(1, 9)]


@pytest.fixture(autouse=True)
def _short_search(monkeypatch):
    monkeypatch.setattr(schedule, "SEARCH_STEPS", 300)


def _pdf_pages(page, url: str) -> list[str]:
    response = page.request.get(url)
    assert response.ok and response.body().startswith(b"%PDF")
    return [p.extract_text() for p in PdfReader(io.BytesIO(response.body())).pages]


def _chart_tables(pages: list[str]) -> dict[int, list[tuple[int, str, int]]]:
    """The printed chart's tables: table -> its rows (seat, nickname, participant number) in print order. A page's
    table headings come first (side by side), then each table's ten rows, table by table."""
    tables = {}
    for text in pages:
        numbers = [int(t) for t in re.findall(r"Стол (\d+)", text)]
        rows = [(int(a), b, int(c)) for a, b, c in re.findall(r"^(\d+) (.+?) №(\d+)$", text, re.M)]
        assert len(rows) == 10 * len(numbers), text
        for i, table in enumerate(numbers):
            tables[table] = rows[10 * i:10 * i + 10]
    return tables


def _card_rows(pages: list[str]) -> dict[int, list[tuple[int, int, int]]]:
    """The participants' cards: participant number -> its rows (round, table, seat) in print order."""
    cards: dict[int, list[tuple[int, int, int]]] = {}
    current = None
    for line in "\n".join(pages).splitlines():
        head = re.match(r"^№(\d+) ", line)
        if head:
            current = cards.setdefault(int(head.group(1)), [])
            continue
        row = re.match(r"^(\d+) (\d+) (\d+)$", line.strip())
        if row and current is not None:
            current.append(tuple(int(v) for v in row.groups()))
    return cards


def _play_on_the_phone(judge) -> None:
    """Roles 7 Ш, 2 Д, 5 and 9 Ч; three days to the red win; signed (as test_tournament_browser plays it)."""
    for number in (7, 2, 5, 9):
        do(judge, judge.get_by_test_id(f"seat-{number}"))
    do(judge, judge.get_by_test_id("start"))
    do(judge, judge.get_by_test_id("nominee-5"))
    do(judge, judge.get_by_test_id("next-speaker"))
    do(judge, judge.get_by_test_id("nominee-4"))
    speeches_to_the_end(judge)
    judge.get_by_test_id("key-7").click()
    do(judge, judge.get_by_test_id("record-votes"))
    do(judge, judge.get_by_test_id("to-night"))
    do(judge, judge.get_by_test_id("kill-1"))
    do(judge, judge.get_by_test_id("to-day"))
    for seat in (2, 5, 9):
        judge.get_by_test_id(f"bm-{seat}").click()
    do(judge, judge.get_by_test_id("best-move-save"))
    judge.get_by_test_id("seat-9").click()
    for count in range(1, 5):
        if count == 4:
            judge.get_by_test_id("foul-plus").click()
        do(judge, judge.get_by_test_id("foul-plus"))
    speeches_to_the_end(judge)
    do(judge, judge.get_by_test_id("to-night"))
    do(judge, judge.get_by_test_id("kill-3"))
    do(judge, judge.get_by_test_id("to-day"))
    judge.get_by_test_id("by-4").click()
    do(judge, judge.get_by_test_id("nominee-2"))
    speeches_to_the_end(judge)
    do(judge, judge.get_by_test_id("to-night"))
    do(judge, judge.get_by_test_id("confirm-result"))
    judge.get_by_test_id("sign").click()
    do(judge, judge.get_by_test_id("sign"))
    expect(judge.get_by_test_id("read-only")).to_be_visible()


def test_the_organisers_week(browser, live_server, page):
    cast = make_cast("cml")
    tournament = cast.tournament
    today = timezone.localdate()
    tournament.start_date, tournament.end_date = today + dt.timedelta(days=4), today + dt.timedelta(days=5)
    tournament.save()
    organiser = page
    login(organiser, "club_admin")

    # 1. Twenty participants in one paste: twelve club players (one typed in another case) and eight new ones.
    organiser.goto(f"/games/tournaments/{tournament.pk}/participants/")
    lines = [p.nickname for p in cast.players]
    lines[0] = lines[0].upper()
    organiser.get_by_label("Никнеймы, по одному в строке").fill("\n".join(lines + NEW + [cast.players[1].nickname]))
    organiser.get_by_test_id("paste-check").click()
    rows = organiser.get_by_test_id("preview-row")
    expect(rows).to_have_count(21)
    expect(organiser.locator('[data-testid=preview-row][data-status=new]')).to_have_count(8)
    expect(organiser.locator('[data-testid=preview-row][data-status=duplicate]')).to_have_count(1)
    organiser.get_by_test_id("paste-add").click()
    expect(organiser.locator(".alert-success")).to_contain_text("20")
    expect(organiser.get_by_test_id("participant")).to_have_count(20)

    # 2. Judges, the draw of two rounds, publication: each step appears when it applies.
    organiser.goto(f"/games/tournaments/{tournament.pk}/schedule/")
    expect(organiser.get_by_test_id("step-adjust")).to_have_count(0)
    for user, table in ((cast.judge, 1), (cast.other_judge, 2)):
        form = organiser.get_by_test_id("judge")
        form.locator("select[name=user]").select_option(str(user.pk))
        form.locator("input[name=table]").fill(str(table))
        form.get_by_role("button").click()
        expect(organiser.locator(".alert-success")).to_be_visible()
    organiser.get_by_test_id("generate").locator("input[name=rounds]").fill("2")
    organiser.get_by_test_id("generate").get_by_role("button").click()
    expect(organiser.get_by_test_id("schedule-table")).to_have_count(4)
    organiser.get_by_test_id("publish").get_by_role("button").click()
    expect(organiser.get_by_test_id("publish")).to_contain_text("Рассадка опубликована")
    game = tournament.games.get(round=1, table=1)
    seated = dict(Seat.objects.filter(game=game).values_list("number", "player__nickname"))

    # 3. The judge on his phone: the schedule's seats, no redraw, the game played and signed.
    phone = browser.new_context(base_url=live_server.url, locale="ru-RU", viewport=PHONE, has_touch=True)
    judge = phone.new_page()
    judge.set_default_timeout(10_000)
    login(judge, "judge")
    judge.goto(f"/games/{game.pk}/judge/")
    for number, nickname in seated.items():
        expect(judge.get_by_test_id(f"seat-{number}")).to_contain_text(nickname)
    expect(judge.get_by_test_id("draw")).to_have_count(0)
    expect(judge.get_by_test_id("seats-from-schedule")).to_be_visible()
    _play_on_the_phone(judge)
    settle(judge)
    phone.close()
    game.refresh_from_db()
    assert game.status == Game.Status.SIGNED and game.date == today
    assert dict(Seat.objects.filter(game=game).values_list("number", "player__nickname")) == seated

    # 4. The player of seat 3 protests; the head judge rejects it on the queue.
    filer = UserFactory(username="filer")
    Player.objects.filter(pk=Seat.objects.get(game=game, number=3).player_id).update(user=filer)
    protest = protest_file(game=game, by=filer, category="result", text="Голосование посчитано неверно.")
    head = browser.new_context(base_url=live_server.url, locale="ru-RU")
    head_page = head.new_page()
    head_page.set_default_timeout(10_000)
    login(head_page, "head_judge")
    head_page.goto("/games/protests/")
    card = head_page.get_by_test_id("protest-review")
    expect(card).to_have_count(1)
    card.get_by_label("Отклонить").check()
    card.get_by_label("Объяснение").fill("Видео подтверждает подсчёт голосов.")
    card.get_by_role("button", name="Записать решение").click()
    expect(head_page.get_by_text("Решение записано")).to_be_visible()
    protest.refresh_from_db()
    assert protest.status == Protest.Status.REJECTED and protest.decided_by == cast.head_judge
    head.close()

    # 5. The chart, the cards and the schedule agree with the stored seats; every game shows its day.
    chart = _chart_tables(_pdf_pages(organiser, f"/games/tournaments/{tournament.pk}/rounds/1/seating.pdf"))
    cards = _card_rows(_pdf_pages(organiser, f"/games/tournaments/{tournament.pk}/cards.pdf"))
    organiser.goto(f"/games/tournaments/{tournament.pk}/schedule/")
    numbers = dict(tournament.participants.values_list("player_id", "number"))
    for g in tournament.games.filter(round__isnull=False).order_by("round", "table"):
        table = organiser.locator(f'[data-testid=round][data-round="{g.round}"] [data-testid=schedule-table]'
                                  f'[data-table="{g.table}"]')
        for seat in g.seats.select_related("player"):
            expect(table.locator(f'[data-testid=seat][data-seat="{seat.number}"]')).to_contain_text(
                seat.player.nickname)
        if g.round == 1:  # the chart prints the stored seats in seat order: seat, nickname, participant number
            assert chart[g.table] == [(s.number, s.player.nickname, numbers[s.player_id])
                                      for s in g.seats.select_related("player").order_by("number")]
    assert sorted(chart) == sorted(tournament.games.filter(round=1).values_list("table", flat=True))
    stored: dict[int, list[tuple[int, int, int]]] = {n: [] for n in numbers.values()}
    for seat in (Seat.objects.filter(game__tournament=tournament, game__round__isnull=False)
                 .select_related("game").order_by("game__round")):
        stored[numbers[seat.player_id]].append((seat.game.round, seat.game.table, seat.number))
    assert cards == stored  # every card: each round's table and seat as stored
    organiser.goto(f"/games/tournaments/{tournament.pk}/")
    played = organiser.locator(f'[data-testid=game-list] tr:has(a[href="/games/{game.pk}/"])')
    expect(played).to_contain_text(today.strftime("%d.%m"))
    organiser.goto(f"/games/{game.pk}/")  # the protocol page: the day it was played, not the first day's date
    header = organiser.get_by_test_id("game-meta")
    with translation.override("ru"):
        expect(header).to_contain_text(date_format(today, "DATE_FORMAT"))
        assert date_format(tournament.start_date, "DATE_FORMAT") not in header.inner_text()
    for other in tournament.games.filter(round__isnull=False).exclude(pk=game.pk):
        assert other.date == tournament.start_date  # not played yet: the planned day
