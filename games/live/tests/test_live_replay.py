"""Any valid game can be entered through the judge's live clicks, and nothing is lost or altered.

For simulated games (`games.rules.generate`) under the four presets, the generated protocol is translated into
the clicks a table judge makes (seats, roles, start, fouls, nominations, removals, votes / re-votes / lift,
night, checks, kill, best move, colours, result, judge extras, adjustments, sign-off), each applied through
`live_apply`. The stored protocol must then equal the generated one, pass `validate()` and carry the scores
`score_game` gives the generated protocol. A few games also undo every action once and apply it again.

Where the live screen represents a fact differently (not a loss), the expected protocol is transformed, narrowly
and with the reason (see `expected_protocol` and `Replayer`):

* header (number, table, stage, date, judge, ended_at) — not live actions; they come from the game row.
* a removal's `note` — the screen asks the judge for the reason of a disqualification / ППК (required); the
  generator leaves it empty. A 4th-foul removal is recorded by the foul click with an empty note.
* a single nominee from Day 2 on leaves without a vote (000 4.4.12, 003 l.51): the screen records no vote round
  (`votes=None`, `out=[seat]`), the generator writes a one-line tally of all voters. Both are valid.
* a best move naming nobody (`[]`) — the screen needs at least one seat; `[]` scores nothing, like `None`.
* the scores are compared with the tournament pass of the one game (`score_game` with its Ci, 002 III.3): the
  stored scores are the tournament's, and this game is the only one that counts in its tournament.

A removal "after the vote" on a day with no vote round (nobody nominated, one nominee, a cancelled vote) is entered
as the judge does it: every speech of the day is clicked over first, then the removal (`live._after_vote`).
"""

from __future__ import annotations

import copy
import itertools
import os
import random
from collections import defaultdict
from dataclasses import fields

import pytest
from django.utils import translation

from games.live.apply import live_apply
from games.live.state import day_speech
from games.models import Game, GameAction
from games.protocol.selectors import protocol_of, with_protocol
from games.rules.generate import generate_game
from games.rules.protocol import FOULS, Protocol
from games.rules.scoring import ci_values, score_game
from games.rules.validate import validate
from games.tests.live_fixtures import make_cast

pytestmark = pytest.mark.django_db

PRESETS = ("xcraft", "kamchatka", "cml", "moscow")
# LIVE_REPLAY_FIRST_SEED / LIVE_REPLAY_SEEDS widen the sweep by hand (e.g. 0 / 400; ~0.45 s a game).
SEEDS = range(int(os.environ.get("LIVE_REPLAY_FIRST_SEED", 0)), int(os.environ.get("LIVE_REPLAY_SEEDS", 16)))
# Rare events found by a sweep of seeds 0–399 (removals are ~1 % a phase): 4th-foul / disqualification / ППК
# removals before the vote, after it (also on days with no vote round) and at night, and a stalled game's draw.
RARE = {
    "xcraft": (21, 30, 33, 111, 151, 164, 287, 320, 372),
    "kamchatka": (20, 21, 32, 99, 110),
    "cml": (21, 30, 33, 111, 151, 164, 320),
    "moscow": (21, 32, 110, 134, 163, 228),
}
CASES = [(slug, seed) for slug in PRESETS for seed in sorted({*SEEDS, *RARE[slug]})]
UNDO_SEEDS = (3, 11)  # these games undo every action once and apply it again
HEADER = ("number", "table", "stage", "date", "judge", "ended_at")
REMOVAL_NOTE = "002 II.2.4: снят судьёй"


def vote_less(day) -> bool:
    """The screen records no vote round for this day (no nominees, a single one, or a cancelled vote)."""
    return day.votes is None or single_nominee_from_day_2(day)


def single_nominee_from_day_2(day) -> bool:
    return day.votes is not None and len(day.votes) == 1 and not day.revotes


def expected_protocol(generated: Protocol) -> Protocol:
    """The generated protocol as the live screen stores it (the transforms of the module doc)."""
    expected = copy.deepcopy(generated)
    for name in HEADER:
        setattr(expected, name, None)
    for removal in expected.removals:
        if removal.reason != FOULS:
            removal.note = REMOVAL_NOTE
    for day in expected.days:
        if single_nominee_from_day_2(day):
            day.votes = None
    if expected.best_move == []:
        expected.best_move = None
    return expected


def comparable(protocol: Protocol) -> Protocol:
    stored = copy.deepcopy(protocol)
    for name in HEADER:
        setattr(stored, name, None)
    return stored


class Replayer:
    """Applies one generated game as the judge's clicks."""

    def __init__(self, cast, protocol: Protocol, *, undo_each: bool = False) -> None:
        self.cast, self.game, self.protocol = cast, cast.game, protocol
        self.undo_each = undo_each
        self.ids = itertools.count()
        self.log: list[tuple[str, dict]] = []

    def stored(self) -> tuple[Protocol, str, str]:
        """The protocol (without the header: the result's "Стоп игра" time is the click's), status and phase."""
        game = with_protocol(Game.objects.filter(pk=self.game.pk)).get()
        return comparable(protocol_of(game)), game.status, game.phase

    def apply(self, kind: str, *, user=None, **payload) -> None:
        user = user or self.cast.judge
        payload = {k: str(v) if v is not None else "" for k, v in payload.items()}

        def once() -> None:
            version = Game.objects.values_list("version", flat=True).get(pk=self.game.pk)
            try:
                live_apply(game_id=self.game.pk, by=user, kind=kind, payload=dict(payload), version=version,
                           action_id=f"a{next(self.ids)}")
            except Exception as error:
                raise AssertionError(f"{kind} {payload} refused after {self.log[-6:]}: {error}") from error

        once()
        self.log.append((kind, payload))
        if self.undo_each and kind != "sign":
            after = self.stored()
            version = Game.objects.values_list("version", flat=True).get(pk=self.game.pk)
            # The table judge undoes his own entries; reopening a result is the head judge's (live._check_undo_reach).
            undoer = self.cast.head_judge if kind == "result" else self.cast.judge
            live_apply(game_id=self.game.pk, by=undoer, kind="undo", payload={}, version=version,
                       action_id=f"u{next(self.ids)}")
            once()
            assert self.stored() == after, f"undo + redo of {kind} {payload} changed the protocol"

    def finish_speeches(self, index: int) -> None:
        while True:
            game = with_protocol(Game.objects.filter(pk=self.game.pk)).get()
            if day_speech(game, protocol_of(game), game.ruleset.ruleset(), index).current is None:
                return
            self.apply("speech")

    def remove(self, removal) -> None:
        if removal.reason == FOULS:
            self.apply("foul", seat=removal.seat, delta=1)  # the 4th foul removes by itself
        else:
            self.apply("remove", seat=removal.seat, reason=removal.reason, note=REMOVAL_NOTE)

    def run(self) -> None:
        p = self.protocol
        for entry in p.seats:
            # a new player confirmed, as the judge does when a similar nickname is in the club
            self.apply("seat", seat=entry.seat, nickname=entry.player, namesake=1)
        for entry in p.seats:
            self.apply("role", seat=entry.seat, role=entry.role)
        self.apply("start")
        by_fouls = {r.seat for r in p.removals if r.reason == FOULS}
        for entry in p.seats:
            for _ in range(3 if entry.seat in by_fouls else entry.fouls):
                self.apply("foul", seat=entry.seat, delta=1)
        removals = defaultdict(list)
        for removal in p.removals:
            removals[(removal.at, removal.after_vote)].append(removal)
        for index, day in enumerate(p.days, start=1):
            self.play_day(index, day, removals)
            if index > len(p.nights):
                if single_nominee_from_day_2(day):
                    self.apply("night")  # the single nominee leaves; the win condition holds, no night
                break
            self.play_night(index, removals)
        self.finish()

    def play_day(self, index: int, day, removals) -> None:
        if index > 1:
            self.apply("day")
        for position, nomination in enumerate(day.nominations or []):
            self.apply("nominate", by=nomination.by, nominee=nomination.nominee)
            if nomination.withdrawn:
                self.apply("withdraw", index=position)
        for removal in removals[(f"D{index}", False)]:
            self.remove(removal)
        if day.votes is not None and not single_nominee_from_day_2(day):
            self.apply("votes", **{f"v{t.seat}": t.votes for t in day.votes})
            for tallies in day.revotes:
                self.apply("votes", **{f"v{t.seat}": t.votes for t in tallies})
            if day.lift is not None:
                self.apply("lift", hands=day.lift)
        if removals[(f"D{index}", True)] and vote_less(day):
            self.finish_speeches(index)  # no vote round today: "after the vote" is after the last speech
        for removal in removals[(f"D{index}", True)]:
            self.remove(removal)

    def play_night(self, index: int, removals) -> None:
        p = self.protocol
        self.apply("night")
        night = p.nights[index - 1]
        if night.don_check is not None:
            self.apply("don_check", seat=night.don_check)
        if night.sheriff_check is not None:
            self.apply("sheriff_check", seat=night.sheriff_check)
        night_removals = removals[(f"N{index}", False)]
        for removal in night_removals:
            self.remove(removal)
        last = index == len(p.nights) == len(p.days)
        if night.kill is not None or not (last and night_removals):
            self.apply("kill", seat=night.kill)
        if index == 1 and p.best_move:
            self.apply("best_move", seats=" ".join(map(str, p.best_move)))
        for colour in p.colours:
            if colour.by == night.kill:
                self.apply("colour", by=colour.by, target=colour.target)

    def finish(self) -> None:
        p = self.protocol
        self.apply("result", result=p.result)
        for extra in p.judge_extras:
            self.apply("extra", seat=extra.seat, points=extra.points, note=extra.note)
            if extra.approved:
                self.apply("extra_approve", user=self.cast.head_judge, seat=extra.seat)
        for adjustment in p.adjustments:
            self.apply("adjustment", seat=adjustment.seat, points=adjustment.points, clause=adjustment.clause,
                       note=adjustment.note)
        self.apply("sign")


def assert_same(stored: Protocol, expected: Protocol) -> None:
    for f in fields(Protocol):
        assert getattr(stored, f.name) == getattr(expected, f.name), f.name


@pytest.mark.parametrize(("slug", "seed"), CASES)
def test_a_generated_game_entered_click_by_click_is_stored_unchanged(slug, seed):
    with translation.override("en"):
        cast = make_cast(slug)
        ruleset = cast.game.ruleset.ruleset()
        generated = generate_game(random.Random(seed), ruleset, number=1)
        replayer = Replayer(cast, generated, undo_each=seed in UNDO_SEEDS)
        replayer.run()
        game = with_protocol(Game.objects.filter(pk=cast.game.pk), scores=True).get()
        assert game.status == Game.Status.SIGNED
        stored = protocol_of(game)
        assert_same(comparable(stored), expected_protocol(generated))
        assert [p for p in validate(stored, ruleset, finished=True) if p.is_error] == []
        # The stored scores are the tournament pass (with Ci, 002 III.3); this game is the tournament's only one.
        expected = score_game(generated, ruleset, ci=ci_values([generated], ruleset)[0])
        assert {s.number: s.total for s in game.seats.all()} == {s.seat: s.total for s in expected.seats}
        assert {s.number: s.main for s in game.seats.all()} == {s.seat: s.main for s in expected.seats}
        assert not GameAction.objects.filter(game=game, kind="undo").exists() or seed in UNDO_SEEDS


def test_a_removal_after_the_last_speech_of_a_day_without_a_vote_is_after_the_vote():
    """000 S7.2 / 002 I.8.2: nobody was nominated and every speech is over — a disqualification now is "after
    the vote result" (it cancels the next day's vote, not today's); before the last speech it is not."""
    with translation.override("en"):
        cast = make_cast("xcraft")
        replayer = Replayer(cast, generate_game(random.Random(0), cast.game.ruleset.ruleset()))
        for entry in replayer.protocol.seats:
            replayer.apply("seat", seat=entry.seat, nickname=entry.player, namesake=1)
            replayer.apply("role", seat=entry.seat, role=entry.role)
        replayer.apply("start")
        replayer.apply("speech")
        replayer.apply("remove", seat=2, reason="disqualified", note=REMOVAL_NOTE)
        replayer.finish_speeches(1)
        replayer.apply("remove", seat=3, reason="disqualified", note=REMOVAL_NOTE)
        stored = protocol_of(with_protocol(Game.objects.filter(pk=cast.game.pk)).get())
        assert [(r.seat, r.at, r.after_vote) for r in stored.removals] == [(2, "D1", False), (3, "D1", True)]
