"""The game flow in the pure core (games/rules/votes.py, games/rules/flow.py): one vote resolver for the live entry
and the validator. Table-driven, no database; each row's id starts with the clause that decides it."""

from __future__ import annotations

import pytest

from games.rules import flow
from games.rules.protocol import DISQUALIFIED, Day, Night, Nomination, Removal, Tally
from games.rules.ruleset import CML, KAMCHATKA, MOSCOW, XCRAFT
from games.rules.validate import validate
from games.rules.votes import (
    BAD_LIFT,
    DAY1_SINGLE_NOMINEE,
    DECIDED,
    FIRST_TIE,
    INVALID,
    LIFT,
    MAIN_ROUND,
    NEGATIVE,
    NOBODY_NOMINATED,
    NOT_EACH_ONCE,
    NOT_THE_TIED,
    REVOTE,
    SECOND_TIE,
    SINGLE_NOMINEE_LEAVES,
    UNIQUE_MAXIMUM,
    WRONG_SUM,
    opening_out,
    resolve_vote,
    vote_opening,
)
from games.tests.rules_builders import game

RULESETS = {"xcraft": XCRAFT, "cml": CML, "kamchatka": KAMCHATKA, "moscow": MOSCOW}


def rounds_of(*rounds: dict[int, int]) -> list[list[Tally]]:
    return [[Tally(seat=s, votes=v) for s, v in r.items()] for r in rounds]


# ------------------------------------------------------------------------------------------------ the opening

OPENINGS = [
    # id, nominees, day, opening, who leaves by the nominations alone
    ("000 4.4.13 nobody nominated: no vote", [], 2, NOBODY_NOMINATED, []),
    ("000 4.4.13 Day 1 single nominee: no vote", [4], 1, DAY1_SINGLE_NOMINEE, []),
    ("003 l.22 Day 1 single nominee: the city goes to night", [7], 1, DAY1_SINGLE_NOMINEE, []),
    ("000 4.4.12 Day 2 single nominee leaves without a vote", [4], 2, SINGLE_NOMINEE_LEAVES, [4]),
    ("003 l.51 Day 3 single nominee leaves without a vote", [9], 3, SINGLE_NOMINEE_LEAVES, [9]),
    ("000 4.4.5 two nominees: the main round", [3, 5], 1, MAIN_ROUND, []),
]


@pytest.mark.parametrize(("nominees", "day", "opening", "out"), [row[1:] for row in OPENINGS],
                         ids=[row[0] for row in OPENINGS])
def test_the_nominations_decide_whether_there_is_a_vote(nominees, day, opening, out):
    assert vote_opening(nominees, day) == opening
    assert opening_out(opening, nominees) == out


# ------------------------------------------------------------------------------------------------ the rounds

ROUNDS = [
    # id, rule set, rounds, lift hands, alive, day, step, out, tied, decided by, the ban's clause
    ("000 4.4.15 a unique maximum decides the main round", "xcraft",
     rounds_of({3: 6, 5: 4}), None, 10, 1, DECIDED, (3,), (), UNIQUE_MAXIMUM, None),
    ("000 4.4.14 a tie goes to a re-vote among the tied", "xcraft",
     rounds_of({3: 5, 5: 5}), None, 10, 2, REVOTE, None, (3, 5), FIRST_TIE, None),
    ("000 4.4.14 the re-vote's unique maximum decides", "xcraft",
     rounds_of({3: 4, 5: 4, 7: 1}, {3: 6, 5: 3}), None, 9, 2, DECIDED, (3,), (), UNIQUE_MAXIMUM, None),
    ("000 4.4.14 a narrower tie in the re-vote is re-voted again", "xcraft",
     rounds_of({3: 3, 5: 3, 7: 3}, {3: 4, 5: 4, 7: 1}), None, 9, 2, REVOTE, None, (3, 5), FIRST_TIE, None),
    ("000 4.4.14 the same tie again goes to the lift vote", "xcraft",
     rounds_of({3: 5, 5: 5}, {3: 5, 5: 5}), None, 10, 2, LIFT, None, (3, 5), SECOND_TIE, None),
    ("000 4.4.14 the lift passes with more than half of the table", "xcraft",
     rounds_of({3: 5, 5: 5}, {3: 5, 5: 5}), 6, 10, 2, DECIDED, (3, 5), (3, 5), SECOND_TIE, None),
    ("000 4.4.14 half of the table is not enough to lift", "xcraft",
     rounds_of({3: 5, 5: 5}, {3: 5, 5: 5}), 5, 10, 2, DECIDED, (), (3, 5), SECOND_TIE, None),
    ("002 I.6.18.4 the lift passes with more than half of the table", "cml",
     rounds_of({2: 4, 8: 4, 9: 2}, {2: 5, 8: 5}), 6, 10, 2, DECIDED, (2, 8), (2, 8), SECOND_TIE, None),
    ("000 S7.6 no lift of 2 at 4 players: night falls", "xcraft",
     rounds_of({1: 2, 2: 2}, {1: 2, 2: 2}), None, 4, 4, DECIDED, (), (1, 2), SECOND_TIE, "000 S7.6"),
    ("000 S7.10 no lift of 3 at 3 players (every player; S7.5 says the same)", "xcraft",
     rounds_of({1: 1, 2: 1, 3: 1}, {1: 1, 2: 1, 3: 1}), None, 3, 5, DECIDED, (), (1, 2, 3), SECOND_TIE,
     "000 S7.10"),
    ("000 S7.10 no lift of every player at the table", "xcraft",
     rounds_of({1: 1, 2: 1, 3: 1, 4: 1}, {1: 1, 2: 1, 3: 1, 4: 1}), None, 4, 4, DECIDED, (), (1, 2, 3, 4),
     SECOND_TIE, "000 S7.10"),
    ("000 S7.6 a lift of 2 at 6 players is held", "xcraft",
     rounds_of({1: 3, 2: 3, 3: 0}, {1: 3, 2: 3}), None, 6, 3, LIFT, None, (1, 2), SECOND_TIE, None),
    ("002 I.8.7 no lift of 3 at 9 players", "cml",
     rounds_of({1: 3, 2: 3, 3: 3}, {1: 3, 2: 3, 3: 3}), None, 9, 2, DECIDED, (), (1, 2, 3), SECOND_TIE,
     "002 I.8.7"),
    ("002 I.6.18.1 a Day-1 split of 5 may already mean night", "cml",
     rounds_of({1: 2, 2: 2, 3: 2, 4: 2, 5: 2}), None, 10, 1, REVOTE, None, (1, 2, 3, 4, 5), FIRST_TIE,
     "002 I.6.18.1"),
    ("002 I.6.18.1 the Day-1 split of 5 on Day 2 is an ordinary tie", "cml",
     rounds_of({1: 2, 2: 2, 3: 2, 4: 2, 6: 1}), None, 9, 2, REVOTE, None, (1, 2, 3, 4), FIRST_TIE, None),
    ("000 4.4.14 the 000 rule set has no first-tie ban", "xcraft",
     rounds_of({1: 2, 2: 2, 3: 2, 4: 2, 5: 2}), None, 10, 1, REVOTE, None, (1, 2, 3, 4, 5), FIRST_TIE, None),
    ("003 l.62 the lift vote of the Moscow rules", "moscow",
     rounds_of({4: 5, 6: 5}, {4: 5, 6: 5}), 7, 10, 3, DECIDED, (4, 6), (4, 6), SECOND_TIE, None),
    ("001 r.34 the lift vote of the Kamchatka rules", "kamchatka",
     rounds_of({4: 5, 6: 5}, {4: 5, 6: 5}), None, 10, 3, LIFT, None, (4, 6), SECOND_TIE, None),
]


@pytest.mark.parametrize(("slug", "rounds", "lift", "alive", "day", "step", "out", "tied", "by", "ban"),
                         [row[1:] for row in ROUNDS], ids=[row[0] for row in ROUNDS])
def test_the_vote_resolver(slug, rounds, lift, alive, day, step, out, tied, by, ban):
    for strict in (True, False):  # the validator's reading and the live entry's agree on valid rounds
        resolution = resolve_vote(rounds, lift, alive=alive, day=day, lift_bans=RULESETS[slug].lift_bans,
                                  strict=strict)
        assert (resolution.step, resolution.out, resolution.tied, resolution.by) == (step, out, tied, by)
        assert (None if resolution.ban is None else str(resolution.ban.clause)) == ban


FAULTS = [
    # id, rounds, lift, alive, fault, at round
    ("000 4.4.12 votes cannot be negative", rounds_of({3: 11, 5: -1}), None, 10, NEGATIVE, 0),
    ("000 4.4.12 the votes sum to the living players", rounds_of({3: 6, 5: 3}), None, 10, WRONG_SUM, 0),
    ("000 4.4.12 each candidate is counted once", [[Tally(3, 5), Tally(3, 5)]], None, 10, NOT_EACH_ONCE, 0),
    ("000 4.4.12 a re-vote summing wrong", rounds_of({3: 5, 5: 5}, {3: 5, 5: 4}), None, 10, WRONG_SUM, 1),
    ("000 4.4.12 a round without candidates", [[]], None, 0, NOT_EACH_ONCE, 0),
    ("000 4.4.14 the re-vote is among exactly the tied", rounds_of({3: 5, 5: 5}, {3: 5, 7: 5}), None, 10,
     NOT_THE_TIED, 1),
    ("000 4.4.14 the lift counts 0..alive hands", rounds_of({3: 5, 5: 5}, {3: 5, 5: 5}), 11, 10, BAD_LIFT, 1),
]


@pytest.mark.parametrize(("rounds", "lift", "alive", "fault", "at"), [row[1:] for row in FAULTS],
                         ids=[row[0] for row in FAULTS])
def test_the_strict_resolver_names_the_broken_rule(rounds, lift, alive, fault, at):
    resolution = resolve_vote(rounds, lift, alive=alive, day=2, lift_bans=XCRAFT.lift_bans)
    assert (resolution.step, resolution.fault, resolution.round) == (INVALID, fault, at)


# ------------------------------------------------------------------------------------------------ live = validator


def day_protocol(slug: str, nominees: list[int], rounds: list[dict[int, int]], *, lift: int | None = None,
                 out: list[int] = (), days_before: int = 0):
    """A game whose Day `days_before + 1` has these nominations and rounds (earlier days: no vote; Night 1 kills
    seat 10, later nights miss)."""
    protocol = game(None)
    protocol.days = [Day(nominations=[], out=[]) for _ in range(days_before)]
    protocol.nights = [Night(kill=10 if n == 0 else None) for n in range(days_before)]
    tallies = rounds_of(*rounds)
    protocol.days.append(Day(nominations=[Nomination(by=n, nominee=n) for n in nominees],
                             votes=tallies[0] if tallies else None, revotes=tallies[1:], lift=lift, out=list(out)))
    return protocol


AGREEMENT = [
    # id, rule set, nominees, rounds, lift, the day's index, what the live screen asks next, who leaves, a wrong `out`
    ("000 4.4.15 the main round's maximum leaves", "xcraft", [3, 5], [{3: 6, 5: 4}], None, 1, "done", [3], [5]),
    ("000 4.4.14 after a tie the live screen asks for the re-vote", "xcraft", [3, 5], [{3: 5, 5: 5}], None, 1,
     "revote", None, None),
    ("000 4.4.14 after the same tie the live screen asks for the lift vote", "xcraft", [3, 5],
     [{3: 5, 5: 5}, {3: 5, 5: 5}], None, 1, "lift", None, None),
    ("000 4.4.14 the lift vote's outcome is final", "xcraft", [3, 5], [{3: 5, 5: 5}, {3: 5, 5: 5}], 6, 1, "done",
     [3, 5], [3]),
    ("002 I.8.7 no lift of 3 at 9 players: the day is over", "cml", [1, 2, 3], [{1: 3, 2: 3, 3: 3}] * 2, None, 2,
     "done", [], [1]),
    ("000 4.4.13 a single nominee on Day 1 is not voted on", "xcraft", [4], [], None, 1, "none", [], [4]),
    ("000 4.4.12 a single nominee from Day 2 on leaves", "xcraft", [4], [], None, 2, "none", [4], [5]),
]


@pytest.mark.parametrize(("slug", "nominees", "rounds", "lift", "day", "step", "out", "wrong"),
                         [row[1:] for row in AGREEMENT], ids=[row[0] for row in AGREEMENT])
def test_the_live_screen_and_the_validator_read_the_vote_alike(slug, nominees, rounds, lift, day, step, out, wrong):
    ruleset = RULESETS[slug]
    protocol = day_protocol(slug, nominees, rounds, lift=lift, days_before=day - 1)
    state = flow.vote_state(protocol, ruleset, day)
    assert state.step == step
    vote_field = f"days[{day - 1}]"
    if out is None:
        return  # the day is open: neither asks for an `out` yet
    if step == "none":
        assert state.candidates == out  # the screen puts the single nominee out at nightfall
    agreed = day_protocol(slug, nominees, rounds, lift=lift, out=out, days_before=day - 1)
    assert not [p for p in validate(agreed, ruleset, finished=False) if p.is_error and p.field.startswith(vote_field)]
    wrong = day_protocol(slug, nominees, rounds, lift=lift, out=wrong, days_before=day - 1)
    assert [p for p in validate(wrong, ruleset, finished=False) if p.field.startswith(vote_field)]


def test_a_cancelled_vote_is_not_held_and_says_why():
    """000 S7.1: a disqualification before the vote result cancels that day's vote."""
    protocol = day_protocol("xcraft", [3, 5], [])
    protocol.removals = [Removal(seat=8, reason=DISQUALIFIED, at="D1")]
    state = flow.vote_state(protocol, XCRAFT, 1)
    assert (state.step, state.reason) == ("none", flow.VOTE_CANCELLED)
    assert "000 S7.1" in str(state.clause)


def test_alive_now_leaves_out_the_removed_the_killed_and_the_voted_out():
    protocol = game(None, outs=[[3]], kills=[5], removals=[(8, DISQUALIFIED, "D2")])
    protocol.days.append(Day(out=[]))
    assert flow.alive_now(protocol) == set(range(1, 11)) - {3, 5, 8}


def test_only_judge_extras_at_the_threshold_await_the_head_judge():
    """000 T6.1.3: 0.6 and 0.7 need the head judge's approval; an approved one no longer waits."""
    protocol = game("red", judge={2: "0.5", 4: "0.6", 6: "0.7"}, approved=(6,))
    assert [e.seat for e in flow.awaiting_approval(protocol, XCRAFT)] == [4]
    assert CML.judge_approval_from is None and flow.awaiting_approval(protocol, CML) == []  # 002: no approval step
