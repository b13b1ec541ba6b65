"""Reads for the live screens (issue 4): the judge's screen state and the spectator's view.

The judge sees everything; the spectator view is built from `protocol_view(show_secrets=...)` and never carries a
role, a check or anything derived from roles before the game is finished.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from django.utils.translation import gettext as _

from games.i18n import localize
from games.live import (
    VoteState,
    alive_now,
    awaiting_approval,
    cite,
    foul_consequence,
    game_end,
    vote_state,
)
from games.models import Game, GameAction
from games.rules.facts import (
    SPEECH_LOST,
    SPEECH_SHORT,
    alive_at_day_start,  # noqa: F401  (re-exported: the live screens' older import path)
    best_move_right,
    first_speaker,  # noqa: F401
    speaking_order,
    third_foul_speech,
)
from games.rules.protocol import BLACK_ROLES, ROLE_COUNTS, SHERIFF, Protocol
from games.rules.ruleset import RuleSet
from games.rules.validate import validate
from games.selectors import departures, protocol_of, with_protocol


@dataclass
class SpeechOrder:
    first: int | None
    order: list[int]  # living seats in speaking order
    spoken: list[int]
    current: int | None
    silenced: dict[int, str] = field(default_factory=dict)  # seat -> why today's speech is lost (skipped)
    short: dict[int, str] = field(default_factory=dict)  # seat -> why today's speech is 30 s (000 S7.8)
    granted: list[int] = field(default_factory=list)  # silenced seats the judge gave the word anyway


SPEECH_LOG_KINDS = ("speech", "speech_grant", "foul")


def speech_log(game: Game) -> list[tuple[str, dict]]:
    """The actions the speaking order depends on (one query): speeches, the judge's grants, fouls."""
    return list(GameAction.objects.filter(game=game, kind__in=SPEECH_LOG_KINDS, undone=False)
                .order_by("seq").values_list("kind", "payload"))


def third_foul_marks(log: list[tuple[str, dict]]) -> dict[int, int]:
    """Seat -> the day whose speech its 3rd foul costs (recorded by the foul action; the latest counts)."""
    marks: dict[int, int] = {}
    for kind, payload in log:
        if kind == "foul" and payload.get("silenced_day"):
            marks[int(payload["seat"])] = int(payload["silenced_day"])
    return marks


def speech_order(protocol: Protocol, index: int, log: list[tuple[str, dict]], ruleset: RuleSet) -> SpeechOrder:
    """Day `index`'s speaking order (the rule set's `speech_start`) with the 3rd-foul consequences applied: a lost
    speech is skipped, a short one marked 30 s; the judge may grant the word anyway (`speech_grant`)."""
    living = alive_now(protocol)
    alive = set(living) | set(protocol.days[index - 1].out)
    order = [s for s in speaking_order(protocol, ruleset, index) if s in alive]
    spoken = [int(p["seat"]) for k, p in log if k == "speech" and p.get("day") == index]
    granted = [int(p["seat"]) for k, p in log if k == "speech_grant" and p.get("day") == index]
    if not order:
        return SpeechOrder(None, [], spoken, None)
    fouls = {e.seat: e.fouls for e in protocol.seats}
    silenced, short = {}, {}
    for seat, day in third_foul_marks(log).items():
        if day != index or fouls.get(seat) != 3 or seat not in order or seat in granted:
            continue
        effect, clause = third_foul_speech(ruleset, alive=len(living))
        if effect == SPEECH_LOST:
            silenced[seat] = _("%(clause)s: seat %(seat)d loses today's speech (3rd foul) and keeps the right to "
                               "nominate.") % {"clause": clause, "seat": seat}
        elif effect == SPEECH_SHORT:
            short[seat] = _("%(clause)s: seat %(seat)d has 30 s today (3rd foul, %(alive)d players at the "
                            "table).") % {"clause": clause, "seat": seat, "alive": len(living)}
    current = next((s for s in order if s not in spoken and s not in silenced), None)
    return SpeechOrder(order[0], order, spoken, current, silenced, short, granted)


def day_speech(game: Game, protocol: Protocol, ruleset: RuleSet, index: int) -> SpeechOrder:
    return speech_order(protocol, index, speech_log(game), ruleset)


@dataclass
class JudgeSeat:
    number: int
    nickname: str
    player_id: int | None
    role: str
    fouls: int
    left: str
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
    vote: VoteState | None
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


def judge_screen(game_id: int) -> JudgeScreen:
    game = with_protocol(Game.objects.filter(pk=game_id), scores=True).select_related("club", "signed_by").get()
    ruleset = game.ruleset.ruleset()
    protocol = protocol_of(game)
    if game.result:
        protocol.result = game.result
    left = departures(protocol)
    alive = alive_now(protocol)
    rows = {s.number: s for s in game.seats.all()}
    log = speech_log(game) if game.status == Game.Status.IN_PROGRESS else []
    marks = third_foul_marks(log)
    seats = []
    for number in range(1, 11):
        row = rows.get(number)
        seats.append(JudgeSeat(
            number=number, nickname=row.player.nickname if row else "", player_id=row.player_id if row else None,
            role=row.role if row else "", fouls=row.fouls if row else 0, left=left.get(number, ""),
            alive=number in alive,
            consequence=foul_consequence(ruleset, number, row.fouls, marks.get(number)) if row else ""))
    counts = Counter(s.role for s in seats if s.role)
    kind, index = (game.phase[0], int(game.phase[1:])) if game.phase else ("", 0)
    day = night = None
    speech = vote = None
    answers: dict[str, str] = {}
    roles = {s.seat: s.role for s in protocol.seats}
    if kind == "D" and index <= len(protocol.days):
        day = protocol.days[index - 1]
        speech = speech_order(protocol, index, log, ruleset)
        vote = vote_state(protocol, ruleset, index)
    if kind == "N" and index <= len(protocol.nights):
        night = protocol.nights[index - 1]
        if night.don_check:
            answers["don"] = _("Sheriff") if roles.get(night.don_check) == SHERIFF else _("not the Sheriff")
        if night.sheriff_check:
            answers["sheriff"] = _("black (thumb down)") if roles.get(night.sheriff_check) in BLACK_ROLES \
                else _("red (thumb up)")
    problems = validate(protocol, ruleset, finished=game.is_finished)
    actions = list(GameAction.objects.filter(game=game).select_related("by").order_by("-seq")[:30])
    return JudgeScreen(
        game=game, ruleset=ruleset, seats=seats,
        role_counts={r: (counts.get(r, 0), q) for r, q in ROLE_COUNTS.items()},
        phase_kind=kind, phase_index=index, speech=speech, vote=vote, day=day, night=night, night_answers=answers,
        proposed=game_end(protocol, ruleset) if game.status == Game.Status.IN_PROGRESS else None,
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
    spoken: dict[int, list[int]] = {}
    for payload in GameAction.objects.filter(game=game, kind="speech", undone=False).values_list("payload",
                                                                                                 flat=True):
        spoken.setdefault(payload.get("day"), []).append(payload.get("seat"))
    return [SpectatorDay(i, d.nominations or [], d.votes, d.revotes, d.lift, d.out, spoken.get(i, []))
            for i, d in enumerate(protocol.days, start=1)]


def third_foul_clause(ruleset: RuleSet) -> str:
    return cite(ruleset, "000 D6.4", "002 I.8.4", "003 l.73")


def best_move_right_text(right: tuple[bool, str]) -> tuple[bool, str]:
    """The engine's (English) reason why there is no best move, in the judge's language; the clause is kept."""
    entitled, reason = right
    return entitled, localize(reason)
