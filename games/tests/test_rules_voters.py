"""Who voted for whom (docs/rules.md I47–I50): the reader, the derived counts, every check with the field and the rule
it names, and the round trip of mafclub/1. Pure: no Django."""

from __future__ import annotations

import copy
import dataclasses

import pytest

from games.rules.interchange import FORMAT, parse_document, protocol_to_dict
from games.rules.ruleset import CML, XCRAFT
from games.rules.validate import validate

# roles of docs/rules.md layout L1: red = {1,3,4,5,7,9,10}, black = {2 Ч, 6 Д, 8 Ч}
ROLES = "К Ч К Ш К Д К Ч К К".split()


def _seats() -> list[dict]:
    return [{"seat": s, "player": f"p{s}", "role": ROLES[s - 1], "fouls": 0} for s in range(1, 11)]


def voted_game() -> dict:
    """Red wins on D3; every vote recorded by voters only (no counts): D1 8 leaves 7:3 (seats 2 and 8 raise no hand
    and count for the last nominee, 2); D2 a tie 4:4, the re-vote puts 2 out 5:3; D3 6 leaves 5:1."""
    return {
        "number": 1, "seats": _seats(), "result": "red",
        "days": [
            {"nominations": [{"by": 1, "nominee": 8}, {"by": 3, "nominee": 2}], "out": [8],
             "voters": {"1": 8, "3": 8, "4": 8, "5": 8, "7": 8, "9": 8, "10": 8, "6": 2}},
            {"nominations": [{"by": 1, "nominee": 2}, {"by": 6, "nominee": 4}], "out": [2],
             "voters": {"1": 2, "5": 2, "7": 2, "9": 2, "2": 4, "6": 4, "10": 4},
             "revote_voters": [{"1": 2, "5": 2, "7": 2, "9": 2, "10": 2, "2": 4, "6": 4}]},
            {"nominations": [{"by": 1, "nominee": 6}, {"by": 6, "nominee": 1}], "out": [6],
             "voters": {"1": 6, "5": 6, "7": 6, "9": 6, "10": 6, "6": 1}},
        ],
        "nights": [{"kill": 3}, {"kill": 4}],
    }


def lift_game() -> dict:
    """D1 9 leaves 7:3 (by counts), N1 3 killed; D2 a tie 4:4 twice (4 raises no hand: for 4, the last) and the lift
    of 2 and 4 passes 5 of 8."""
    main = {"1": 2, "5": 2, "7": 2, "10": 2, "2": 4, "6": 4, "8": 4}
    return {
        "number": 2, "seats": _seats(),
        "days": [
            {"nominations": [{"by": 1, "nominee": 8}, {"by": 3, "nominee": 9}], "out": [9],
             "votes": [{"seat": 8, "votes": 3}, {"seat": 9, "votes": 7}]},
            {"nominations": [{"by": 1, "nominee": 2}, {"by": 6, "nominee": 4}], "out": [2, 4],
             "voters": dict(main), "revote_voters": [dict(main)],
             "lift_voters": {"1": True, "4": True, "5": True, "7": True, "10": True, "2": False}},
        ],
        "nights": [{"kill": 3}],
    }


def read(game: dict):
    parsed = parse_document({"format": FORMAT, "tournament": {"name": "T", "ruleset": "xcraft"},
                             "games": [copy.deepcopy(game)]})
    return parsed


def problems_of(game: dict, ruleset=XCRAFT, *, finished: bool = True) -> list:
    parsed = read(game)
    assert parsed.problems == [], [str(p) for p in parsed.problems]
    return [p for p in validate(parsed.games[0], ruleset, finished=finished) if p.is_error]


def test_the_counts_are_derived_from_the_voters():
    parsed = read(voted_game())
    protocol = parsed.games[0]
    assert [p for p in validate(protocol, XCRAFT) if p.is_error] == []
    d1, d2, d3 = protocol.days
    assert [(t.seat, t.votes) for t in d1.votes] == [(8, 7), (2, 3)]  # 2 and 8 raised no hand: for 2, the last
    assert [(t.seat, t.votes) for t in d2.votes] == [(2, 4), (4, 4)]  # 4 raised no hand: for 4
    assert [[(t.seat, t.votes) for t in r] for r in d2.revotes] == [[(2, 5), (4, 3)]]
    assert [(t.seat, t.votes) for t in d3.votes] == [(6, 5), (1, 1)]


def test_counts_given_beside_the_voters_must_agree():
    game = voted_game()
    game["days"][0]["votes"] = [{"seat": 8, "votes": 7}, {"seat": 2, "votes": 3}]
    assert problems_of(game) == []
    game["days"][0]["votes"] = [{"seat": 8, "votes": 6}, {"seat": 2, "votes": 4}]
    (problem,) = problems_of(game)
    assert problem.field == "days[0].voters"
    assert "docs/rules.md I50" in problem.message and "000 4.4.12" in problem.message


def test_a_game_with_counts_only_stays_valid():
    game = voted_game()
    for day, counts in zip(game["days"], ([(8, 7), (2, 3)], [(2, 4), (4, 4)], [(6, 5), (1, 1)]), strict=True):
        day.pop("voters")
        day["votes"] = [{"seat": s, "votes": v} for s, v in counts]
    game["days"][1].pop("revote_voters")
    game["days"][1]["revotes"] = [[{"seat": 2, "votes": 5}, {"seat": 4, "votes": 3}]]
    assert problems_of(game) == []


def test_only_a_player_at_the_table_votes():
    game = voted_game()
    game["days"][1]["voters"]["8"] = 2  # seat 8 left on D1
    game["days"][1]["voters"].pop("1")
    fields = {(p.field, "docs/rules.md I48" in p.message) for p in problems_of(game)}
    assert ("days[1].voters.8", True) in fields


def test_a_voter_votes_for_one_of_the_rounds_candidates():
    game = voted_game()
    game["days"][0]["voters"]["1"] = 5
    assert any(p.field == "days[0].voters.1" and p.message.startswith("000 4.4.11") for p in problems_of(game))
    assert any(p.field == "days[0].voters.1" and p.message.startswith("002 I.6.14")  # the rule set's own book
               for p in problems_of(game, CML))


def test_one_map_of_voters_per_revote():
    game = voted_game()
    game["days"][1]["revotes"] = [[{"seat": 2, "votes": 5}, {"seat": 4, "votes": 3}]]
    game["days"][1]["revote_voters"] = [{}, {}]
    fields = [p.field for p in problems_of(game) if "docs/rules.md I47" in p.message]
    assert "days[1].revote_voters" in fields


def test_voters_need_the_rounds_candidates():
    game = voted_game()
    game["days"][0].pop("nominations")
    messages = {p.field: p.message for p in problems_of(game)}
    assert messages["days[0].voters"].startswith("docs/rules.md I47")


def test_the_lift_vote_by_its_voters():
    parsed = read(lift_game())
    protocol = parsed.games[0]
    assert [p for p in validate(protocol, XCRAFT, finished=False) if p.is_error] == []
    assert protocol.days[1].lift == 5


def test_the_lift_count_must_agree_with_its_voters():
    game = lift_game()
    game["days"][1]["lift"] = {"for": 6}
    fields = {p.field: p.message for p in problems_of(game, finished=False)}
    assert fields["days[1].lift_voters"].startswith("docs/rules.md I50 (000 4.4.14)")


def test_lift_voters_where_no_lift_vote_is_held():
    game = voted_game()
    game["days"][0]["lift_voters"] = {"1": True}
    fields = {p.field: p.message for p in problems_of(game)}
    assert fields["days[0].lift"].startswith("000 4.4.14: a unique maximum decides; no lift vote")


def test_a_lift_answer_is_yes_or_no_and_a_voter_a_seat():
    game = lift_game()
    game["days"][1]["lift_voters"]["1"] = "yes"
    game["days"][1]["voters"]["11"] = 2
    fields = {p.problem.field: p.problem.message for p in read(game).problems}
    assert "docs/rules.md I49" in fields["days[1].lift_voters.1"]
    assert "a voter is a seat number 1..10" in fields["days[1].voters.11"]


def test_where_the_rule_set_says_so_a_player_without_a_hand_abstains():
    abstaining = dataclasses.replace(XCRAFT, non_voters_to_last=False)
    game = voted_game()
    game["days"][0]["votes"] = [{"seat": 8, "votes": 7}, {"seat": 2, "votes": 1}]  # 2 and 8 abstained
    for day in game["days"][1]["voters"], game["days"][1]["revote_voters"][0]:
        day["4"] = 4  # his own hand now, not the last candidate's
    assert problems_of(game, abstaining) == []
    # the books: their hands count for 2
    assert any(p.field == "days[0].voters" and "docs/rules.md I50" in p.message for p in problems_of(game))


def test_the_voters_survive_the_round_trip():
    for game in (voted_game(), lift_game()):
        first = read(game).games[0]
        written = protocol_to_dict(first)
        assert written["days"][1]["voters"] == game["days"][1]["voters"]
        assert written["days"][1]["revote_voters"] == game["days"][1]["revote_voters"]
        again = read(written).games[0]
        assert again == first
        assert protocol_to_dict(again) == written


@pytest.mark.parametrize("key", ["voters", "revote_voters", "lift_voters"])
def test_a_damaged_voter_map_is_reported_by_name(key):
    game = lift_game()
    game["days"][1][key] = 7
    assert any(p.problem.field == f"days[1].{key}" for p in read(game).problems)
