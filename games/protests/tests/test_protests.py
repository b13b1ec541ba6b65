"""Protests: the window, who may file and decide, every outcome end to end, immutability, the pages.

docs/rules.md I41–I45, D12, A26, A27, Ex 18.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
from decimal import Decimal

import pytest
from django.core import mail
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.urls import reverse
from django.utils import timezone, translation

from games.models import Adjustment, DecidedProtestIsFinal, Game, Protest, RuleSetVersion, ScoreItem, Seat
from games.protests.services import (
    ProtestError,
    protest_deadline,
    protest_decide,
    protest_file,
    protest_record_paper,
)
from games.protocol.selectors import audit_trail, protest_queue, protests_of_user
from games.protocol.services.imports import import_documents
from games.rules.interchange import protocol_to_dict
from games.tests.protest_fixtures import NICKS, fresh, minutes_after_end, now_in_window, protest_cast
from games.tests.rules_builders import BLACK, ex16, game
from ratings.standings.selectors import tournament_standings

pytestmark = pytest.mark.django_db
SK = "Иванов (СК)"


@pytest.fixture
def cast():
    return protest_cast()


def file_p1(cast, minutes: int = 7, **kw) -> Protest:
    """Ex 18 P1: seat 5 protests 7 minutes after «Стоп игра»."""
    return protest_file(game=cast.game, by=cast.participant, category=kw.pop("category", "non_game_advantage"),
                        text=kw.pop("text", "Seat 8 peeked at night (II.2.10); the video shows it."),
                        now=minutes_after_end(cast.game, minutes), **kw)


def totals(game_obj: Game) -> dict[int, Decimal]:
    return {s.number: s.total.normalize() for s in Seat.objects.filter(game=game_obj)}


def D(value) -> Decimal:
    return Decimal(str(value)).normalize()


def standings(tournament) -> dict[str, Decimal]:
    return {row.player: row.record.total.normalize() for row in tournament_standings(tournament)}


def order(tournament) -> list[str]:
    return [row.player for row in tournament_standings(tournament)]


# ---------------------------------------------------------------------------------------------- the window


@pytest.mark.parametrize("minutes, seconds", [(9, 59), (10, 0)], ids=["9:59", "10:00-inclusive"])
def test_protest_within_ten_minutes_is_accepted(cast, minutes, seconds):
    protest = protest_file(game=cast.game, by=cast.participant, category="result", text="wrong result",
                           now=minutes_after_end(cast.game, minutes, seconds))
    assert protest.status == Protest.Status.PENDING
    assert protest.seat == 5 and protest.player.nickname == NICKS[4]
    assert protest.filed_at == minutes_after_end(cast.game, minutes, seconds)


def test_protest_after_ten_minutes_is_refused_with_the_deadline(cast):
    with pytest.raises(ProtestError) as refused:
        protest_file(game=cast.game, by=cast.participant, category="result", text="late",
                     now=minutes_after_end(cast.game, 10, 1))
    # 19:05 UTC + 10 min, stated in the club's zone (Europe/Moscow, UTC+3)
    assert "22:15:00" in str(refused.value) and "MSK" in str(refused.value)
    assert not Protest.objects.exists()


def test_ex18_p2_twelve_minutes_after_the_end_is_inadmissible(cast):
    with pytest.raises(ProtestError):
        file_p1(cast, minutes=12)


@pytest.fixture
def kamchatka(settings):
    settings.TIME_ZONE = "Asia/Kamchatka"


@pytest.mark.parametrize("minutes, seconds, accepted", [(9, 59, True), (10, 0, True), (10, 1, False)])
def test_a_club_in_another_time_zone_has_the_same_window(kamchatka, minutes, seconds, accepted):
    cast = protest_cast(extra_games=False)
    now = minutes_after_end(cast.game, minutes, seconds)
    if accepted:
        protest_file(game=cast.game, by=cast.participant, category="result", text="x", now=now)
        assert Protest.objects.count() == 1
    else:
        with pytest.raises(ProtestError) as refused:
            protest_file(game=cast.game, by=cast.participant, category="result", text="x", now=now)
        assert "07:15:00" in str(refused.value)  # 19:15 UTC is 07:15 next morning in Kamchatka (UTC+12)
        assert Protest.objects.count() == 0
    assert protest_deadline(cast.game) == cast.game.ended_at + dt.timedelta(minutes=10)


def test_the_window_is_judged_on_server_time_by_default(cast):
    Game.objects.filter(pk=cast.game.pk).update(ended_at=timezone.now() - dt.timedelta(minutes=11))
    with pytest.raises(ProtestError):
        protest_file(game=fresh(cast.game), by=cast.participant, category="result", text="x")
    Game.objects.filter(pk=cast.game.pk).update(ended_at=timezone.now() - dt.timedelta(minutes=1))
    assert protest_file(game=fresh(cast.game), by=cast.participant, category="result", text="x").pk


def test_a_game_without_a_recorded_end_takes_no_protest_yet(cast):
    Game.objects.filter(pk=cast.game.pk).update(ended_at=None)
    with pytest.raises(ProtestError):
        protest_file(game=fresh(cast.game), by=cast.participant, category="result", text="x")


def test_cml_refuses_an_appeal_on_extra_points_iii_1_7(cast):
    """Ex 18 P3: «seat 6 deserved 0.7, not 0.5» is inadmissible under 002 III.1.7; a minus may be appealed."""
    with pytest.raises(ProtestError, match="III.1.7"):
        file_p1(cast, category="extras", text="seat 6 deserved 0.7")
    assert file_p1(cast, category="disciplinary_remove", text="my −0.3 is wrong").pk


def test_xcraft_accepts_an_appeal_on_extra_points():
    cast = protest_cast(ruleset="xcraft", extra_games=False)
    assert file_p1(cast, category="extras", text="I deserved more").status == Protest.Status.PENDING


# ---------------------------------------------------------------------------------------------- paper protests


def test_the_table_judge_records_a_paper_protest_with_its_written_time(cast):
    written = minutes_after_end(cast.game, 4)
    protest = protest_record_paper(game=cast.game, by=cast.table_judge, seat=2, category="result",
                                   text="written on the sheet", written_at=written)
    assert (protest.seat, protest.player.nickname, protest.filed_by, protest.filed_at) == (
        2, NICKS[1], cast.table_judge, written)


def test_a_paper_protest_is_refused_after_the_window_once_signed_and_from_others(cast):
    with pytest.raises(ProtestError):
        protest_record_paper(game=cast.game, by=cast.table_judge, seat=2, category="result", text="x",
                             written_at=minutes_after_end(cast.game, 11))
    for user in (cast.head_judge, cast.participant, cast.club_admin):
        with pytest.raises(PermissionDenied):
            protest_record_paper(game=cast.game, by=user, seat=2, category="result", text="x",
                                 written_at=minutes_after_end(cast.game, 3))
    Game.objects.filter(pk=cast.game.pk).update(status=Game.Status.SIGNED)
    with pytest.raises(ProtestError):
        protest_record_paper(game=fresh(cast.game), by=cast.table_judge, seat=2, category="result", text="x",
                             written_at=minutes_after_end(cast.game, 3))
    assert not Protest.objects.exists()


# ---------------------------------------------------------------------------------------------- permission matrix


@pytest.mark.parametrize("who, allowed", [
    ("anonymous", False), ("outsider", False), ("participant", True), ("table_judge", False),
    ("head_judge", False), ("club_admin", False),
])
def test_only_a_player_of_the_game_files(cast, who, allowed):
    call = lambda: protest_file(game=cast.game, by=cast[who], category="result", text="x",  # noqa: E731
                                now=now_in_window(cast.game))
    if allowed:
        assert call().filed_by == cast[who]
    else:
        with pytest.raises(PermissionDenied):
            call()
        assert not Protest.objects.exists()


def test_a_head_judge_who_judged_the_table_files_nothing_either(cast):
    Game.objects.filter(pk=cast.game.pk).update(judge=cast.head_judge)
    with pytest.raises(PermissionDenied):
        protest_file(game=fresh(cast.game), by=cast.head_judge, category="result", text="x",
                     now=now_in_window(cast.game))


def _reject(cast, protest, who):
    return protest_decide(protest=protest, by=cast[who], decision="reject", explanation="disputed decision, l.518")


@pytest.mark.parametrize("who, allowed", [
    ("anonymous", False), ("outsider", False), ("participant", False), ("table_judge", False),
    ("head_judge", True), ("club_admin", False),
])
def test_the_head_judge_decides(cast, who, allowed):
    protest = file_p1(cast)
    if allowed:
        assert _reject(cast, protest, who).status == Protest.Status.REJECTED
    else:
        with pytest.raises(PermissionDenied):
            _reject(cast, protest, who)
        assert Protest.objects.get().status == Protest.Status.PENDING


@pytest.mark.parametrize("who, allowed", [
    ("anonymous", False), ("outsider", False), ("participant", False), ("table_judge", False),
    ("head_judge", False), ("club_admin", True),
])
def test_when_the_head_judge_judged_the_table_a_club_admin_decides(cast, who, allowed):
    protest = file_p1(cast)
    Game.objects.filter(pk=cast.game.pk).update(judge=cast.head_judge)  # the head judge judged the table
    protest.refresh_from_db()
    if allowed:
        assert _reject(cast, protest, who).decided_by == cast.club_admin
    else:
        with pytest.raises(PermissionDenied):
            _reject(cast, protest, who)


def test_the_queue_shows_each_reviewer_his_own_protests(cast):
    protest = file_p1(cast)
    assert protest_queue(cast.head_judge) == [protest]
    assert protest_queue(cast.club_admin) == [] and protest_queue(cast.table_judge) == []
    Game.objects.filter(pk=cast.game.pk).update(judge=cast.head_judge)
    assert protest_queue(cast.head_judge) == [] and [p.pk for p in protest_queue(cast.club_admin)] == [protest.pk]


# ---------------------------------------------------------------------------------------------- decisions are final


def test_a_decision_needs_an_explanation_and_is_final(cast):
    protest = file_p1(cast)
    with pytest.raises(ProtestError):
        protest_decide(protest=protest, by=cast.head_judge, decision="reject", explanation="  ")
    protest = _reject(cast, protest, "head_judge")
    with pytest.raises(ProtestError, match="T6.3.4"):
        protest_decide(protest=protest, by=cast.head_judge, decision="uphold", explanation="changed my mind",
                       outcomes=[{"kind": "replay"}], sk_representative=SK)
    protest.explanation = "edited afterwards"
    with pytest.raises(DecidedProtestIsFinal), transaction.atomic():  # refused by the save's UPDATE: its write undone
        protest.save()
    with pytest.raises(DecidedProtestIsFinal):
        protest.delete()
    stored = Protest.objects.get()
    assert (stored.status, stored.explanation) == (Protest.Status.REJECTED, "disputed decision, l.518")
    assert fresh(cast.game).status == Game.Status.FINISHED


def test_an_upheld_protest_needs_an_outcome_and_a_rejected_one_none(cast):
    protest = file_p1(cast)
    with pytest.raises(ProtestError):
        protest_decide(protest=protest, by=cast.head_judge, decision="uphold", explanation="x", outcomes=[])
    with pytest.raises(ProtestError):
        protest_decide(protest=protest, by=cast.head_judge, decision="reject", explanation="x",
                       outcomes=[{"kind": "replay"}])
    assert Protest.objects.get().status == Protest.Status.PENDING


def test_cml_result_change_needs_the_sk_representative_iii_16(cast):
    protest = file_p1(cast)
    with pytest.raises(ProtestError, match="III.16"):
        protest_decide(protest=protest, by=cast.head_judge, decision="uphold", explanation="peeking",
                       outcomes=[{"kind": "reverse_result", "result": "red"}])
    assert fresh(cast.game).result == "black"


# ---------------------------------------------------------------------------------------------- under protest


def test_a_pending_protest_puts_the_game_under_protest_and_the_standings_rows_provisional(cast):
    assert not cast.game.under_protest
    assert not any(row.provisional for row in tournament_standings(cast.tournament))
    protest = file_p1(cast)
    assert fresh(cast.game).under_protest
    provisional = {row.player for row in tournament_standings(cast.tournament) if row.provisional}
    assert provisional == set(NICKS)
    _reject(cast, protest, "head_judge")
    assert not fresh(cast.game).under_protest
    assert not any(row.provisional for row in tournament_standings(cast.tournament))


# ---------------------------------------------------------------------------------------------- Ex 18 (a)

EX18_BEFORE = {1: D("0.3"), 2: D("1"), 3: D("0.55"), 4: D("-0.3"), 5: D(0), 6: D("1.5"), 7: D(0), 8: D("1"),
               9: D(0), 10: D(0)}
EX18_REVERSED = {1: D("1.3"), 2: D(0), 3: D("1.3"), 4: D("1"), 5: D("1"), 6: D("0.5"), 7: D("1"), 8: D("-0.5"),
                 9: D("1"), 10: D("1")}


@pytest.mark.usefixtures("bulk_writes")  # club.bulk both ways: its SQL and the public ORM
def test_ex18_reversal_changes_exactly_the_expected_points_and_the_standings_order(
        cast, django_capture_on_commit_callbacks):
    others = {g.number: totals(g) for g in cast.tournament.games.exclude(pk=cast.game.pk)}
    assert totals(cast.game) == EX18_BEFORE
    before = standings(cast.tournament)
    assert before[NICKS[2]] == D("3.55") and before[NICKS[3]] == D("2.7")
    ranks = order(cast.tournament)
    assert ranks.index("Рысь") < ranks.index("Шериф Ли") and ranks.index("Туман") < ranks.index("Шериф Ли")

    protest = file_p1(cast)
    with django_capture_on_commit_callbacks(execute=True):
        protest = protest_decide(
            protest=protest, by=cast.head_judge, decision="uphold", sk_representative=SK,
            explanation="Seat 8 peeked at night: an insurmountable non-game advantage (III.16, App. l.544).",
            outcomes=[{"kind": "reverse_result", "result": "red"},
                      {"kind": "add_penalty", "seat": 8, "points": "-0.5", "clause": "002 App. l.550",
                       "note": "post-factum disqualification penalty (II.2.10)"}])

    game1 = fresh(cast.game)
    assert game1.result == "red" and protest.status == Protest.Status.UPHELD
    assert totals(game1) == EX18_REVERSED
    # Ci lapses: red no longer lost (002 III.3); the loss-conditional −0.3 lapses (docs/rules.md A27); J kept
    seat3 = {i.kind for i in ScoreItem.objects.filter(seat__game=game1, seat__number=3)}
    assert "ci" not in seat3 and "best_move" in seat3
    assert not Adjustment.objects.filter(game=game1, clause="002 III.6/-0.3 #2").exists()
    lapsed = [o for o in protest.outcomes if o["kind"] == "lapsed"]
    assert lapsed == [{"kind": "lapsed", "reason": "docs/rules.md A27", "removed": {
        "id": lapsed[0]["removed"]["id"], "seat": 4, "points": "-0.300000", "clause": "002 III.6/-0.3 #2",
        "note": "see video", "source": "judge"}}]
    assert {"kind": "sk_agreement", "representative": SK} in protest.outcomes
    # the other games are untouched
    assert {g.number: totals(g) for g in cast.tournament.games.exclude(pk=cast.game.pk)} == others
    # the standings follow: exactly the game-1 differences, and the order changes
    after = standings(cast.tournament)
    assert {p: after[p] - before[p] for p in before} == {
        NICKS[s - 1]: EX18_REVERSED[s] - EX18_BEFORE[s] for s in range(1, 11)}
    ranks = order(cast.tournament)
    assert ranks.index("Шериф Ли") < ranks.index("Рысь") and ranks.index("Шериф Ли") < ranks.index("Туман")
    assert ranks[-1] == "Клык"
    # the audit trail: the game's history names the decider; both the filer and the table judge are notified
    change = game1.history.filter(history_user=cast.head_judge).first()
    assert change is not None and "black → red" in change.history_change_reason
    # shown to people as words: «protest No. N: result: Black win → Red win», never the stored codes
    with translation.override("en"):
        trail = audit_trail(game1)
    assert any("result: Black win → Red win" in e.detail for e in trail)
    assert not any("black → red" in e.detail for e in trail)
    assert sorted(r for m in mail.outbox for r in m.to) == ["participant@example.org", "table_judge@example.org"]
    assert protest.decided_by == cast.head_judge and protest.history.count() == 2


def test_ex18_post_factum_penalty_is_a_protest_item_on_the_back_side(cast):
    protest = file_p1(cast, category="disciplinary_add", text="seat 8 insulted me; the judge missed it")
    protest_decide(protest=protest, by=cast.head_judge, decision="uphold", sk_representative=SK,
                   explanation="missed penalty imposed post factum (App. l.550)",
                   outcomes=[{"kind": "add_penalty", "seat": 8, "points": "-0.5", "clause": "002 App. l.550"}])
    item = ScoreItem.objects.get(seat__game=cast.game, seat__number=8, kind="adjustment")
    assert (item.points, item.clause, item.source, item.effective) == (
        Decimal("-0.5"), "002 App. l.550", ScoreItem.Source.PROTEST, True)
    assert f"#{protest.pk}" in item.note
    assert totals(cast.game)[8] == D("0.5")  # 1.0 for the black win − 0.5
    response_items = [i.clause for i in ScoreItem.objects.filter(seat__game=cast.game, source="protest")]
    assert response_items == ["002 App. l.550"]


def test_a_judge_penalty_is_removed_and_an_automatic_one_compensated():
    cast = protest_cast(extra_games=False)
    protest = file_p1(cast, category="disciplinary_remove", text="the −0.3 of seat 4 is wrong")
    seat4 = Adjustment.objects.get(game=cast.game, seat=4)
    protest_decide(protest=protest, by=cast.head_judge, decision="uphold", sk_representative=SK,
                   explanation="wrongly perceived (App. l.553)",
                   outcomes=[{"kind": "remove_penalty", "adjustment": seat4.pk}])
    assert not Adjustment.objects.filter(pk=seat4.pk).exists()
    assert totals(cast.game)[4] == D(0)
    assert Protest.objects.get().outcomes[-1]["removed"]["clause"] == "002 III.6/-0.3 #2"

    # Ex 16: seat 10's disqualification −0.5 is computed from the removal; the decision compensates it.
    doc = {"format": "mafclub/1", "tournament": {"name": "Ex16", "ruleset": "cml"},
           "games": [protocol_to_dict(dataclasses.replace(
               ex16(players=dict(enumerate(NICKS, start=1))), number=1, date="2026-11-28",
               ended_at=cast.game.ended_at.isoformat()))]}
    other = import_documents(documents=[("ex16.json", json.dumps(doc))], club=cast.club).tournaments[0]
    other.head_judge = cast.head_judge
    other.save()
    game16 = other.games.get()
    assert totals(game16)[10] == D("-0.5")
    protest = protest_file(game=game16, by=cast.participant, category="dq_penalty", text="no insult happened",
                           now=minutes_after_end(game16, 5))
    penalty = ScoreItem.objects.get(seat__game=game16, seat__number=10, kind="removal_penalty")
    protest_decide(protest=protest, by=cast.head_judge, decision="uphold", sk_representative=SK,
                   explanation="the violation was obviously absent (App. l.562)",
                   outcomes=[{"kind": "remove_penalty", "score_item": penalty.pk}])
    assert totals(game16)[10] == D(0)
    compensation = Adjustment.objects.get(game=game16, source=Adjustment.Source.PROTEST)
    assert (compensation.seat, compensation.points, compensation.clause) == (10, Decimal("0.5"), "002 App. l.553")


# ---------------------------------------------------------------------------------------------- Ex 18 (b) replay


@pytest.mark.usefixtures("bulk_writes")  # club.bulk both ways: its SQL and the public ORM
def test_ex18_replay_annuls_the_game_and_removes_it_from_the_standings(cast):
    before = {row.player: row.record.games for row in tournament_standings(cast.tournament)}
    assert set(before.values()) == {4}
    protest = file_p1(cast)
    protest_decide(protest=protest, by=cast.head_judge, decision="uphold", sk_representative=SK,
                   explanation="non-correctable technical error: replay (App. l.501–509)",
                   outcomes=[{"kind": "replay"}])
    game1 = fresh(cast.game)
    assert game1.status == Game.Status.ANNULLED and not game1.counts
    replay = Game.objects.get(replay_of=game1)
    assert (replay.status, replay.tournament, replay.number, replay.judge) == (
        Game.Status.DRAFT, cast.tournament, 5, cast.table_judge)
    assert [(s.number, s.player_id, s.role) for s in replay.seats.all()] == [
        (s.number, s.player_id, "") for s in game1.seats.all()]
    assert not ScoreItem.objects.filter(seat__game=game1).exists()
    rows = {row.player: row.record for row in tournament_standings(cast.tournament)}
    assert {p: r.games for p, r in rows.items()} == {p: 3 for p in before}
    assert rows[NICKS[2]].total == Decimal("3")  # Бард: three red wins at seat 5, Ex 18 no longer counts


# ---------------------------------------------------------------------------------------------- corrections


def test_a_protocol_correction_is_audited_and_must_stay_valid(cast):
    protest = file_p1(cast, category="technical_error", text="the sheriff's check on N1 is missing")
    with pytest.raises(ProtestError, match="I.1.1"):
        protest_decide(protest=protest, by=cast.head_judge, decision="uphold", explanation="x",
                       outcomes=[{"kind": "correct_protocol", "field": "seat_role", "seat": 1, "value": "Ш"}])
    assert Seat.objects.get(game=cast.game, number=1).role == "К"  # rolled back
    protest_decide(protest=protest, by=cast.head_judge, decision="uphold", explanation="correctable (l.512)",
                   outcomes=[{"kind": "correct_protocol", "field": "night_sheriff_check", "night": 1, "value": 2}])
    assert cast.game.nights.get(index=1).sheriff_check == 2
    record = Protest.objects.get().outcomes
    assert record == [{"kind": "correct_protocol", "field": "night_sheriff_check", "night": 1, "from": None,
                       "to": 2}]
    assert fresh(cast.game).history.filter(history_change_reason__contains="protocol corrected").exists()


# ---------------------------------------------------------------------------------------------- 003 l.127


@pytest.fixture
def moscow_cast():
    cast = protest_cast(extra_games=False)
    protocol = game(BLACK, outs=[[], [5], [9]], kills=[3, 7], players=dict(enumerate(NICKS, start=1)))
    doc = {"format": "mafclub/1", "tournament": {"name": "Москва", "ruleset": "moscow"},
           "games": [protocol_to_dict(dataclasses.replace(protocol, number=1, date="2026-11-28",
                                                          ended_at=cast.game.ended_at.isoformat()))]}
    tournament = import_documents(documents=[("moscow.json", json.dumps(doc))], club=cast.club).tournaments[0]
    tournament.head_judge = cast.head_judge
    tournament.save()
    cast.game = tournament.games.get()
    return cast


REDS = [1, 3, 4, 5, 7, 9, 10]


def test_moscow_team_vote_annuls_only_with_the_whole_team_and_an_opponent(moscow_cast):
    cast = moscow_cast
    protest = file_p1(cast, category="technical_error", text="the host broke the rules")
    with pytest.raises(ProtestError, match="l.127"):
        protest_decide(protest=protest, by=cast.head_judge, decision="uphold", explanation="vote",
                       outcomes=[{"kind": "team_vote", "votes": REDS}])  # no opponent voted
    with pytest.raises(ProtestError, match="l.127"):
        protest_decide(protest=protest, by=cast.head_judge, decision="uphold", explanation="vote",
                       outcomes=[{"kind": "team_vote", "votes": [1, 3, 4, 5, 7, 9, 2]}])  # seat 10 missing
    assert fresh(cast.game).status == Game.Status.FINISHED
    protest_decide(protest=protest, by=cast.head_judge, decision="uphold", explanation="annulled by the vote",
                   outcomes=[{"kind": "team_vote", "votes": [*REDS, 6]}])
    assert fresh(cast.game).status == Game.Status.ANNULLED
    assert Protest.objects.get().outcomes[0] == {"kind": "team_vote", "team": "red", "votes": sorted([*REDS, 6]),
                                                 "team_seats": REDS, "annuls": True}


def test_a_failed_team_vote_is_recorded_with_a_rejection(moscow_cast):
    protest = file_p1(moscow_cast, text="x")
    protest_decide(protest=protest, by=moscow_cast.head_judge, decision="reject", explanation="vote failed",
                   outcomes=[{"kind": "team_vote", "votes": [1, 3]}])
    assert Protest.objects.get(pk=protest.pk).outcomes[0]["annuls"] is False
    assert fresh(moscow_cast.game).status == Game.Status.FINISHED


def test_cml_has_no_team_vote(cast):
    protest = file_p1(cast)
    with pytest.raises(ProtestError, match="003 l.127"):
        protest_decide(protest=protest, by=cast.head_judge, decision="uphold", explanation="x",
                       outcomes=[{"kind": "team_vote", "votes": list(range(1, 11))}])


def _as_club_copy(cast, **changes):
    """Play `cast.game` under a club copy of its rule set with `changes` (docs/rules.md, "Parameters")."""
    params = dict(cast.game.ruleset.params, slug="cml-club", **changes)
    version = RuleSetVersion.objects.create(slug="cml-club", name="CML клуба", club=cast.club, params=params)
    Game.objects.filter(pk=cast.game.pk).update(ruleset=version)
    cast.game.refresh_from_db()
    return version


def test_the_rule_set_data_not_the_book_number_asks_for_the_sk_representative(cast):
    _as_club_copy(cast, protest_needs_sk_agreement=False)  # still the 002 book
    protest_decide(protest=file_p1(cast), by=cast.head_judge, decision="uphold", explanation="peeking",
                   outcomes=[{"kind": "reverse_result", "result": "red"}])
    assert fresh(cast.game).result == "red"


def test_the_rule_set_data_not_the_book_number_allows_the_team_vote(cast):
    _as_club_copy(cast, team_vote_annulment=True)
    protest = file_p1(cast, text="x")
    protest_decide(protest=protest, by=cast.head_judge, decision="reject", explanation="vote failed",
                   outcomes=[{"kind": "team_vote", "votes": [1, 3]}])
    assert Protest.objects.get(pk=protest.pk).outcomes[0]["annuls"] is False


def test_a_conditional_item_lapses_by_the_rule_sets_list_only(cast):
    """Without the 002 III.6 l.345 entry in `conditional_items`, the −0.3 of the winning team stays."""
    _as_club_copy(cast, conditional_items=[])
    protest_decide(protest=file_p1(cast), by=cast.head_judge, decision="uphold", sk_representative=SK,
                   explanation="peeking", outcomes=[{"kind": "reverse_result", "result": "red"}])
    assert not [o for o in Protest.objects.get().outcomes if o["kind"] == "lapsed"]
    assert fresh(cast.game).adjustments.filter(clause__contains="III.6").exists()


# ---------------------------------------------------------------------------------------------- pages


def test_my_protests_lists_the_filers_and_the_table_judges(cast, client):
    protest = file_p1(cast)
    assert list(protests_of_user(cast.participant)) == [protest]
    assert list(protests_of_user(cast.table_judge)) == [protest]
    assert list(protests_of_user(cast.outsider)) == []
    client.force_login(cast.table_judge)
    page = client.get(reverse("games:my_protests")).content.decode()
    assert f'href="/games/protests/{protest.pk}/"' in page


def test_filing_from_the_game_page_htmx_returns_the_fragment_and_plain_post_redirects(cast, client):
    Game.objects.filter(pk=cast.game.pk).update(ended_at=timezone.now() - dt.timedelta(minutes=2))
    url = reverse("games:protest_file", args=[cast.game.pk])
    client.force_login(cast.participant)
    page = client.get(reverse("games:game_detail", args=[cast.game.pk])).content.decode()
    assert 'data-testid="protest-form"' in page
    response = client.post(url, {"category": "result", "text": "via htmx"}, HTTP_HX_REQUEST="true")
    body = response.content.decode()
    assert response.status_code == 200 and "<html" not in body and 'id="protests"' in body
    assert "via htmx" in body and 'data-testid="under-protest"' in body
    response = client.post(url, {"category": "result", "text": "plain form"})
    assert response.status_code == 302 and response["Location"].endswith("#protests")
    assert Protest.objects.filter(game=cast.game).count() == 2
    assert client.get(url).status_code == 405


def test_write_views_check_permission_on_the_server(cast, client):
    Game.objects.filter(pk=cast.game.pk).update(ended_at=timezone.now() - dt.timedelta(minutes=2))
    protest = protest_file(game=fresh(cast.game), by=cast.participant, category="result", text="x")
    client.force_login(cast.outsider)
    assert client.post(reverse("games:protest_file", args=[cast.game.pk]),
                       {"category": "result", "text": "x"}).status_code == 403
    decide = reverse("games:protest_decide", args=[protest.pk])
    for user in (cast.outsider, cast.participant, cast.table_judge, cast.club_admin):
        client.force_login(user)
        assert client.post(decide, {"decision": "reject", "explanation": "no"}).status_code == 403
    client.logout()
    assert client.post(decide, {"decision": "reject", "explanation": "no"}).status_code == 403
    assert Protest.objects.get().status == Protest.Status.PENDING
    client.force_login(cast.head_judge)
    assert client.get(decide).status_code == 405
    queue = client.get(reverse("games:protest_queue")).content.decode()
    assert 'data-testid="decide-form"' in queue and 'data-testid="audit-trail"' in queue
    response = client.post(decide, {"decision": "reject", "explanation": "disputed"}, HTTP_HX_REQUEST="true")
    assert "<html" not in response.content.decode() and Protest.objects.get().status == Protest.Status.REJECTED


def test_the_protest_page_is_for_the_filer_the_judges_and_the_staff(cast, client):
    protest = file_p1(cast)
    url = reverse("games:protest_detail", args=[protest.pk])
    for user, status in ((cast.participant, 200), (cast.table_judge, 200), (cast.head_judge, 200),
                         (cast.club_admin, 200), (cast.outsider, 403)):
        client.force_login(user)
        response = client.get(url)
        assert response.status_code == status
        if status == 200:
            page = response.content.decode()
            assert "Seat 8 peeked" in page
            assert ('data-testid="decide-form"' in page) == (user == cast.head_judge)


def test_the_table_judge_records_a_paper_protest_from_the_game_page(cast, client):
    client.force_login(cast.table_judge)
    written = timezone.localtime(minutes_after_end(cast.game, 3)).strftime("%Y-%m-%dT%H:%M")
    response = client.post(reverse("games:protest_paper", args=[cast.game.pk]),
                           {"seat": 2, "category": "result", "text": "on paper", "written_at": written})
    assert response.status_code == 302
    protest = Protest.objects.get()
    assert (protest.seat, protest.filed_by, protest.filed_at) == (2, cast.table_judge, minutes_after_end(cast.game, 3))
    client.force_login(cast.participant)
    assert client.post(reverse("games:protest_paper", args=[cast.game.pk]),
                       {"seat": 2, "category": "result", "text": "x", "written_at": written}).status_code == 403


# ---------------------------------------------------------------------------------------------- notice to reviewers


def test_filing_mails_the_tournament_head_judge_after_the_commit(cast, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks() as callbacks:
        protest = file_p1(cast)
        assert mail.outbox == []  # nothing leaves before the filing is committed
    assert callbacks  # the mail, and the game page's cache dropped again (games.page_cache)
    for callback in callbacks:
        callback()
    [message] = mail.outbox
    assert message.to == ["head_judge@example.org"]
    assert f"{protest.pk}:" in message.subject and cast.game.listed_name in message.subject
    assert reverse("games:protest_detail", args=[protest.pk]) in message.body and protest.text in message.body


def test_when_the_head_judge_judged_the_table_the_club_admins_are_mailed(cast, django_capture_on_commit_callbacks):
    Game.objects.filter(pk=cast.game.pk).update(judge=cast.head_judge)
    cast.game = fresh(cast.game)
    with django_capture_on_commit_callbacks(execute=True):
        file_p1(cast)
    assert [m.to for m in mail.outbox] == [["club_admin@example.org"]]


def test_club_games_mail_the_clubs_head_judges(cast, django_capture_on_commit_callbacks):
    from club.models import Membership
    from club.tests.factories import MembershipFactory, UserFactory

    cast.tournament.head_judge = None
    cast.tournament.save()
    second = UserFactory(username="second_head", email="second_head@example.org")
    MembershipFactory(club=cast.club, user=second, role=Membership.Role.HEAD_JUDGE)
    cast.game = fresh(cast.game)
    with django_capture_on_commit_callbacks(execute=True):
        file_p1(cast)
    assert [sorted(m.to) for m in mail.outbox] == [["head_judge@example.org", "second_head@example.org"]]


def test_a_paper_protest_mails_the_reviewers_too(cast, django_capture_on_commit_callbacks):
    Game.objects.filter(pk=cast.game.pk).update(status=Game.Status.FINISHED)
    with django_capture_on_commit_callbacks(execute=True):
        protest_record_paper(game=fresh(cast.game), by=cast.table_judge, seat=5, category="result",
                             text="paper protest", written_at=minutes_after_end(cast.game, 3))
    assert [m.to for m in mail.outbox] == [["head_judge@example.org"]]


def test_a_refused_filing_mails_nobody(cast, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True), pytest.raises(ProtestError):
        file_p1(cast, minutes=11)
    assert mail.outbox == []


class _MailServerDown:
    """An e-mail backend whose server refuses every letter."""

    def __init__(self, *args, **kwargs):
        pass

    def send_messages(self, messages):
        raise ConnectionRefusedError("the mail server is down")


def test_letters_go_out_from_the_worker_so_a_mail_server_down_fails_no_decision(
        cast, settings, django_capture_on_commit_callbacks):
    from django_tasks_db.models import DBTaskResult

    from games.protests.mail import mail_protest_decision

    settings.TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}
    settings.EMAIL_BACKEND = f"{__name__}._MailServerDown"
    protest = file_p1(cast)
    with django_capture_on_commit_callbacks(execute=True):
        _reject(cast, protest, "head_judge")
    assert Protest.objects.get(pk=protest.pk).status == Protest.Status.REJECTED and mail.outbox == []
    queued = DBTaskResult.objects.filter(task_path__endswith=".mail_protest_decision")
    assert [row.args_kwargs["args"] for row in queued] == [[protest.pk]]
    with pytest.raises(ConnectionRefusedError):  # the worker's task fails (and says why); the decision stands
        mail_protest_decision.call(protest.pk)
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    assert mail_protest_decision.call(protest.pk) == 1  # the server is back: the worker's retry sends it
    assert sorted(mail.outbox[0].to) == ["participant@example.org", "table_judge@example.org"]


# ---------------------------------------------------------------------------------------------- the badge on game lists


def _badges(client, url) -> int:
    return client.get(url).content.decode().count('data-testid="under-protest"')


def test_game_lists_show_the_under_protest_badge(cast, client):
    lists = [reverse("games:tournament_detail", args=[cast.tournament.pk]), reverse("games:tournament_list")]
    assert [_badges(client, url) for url in lists] == [0, 0]
    protest = file_p1(cast)
    assert [_badges(client, url) for url in lists] == [1, 1]
    from django.template.loader import render_to_string

    assert render_to_string("games/_latest_games.html").count('data-testid="under-protest"') == 1
    _reject(cast, protest, "head_judge")
    assert [_badges(client, url) for url in lists] == [0, 0]


def test_the_tournament_page_queries_do_not_grow_with_its_games_under_protest(cast, client):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    url = reverse("games:tournament_detail", args=[cast.tournament.pk])
    file_p1(cast)

    def queries() -> int:
        with CaptureQueriesContext(connection) as captured:
            assert client.get(url).status_code == 200
        return len(captured)

    queries()  # the first page also reads the club's time zone into the cache (club.middleware_tz)
    before = queries()
    for number in range(5, 25):
        extra = Game.objects.create(club=cast.club, tournament=cast.tournament, ruleset=cast.game.ruleset,
                                    number=number, date=cast.game.date, status=Game.Status.FINISHED, result="red",
                                    judge=cast.table_judge)
        Protest.objects.create(game=extra, category=Protest.Category.RESULT, text="…", filed_at=timezone.now())
    assert _badges(client, url) == 21
    assert queries() == before
