"""Standings and tie-breakers (ratings/standings/ranking.py): docs/rules.md Ex 14, the lot, `decided_by`. No database."""

from __future__ import annotations

import random
from dataclasses import replace
from decimal import Decimal

import pytest
from django.utils import translation

from games.rules.ruleset import CML, XCRAFT
from games.rules.scoring import (
    JUDGE_EXTRA,
    MAIN,
    REMOVAL_PENALTY,
    GameScore,
    ScoreItem,
    score_tournament,
    seat_score,
)
from games.tests.rules_builders import ex1, ex2, ex3, ex16
from ratings.standings.ranking import METRICS, PlayerRecord, aggregate, draw_lots, rank

D = Decimal


def played(player, ruleset, role="К", *, won=False, judge=None, dq=0, first_night_death=False) -> GameScore:
    """One game of one player, scored through scoring.seat_score so the columns and the tie-break bucket are the
    engine's own."""
    items = []
    if won:
        items.append(ScoreItem(MAIN, ruleset.win_points, "002 III.1.2"))
    if judge:
        items.append(ScoreItem(JUDGE_EXTRA, D(judge), "002 III.4", source="judge"))
    items += [ScoreItem(REMOVAL_PENALTY, ruleset.removal_penalty, "002 III.1.5")] * dq
    score = seat_score(seat=1, player=player, role=role, items=items, won=won,
                       first_night_death=first_night_death, ruleset=ruleset)
    return GameScore(seats=[score], result=None)


def standings(games, ruleset, lots=None, difficult=None):
    records = aggregate(games, difficult if difficult is not None else ruleset.difficult_roles)
    return rank(records, ruleset.tiebreakers, lots or {})


def order(rows):
    return [(row.rank, row.player, row.decided_by) for row in rows]


# ------------------------------------------------------------------------------------------------ Ex 14
def test_ex14_xcraft_dq_counts_as_an_extra_so_a_is_ahead_000_T6_2():
    games = [played("A", XCRAFT, won=True) for _ in range(3)] + [played("A", XCRAFT, won=True, judge="0.7")]
    games += [played("B", XCRAFT, won=True) for _ in range(4)] + [played("B", XCRAFT, won=True, judge="0.2", dq=1)]
    rows = standings(games, XCRAFT)
    assert [r.record.total for r in rows] == [D("4.7"), D("4.7")]
    assert [r.record.tiebreak_extras for r in rows] == [D("0.7"), D("-0.3")]
    assert order(rows) == [(1, "A", None), (2, "B", "extras")]


def ex14_cml_games(ruleset):
    games = [played("A", ruleset, won=True) for _ in range(3)] + [played("A", ruleset, won=True, judge="0.2")]
    games += [played("B", ruleset, won=True) for _ in range(3)] + [played("B", ruleset, won=True, judge="0.2")]
    games += [played("B", ruleset, won=True, dq=2)]
    return games


def test_ex14_cml_literal_iii_14_dq_is_main_so_b_wins_on_wins_A16():
    rows = standings(ex14_cml_games(CML), CML)
    assert [r.record.total for r in rows] == [D("4.2"), D("4.2")]
    assert [r.record.tiebreak_extras for r in rows] == [D("0.2"), D("0.2")]
    assert order(rows) == [(1, "B", None), (2, "A", "wins")]


def test_ex14_cml_with_penalties_as_extras_a_is_ahead_A16():
    ruleset = replace(CML, penalties_are_extras=True)
    rows = standings(ex14_cml_games(ruleset), ruleset)
    assert [r.record.tiebreak_extras for r in rows] == [D("0.2"), D("-0.8")]
    assert order(rows) == [(1, "A", None), (2, "B", "extras")]


def ex14_step3_games():
    # C wins as Д, Ш, К; D wins as Ш, Ч, Ч. Both: 0.6 extras in a lost game as К (not difficult either way).
    games = [played("C", CML, role, won=True) for role in ("Д", "Ш", "К")] + [played("C", CML, "К", judge="0.6")]
    games += [played("D", CML, role, won=True) for role in ("Ш", "Ч", "Ч")] + [played("D", CML, "К", judge="0.6")]
    return games


@pytest.mark.parametrize(("difficult", "expected"), [
    (("Д", "Ш"), [(1, "C", None), (2, "D", "wins_difficult")]),
    (("Ч", "Д"), [(1, "D", None), (2, "C", "wins_difficult")]),
], ids=["002_III.14.3-difficult_DSh-C_ahead", "002_III.14.3-difficult_ChD-D_ahead"])
def test_ex14_step3_difficult_card_is_a_parameter_A17(difficult, expected):
    rows = standings(ex14_step3_games(), CML, difficult=difficult)
    assert [(r.record.total, r.record.tiebreak_extras, r.record.wins) for r in rows] == [(D("3.6"), D("0.6"), 3)] * 2
    assert order(rows) == expected


def test_extras_on_a_difficult_card_decide_after_difficult_wins_002_III_14_4():
    games = [played("E", CML, "Ш", won=True, judge="0.4"), played("E", CML, "К", judge="0.2")]
    games += [played("F", CML, "Ш", won=True, judge="0.2"), played("F", CML, "К", judge="0.4")]
    assert order(standings(games, CML)) == [(1, "E", None), (2, "F", "extras_difficult")]
    # xcraft has no such step: the next key is the first-night deaths, then the lot.
    assert order(standings(games, XCRAFT, lots={"F": 1, "E": 2})) == [(1, "F", None), (2, "E", "lot")]


def test_first_night_deaths_decide_before_the_lot():
    games = [played("G", CML, won=True), played("G", CML, first_night_death=True)]
    games += [played("H", CML, won=True), played("H", CML)]
    rows = standings(games, CML, lots={"H": 1, "G": 2})
    assert order(rows) == [(1, "G", None), (2, "H", "first_night_deaths")]


# ------------------------------------------------------------------------------------------------ the lot
def test_the_stored_lot_separates_players_equal_on_everything():
    games = [played(name, XCRAFT, won=True) for name in ("X", "Y", "Z")]
    rows = standings(games, XCRAFT, lots={"X": 3, "Y": 1, "Z": 2})
    assert order(rows) == [(1, "Y", None), (2, "Z", "lot"), (3, "X", "lot")]


def test_players_without_a_lot_go_last_and_share_their_place_listed_by_name():
    """No lot tells them apart: equal on every criterion, they share the place (a season draws no lot)."""
    games = [played(name, XCRAFT, won=True) for name in ("Zoe", "Ann", "Max")]
    rows = standings(games, XCRAFT, lots={"Max": 7})
    assert order(rows) == [(1, "Max", None), (2, "Ann", "lot"), (2, "Zoe", None)]


def test_totals_decide_before_any_tie_breaker():
    games = [played("low", XCRAFT, won=True), played("high", XCRAFT, won=True, judge="0.3"), played("mid", XCRAFT)]
    games += [played("mid", XCRAFT, won=True, judge="0.1")]
    rows = standings(games, XCRAFT, lots={"high": 3, "mid": 2, "low": 1})
    assert order(rows) == [(1, "high", None), (2, "mid", None), (3, "low", None)]
    assert [r.record.total for r in rows] == [D("1.3"), D("1.1"), D("1")]


def test_without_a_lot_rows_equal_on_every_key_share_the_rank():
    games = [played(name, XCRAFT, won=True) for name in ("P", "Q")] + [played("R", XCRAFT)]
    rows = rank(aggregate(games, XCRAFT.difficult_roles), ["extras", "wins"], {})
    assert order(rows) == [(1, "P", None), (1, "Q", None), (3, "R", None)]


def test_draw_lots_is_a_permutation_and_reproducible_with_a_seed():
    players = ["a", "b", "c", "d", "e"]
    lots = draw_lots(players, random.Random(7))
    assert sorted(lots.values()) == [1, 2, 3, 4, 5]
    assert set(lots) == set(players)
    assert draw_lots(reversed(players), random.Random(7)) == lots
    assert any(draw_lots(players, random.Random(seed)) != lots for seed in range(8, 20))


def test_unknown_tie_breaker_is_refused():
    with pytest.raises(KeyError, match="unknown tie-breaker 'luck'"):
        rank({"a": PlayerRecord("a")}, ["luck"], {})


def test_registry_covers_every_preset_tie_breaker_with_a_label():
    for ruleset in (XCRAFT, CML):
        for name in ruleset.tiebreakers:
            label = METRICS[name].label  # a msgid of the catalogue, translated (not an English leftover)
            with translation.override("en"):
                english = str(label)
            with translation.override("ru"):
                assert english and str(label) != english


# ------------------------------------------------------------------------------------------------ aggregate
def test_aggregate_over_scored_protocols():
    # The same ten players (p1..p10, layout L1) play Ex 1, Ex 2, Ex 3 and Ex 16 under CML.
    scores = score_tournament([ex1(), ex2(), ex3(), ex16()], CML)
    records = aggregate(scores, CML.difficult_roles)
    p3 = records["p3"]  # red in every game; Night-1 victim in Ex 1, Ex 2 and Ex 16
    assert (p3.games, p3.wins, p3.first_night_deaths) == (4, 2, 3)
    assert (p3.main, p3.extras) == (2, D("1.6"))  # BM 0.3; BM 0.5 + Ci 0.4; Ci 0.4 (3 of 4 red cards → cap)
    p4 = records["p4"]  # the sheriff: wins in Ex 1 and Ex 3 are difficult wins
    assert (p4.wins, p4.wins_difficult, p4.extras_difficult) == (2, 2, D("0.6"))
    p10 = records["p10"]  # DQ in Ex 16: in extras, not in the cml tie-break bucket
    assert (p10.extras, p10.tiebreak_extras) == (D("-0.5"), 0)
    for record in records.values():
        assert record.total == record.main + record.extras
