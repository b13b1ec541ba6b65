"""In Debian's chromium: a player of a hidden round's game protests on a phone and sees nothing of its result; the
club admin uploads a protocols file made before a judge's entry and is told which game and which entry."""

from __future__ import annotations

import datetime as dt
import json

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from games.live.apply import live_apply
from games.models import Game, JudgeExtra, Protest
from games.protests.tests.test_protests_browser import PHONE, log_in
from games.tests.protest_fixtures import protest_cast

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _hidden_game_on_a_phone(browser, live_server, *, ended):
    """A game of a hidden round that ended at `ended`, opened by its player 5 ("participant") on a phone."""
    cast = protest_cast(extra_games=False, ended_at=ended)
    Game.objects.filter(pk=cast.game.pk).update(results_hidden=True)
    context = browser.new_context(base_url=live_server.url, locale="ru-RU", viewport=PHONE)
    page = context.new_page()
    page.set_default_timeout(10_000)
    log_in(page, "participant")
    page.goto(f"/games/{cast.game.pk}/")
    return cast, context, page


def test_a_player_of_a_hidden_game_protests_on_a_phone_and_sees_no_result(transactional_db, browser, live_server):
    cast, context, page = _hidden_game_on_a_phone(browser, live_server, ended=timezone.now() - dt.timedelta(minutes=2))
    expect(page.get_by_test_id("game-hidden")).to_have_text("Результат скрыт до награждения.")
    expect(page.get_by_test_id("protocol-seats")).to_contain_text(cast.game.seats.get(number=5).player.nickname)
    expect(page.get_by_test_id("game-result")).to_have_count(0)
    expect(page.get_by_test_id("protest-deadline")).to_have_count(0)
    form = page.get_by_test_id("protest-form")
    form.locator("select[name=category]").select_option("disputed_decision")
    form.locator("textarea[name=text]").fill("Меня не выслушали")
    form.get_by_role("button").click()
    expect(page.get_by_test_id("protest").filter(has_text="Меня не выслушали")).to_be_visible()
    expect(page.get_by_test_id("protest-hidden")).to_be_visible()
    for leak in ("protest-status", "under-protest", "protest-deadline"):
        expect(page.get_by_test_id(leak)).to_have_count(0)
    assert page.get_by_test_id("protests").bounding_box()["width"] <= PHONE["width"]
    assert Protest.objects.filter(game=cast.game, text="Меня не выслушали", status="pending").count() == 1
    context.close()


def test_a_late_protest_of_a_hidden_game_is_refused_on_the_page_without_its_end(transactional_db, browser,
                                                                                  live_server):
    """The refusal (409) is swapped into the panel: one neutral sentence, no end time, no window."""
    ended = timezone.now() - dt.timedelta(hours=2)
    cast, context, page = _hidden_game_on_a_phone(browser, live_server, ended=ended)
    form = page.get_by_test_id("protest-form")  # offered after the window too: its absence would tell the end
    form.locator("select[name=category]").select_option("disputed_decision")
    form.locator("textarea[name=text]").fill("Меня не выслушали")
    form.get_by_role("button").click()
    expect(page.get_by_test_id("protest-error")).to_have_text("Протест по этой игре сейчас не принимается.")
    panel = page.get_by_test_id("protests").inner_text()
    for leak in ("Слишком поздно", "принимались до", timezone.localtime(ended).strftime("%H:%M")):
        assert leak not in panel
    assert not Protest.objects.filter(game=cast.game, text="Меня не выслушали").exists()
    context.close()


def test_the_admin_uploads_a_file_made_before_a_judges_entry_and_is_told_which(transactional_db, browser,
                                                                                 live_server, tmp_path):
    cast = protest_cast(extra_games=False)
    context = browser.new_context(base_url=live_server.url, locale="ru-RU", accept_downloads=True)
    page = context.new_page()
    page.set_default_timeout(10_000)
    log_in(page, "club_admin")
    response = page.request.get(f"/games/tournaments/{cast.tournament.pk}/protocols.json")
    assert response.ok
    path = tmp_path / "protocols.json"
    path.write_text(json.dumps(response.json(), ensure_ascii=False))
    game = Game.objects.get(pk=cast.game.pk)
    live_apply(game_id=game.pk, by=cast.table_judge, kind="extra", payload={"seat": 3, "points": "0.3"},
               version=game.version, action_id="extra-after-export")
    page.goto("/games/import/")
    page.locator("input[type=file]").set_input_files(str(path))
    page.locator("form button[type=submit]").last.click()
    body = page.locator("main")
    expect(body).to_contain_text(f"игра 1 (стол {game.table}, {cast.tournament.name}) изменилась после того")
    expect(body).to_contain_text("место 3")
    assert JudgeExtra.objects.filter(game=game, seat=3).exists()
    assert Game.objects.get(pk=game.pk).version == game.version + 1  # the judge's entry, nothing of the import
    context.close()
