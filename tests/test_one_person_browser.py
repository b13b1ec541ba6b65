"""One player, many clubs, on a 390×844 phone (docs/persons.md): a player of club A signs up for club B's open
tournament from the sign-up page, plays two games there judged through B's judge's screen (its POST endpoints),
and finds them on his one card beside his A games, with his one Elo moved; B's tournament standings and A's club
Elo table show him once (real chromium)."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from club.models import Club, Membership, Player
from club.tests.factories import MembershipFactory, PlayerFactory, UserFactory
from games.models import Game, RuleSetVersion, Seat, Tournament
from games.tests.judge_screen import login
from games.tournaments import services as schedule
from games.tournaments.signups.models import Signup, SignupSheet
from games.tournaments.signups.tests.test_signups_browser import _phone, _play_and_sign
from ratings.models import EloChange, EloRating, PlayerGame
from ratings.tests.conftest import generated, make_tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _open_tournament_of_b(b: Club) -> tuple[Tournament, SignupSheet, object, object, list[Player]]:
    ruleset = RuleSetVersion.objects.filter(slug="cml", is_preset=True).first()
    tournament = Tournament.objects.create(club=b, name="Открытый кубок Рассвета", ruleset=ruleset)
    now = timezone.now()
    sheet = SignupSheet.objects.create(club=b, tournament=tournament, starts_at=now + dt.timedelta(hours=5),
                                       place="Невский, 1", opens_at=now - dt.timedelta(days=1),
                                       closes_at=now + dt.timedelta(hours=4),
                                       cancel_until=now + dt.timedelta(hours=2), limit=None)
    admin = MembershipFactory(club=b, role=Membership.Role.ADMIN, user=UserFactory(username="b-admin")).user
    judge = MembershipFactory(club=b, role=Membership.Role.JUDGE, user=UserFactory(username="b-judge")).user
    locals_ = [PlayerFactory(club=b, nickname=f"Рассвет{i:02d}") for i in range(9)]
    return tournament, sheet, admin, judge, locals_


def _game(tournament: Tournament, number: int, judge, players: list[Player]) -> Game:
    game = Game.objects.create(club=tournament.club, tournament=tournament, ruleset=tournament.ruleset,
                               number=number, table=1, round=number, date=timezone.localdate(), judge=judge)
    Seat.objects.bulk_create([Seat(game=game, number=n, player=p) for n, p in enumerate(players, start=1)])
    return game


def test_a_player_of_club_a_plays_club_bs_open_tournament_and_finds_it_on_his_one_card(browser, live_server):
    a = Club.objects.create(name="Полночь")  # the site's first club: its pages are /ratings/elo/ and the home page
    b = Club.objects.create(name="Рассвет", city="Тверь")
    user = UserFactory(username="wanderer")
    wanderer = PlayerFactory(club=a, nickname="Странник", user=user)
    spring = make_tournament(a, "Весна Полуночи", start=timezone.localdate() - dt.timedelta(days=20))
    generated(spring, 4, seed=3, start=spring.start_date, pool=[wanderer.nickname] + [f"a{i}" for i in range(11)])
    a_games = PlayerGame.objects.filter(player=wanderer, club=a).count()
    assert a_games > 0
    elo_before = EloRating.objects.get(player=wanderer)
    tournament, sheet, b_admin, b_judge, locals_ = _open_tournament_of_b(b)
    players_before = Player.objects.count()

    phone, page = _phone(browser, live_server)
    login(page, "wanderer")
    page.goto(f"/games/signups/{sheet.pk}/")
    page.get_by_test_id("signup-join").first.click()
    expect(page.get_by_test_id("signup-mine").first).to_contain_text("Вы записаны")
    assert Signup.objects.get(sheet=sheet).player == wanderer  # himself, no copy in club B

    schedule.participants_add(tournament=tournament, players=[wanderer, *locals_], by=b_admin)
    games = [_game(tournament, n, b_judge, [wanderer, *locals_] if n == 1 else [*locals_, wanderer])
             for n in (1, 2)]
    for game in games:
        _play_and_sign(game, b_judge)  # through B's judge's screen (its POST endpoints)
    assert Player.objects.count() == players_before

    page.goto(f"/players/{wanderer.pk}/")
    section = page.get_by_test_id("games-everywhere")
    expect(section.get_by_test_id("game-anywhere")).to_have_count(a_games + 2)
    expect(section).to_contain_text("Рассвет · Открытый кубок Рассвета")
    expect(section).to_contain_text("Полночь · Весна Полуночи")
    expect(page.get_by_test_id("memberships")).to_contain_text("Полночь")
    section.get_by_test_id("club-filter").get_by_role("link", name="Рассвет (2)").click()
    expect(page.get_by_test_id("games-everywhere").get_by_test_id("game-anywhere")).to_have_count(2)
    elo = EloRating.objects.get(player=wanderer)
    assert elo.games == elo_before.games + 2
    moved = sum(EloChange.objects.filter(player=wanderer, game__in=games).values_list("delta", flat=True))
    assert elo.elo == pytest.approx(elo_before.elo + moved) and moved != 0

    page.goto(f"/ratings/tournaments/{tournament.pk}/")
    expect(page.locator("main table tbody tr", has_text="Странник")).to_have_count(1)  # B's standings: him once
    page.goto("/ratings/elo/")  # club A's Elo table: its member once, with his one Elo
    table = page.get_by_test_id("elo-table")
    expect(table.locator("tbody tr", has_text="Странник")).to_have_count(1)
    expect(table.locator("tbody tr", has_text="Странник")).to_contain_text(f"{elo.elo:.0f}")
    phone.close()
