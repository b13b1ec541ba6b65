"""The screens' read model: the judge's screen state and the spectator's view.

The judge sees everything; the spectator view is built from `protocol_view(show_secrets=...)` and never carries a
role, a check or anything derived from roles before the game is finished.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from django.utils.translation import gettext as _

from games.live.state import (
    LiveVote,
    SpeechOrder,
    best_move_right_text,
    foul_consequence,
    speech_lost_days,
    speech_order,
    vote_state,
)
from games.models import Game, GameAction
from games.protocol.selectors import protocol_of, with_protocol
from games.rules.facts import best_move_right
from games.rules.flow import Departure, alive_now, awaiting_approval, departures, game_end
from games.rules.protocol import BLACK_ROLES, ROLE_COUNTS, SHERIFF, Protocol
from games.rules.ruleset import RuleSet
from games.rules.validate import validate


@dataclass
class JudgeSeat:
    number: int
    nickname: str
    player_id: int | None
    role: str
    fouls: int
    left: Departure | None
    alive: bool
    consequence: str


@dataclass
class JudgeScreen:
    game: Game
    ruleset: RuleSet
    seats: list[JudgeSeat]
    role_counts: dict[str, tuple[int, int]]  # role -> (entered, quota)
    phase_kind: str  # "", "D", "N"
    phase_index: int
    speech: SpeechOrder | None
    vote: LiveVote | None
    day: object | None
    night: object | None
    night_answers: dict[str, str]
    proposed: object | None
    best_move_right: tuple[bool, str]
    problems: list
    protocol: Protocol
    actions: list[GameAction]
    can_undo: bool
    read_only: bool
    awaiting_approval: list = field(default_factory=list)  # judge extras the head judge must approve (000 T6.1.3)


def _judge_seats(game: Game, ruleset: RuleSet, protocol: Protocol, marks: dict) -> list[JudgeSeat]:
    """The ten seats as the judge sees them: player, role, fouls and what the fouls cost, out or at the table."""
    left = departures(protocol)
    alive = alive_now(protocol)
    rows = {s.number: s for s in game.seats.all()}
    seats = []
    for number in range(1, 11):
        row = rows.get(number)
        seats.append(JudgeSeat(
            number=number, nickname=row.player.nickname if row else "", player_id=row.player_id if row else None,
            role=row.role if row else "", fouls=row.fouls if row else 0, left=left.get(number),
            alive=number in alive,
            consequence=foul_consequence(ruleset, number, row.fouls, marks.get(number)) if row else ""))
    return seats


def _day_panel(game: Game, protocol: Protocol, ruleset: RuleSet, index: int, playing: bool, marks: dict):
    """The day panel's part of the read model: the day, its speech order (what was spoken and granted counts only
    while the game is played) and its vote; (None, None, None) when the day is not in the protocol."""
    if index > len(protocol.days):
        return None, None, None
    day = protocol.days[index - 1]
    stored = next((d for d in game.days.all() if d.index == index), None)
    speech = speech_order(protocol, index, ruleset, spoken=stored.spoken if stored and playing else [],
                          granted=stored.granted if stored and playing else [], lost=marks)
    return day, speech, vote_state(protocol, ruleset, index)


def _night_panel(protocol: Protocol, index: int):
    """The night panel's part of the read model: the night and the answers the judge shows to the Don's and the
    Sheriff's checks; (None, {}) when the night is not in the protocol."""
    answers: dict[str, str] = {}
    if index > len(protocol.nights):
        return None, answers
    night = protocol.nights[index - 1]
    roles = {s.seat: s.role for s in protocol.seats}
    if night.don_check:
        answers["don"] = _("Sheriff") if roles.get(night.don_check) == SHERIFF else _("not the Sheriff")
    if night.sheriff_check:
        answers["sheriff"] = _("black (thumb down)") if roles.get(night.sheriff_check) in BLACK_ROLES \
            else _("red (thumb up)")
    return night, answers


def judge_screen(game_id: int, game: Game | None = None) -> JudgeScreen:
    """`game`: the game with its protocol and scores prefetched when the caller has read it already (a tap's
    `ActionResult.after`); else it is read here."""
    if game is None:
        game = with_protocol(Game.objects.filter(pk=game_id), scores=True).select_related("club", "signed_by").get()
    ruleset = game.ruleset.ruleset()
    protocol = protocol_of(game)
    if game.result:
        protocol.result = game.result
    playing = game.status == Game.Status.IN_PROGRESS  # the speeches matter only while the game is played
    marks = speech_lost_days(game) if playing else {}
    seats = _judge_seats(game, ruleset, protocol, marks)
    counts = Counter(s.role for s in seats if s.role)
    kind, index = (game.phase[0], int(game.phase[1:])) if game.phase else ("", 0)
    day = speech = vote = night = None
    answers: dict[str, str] = {}
    if kind == "D":
        day, speech, vote = _day_panel(game, protocol, ruleset, index, playing, marks)
    if kind == "N":
        night, answers = _night_panel(protocol, index)
    problems = validate(protocol, ruleset, finished=game.is_finished)
    actions = list(GameAction.objects.filter(game=game).select_related("by").order_by("-seq")[:30])
    return JudgeScreen(
        game=game, ruleset=ruleset, seats=seats,
        role_counts={r: (counts.get(r, 0), q) for r, q in ROLE_COUNTS.items()},
        phase_kind=kind, phase_index=index, speech=speech, vote=vote, day=day, night=night, night_answers=answers,
        proposed=game_end(protocol, ruleset) if playing else None,
        best_move_right=best_move_right_text(best_move_right(protocol, ruleset)), problems=problems, protocol=protocol,
        actions=actions, can_undo=any(not a.undone and a.kind != "undo" for a in actions),
        read_only=game.status in (Game.Status.SIGNED, Game.Status.ANNULLED),
        awaiting_approval=awaiting_approval(protocol, ruleset),
    )


@dataclass
class SpectatorDay:
    index: int
    nominations: list
    votes: list | None
    revotes: list
    lift: int | None
    out: list[int]
    spoken: list[int]


def spectator_days(game: Game, protocol: Protocol) -> list[SpectatorDay]:
    """Public facts of each day: nominations, votes, who spoke (no roles here)."""
    spoken = {d.index: d.spoken for d in game.days.all()}
    return [SpectatorDay(i, d.nominations or [], d.votes, d.revotes, d.lift, d.out, spoken.get(i, []))
            for i, d in enumerate(protocol.days, start=1)]
