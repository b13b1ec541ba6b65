"""Who voted for whom and summary protocols through the site: a mafclub/1 file with both imported, stored, exported
and imported again unchanged; the voters' statistics (ratings.statistics.registry) in the facts, the standings, the
card and the API, filled again by `rebuild_ratings` for games stored before; a summary game counts in the standings
and skips what needs its missing nights."""

from __future__ import annotations

import datetime as dt
import json
from decimal import Decimal

import pytest
from django.core.management import call_command
from django.urls import reverse

from club.models import Club
from games.models import Day, Game
from games.protocol.selectors import protocol_of, with_protocol
from games.protocol.selectors_export import export_tournament
from games.protocol.services.imports import import_documents
from games.rules.interchange import FORMAT
from games.sheets.render import game_sheet, render_sheets_html
from games.tests.test_rules_summary import summary_game
from games.tests.test_rules_voters import voted_game
from ratings.models import PlayerGame, PlayerStats, Season

VOTER_STATS = ("votes_recorded", "red_votes_on_black", "votes_for_partner", "votes_on_sheriff", "sheriff_nominations")


def document() -> dict:
    summary = summary_game(number=2)  # the same ten players as the voted game
    return {"format": FORMAT, "tournament": {"name": "Голоса", "ruleset": "xcraft"},
            "games": [{**voted_game(), "date": "2026-05-01"}, {**summary, "date": "2026-05-02"}]}


def facts(game: Game) -> dict[int, dict]:
    return {row["seat"]: row for row in PlayerGame.objects.filter(game=game).values("seat", *VOTER_STATS,
                                                                                     "first_night_death", "won")}


@pytest.fixture
def imported(db):
    Club.objects.create(name="Полночь")
    import_documents(documents=[("votes.json", json.dumps(document(), ensure_ascii=False))], club_name="Полночь")
    return {g.number: g for g in Game.objects.filter(tournament__name="Голоса")}


def test_the_voters_and_the_summary_are_stored(imported):
    voted, summary = imported[1], imported[2]
    d1 = Day.objects.get(game=voted, index=1)
    assert d1.votes == [{"seat": 8, "votes": 7}, {"seat": 2, "votes": 3}]  # derived from the voters
    assert d1.voters == {"voters": voted_game()["days"][0]["voters"]}
    assert Day.objects.get(game=voted, index=2).voters["revote_voters"] == voted_game()["days"][1]["revote_voters"]
    assert summary.summary == {"first_night_known": True, "seats": {
        "3": {"first_night_killed": True, "out": {"how": "killed", "round": 1}}, "5": {"out": {"how": "removed"}},
        "8": {"out": {"how": "voted", "round": 1}}}}
    protocol = protocol_of(summary)
    assert protocol.summary and protocol.first_night_victim() == 3
    assert protocol_of(voted).days[1].revote_voters == [{int(k): v for k, v in
                                                         voted_game()["days"][1]["revote_voters"][0].items()}]


def test_the_export_imported_again_gives_the_same_games(imported):
    exported = export_tournament(imported[1].tournament)
    by_number = {g["number"]: g for g in exported["games"]}
    assert by_number[1]["days"][0]["voters"] == voted_game()["days"][0]["voters"]
    assert by_number[2]["summary"] is True and by_number[2]["days"] == []
    Club.objects.create(name="Рассвет")
    import_documents(documents=[("export.json", json.dumps(exported, ensure_ascii=False))], club_name="Рассвет")
    again = {g.number: g for g in Game.objects.filter(tournament__club__name="Рассвет")}
    for number in (1, 2):
        assert protocol_of(again[number]) == protocol_of(imported[number])
        assert facts(again[number]) == facts(imported[number])


def test_the_voters_statistics_of_a_game(imported):
    rows = facts(imported[1])
    # seat 1 (К) raised his hand four times, every time against a black: 8, 2, 2 (the re-vote), 6
    assert rows[1]["votes_recorded"] == 4 and rows[1]["red_votes_on_black"] == 4
    assert rows[6]["votes_for_partner"] == 1  # the don (6) against 2 on Day 1
    assert rows[2]["votes_for_partner"] == 0  # 2 raised no hand on Day 1: counted for 2 by the rules, not his vote
    assert {s: r["votes_on_sheriff"] for s, r in rows.items() if r["votes_on_sheriff"]} == {2: 2, 6: 2, 10: 1}
    assert {s: r["sheriff_nominations"] for s, r in rows.items() if r["sheriff_nominations"]} == {6: 1}
    assert rows[4]["votes_on_sheriff"] == 0  # the sheriff himself


def test_a_summary_game_counts_in_the_standings_and_skips_what_it_lacks(imported):
    rows = facts(imported[2])
    assert [s for s, r in rows.items() if r["first_night_death"]] == [3]  # the mark it gives
    assert all(r[key] == 0 for r in rows.values() for key in VOTER_STATS)  # no days: no votes counted
    stats = PlayerStats.objects.get(scope__tournament__name="Голоса", player__nickname="p3")
    assert (stats.games, stats.wins, stats.first_night_deaths) == (2, 2, 2)  # killed on Night 1 in both
    assert stats.total == 2 + 0.25  # two red wins and the best move naming two blacks (000 BM-4)


def test_rebuild_ratings_fills_the_voters_statistics_of_games_stored_before(imported):
    before = {(s.scope_id, s.player_id): [getattr(s, k) for k in VOTER_STATS] for s in PlayerStats.objects.all()}
    assert any(any(values) for values in before.values())
    zero = dict.fromkeys(VOTER_STATS, 0)
    PlayerGame.objects.update(**zero)  # as the columns' migration leaves the old games
    PlayerStats.objects.update(**zero)
    call_command("rebuild_ratings", stdout=open("/dev/null", "w"), stderr=open("/dev/null", "w"))  # noqa: SIM115
    after = {(s.scope_id, s.player_id): [getattr(s, k) for k in VOTER_STATS] for s in PlayerStats.objects.all()}
    assert after == before
    assert facts(imported[1])[1]["red_votes_on_black"] == 4


def test_the_card_and_the_api_show_them(imported, client):
    p1 = PlayerStats.objects.filter(player__nickname="p1").first().player
    season = Season.objects.get(club__name="Полночь")
    html = client.get(reverse("player_detail", args=[p1.pk]), {"season": season.pk}).content.decode()
    assert "<dt>Голоса против чёрных (за красных)</dt>" in html
    assert 'data-testid="stat-red_votes_on_black">4<' in html
    data = json.loads(client.get(f"/api/v1/players/{p1.pk}/", {"season": season.pk}).content)
    figures = {f["key"]: f["value"] for f in data["statistics"]}
    assert {key: figures[key] for key in VOTER_STATS} == {
        "votes_recorded": 4, "red_votes_on_black": 4, "votes_for_partner": 0, "votes_on_sheriff": 0,
        "sheriff_nominations": 0}


def test_the_page_and_the_sheet_say_it_is_a_summary(imported, client):
    summary, voted = imported[2], imported[1]
    html = client.get(reverse("games:game_detail", args=[summary.pk])).content.decode()
    assert 'data-testid="summary-protocol"' in html and "Итоговый протокол" in html
    assert 'data-testid="summary-protocol"' not in client.get(reverse("games:game_detail", args=[voted.pk])).content.decode()
    game = with_protocol(Game.objects.filter(pk=summary.pk)).prefetch_related("seats__score_items").get()
    sheet = render_sheets_html([game_sheet(game, show_secrets=True)], language="ru")
    assert "итоговый: дни и ночи не записаны" in sheet
    assert "отстрел Н1" in sheet  # seat 3: the first-night death it gives
    voted_page = client.get(reverse("games:game_detail", args=[voted.pk])).content.decode()
    assert "кто за кого голосовал: 1→8, 3→8" in voted_page


@pytest.mark.django_db
def test_a_summary_without_the_first_night_stays_out_of_the_ci_in_both_passes():
    """002 III.3: X, red in four games, killed on Night 1 in one that black won. The summary game does not tell
    its first night: K/R = 1/3 (0.333333), not 1/4 — in the full pass and when one game is rescored alone."""
    from games.models import ScoreItem
    from games.protocol.services.scoring import score_games, seated
    from games.rules.protocol import Protocol, SeatEntry
    from games.tests.rules_builders import L1, ex1, ex2
    from ratings.tests.conftest import make_tournament, store

    club = Club.objects.create(name="Полночь")
    t = make_tournament(club, "Ci", slug="cml")
    summary = Protocol(seats=[SeatEntry(seat=s, player="X" if s == 1 else f"s{s}", role=L1[s - 1])
                              for s in range(1, 11)], result="red", summary=True)
    games = [store(t, summary, date=dt.date(2026, 5, 1), score=False),
             store(t, ex2(players={3: "X"}, prefix="k"), date=dt.date(2026, 5, 2), score=False),
             store(t, ex1(players={1: "X"}, prefix="a"), date=dt.date(2026, 5, 3), score=False),
             store(t, ex1(players={1: "X"}, prefix="b"), date=dt.date(2026, 5, 4), score=False)]
    killed = games[1]

    def ci() -> list:
        return list(ScoreItem.objects.filter(seat__game=killed, kind="ci").values_list("points", flat=True))

    score_games(tournament=t)
    assert ci() == [Decimal("0.333333")]
    score_games(game=killed, seated_before=seated(killed))
    assert ci() == [Decimal("0.333333")]
