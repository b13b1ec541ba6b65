"""Property tests: simulated games are valid under their rule set; one broken rule makes them invalid.

Pure Python (no database). `generate_game` is driven by a seed that hypothesis chooses, so a failure shrinks to
a seed that reproduces the game exactly.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from games.rules.facts import best_move_right
from games.rules.generate import generate_game, generate_games
from games.rules.protocol import CITIZEN, DRAW, MAFIA, RED, Day, Night, Nomination, Protocol, Tally
from games.rules.ruleset import DRAW_NONE, PRESETS, RuleSet
from games.rules.validate import validate

SLUGS = sorted(PRESETS)
seeds = st.integers(min_value=0, max_value=2**32 - 1)
FAST = settings(max_examples=400, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])


def _game(slug: str, seed: int) -> Protocol:
    return generate_game(random.Random(seed), PRESETS[slug])


def _errors(protocol: Protocol, slug: str) -> list[str]:
    return [str(p) for p in validate(protocol, PRESETS[slug]) if p.is_error]


@pytest.mark.parametrize("slug", SLUGS)
@settings(max_examples=300, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=seeds)
def test_generated_games_are_valid(slug, seed):
    """A few hundred random valid games per rule set are accepted with no problem at all."""
    protocol = _game(slug, seed)
    assert validate(protocol, PRESETS[slug]) == []


def _prefix(protocol: Protocol, phases: int, *, open_day: bool) -> Protocol:
    """The game as entered after `phases` phases (D1, N1, D2, …), before the result; `open_day` cuts the last
    day before its vote."""
    protocol.days = protocol.days[: (phases + 1) // 2]
    protocol.nights = protocol.nights[: phases // 2]
    open_code = None
    if open_day and len(protocol.days) > len(protocol.nights):
        last = protocol.days[-1]
        last.votes, last.revotes, last.lift, last.out = None, [], None, []
        open_code = f"D{len(protocol.days)}"
    kept = {f"D{i + 1}" for i in range(len(protocol.days))} | {f"N{i + 1}" for i in range(len(protocol.nights))}
    # a removal "after the vote" of the open day has not happened yet; earlier days keep theirs
    protocol.removals = [r for r in protocol.removals if r.at in kept and not (r.after_vote and r.at == open_code)]
    removed = {r.seat for r in protocol.removals}
    for entry in protocol.seats:
        if entry.fouls == 4 and entry.seat not in removed:
            entry.fouls = 3
    protocol.result, protocol.best_move, protocol.colours, protocol.judge_extras = None, None, [], []
    protocol.adjustments = []
    return protocol


@FAST
@given(slug=st.sampled_from(SLUGS), seed=seeds, cut=st.integers(min_value=0, max_value=12), open_day=st.booleans())
def test_a_game_being_entered_is_valid_so_far(slug, seed, cut, open_day):
    protocol = _game(slug, seed)
    phases = min(cut, len(protocol.days) + len(protocol.nights) - 1)
    protocol = _prefix(protocol, phases, open_day=open_day)
    assert _errors_unfinished(protocol, slug) == []


def _errors_unfinished(protocol: Protocol, slug: str) -> list[str]:
    return [str(p) for p in validate(protocol, PRESETS[slug], finished=False) if p.is_error]


# ---------------------------------------------------------------------------------------------------- mutations
# Each takes a valid game (and its rule set) and breaks exactly one rule; it returns False when the game offers no place to do so.


def change_a_vote_count(p: Protocol, rs: RuleSet, rnd: random.Random) -> bool:  # 000 4.4.12
    rounds = [t for d in p.days for r in ([d.votes] if d.votes else []) + d.revotes for t in r]
    if not rounds:
        return False
    rnd.choice(rounds).votes += rnd.choice((-1, 1, 2))
    return True


def kill_a_seat_that_left(p: Protocol, rs: RuleSet, rnd: random.Random) -> bool:  # 000 4.5.4
    options = [(i, seat) for i in range(len(p.nights)) for d in p.days[: i + 1] for seat in d.out]
    if not options:
        return False
    index, seat = rnd.choice(options)
    p.nights[index].kill = seat
    return True


def give_three_mafia(p: Protocol, rs: RuleSet, rnd: random.Random) -> bool:  # 002 I.1.1
    rnd.choice([s for s in p.seats if s.role == CITIZEN]).role = MAFIA
    return True


def flip_the_result(p: Protocol, rs: RuleSet, rnd: random.Random) -> bool:  # 002 I.1.4
    p.result = {"red": "black", "black": "red", "draw": "red"}[p.result]
    return True


def add_a_fifth_foul(p: Protocol, rs: RuleSet, rnd: random.Random) -> bool:  # 000 D6.5
    rnd.choice(p.seats).fouls = 5
    return True


def duplicate_a_nomination(p: Protocol, rs: RuleSet, rnd: random.Random) -> bool:  # 000 4.4.4
    options = [(d, n) for d in p.days for n in d.nominations or [] if not n.withdrawn]
    if not options:
        return False
    day, nomination = rnd.choice(options)
    day.nominations.append(Nomination(nomination.by, nomination.nominee))
    return True


def best_move_without_right(p: Protocol, rs: RuleSet, rnd: random.Random) -> bool:  # docs/rules.md D3
    if best_move_right(p, rs)[0]:
        return False
    p.best_move = [1, 2, 3]
    return True


def record_a_phase_after_the_end(p: Protocol, rs: RuleSet, rnd: random.Random) -> bool:  # 002 I.1.4
    if len(p.days) > len(p.nights):
        p.nights.append(Night())
    else:
        p.days.append(Day())
    return True


def drop_a_seat(p: Protocol, rs: RuleSet, rnd: random.Random) -> bool:  # 000 4.1.1
    p.seats.pop(rnd.randrange(10))
    return True


def seat_a_player_twice(p: Protocol, rs: RuleSet, rnd: random.Random) -> bool:  # 000 P7.3
    a, b = rnd.sample(range(10), 2)
    p.seats[a].player = p.seats[b].player.upper()
    return True


def keep_a_voted_out_player(p: Protocol, rs: RuleSet, rnd: random.Random) -> bool:  # 000 4.4.15
    options = [d for d in p.days[1:] if d.out and d.votes is not None]
    if not options:
        return False
    rnd.choice(options).out = []
    return True


def vote_on_a_single_nominee_on_day_one(p: Protocol, rs: RuleSet, rnd: random.Random) -> bool:  # 000 4.4.13
    if rs.day1_outcome_warn_only or not p.days:
        return False
    first = p.days[0]
    first.nominations = [Nomination(1, 2)]
    first.votes, first.revotes, first.lift = [Tally(2, 10)], [], None
    return True


MUTATIONS: list[Callable[[Protocol, RuleSet, random.Random], bool]] = [
    change_a_vote_count, kill_a_seat_that_left, give_three_mafia, flip_the_result, add_a_fifth_foul,
    duplicate_a_nomination, best_move_without_right, record_a_phase_after_the_end, drop_a_seat,
    seat_a_player_twice, keep_a_voted_out_player, vote_on_a_single_nominee_on_day_one,
]


@settings(max_examples=800, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
@given(slug=st.sampled_from(SLUGS), seed=seeds, mutation=st.sampled_from(MUTATIONS))
def test_one_broken_rule_is_an_error(slug, seed, mutation):
    protocol = _game(slug, seed)
    applied = mutation(protocol, PRESETS[slug], random.Random(seed))
    assume(applied)
    assert _errors(protocol, slug), f"{mutation.__name__} was accepted"


# ---------------------------------------------------------------------------------------------------- the generator


def test_the_same_seed_gives_the_same_game():
    assert _game("cml", 7) == _game("cml", 7)
    assert _game("cml", 7) != _game("cml", 8)


def _ended_by_the_draw_rule(protocol: Protocol) -> bool:
    """A draw, or (003 l.83) a red win decided on a night without a kill or removal."""
    if protocol.result == DRAW:
        return True
    last_night = len(protocol.nights)
    return (
        protocol.result == RED and last_night == len(protocol.days) and protocol.nights[-1].kill is None
        and not any(r.at == f"N{last_night}" for r in protocol.removals)
    )


def test_generated_games_cover_the_interesting_cases():
    """Across 600 games per rule set, every kind of event the validator knows shows up."""
    for slug, ruleset in PRESETS.items():
        seen = Counter()
        for protocol in generate_games(600, ruleset, seed=3):
            seen["tie"] += any(d.revotes for d in protocol.days)
            seen["lift"] += any(d.lift is not None for d in protocol.days)
            seen["removal"] += bool(protocol.removals)
            seen["ppk"] += any(r.reason == "ppk" for r in protocol.removals)
            seen["best move"] += protocol.best_move is not None
            seen["extras"] += bool(protocol.judge_extras)
            seen[protocol.result] += 1
            seen["draw rule"] += _ended_by_the_draw_rule(protocol)
        expected = {"tie", "lift", "removal", "ppk", "extras", "red", "black"}
        if ruleset.best_move_enabled:
            expected.add("best move")
        if ruleset.draw_rule != DRAW_NONE:
            expected.add("draw rule")
        missing = {key for key in expected if not seen[key]}
        assert not missing, f"{slug}: never generated {missing}"


def test_generate_games_numbers_and_pool():
    pool = [f"Игрок {i}" for i in range(12)]
    games = list(generate_games(5, PRESETS["xcraft"], seed=1, player_pool=pool))
    assert [g.number for g in games] == [1, 2, 3, 4, 5]
    assert all({s.player for s in g.seats} <= set(pool) for g in games)
    assert all(g.ended_at.endswith("+03:00") and g.ended_at.startswith(g.date) for g in games)
