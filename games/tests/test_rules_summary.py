"""Summary protocols (docs/rules.md I46): a game known by its results only — read, checked (each failing message names
the field and the rule), scored from what it holds, and written back unchanged. Pure: no Django."""

from __future__ import annotations

import copy
from decimal import Decimal

from games.rules.interchange import FORMAT, parse_document, protocol_to_dict
from games.rules.ruleset import CML, XCRAFT
from games.rules.scoring import ci_counts, score_game
from games.rules.validate import validate

ROLES = "К Ч К Ш К Д К Ч К К".split()  # red = {1,3,4,5,7,9,10}, black = {2,6,8}


def summary_game(**extra) -> dict:
    seats = [{"seat": s, "player": f"p{s}", "role": ROLES[s - 1], "fouls": 0} for s in range(1, 11)]
    seats[2]["first_night_killed"] = True  # seat 3, red
    seats[2]["out"] = {"how": "killed", "round": 1}
    seats[7]["out"] = {"how": "voted", "round": 1}
    seats[4]["fouls"] = 4
    seats[4]["out"] = {"how": "removed"}
    game = {"number": 1, "summary": True, "seats": seats, "result": "red", "best_move": [2, 6, 9],
            "removals": [{"seat": 5, "reason": "fouls"}],
            "judge_extras": [{"seat": 7, "points": 0.4, "note": "good"}]}
    game.update(extra)
    return game


def read(game: dict):
    return parse_document({"format": FORMAT, "tournament": {"name": "T", "ruleset": "xcraft"},
                           "games": [copy.deepcopy(game)]})


def errors(game: dict, ruleset=XCRAFT) -> dict[str, str]:
    parsed = read(game)
    assert parsed.problems == [], [str(p) for p in parsed.problems]
    return {p.field: p.message for p in validate(parsed.games[0], ruleset) if p.is_error}


def test_a_summary_game_is_valid_and_scored_from_what_it_holds():
    parsed = read(summary_game())
    protocol = parsed.games[0]
    assert protocol.summary and protocol.days == [] and protocol.nights == []
    assert [p for p in validate(protocol, XCRAFT) if p.is_error] == []
    score = score_game(protocol, XCRAFT)
    totals = {s.seat: s.total for s in score.seats}
    # red win 1; seat 3, the red first-night victim, names two blacks: 0.25 (000 BM-4); seat 5 removed: -0.5;
    # seat 7's judge extra 0.4
    assert totals == {1: 1, 2: 0, 3: Decimal("1.25"), 4: 1, 5: Decimal("0.5"), 6: 0, 7: Decimal("1.4"), 8: 0,
                      9: 1, 10: 1}
    assert [s.seat for s in score.seats if s.first_night_death] == [3]


def test_without_a_first_night_mark_no_best_move_no_ci_no_first_night_death():
    game = summary_game(best_move=None)
    game["seats"][2].pop("first_night_killed")
    game["seats"][2].pop("out")
    protocol = read(game).games[0]
    assert not protocol.first_night_known()
    assert [p for p in validate(protocol, CML) if p.is_error] == []
    assert ci_counts(protocol) == {}  # skipped, not counted as a red card never killed
    assert not any(s.first_night_death for s in score_game(protocol, CML).seats)
    game["best_move"] = [2, 6, 9]
    assert errors(game)["best_move"].startswith("000 8.3 / 002 I.7.8")


def test_the_first_night_mark_tells_the_ci_counts():
    protocol = read(summary_game(result="black")).games[0]
    assert ci_counts(protocol)["p3"] == (1, 1) and ci_counts(protocol)["p1"] == (0, 1)


def test_a_summary_has_no_days_and_no_nights():
    parsed = read(summary_game(days=[{"out": []}]))
    assert [(p.problem.field, p.problem.message[:19]) for p in parsed.problems] == [("days", "docs/rules.md I46: ")]


def test_one_first_night_death_at_most():
    game = summary_game()
    game["seats"][0]["first_night_killed"] = True
    assert errors(game)["seats[3].first_night_killed"].startswith("docs/rules.md I46: one player at most")


def test_the_first_night_death_leaves_killed_in_round_1():
    game = summary_game()
    game["seats"][2]["out"] = {"how": "voted", "round": 2}
    assert errors(game)["seats[3].out"].startswith("docs/rules.md I46: the first-night death")


def test_one_kill_a_night():
    game = summary_game()
    game["seats"][0]["out"] = {"how": "killed", "round": 1}
    assert errors(game)["seats[3].out"].startswith("000 4.5.4: one player at most is killed a night")


def test_a_seat_out_by_removal_needs_its_removal():
    game = summary_game(removals=[])
    found = errors(game)
    assert found["seats[5].out"].startswith("docs/rules.md I46: a seat out by removal")
    assert found["seats[5].fouls"].startswith("000 D6.5")  # the 4th foul removes: record it


def test_not_every_seat_leaves():
    game = summary_game()
    for seat in game["seats"]:
        seat.setdefault("out", {"how": "voted"})
    assert errors(game)["seats"].startswith("docs/rules.md I46: not every seat leaves")


def test_a_summary_needs_its_result_roles_and_fouls_within_the_limit():
    game = summary_game(result=None)
    game["seats"][0]["role"] = "Ч"
    found = errors(game)
    assert found["result"].startswith("000 P7.7")
    assert found["seats"].startswith("002 I.1.1") or "× К" in found["seats"]


def test_a_removal_phase_when_given_is_a_phase():
    game = summary_game(removals=[{"seat": 5, "reason": "fouls", "at": "later"}])
    assert errors(game)["removals[0]"].startswith("docs/rules.md I4")


def test_the_extras_stay_within_the_rule_sets_bounds():
    game = summary_game(judge_extras=[{"seat": 7, "points": 0.9, "note": "x"}])
    assert any("000 T6.1" in message for message in errors(game).values())


def test_only_a_summary_carries_the_seat_marks():
    game = summary_game()
    game.pop("summary")
    fields = {p.problem.field: p.problem.message for p in read(game).problems}
    assert fields["seats[3].first_night_killed"].startswith("docs/rules.md I46: only a summary protocol")


def test_a_bad_departure_is_reported_by_name():
    game = summary_game()
    game["seats"][0]["out"] = {"how": "shot", "round": 0}
    fields = {p.problem.field for p in read(game).problems}
    assert fields == {"seats[1].out.how"}
    game["seats"][0]["out"] = {"how": "voted", "round": 0}
    assert {p.problem.field for p in read(game).problems} == {"seats[1].out.round"}


def test_a_summary_survives_the_round_trip():
    first = read(summary_game()).games[0]
    written = protocol_to_dict(first)
    assert written["summary"] is True and written["days"] == [] and written["nights"] == []
    assert written["seats"][2]["first_night_killed"] is True
    assert written["seats"][2]["out"] == {"how": "killed", "round": 1}
    assert written["seats"][4]["out"] == {"how": "removed"}
    again = read(written).games[0]
    assert again == first
    assert protocol_to_dict(again) == written
