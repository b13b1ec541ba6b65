"""The protocol sheet's wording: «1-ю» never broken at its hyphen, no rule-book code printed, and a day whose vote
a removal cancelled says so (000 S7.1–S7.2, 002 I.8.1–8.2)."""

from __future__ import annotations

import pytest

from club.models import nickname_key
from club.tests.factories import ClubFactory, PlayerFactory
from games.models import Game, RuleSetVersion, Tournament
from games.protocol.selectors import with_protocol
from games.protocol.services.imports import write_protocol
from games.sheets.render import blank_sheet, game_sheet, render_sheets_html
from games.tests.live_fixtures import NICKS
from games.tests.rules_builders import ex7, ex18

pytestmark = pytest.mark.django_db


def _sheet_html(protocol) -> str:
    club = ClubFactory(name="Полночь")
    players = {nickname_key(n): PlayerFactory(club=club, nickname=n) for n in NICKS[:10]}
    ruleset = RuleSetVersion.objects.filter(slug="cml", club__isnull=True).order_by("-version").first()
    tournament = Tournament.objects.create(club=club, name="Кубок", ruleset=ruleset)
    game = Game(club=club, tournament=tournament, ruleset=ruleset, number=1, table=1, date="2026-11-28",
                status=Game.Status.FINISHED)
    write_protocol(game=game, protocol=protocol(players=dict(enumerate(NICKS[:10], start=1))), players=players,
                   fresh=True)
    game = with_protocol(Game.objects.filter(pk=game.pk)).prefetch_related("seats__score_items").get()
    return render_sheets_html([game_sheet(game, show_secrets=True)])


def test_the_first_night_ordinal_is_kept_on_one_line():
    html = render_sheets_html([blank_sheet()])
    assert '<span class="nowrap">1-ю</span>' in html


def test_the_sheet_prints_no_rule_book_code():
    html = render_sheets_html([blank_sheet()])
    assert "T6.3.1" not in html and "000 T" not in html
    assert "не позднее 10 минут после игры" in html


def test_a_day_whose_vote_a_removal_cancelled_says_so():
    assert "голосования нет: его отменило удаление" in _sheet_html(ex7)  # seat 7's 4th foul on day 2


def test_a_day_with_its_vote_says_nothing_of_a_cancellation():
    assert "голосования нет" not in _sheet_html(ex18)
