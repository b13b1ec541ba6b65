"""Protests: filing within the window, the head judge's decision and what it changes.

000 T6.3, 002 III.15–III.16 and the appeals appendix, 003 l.127; docs/rules.md D12, A26, A27 and the invariants
I41–I45. Services are keyword-only, run in one transaction and raise a `ServiceError` (a
`ProtestError`) with a user-facing message, or `PermissionDenied`; the database is unchanged when they raise.

Audit: every write goes through `games.audit.log_action`; the protest row (django-simple-history) keeps who filed and who decided, with the decision's `outcomes`
holding the before/after of every change it made; the game's own history records the result and status changes
with the decider as `history_user`. After an upheld decision the game is rescored with every game of its scope
whose Ci moves with it (`score_games(game=…)`: what a recomputation of the whole scope would store; docs/rules.md
A27, D4).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Any

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from club.permissions import player_of
from club.services import ServiceError
from club.task_queue import enqueue
from games import signals
from games.audit import log_action
from games.i18n import problem_text
from games.models import Adjustment, Game, Night, Protest, ScoreItem, Seat
from games.permissions import (
    is_table_judge,
    review_refusal,
    sk_agreement_needed,
)
from games.protests.mail import mail_protest_decision, mail_protest_filed
from games.protests.times import format_club_time
from games.protocol.selectors import next_adjustment_order, next_game_number, protocol_of, with_protocol
from games.protocol.services.scoring import lock_scoring_scope, score_games, seated
from games.rules.protocol import BLACK, DRAW, RED, ROLES, team_of
from games.rules.ruleset import RuleSet
from games.rules.scoring import clause
from games.rules.validate import validate
from games.visibility import hidden_from


class ProtestError(ServiceError):
    """A protest or a decision refused by the rules, with a message for the user."""


# Outcome kinds of an upheld protest (002 App. l.472–562, III.16; 003 l.127).
REVERSE_RESULT = "reverse_result"
REPLAY = "replay"
ADD_PENALTY = "add_penalty"
REMOVE_PENALTY = "remove_penalty"
CORRECT_PROTOCOL = "correct_protocol"
TEAM_VOTE = "team_vote"
OUTCOME_KINDS = (REVERSE_RESULT, REPLAY, ADD_PENALTY, REMOVE_PENALTY, CORRECT_PROTOCOL, TEAM_VOTE)
# Records added by the service next to the outcomes (not choosable).
SK_AGREEMENT = "sk_agreement"
LAPSED = "lapsed"

REJECT, UPHOLD = "reject", "uphold"
# 002 III.16, II.3.7, App. l.544–556 (docs/rules.md I43): these need the СК duty representative's agreement.
NEEDS_SK = frozenset({REVERSE_RESULT, REPLAY, ADD_PENALTY, REMOVE_PENALTY})
# The stored fields a protocol correction may change (002 App. l.493–512: a correctable technical error).
CORRECTABLE_FIELDS = ("seat_role", "seat_fouls", "night_kill", "night_don_check", "night_sheriff_check")


# ---------------------------------------------------------------------------------------------- the window


def protest_deadline(game: Game) -> dt.datetime | None:
    """The last moment a protest is admissible: the recorded end ("Стоп игра") + the rule set's window, inclusive
    (docs/rules.md D12, A26; 000 T6.3.1, 002 III.15.1)."""
    if game.ended_at is None:
        return None
    return game.ended_at + dt.timedelta(minutes=game.ruleset.ruleset().protest_window_minutes)


def _check_window(game: Game, at: dt.datetime) -> None:
    deadline = protest_deadline(game)
    if deadline is None:
        raise ProtestError(_("The end of this game is not recorded yet; a protest can be filed after «Stop game»."))
    if at > deadline:  # docs/rules.md I41: INADMISSIBLE_LATE
        raise ProtestError(
            _("Too late: protests against this game were accepted until %(deadline)s, %(minutes)d minutes after "
              "the recorded end of the game (000 T6.3.1, 002 III.15.1).")
            % {"deadline": format_club_time(deadline),
               "minutes": game.ruleset.ruleset().protest_window_minutes})
    # A paper protest carries the minute it was written: the minute of the end itself is after the end.
    if game.ended_at is not None and at < game.ended_at.replace(second=0, microsecond=0):
        raise ProtestError(_("A protest is filed after the game has ended: the time written is before its end."))


def _check_written_time(game: Game, written_at: dt.datetime) -> None:
    """A paper protest's written time lies within the window (the recorded end + the rule set's minutes)."""
    deadline = protest_deadline(game)
    if deadline is None or game.ended_at is None:  # an unended game has no window yet (the caller asks only after)
        return
    if written_at > deadline:
        raise ProtestError(
            _("The time written on the protest (%(written)s) is after the window: protests against this game were "
              "accepted until %(deadline)s, %(minutes)d minutes after the recorded end of the game (000 T6.3.1, "
              "002 III.15.1).")
            % {"written": format_club_time(written_at), "deadline": format_club_time(deadline),
               "minutes": game.ruleset.ruleset().protest_window_minutes})
    if written_at < game.ended_at:
        raise ProtestError(_("The time written on the protest (%(written)s) is before the recorded end of the game "
                             "(%(ended)s): a protest is filed after the game (003 l.127).")
                           % {"written": format_club_time(written_at), "ended": format_club_time(game.ended_at)})


def _check_admissible(ruleset: RuleSet, category: str, text: str) -> None:
    if category not in Protest.Category.values:
        raise ProtestError(_("Choose the protest's category."))
    if not text.strip():
        raise ProtestError(_("Write what the protest is about."))
    # 002 III.1.7 (docs/rules.md I42): no appeals on extra points except against a minus.
    if category == Protest.Category.EXTRAS and ruleset.extras_protest_minus_only:
        raise ProtestError(_("Under these rules extra points cannot be appealed, only a minus (002 III.1.7): "
                             "file it as «Disciplinary: remove a penalty»."))


DUPLICATE_SECONDS = 60  # an identical protest sent again this soon is the same protest (a double tap, a resend)


def _check_not_duplicate(game: Game, seat: int, category: str, text: str, at: dt.datetime) -> None:
    """The same text from the same seat within DUPLICATE_SECONDS is refused: it is already filed."""
    since = at - dt.timedelta(seconds=DUPLICATE_SECONDS)
    if Protest.objects.filter(game=game, seat=seat, category=category, text=text.strip(),
                              entered_at__gte=since).exists():
        raise ProtestError(_("This protest is already filed: the same text from seat %(seat)s was received a "
                             "moment ago.") % {"seat": seat})


def _locked_game(game_id: int) -> Game:
    return Game.objects.select_for_update(of=("self",)).select_related("ruleset", "club", "tournament").get(pk=game_id)


# ---------------------------------------------------------------------------------------------- filing


def _check_filable(game: Game, seat: Seat, category: str, text: str, now: dt.datetime) -> None:
    if game.status not in (Game.Status.FINISHED, Game.Status.SIGNED):
        raise ProtestError(_("This game is not finished; there is nothing to protest yet."))
    _check_admissible(game.ruleset.ruleset(), category, text)
    _check_window(game, now)
    _check_not_duplicate(game, seat.number, category, text, now)


def protest_file(*, game: Game, by, text: str, category: str, now: dt.datetime | None = None) -> Protest:
    """A player seated in the game files a protest within the window, judged on server time (docs/rules.md D12)."""
    now = now or timezone.now()
    if not getattr(by, "is_authenticated", False):
        raise PermissionDenied(_("Log in to file a protest."))
    with transaction.atomic():
        game = _locked_game(game.pk)
        player = player_of(by, game.club)
        seat = game.seats.filter(player=player).first() if player is not None else None
        if seat is None:  # 000 T6.3 "игрок", docs/rules.md I42
            raise PermissionDenied(_("Only a player of this game may file a protest."))
        try:
            _check_filable(game, seat, category, text, now)
        except ProtestError:
            if hidden_from(by, game):  # a hidden round (games.visibility): no status, end or window in the refusal
                raise ProtestError(_("A protest against this game is not accepted now.")) from None
            raise
        protest = Protest(game=game, player=player, seat=seat.number, filed_by=by, category=category,
                          text=text.strip(), filed_at=now, entered_at=now)
        log_action(protest, by=by)
        transaction.on_commit(lambda: enqueue(mail_protest_filed, protest.pk))
    return protest


def protest_record_paper(*, game: Game, by, seat: int, text: str, category: str,
                         written_at: dt.datetime) -> Protest:
    """The table judge records a paper protest (000 T6.3.1 "в протоколе") for the player of `seat`, with the time
    written on it, while the game is not yet final (not signed, not annulled)."""
    if not is_table_judge(by, game):
        raise PermissionDenied(_("Only the judge of this table records a paper protest."))
    if timezone.is_naive(written_at):
        written_at = timezone.make_aware(written_at, timezone.get_default_timezone())
    entered_at = timezone.now()  # recorded beside the written time: a back-dated entry shows as such
    with transaction.atomic():
        game = _locked_game(game.pk)
        if game.status in (Game.Status.SIGNED, Game.Status.ANNULLED):
            raise ProtestError(_("The protocol is final; a paper protest can only be recorded before it is signed."))
        entry = game.seats.select_related("player").filter(number=seat).first()
        if entry is None:
            raise ProtestError(_("Seat %(seat)s is not in this game.") % {"seat": seat})
        if written_at > entered_at + dt.timedelta(minutes=1):
            raise ProtestError(_("The time written on the protest (%(written)s) is in the future: it is now "
                                 "%(now)s.") % {"written": format_club_time(written_at),
                                                "now": format_club_time(entered_at)})
        _check_admissible(game.ruleset.ruleset(), category, text)
        if game.ended_at is not None:
            _check_written_time(game, written_at)
        _check_not_duplicate(game, entry.number, category, text, entered_at)
        protest = Protest(game=game, player=entry.player, seat=entry.number, filed_by=by, category=category,
                          text=text.strip(), filed_at=written_at, entered_at=entered_at)
        log_action(protest, by=by, reason="paper protest recorded by the table judge")
        transaction.on_commit(lambda: enqueue(mail_protest_filed, protest.pk))
    return protest


# ---------------------------------------------------------------------------------------------- the decision


@dataclass
class _Context:
    protest: Protest
    game: Game
    by: Any
    ruleset: RuleSet
    records: list[dict[str, Any]]


def protest_decide(*, protest: Protest, by, decision: str, explanation: str,
                   outcomes: list[dict[str, Any]] | None = None, sk_representative: str = "",
                   now: dt.datetime | None = None) -> Protest:
    """Record the final decision (000 T6.3.2–6.3.4; 002 III.15–16) and apply it; then recompute the scope (docs/rules.md A27).

    `outcomes` (uphold only, one or more; a reject may record a failed 003 team vote):
      {"kind": "reverse_result", "result": "red"|"black"|"draw"}
      {"kind": "replay"}                                     the game is annulled, a new draft game replays it
      {"kind": "add_penalty", "seat": 8, "points": "-0.5", "clause": "002 App. l.550", "note": ""}
      {"kind": "remove_penalty", "adjustment": <Adjustment id>} or {"kind": "remove_penalty", "score_item": <id>}
      {"kind": "correct_protocol", "field": one of CORRECTABLE_FIELDS, "seat"|"night": n, "value": …}
      {"kind": "team_vote", "votes": [seats voting for the protest]}   003 l.127 (moscow rules only)
    """
    now = now or timezone.now()
    outcomes = list(outcomes or [])
    explanation = (explanation or "").strip()
    if decision not in (REJECT, UPHOLD):
        raise ProtestError(_("Choose a decision: reject or uphold."))
    with transaction.atomic():
        # The lock order of lock_scoring_scope: the scope the decision rescores, then the protest and its game.
        scope = Game.objects.filter(pk=protest.game_id).values("tournament_id", "club_id").get()
        lock_scoring_scope(**scope)
        protest = Protest.objects.select_for_update().get(pk=protest.pk)
        game = _locked_game(protest.game_id)
        protest.game = game  # the locked row: what the decision's receivers read of the game
        if protest.is_decided:
            raise ProtestError(_("This protest is already decided; the decision is final (000 T6.3.4, "
                                 "002 III.15.4)."))
        refusal = review_refusal(by, game)
        if refusal:
            raise PermissionDenied(refusal)
        if not explanation:  # 000 P7.9: the explanation goes on the back side
            raise ProtestError(_("Every decision needs an explanation."))
        kinds = [o.get("kind") for o in outcomes]
        unknown = [k for k in kinds if k not in OUTCOME_KINDS]
        if unknown:
            raise ProtestError(_("Unknown outcome: %(kind)s.") % {"kind": unknown[0]})
        ctx = _Context(protest=protest, game=game, by=by, ruleset=game.ruleset.ruleset(), records=[])
        seated_before = seated(game) if decision == UPHOLD else frozenset()  # whose Ci counts the decision may move
        if decision == REJECT:
            if any(k != TEAM_VOTE for k in kinds):
                raise ProtestError(_("A rejected protest changes nothing; remove the outcomes or uphold it."))
            for outcome in outcomes:
                _team_vote(ctx, outcome, upheld=False)
        else:
            _apply_upheld(ctx, outcomes, kinds, sk_representative.strip())

        protest.status = Protest.Status.UPHELD if decision == UPHOLD else Protest.Status.REJECTED
        protest.decided_by = by
        protest.decided_at = now
        protest.explanation = explanation
        protest.outcomes = ctx.records
        log_action(protest, by=by, reason=f"decision: {decision}")
        if decision == UPHOLD:
            # docs/rules.md A27: main points, Ci across the scope, standings cache
            # A decision changes no seat's player (CORRECTABLE_FIELDS: roles, fouls, night actions): who sat in
            # the game before it still does.
            score_games(game=game, seated_before=seated_before, locked=True, seated_after=seated_before)
        else:
            _scores_provisional_cleared(game)
        transaction.on_commit(lambda: enqueue(mail_protest_decision, protest.pk))
    return protest


def _scores_provisional_cleared(game: Game) -> None:
    """A rejected protest changes no score, but the standings lose their provisional mark."""
    signals.protest_settled.send(sender=Game, game_ids=[game.pk], tournament_ids=signals.ids([game.tournament_id]),
                                 club_ids=[game.club_id])


def _apply_upheld(ctx: _Context, outcomes: list[dict[str, Any]], kinds: list[str | None], sk: str) -> None:
    if not outcomes:
        raise ProtestError(_("An upheld protest needs at least one outcome."))
    if kinds.count(REVERSE_RESULT) > 1 or kinds.count(REPLAY) + kinds.count(TEAM_VOTE) > 1:
        raise ProtestError(_("Give each outcome once; a game is replayed or annulled once."))
    annulling = REPLAY in kinds or TEAM_VOTE in kinds
    if annulling and REVERSE_RESULT in kinds:
        raise ProtestError(_("An annulled game has no result to reverse."))
    if ctx.game.status == Game.Status.ANNULLED:
        raise ProtestError(_("This game is annulled; nothing of it counts any more."))
    # 002 III.16, II.3.7, App. l.544–556 (docs/rules.md I43): the СК representative agrees to these outcomes.
    if sk_agreement_needed(ctx.game, ctx.ruleset) and NEEDS_SK & set(kinds):
        if not sk:
            raise ProtestError(_("Name the СК duty representative who agreed (002 III.16, App. l.544–556)."))
    if sk:
        ctx.records.append({"kind": SK_AGREEMENT, "representative": sk})
    # Corrections first (they are validated against the protocol as it was decided), annulment last.
    order = {CORRECT_PROTOCOL: 0, REMOVE_PENALTY: 1, ADD_PENALTY: 2, REVERSE_RESULT: 3, REPLAY: 4, TEAM_VOTE: 4}
    corrections = [o for o in outcomes if o["kind"] == CORRECT_PROTOCOL]
    if corrections:
        _correct_protocol(ctx, corrections)
    for outcome in sorted(outcomes, key=lambda o: order[o["kind"]]):
        kind = outcome["kind"]
        if kind == REMOVE_PENALTY:
            _remove_penalty(ctx, outcome)
        elif kind == ADD_PENALTY:
            _add_penalty(ctx, outcome)
        elif kind == REVERSE_RESULT:
            _reverse_result(ctx, outcome)
        elif kind == REPLAY:
            _replay(ctx)
        elif kind == TEAM_VOTE:
            _team_vote(ctx, outcome, upheld=True)


def _save_game(ctx: _Context, reason: str) -> None:
    ctx.game.version += 1
    log_action(ctx.game, by=ctx.by, reason=f"protest #{ctx.protest.pk}: {reason}")


def _seat_number(ctx: _Context, value) -> int:
    try:
        number = int(value)
    except (TypeError, ValueError):
        number = 0
    if not ctx.game.seats.filter(number=number).exists():
        raise ProtestError(_("Seat %(seat)s is not in this game.") % {"seat": value})
    return number


def _protest_adjustment(ctx: _Context, *, seat: int, points: Decimal, clause: str, note: str) -> Adjustment:
    return Adjustment.objects.create(
        game=ctx.game, order=next_adjustment_order(ctx.game), seat=seat, points=points, clause=clause,
        note=f"protest #{ctx.protest.pk}" + (f": {note}" if note else ""), source=Adjustment.Source.PROTEST)


def _adjustment_record(a: Adjustment) -> dict[str, Any]:
    return {"id": a.pk, "seat": a.seat, "points": str(a.points), "clause": a.clause, "note": a.note,
            "source": a.source}


# -- add a penalty post factum (002 App. l.550)
def _add_penalty(ctx: _Context, outcome: dict[str, Any]) -> None:
    seat = _seat_number(ctx, outcome.get("seat"))
    try:
        points = Decimal(str(outcome.get("points", outcome.get("value"))).replace(",", "."))
    except (InvalidOperation, ValueError):
        raise ProtestError(_("The penalty needs a number, e.g. -0.5.")) from None
    if not points.is_finite() or points >= 0 or points < Decimal("-10"):
        raise ProtestError(_("A penalty is a negative number of points, e.g. -0.5."))
    clause = str(outcome.get("clause") or "").strip()
    if not clause:  # docs/rules.md D6: every penalty carries its clause
        raise ProtestError(_("Give the clause of the penalty, e.g. «002 App. l.550»."))
    adjustment = _protest_adjustment(ctx, seat=seat, points=points, clause=clause,
                                     note=str(outcome.get("note") or "").strip())
    ctx.records.append({"kind": ADD_PENALTY, "seat": seat, "points": str(points), "clause": clause,
                        "adjustment": adjustment.pk})


# -- remove a penalty (002 App. l.553): a judge adjustment is deleted, an automatic item is compensated
def _remove_penalty(ctx: _Context, outcome: dict[str, Any]) -> None:
    game = ctx.game
    if outcome.get("adjustment"):
        adjustment = game.adjustments.filter(pk=outcome["adjustment"]).first()
        if adjustment is None or adjustment.points >= 0:
            raise ProtestError(_("That penalty is not in this game's protocol."))
        ctx.records.append({"kind": REMOVE_PENALTY, "removed": _adjustment_record(adjustment)})
        adjustment.delete()
        return
    item = ScoreItem.objects.filter(pk=outcome.get("score_item") or 0, seat__game=game, effective=True,
                                    points__lt=0).select_related("seat").first()
    if item is None:
        raise ProtestError(_("That penalty is not in this game's protocol."))
    if item.kind == "adjustment":
        adjustment = game.adjustments.filter(seat=item.seat.number, clause=item.clause, points=item.points).first()
        if adjustment is not None:
            ctx.records.append({"kind": REMOVE_PENALTY, "removed": _adjustment_record(adjustment)})
            adjustment.delete()
            return
    # Removal/ППК/wrong-colour items are computed from the protocol's facts, which stay as they were perceived:
    # the decision cancels the points with a compensating item instead (App. l.553).
    compensation = _protest_adjustment(
        ctx, seat=item.seat.number, points=-item.points,
        clause=clause(ctx.ruleset, "penalty_removed"),
        note=f"cancels {item.kind} {item.points.normalize()} ({item.clause})")
    ctx.records.append({"kind": REMOVE_PENALTY, "compensated": {
        "seat": item.seat.number, "item": item.kind, "points": str(item.points), "clause": item.clause},
        "adjustment": compensation.pk})


# -- reverse the result (002 III.16, II.3.7, App. l.544) and let the result-dependent judge items lapse (docs/rules.md A27)
def _reverse_result(ctx: _Context, outcome: dict[str, Any]) -> None:
    game = ctx.game
    new = outcome.get("result")
    if new not in (RED, BLACK, DRAW):
        raise ProtestError(_("Choose the new result."))
    if new == game.result:
        raise ProtestError(_("The new result is the same as the recorded one."))
    old = game.result
    game.result = new
    _save_game(ctx, f"result {old or '-'} → {new}")
    ctx.records.append({"kind": REVERSE_RESULT, "from": old, "to": new})
    # The scoring engine counts every judge adjustment whatever the result; the ones the rules tie to a loss are
    # therefore removed here, each recorded in the decision (docs/rules.md A27; 002 III.6 l.345, III.5 l.317).
    adjustments = list(game.adjustments.filter(source=Adjustment.Source.JUDGE))
    roles = {s.number: s.role for s in game.seats.all()} if adjustments else {}
    for adjustment in adjustments:
        team = team_of(roles.get(adjustment.seat) or None)
        # The rule set lists the kinds of item that hold only under some results (RuleSet.conditional_items).
        if any(kind.lapses and not kind.holds(new, team) for kind in ctx.ruleset.conditional_items_for(adjustment.clause)):
            ctx.records.append({"kind": LAPSED, "reason": "docs/rules.md A27", "removed": _adjustment_record(adjustment)})
            adjustment.delete()


# -- order a replay (002 App. l.501–509, III.16): the game is annulled, a new game is linked to it
def _replay(ctx: _Context) -> None:
    game = ctx.game
    _annul(ctx, "replay ordered")
    number = next_game_number(game)
    replay = Game(club=game.club, tournament=game.tournament, evening=game.evening, ruleset=game.ruleset,
                  number=number, table=game.table, stage=game.stage, date=timezone.localdate(),
                  judge=game.judge, judge_name=game.judge_name, status=Game.Status.DRAFT, replay_of=game)
    log_action(replay, by=ctx.by, reason=f"replay ordered by protest #{ctx.protest.pk}")
    # The same players in the same seats; the cards are dealt anew.
    Seat.objects.bulk_create([Seat(game=replay, number=s.number, player_id=s.player_id)
                              for s in game.seats.all()])
    ctx.records.append({"kind": REPLAY, "annulled": game.pk, "replay": replay.pk, "number": number})


def _annul(ctx: _Context, reason: str) -> None:
    ctx.records.append({"kind": "annulled", "status_before": ctx.game.status})
    ctx.game.status = Game.Status.ANNULLED
    _save_game(ctx, reason)


# -- 003 l.127: annulment by the vote of the whole protesting team and at least one opponent
def _team_vote(ctx: _Context, outcome: dict[str, Any], *, upheld: bool) -> None:
    if not ctx.ruleset.team_vote_annulment:
        raise ProtestError(_("The team vote on annulment belongs to the Moscow rules (003 l.127)."))
    roles = {s.number: team_of(s.role or None) for s in ctx.game.seats.all()}
    team = roles.get(ctx.protest.seat) if ctx.protest.seat is not None else None
    if team is None:
        raise ProtestError(_("The protesting player's team is not known (no role in the protocol)."))
    try:
        votes = sorted({int(v) for v in outcome.get("votes") or []})
    except (TypeError, ValueError):
        raise ProtestError(_("The votes are seat numbers.")) from None
    if any(v not in roles for v in votes):
        raise ProtestError(_("The votes are seat numbers of this game."))
    team_seats = sorted(s for s, t in roles.items() if t == team)
    opponents_for = [v for v in votes if roles[v] != team]
    passes = set(team_seats) <= set(votes) and len(opponents_for) >= 1
    ctx.records.append({"kind": TEAM_VOTE, "team": team, "votes": votes, "team_seats": team_seats,
                        "annuls": passes})
    if upheld and not passes:
        raise ProtestError(_("003 l.127: the game is annulled only when every seat of the protesting team "
                             "(%(team)s) and at least one opponent vote for the protest.")
                           % {"team": ", ".join(map(str, team_seats))})
    if not upheld and passes:
        raise ProtestError(_("This vote annuls the game (003 l.127): uphold the protest."))
    if upheld:
        _annul(ctx, "annulled by the team vote (003 l.127)")


# -- correct a protocol error (002 App. l.512): an audited edit that keeps the protocol valid
def _correct_protocol(ctx: _Context, corrections: list[dict[str, Any]]) -> None:
    game = ctx.game
    ruleset = ctx.ruleset

    def errors() -> dict[str, str]:
        """The protocol's errors: "field: message" in English (compared) -> the same in the reader's language."""
        fresh = with_protocol(Game.objects.filter(pk=game.pk)).get()
        return {str(p): f"{p.field}: {problem_text(p)}"
                for p in validate(protocol_of(fresh), ruleset, finished=True) if p.is_error}

    before = errors()
    for outcome in corrections:
        field = outcome.get("field")
        if field not in CORRECTABLE_FIELDS:
            raise ProtestError(_("This field cannot be corrected by a decision: %(field)s.") % {"field": field})
        value = outcome.get("value")
        if field.startswith("seat_"):
            seat = game.seats.filter(number=_seat_number(ctx, outcome.get("seat"))).get()
            attr = field.removeprefix("seat_")
            old = getattr(seat, attr)
            new: str | int | None
            if attr == "role":
                new = str(value or "")
                if new not in ROLES:
                    raise ProtestError(_("A role is one of К, Ч, Ш, Д."))
            else:
                new = _small_int(value, 0, 4)
            setattr(seat, attr, new)
            seat.save(update_fields=[attr])
            where = {"seat": seat.number}
        else:
            night = Night.objects.filter(game=game, index=_small_int(outcome.get("night"), 1, 99)).first()
            if night is None:
                raise ProtestError(_("Night %(night)s is not in this game.") % {"night": outcome.get("night")})
            attr = field.removeprefix("night_")
            old = getattr(night, attr)
            new = None if value in (None, "", "miss") else _small_int(value, 1, 10)
            setattr(night, attr, new)
            night.save(update_fields=[attr])
            where = {"night": night.index}
        ctx.records.append({"kind": CORRECT_PROTOCOL, "field": field, **where, "from": old, "to": new})
    after = errors()
    introduced = [after[key] for key in sorted(after.keys() - before.keys())]
    if introduced:  # the engine's validate(): a correction must leave the protocol valid
        raise ProtestError(_("The correction makes the protocol invalid: %(problems)s")
                           % {"problems": "; ".join(introduced[:5])})
    _save_game(ctx, "protocol corrected")


def _small_int(value, low: int, high: int) -> int:
    try:
        number = int(value)
    except (TypeError, ValueError):
        number = low - 1
    if not low <= number <= high:
        raise ProtestError(_("Expected a number from %(low)d to %(high)d.") % {"low": low, "high": high})
    return number
