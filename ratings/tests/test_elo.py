"""The club Elo (docs/elo.md): the pure formula, the stored changes equal a replay, long tails through the task
worker, the `manage.py elo` contract, and the pages that show it."""

from __future__ import annotations

import datetime as dt
import json
from io import StringIO

import pytest
from django.conf import settings as django_settings
from django.core.management import call_command
from django.urls import reverse

from games.models import Game
from games.protocol.services.scoring import score_games
from games.visibility import COUNTED
from ratings.elo import formula as elo
from ratings.elo import services as services_elo
from ratings.keys import ELO_KEY
from ratings.models import EloChange, EloRating, PendingTail

from .conftest import card_html, generated, make_tournament

POOL = [f"Игрок {i}" for i in range(14)]


# ---------------------------------------------------------------------------------------------- the formula
def test_expected_is_the_logistic_curve_of_the_team_averages():
    assert elo.expected(1000, 1000) == 0.5
    assert elo.expected(1400, 1000) == pytest.approx(1 / (1 + 10 ** -1))
    assert elo.expected(1000, 1400) + elo.expected(1400, 1000) == pytest.approx(1)


def test_a_game_moves_each_player_by_k_times_result_minus_expected_of_his_team():
    seats = [elo.Seat(f"r{i}", elo.RED, 1.0) for i in range(7)] + [elo.Seat(f"b{i}", elo.BLACK, 0.0)
                                                                     for i in range(3)]
    ratings = {"r0": 1100.0, "b0": 1300.0}
    changes = {c.player: c for c in elo.game_changes(seats, ratings, k=30, start=1000)}
    red_avg, black_avg = (1100 + 6 * 1000) / 7, (1300 + 2000) / 3
    e_red = 1 / (1 + 10 ** ((black_avg - red_avg) / 400))
    assert changes["r0"].before == 1100 and changes["r3"].before == 1000
    assert changes["r0"].delta == pytest.approx(30 * (1 - e_red))
    assert changes["r3"].delta == changes["r0"].delta  # one expectation per team
    assert changes["b0"].delta == pytest.approx(30 * (0 - (1 - e_red)))
    assert changes["b0"].after == pytest.approx(1300 - 30 * (1 - e_red))


def test_a_draw_scores_a_half_and_moves_equal_teams_nowhere():
    seats = [elo.Seat(i, elo.RED if i < 7 else elo.BLACK, 0.5) for i in range(10)]
    assert all(c.delta == 0 for c in elo.game_changes(seats, {}, k=20, start=1000))


# ---------------------------------------------------------------------------------------------- stored
def replayed(club) -> dict[int, float]:
    games = []
    for g in Game.objects.filter(club=club, status__in=COUNTED).exclude(result="").order_by("date", "pk"):
        games.append([elo.Seat(s.player_id, elo.team_of(s.role), services_elo._score(g.result, elo.team_of(s.role)))
                      for s in g.seats.order_by("number")])
    return elo.replay(games, k=django_settings.ELO_K, start=django_settings.ELO_START)


@pytest.fixture
def two_tournaments(club, settings):
    settings.ELO_K, settings.ELO_START = 32, 1500  # the site's K and start (docs/elo.md), not the defaults
    first = make_tournament(club, "Осень", start=dt.date(2026, 3, 1))
    second = make_tournament(club, "Зима", start=dt.date(2026, 4, 1))
    generated(first, 6, seed=3, start=dt.date(2026, 3, 1), pool=POOL)
    generated(second, 6, seed=4, start=dt.date(2026, 4, 1), pool=POOL)
    return first, second


@pytest.mark.django_db
def test_stored_elo_equals_a_replay_with_the_clubs_k_and_start(two_tournaments, club):
    stored = dict(EloRating.objects.filter(player__club=club).values_list("player_id", "elo"))
    assert stored == replayed(club)
    assert EloChange.objects.filter(club=club).count() == 12 * 10
    first = EloChange.objects.filter(club=club).order_by("date", "game_id").first()
    assert first.before == 1500
    for c in EloChange.objects.filter(club=club)[:30]:
        assert c.after == c.before + c.delta


@pytest.mark.django_db
def test_a_reversed_early_result_recomputes_every_later_game(two_tournaments, club):
    first, _ = two_tournaments
    last = EloChange.objects.filter(club=club).order_by("-date", "-game_id").first()
    early = first.games.order_by("number")[0]
    early.result = "black" if early.result != "black" else "red"
    early.save()
    score_games(game=early)
    assert dict(EloRating.objects.filter(player__club=club).values_list("player_id", "elo")) == replayed(club)
    assert EloChange.objects.get(game_id=last.game_id, player_id=last.player_id).after != last.after


@pytest.mark.django_db
def test_an_annulled_game_drops_its_changes(two_tournaments, club):
    _, second = two_tournaments
    annulled = second.games.order_by("number")[2]
    annulled.status = Game.Status.ANNULLED
    annulled.save()
    score_games(game=annulled)
    assert not EloChange.objects.filter(game=annulled).exists()
    assert dict(EloRating.objects.filter(player__club=club).values_list("player_id", "elo")) == replayed(club)
    games = dict(EloRating.objects.filter(player__club=club).values_list("player_id", "games"))
    assert sum(games.values()) == 11 * 10


@pytest.mark.django_db
def test_a_long_tail_is_queued_as_a_task_and_the_task_brings_it_up_to_date(two_tournaments, club, monkeypatch):
    first, _ = two_tournaments
    monkeypatch.setattr(services_elo, "INLINE_TAIL", 3)
    ran = []
    original = services_elo.recompute_elo.call

    def spy(*args, **kwargs):
        # while the task runs its PendingTail is there: the pages say "пересчитывается"
        ran.append(PendingTail.objects.filter(key=ELO_KEY).exists())
        return original(*args, **kwargs)

    monkeypatch.setattr(type(services_elo.recompute_elo), "call", lambda self, *a, **k: spy(*a, **k))
    early = first.games.order_by("number")[0]
    early.result = "black" if early.result != "black" else "red"
    early.save()
    score_games(game=early)
    assert ran == [True]  # the immediate backend ran the queued task
    assert not PendingTail.objects.exists()
    assert dict(EloRating.objects.filter(player__club=club).values_list("player_id", "elo")) == replayed(club)


@pytest.mark.django_db
def test_a_pending_tail_absorbs_later_changes_and_the_task_covers_them(two_tournaments, club):
    first, second = two_tournaments
    g1, g2 = first.games.order_by("number")[3], second.games.order_by("number")[0]
    PendingTail.objects.create(key=ELO_KEY, since_date=g2.date, since_game=g2.pk)
    services_elo.schedule((g1.date, g1.pk))  # an earlier change: the queued start moves back
    pending = PendingTail.objects.get()
    assert (pending.since_date, pending.since_game) == (g1.date, g1.pk)
    EloChange.objects.filter(game=g2).update(delta=0)  # stale rows the task must rewrite
    assert services_elo.run_pending() > 0
    assert not PendingTail.objects.exists()
    assert dict(EloRating.objects.filter(player__club=club).values_list("player_id", "elo")) == replayed(club)


# ---------------------------------------------------------------------------------------------- contract
@pytest.mark.django_db
def test_manage_py_elo_json_contract(two_tournaments, club):
    out = StringIO()
    call_command("elo", "--club", club.name, "--format", "json", stdout=out)
    data = json.loads(out.getvalue())
    assert set(data) == {"rows"}
    rows = data["rows"]
    assert len(rows) == len(set(POOL) & {p.nickname for p in club.players.all()})
    assert all(set(r) == {"player", "elo", "games"} for r in rows)
    assert [r["elo"] for r in rows] == sorted((r["elo"] for r in rows), reverse=True)
    expected = replayed(club)
    nick = dict(club.players.values_list("pk", "nickname"))
    assert {r["player"]: r["elo"] for r in rows} == {nick[p]: round(v, 2) for p, v in expected.items()}
    games = dict(EloRating.objects.values_list("player__nickname", "games"))
    assert all(r["games"] == games[r["player"]] and r["games"] > 0 for r in rows)


@pytest.mark.django_db
def test_manage_py_elo_names_an_unknown_club(club):
    from django.core.management.base import CommandError

    with pytest.raises(CommandError, match="--club"):
        call_command("elo", "--club", "Нет такого", "--format", "json", stdout=StringIO())


# ---------------------------------------------------------------------------------------------- pages
@pytest.mark.django_db
def test_the_club_elo_page_lists_players_by_elo_and_says_when_a_recompute_is_pending(two_tournaments, club, client):
    response = client.get(reverse("ratings:club_elo"))
    html = response.content.decode()
    assert response.status_code == 200 and 'data-testid="elo-table"' in html
    top = EloRating.objects.filter(player__club=club).order_by("-elo").select_related("player").first()
    assert html.index(top.player.nickname) < html.index("</table>")
    assert "пересчитыва" not in html
    PendingTail.objects.create(key=ELO_KEY, since_date=dt.date(2026, 3, 1), since_game=1)
    html = client.get(reverse("ratings:club_elo")).content.decode()
    assert 'data-testid="elo-recomputing"' in html and "пересчитывается" in html


@pytest.mark.django_db
def test_the_protocol_page_shows_each_players_elo_change(two_tournaments, club, client):
    first, _ = two_tournaments
    g = first.games.order_by("number")[1]
    html = client.get(reverse("games:game_detail", args=[g.pk])).content.decode()
    cells = html.count('data-testid="elo-change"')
    assert cells == 10
    change = EloChange.objects.filter(game=g).first()
    assert f"{change.before:.0f}" in html


@pytest.mark.django_db
def test_the_profile_chart_draws_the_elo_line(two_tournaments, club, client):
    player = EloRating.objects.filter(player__club=club).order_by("-games").first().player
    html = card_html(client, player)
    assert 'data-series="elo"' in html
    figure = html.split('data-series="elo"', 1)[1]
    line = figure.split('<polyline class="chart-line" points="', 1)[1].split('"')[0]
    assert len(line.split()) == player.elo.games
    assert "," in line and all(p.count(",") == 1 for p in line.split())  # x,y never localised


@pytest.mark.django_db
def test_a_new_site_k_recomputes_every_game_through_the_worker(two_tournaments, club, settings):
    before = dict(EloRating.objects.filter(player__club=club).values_list("player_id", "elo"))
    settings.ELO_K = 10
    services_elo.schedule_all()  # what rebuild_ratings does after ELO_K changed (docs/elo.md)
    after = dict(EloRating.objects.filter(player__club=club).values_list("player_id", "elo"))
    assert after != before and after == replayed(club)
    assert not PendingTail.objects.exists()
