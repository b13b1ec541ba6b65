"""Scoring identities over simulated games (games/rules/generate.py), every preset rule set."""

from __future__ import annotations

import random
from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.rules.generate import generate_game, generate_games
from games.rules.limits import check_scoring
from games.rules.protocol import BLACK, DRAW, RED, team_of
from games.rules.ruleset import PRESETS
from games.rules.scoring import BEST_MOVE, CI, JUDGE_EXTRA, MAIN, ci_values, score_game, score_tournament

ZERO = Decimal(0)
SLUGS = sorted(PRESETS)
seeds = st.integers(min_value=0, max_value=2**32 - 1)


@pytest.mark.parametrize("slug", SLUGS)
@settings(max_examples=150, deadline=None)
@given(seed=seeds)
def test_main_points_go_to_every_seat_of_the_winning_team_and_columns_add_up(slug, seed):
    ruleset = PRESETS[slug]
    protocol = generate_game(random.Random(seed), ruleset)
    score = score_game(protocol, ruleset)
    winners = [s for s in protocol.seats if team_of(s.role) == protocol.result]
    main_total = sum((s.main for s in score.seats), ZERO)
    if protocol.result == DRAW:
        assert main_total == 0 and not any(s.won for s in score.seats)  # 000 8.2, 002 III.1.4
    else:
        assert protocol.result in (RED, BLACK)
        assert main_total == len(winners) * ruleset.win_points  # docs/rules.md D7, A6
        assert {s.seat for s in score.seats if s.won} == {s.seat for s in winners}
    for seat in score.seats:
        effective = [i for i in seat.items if i.effective]
        assert seat.main == sum((i.points for i in effective if i.kind == MAIN), ZERO)
        assert seat.extras == sum((i.points for i in effective if i.kind != MAIN), ZERO)
        assert seat.total == seat.main + seat.extras  # docs/rules.md I40
        assert all(item.clause for item in seat.items)


@pytest.mark.parametrize("slug", SLUGS)
@settings(max_examples=150, deadline=None)
@given(seed=seeds)
def test_generated_games_pass_the_scoring_checks(slug, seed):
    ruleset = PRESETS[slug]
    protocol = generate_game(random.Random(seed), ruleset)
    assert [p for p in check_scoring(protocol, ruleset) if p.is_error] == []


@settings(max_examples=150, deadline=None)
@given(seed=seeds)
def test_cml_best_move_and_judge_extra_never_both_count(seed):
    ruleset = PRESETS["cml"]
    protocol = generate_game(random.Random(seed), ruleset)
    for seat in score_game(protocol, ruleset).seats:
        counted = [i.kind for i in seat.items if i.effective and i.kind in (BEST_MOVE, JUDGE_EXTRA)]
        if BEST_MOVE in [i.kind for i in seat.items]:
            assert len(counted) <= 1  # 002 III.11


@settings(max_examples=30, deadline=None)
@given(seed=seeds)
def test_ci_is_credited_only_to_red_night_one_victims_of_lost_games(seed):
    ruleset = PRESETS["cml"]
    pool = [f"P{i}" for i in range(14)]  # a small pool: players meet again, so K/R vary
    games = list(generate_games(12, ruleset, seed=seed, player_pool=pool))
    for game, credit in zip(games, ci_values(games, ruleset), strict=True):
        for seat, value in credit.items():
            assert game.result == BLACK
            assert seat == game.nights[0].kill and game.team_of_seat(seat) == RED
            assert ZERO < value <= ruleset.ci_cap
    for game, score in zip(games, score_tournament(games, ruleset), strict=True):
        for seat in score.seats:
            if seat.items_of(CI):
                assert (game.result, seat.first_night_death, seat.won) == (BLACK, True, False)
