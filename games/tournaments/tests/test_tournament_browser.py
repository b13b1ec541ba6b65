"""A tournament run in Debian's chromium: the admin registers 20 participants, draws 6 rounds, assigns judges and
publishes; a judge opens his pre-seated table from the home page, enters the roles and plays it to the end; results
are hidden from round 5 (a visitor sees the standings through round 4 and no round-5 protocol); the admin reveals."""

import json
import random

import pytest
from playwright.sync_api import expect

from club.tests.factories import PlayerFactory
from games.models import Game, Tournament
from games.protocol.services.imports import write_protocol
from games.protocol.services.scoring import score_games
from games.rules.generate import generate_game
from games.tests.judge_screen import login, settle
from games.tests.live_fixtures import make_cast
from games.tournaments import services as schedule

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def _short_search(monkeypatch):
    monkeypatch.setattr(schedule, "SEARCH_STEPS", 300)


def do(page, locator) -> None:
    locator.click()
    settle(page)


def speeches_to_the_end(page) -> None:
    while page.get_by_test_id("next-speaker").count():
        page.wait_for_timeout(1750)  # the double-tap guard of "speech over"
        do(page, page.get_by_test_id("next-speaker"))


def play_the_rest(tournament: Tournament, skip: Game) -> None:
    """Every other table's game is played (simulated valid protocols) and scored."""
    rng = random.Random(3)
    ruleset = tournament.ruleset.ruleset()
    players = {p.player.nickname_key: p.player for p in tournament.participants.select_related("player")}
    for game in tournament.games.exclude(pk=skip.pk).order_by("round", "table"):
        seated = [s.player.nickname for s in game.seats.order_by("number").select_related("player")]
        write_protocol(game=game, protocol=generate_game(rng, ruleset, players=seated, number=game.number),
                       players=players)
        Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    score_games(tournament=tournament)


def standings_games(page, tournament) -> set[int]:
    response = page.request.get(f"/ratings/tournaments/{tournament.pk}/standings.json")
    return {row["games"] for row in json.loads(response.text())["rows"]}


def test_an_admin_runs_a_tournament_and_a_judge_plays_his_pre_seated_table(browser, live_server, page):
    cast = make_cast("cml")
    players = cast.players + [PlayerFactory(club=cast.club, nickname=f"Участник {i:02d}") for i in range(13, 21)]
    admin = page
    login(admin, "club_admin")

    # 1. The admin creates the tournament, registers 20 participants, assigns two judges, draws and publishes.
    admin.goto("/games/tournaments/new/")
    admin.get_by_label("Название").fill("Осенний кубок")
    admin.get_by_label("Регламент").select_option(label=str(cast.tournament.ruleset))
    admin.get_by_role("button", name="Создать").click()
    tournament = Tournament.objects.get(name="Осенний кубок")
    admin.get_by_test_id("participants-link").click()
    for player in players:
        admin.get_by_test_id("participant-add").locator("select[name=player]").select_option(str(player.pk))
        admin.get_by_test_id("participant-add").get_by_role("button").click()
        expect(admin.locator(".alert-success")).to_contain_text(player.nickname)
    expect(admin.get_by_test_id("participant")).to_have_count(20)
    admin.goto(f"/games/tournaments/{tournament.pk}/schedule/")
    for user, table in ((cast.judge, 1), (cast.other_judge, 2)):
        form = admin.get_by_test_id("judge")
        form.locator("select[name=user]").select_option(str(user.pk))
        form.locator("input[name=table]").fill(str(table))
        form.get_by_role("button").click()
        expect(admin.locator(".alert-success")).to_be_visible()
    admin.get_by_test_id("generate").locator("input[name=rounds]").fill("6")
    admin.get_by_test_id("generate").get_by_role("button").click()
    expect(admin.get_by_test_id("schedule-table")).to_have_count(12)
    admin.get_by_test_id("publish").get_by_role("button").click()
    expect(admin.get_by_test_id("publish")).to_contain_text("Скрыть рассадку")
    assert tournament.games.filter(round__isnull=False).count() == 12

    # 2. The judge opens his table from the home page: seated already, he enters the roles and plays it out.
    judge_context = browser.new_context(base_url=live_server.url, locale="ru-RU")
    judge = judge_context.new_page()
    judge.set_default_timeout(10_000)
    login(judge, "judge")
    judge.goto("/")
    expect(judge.get_by_test_id("my-table")).to_contain_text("Осенний кубок")
    judge.get_by_test_id("my-table-open").click()
    game = tournament.games.get(round=1, table=1)
    expect(judge).to_have_url(f"{live_server.url}/games/{game.pk}/judge/")
    for seat in game.seats.select_related("player"):
        expect(judge.get_by_test_id(f"seat-{seat.number}")).to_contain_text(seat.player.nickname)
    for number in (7, 2, 5, 9):
        do(judge, judge.get_by_test_id(f"seat-{number}"))
    expect(judge.get_by_test_id("role-counts")).to_contain_text("Ч 2/2")
    do(judge, judge.get_by_test_id("start"))
    # Day 1: 1 nominates 5, 2 nominates 4; 7 vote for 5, the 3 silent ones go to 4.
    do(judge, judge.get_by_test_id("nominee-5"))
    do(judge, judge.get_by_test_id("next-speaker"))
    do(judge, judge.get_by_test_id("nominee-4"))
    speeches_to_the_end(judge)
    judge.get_by_test_id("key-7").click()
    do(judge, judge.get_by_test_id("record-votes"))
    do(judge, judge.get_by_test_id("to-night"))
    # Night 1: seat 1 is killed. Day 2: the best move 2 5 9; four fouls remove seat 9.
    do(judge, judge.get_by_test_id("kill-1"))
    do(judge, judge.get_by_test_id("to-day"))
    for seat in (2, 5, 9):
        judge.get_by_test_id(f"bm-{seat}").click()
    do(judge, judge.get_by_test_id("best-move-save"))
    judge.get_by_test_id("seat-9").click()
    for count in range(1, 5):
        if count == 4:
            judge.get_by_test_id("foul-plus").click()  # armed: asks once
        do(judge, judge.get_by_test_id("foul-plus"))
    speeches_to_the_end(judge)
    do(judge, judge.get_by_test_id("to-night"))
    do(judge, judge.get_by_test_id("kill-3"))
    do(judge, judge.get_by_test_id("to-day"))
    # Day 3: 4 nominates 2, the only nominee, who leaves; the engine proposes the red win.
    judge.get_by_test_id("by-4").click()
    do(judge, judge.get_by_test_id("nominee-2"))
    speeches_to_the_end(judge)
    do(judge, judge.get_by_test_id("to-night"))
    expect(judge.get_by_test_id("proposed-result")).to_be_visible()
    do(judge, judge.get_by_test_id("confirm-result"))
    judge.get_by_test_id("sign").click()  # asks once
    do(judge, judge.get_by_test_id("sign"))
    expect(judge.get_by_test_id("read-only")).to_be_visible()
    game.refresh_from_db()
    assert game.status == Game.Status.SIGNED and game.result == "red" and game.judge == cast.judge
    judge_context.close()

    # 3. Results hidden from round 5: a visitor sees the standings through round 4 and no round-5 protocol.
    play_the_rest(tournament, skip=game)
    admin.get_by_test_id("hide").locator("input[name=from_round]").fill("5")
    admin.get_by_test_id("hide").get_by_role("button").click()
    expect(admin.get_by_test_id("hidden-note")).to_be_visible()
    visitor_context = browser.new_context(base_url=live_server.url, locale="ru-RU")
    visitor = visitor_context.new_page()
    visitor.goto(f"/ratings/tournaments/{tournament.pk}/")
    expect(visitor.locator("table")).to_contain_text(players[0].nickname)
    assert standings_games(visitor, tournament) == {4}
    round5 = tournament.games.get(round=5, table=1)
    assert visitor.goto(f"/games/{round5.pk}/").status == 200  # a placeholder: who sat where, not how it went
    expect(visitor.get_by_test_id("game-hidden")).to_be_visible()
    expect(visitor.get_by_test_id("protocol-seats")).not_to_contain_text("Победа")
    visitor.goto(f"/games/tournaments/{tournament.pk}/")  # the hidden round's games are off the list until shown
    expect(visitor.locator(f'a[href="/games/{round5.pk}/"]')).to_have_count(0)
    expect(visitor.get_by_test_id("result-hidden")).to_have_count(0)

    # 4. The admin reveals: everything is visible.
    admin.get_by_test_id("reveal").get_by_role("button").click()
    expect(admin.get_by_test_id("hidden-note")).to_have_count(0)
    assert standings_games(visitor, tournament) == {6}
    assert visitor.goto(f"/games/{round5.pk}/").status == 200
    expect(visitor.get_by_test_id("game-hidden")).to_have_count(0)
    expect(visitor.get_by_test_id("result-hidden")).to_have_count(0)
    visitor.goto(f"/games/tournaments/{tournament.pk}/")
    expect(visitor.locator(f'a[href="/games/{round5.pk}/"]').first).to_be_visible()
    visitor_context.close()
