"""Writes: importing protocols, storing a protocol, scoring, rule-set copies, creating tournaments, club evenings
and games.

Every service is keyword-only, runs in one transaction and raises a `ServiceError` (or a subclass) with a
user-facing message; the database is unchanged when it raises.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from decimal import Decimal

from django.core.exceptions import PermissionDenied
from django.db import DataError, IntegrityError, connection, transaction
from django.utils import timezone
from django.utils.dateparse import parse_date, parse_datetime
from django.utils.translation import gettext as _

from club.models import NICKNAME_MAX_LENGTH, Club, Player, clean_nickname, nickname_key
from club.permissions import is_club_admin
from club.selectors import known_name
from club.services import ServiceError
from games import signals
from games.i18n import problem_line, problem_text
from games.models import (
    Adjustment,
    ClubEvening,
    Day,
    Game,
    JudgeExtra,
    Night,
    Protest,
    RecordedColour,
    Removal,
    RuleSetVersion,
    ScoreItem,
    Seat,
    Tournament,
)
from games.permissions import can_start_game
from games.rules.i18n import N_
from games.rules.interchange import NUL_MESSAGE, GameProblem, GameRecord, parse_document
from games.rules.problems import Problem, error_t
from games.rules.protocol import Protocol
from games.rules.ruleset import RuleSet
from games.rules.scoring import score_tournament
from games.rules.validate import validate
from games.selectors import next_adjustment_order, next_game_number, protocol_of, ruleset_by_slug, with_protocol

DEFAULT_CLUB_NAME = "Клуб"


class ImportFailed(ServiceError):
    """`problems`: the English "FILE: game N: field: message" lines (the command's output); `shown`: the same lines
    in the language of the request, for the import page."""

    def __init__(self, problems: list[str], shown: list[str] | None = None):
        super().__init__(f"{len(problems)} problem(s); nothing was imported")
        self.problems = problems
        self.shown = shown if shown is not None else list(problems)


@dataclass
class ImportReport:
    club: Club
    tournaments: list[Tournament] = field(default_factory=list)
    created: int = 0
    updated: int = 0
    players_created: int = 0
    warnings: list[str] = field(default_factory=list)
    warnings_shown: list[str] = field(default_factory=list)  # the same in the request's language


# ---------------------------------------------------------------------------------------------------- import


def _load(label: str, raw: bytes | str) -> tuple[object | None, list[str]]:
    try:
        return json.loads(raw), []
    except RecursionError:  # "[[[[…" nested deeper than the decoder's stack
        return None, [f"{label}: document: broken JSON: nested too deeply"]
    except ValueError as exc:  # JSONDecodeError, UnicodeDecodeError, an integer of more than 4300 digits
        return None, [f"{label}: document: broken JSON: {exc}"]


def _safe_date(value: str) -> dt.date | None:
    """The ISO date, or None when it is not one; 2026-02-30 is well formed but no date (parse_date raises)."""
    try:
        return parse_date(value)
    except ValueError:
        return None


def _safe_datetime(value: str) -> dt.datetime | None:
    try:
        return parse_datetime(value)
    except ValueError:
        return None


def _too_long(path: str, value: str, model, field_name: str) -> list[Problem]:
    """The model's max_length, checked here: SQLite would store a longer text and PostgreSQL refuse it."""
    limit = model._meta.get_field(field_name).max_length
    if value and len(value) > limit:
        return [error_t(path, N_("must be at most %(max)s characters long, got %(got)s"), max=limit, got=len(value))]
    return []


def _header_problems(p: Protocol) -> list[Problem]:
    problems = []
    if not p.date or _safe_date(p.date) is None:
        problems.append(error_t("date", N_("must be an ISO date like 2026-11-28, got %(got)s (000 P7.2.2)"),
                                got=repr(p.date)))
    if p.ended_at and _safe_datetime(p.ended_at) is None:
        problems.append(error_t("ended_at", N_("must be an ISO date-time, got %(got)s"), got=repr(p.ended_at)))
    for s in p.seats:
        if len(clean_nickname(s.player)) > NICKNAME_MAX_LENGTH:
            problems.append(error_t(f"seats[{s.seat}].player", N_("a nickname has at most %(max)s characters"),
                                    max=NICKNAME_MAX_LENGTH))
    problems += _too_long("stage", p.stage, Game, "stage")
    problems += _too_long("judge", p.judge, Game, "judge_name")
    for i, r in enumerate(p.removals):
        problems += _too_long(f"removals[{i}].at", r.at, Removal, "at")
        problems += _too_long(f"removals[{i}].note", r.note, Removal, "note")
    for i, e in enumerate(p.judge_extras):
        problems += _too_long(f"judge_extras[{i}].note", e.note, JudgeExtra, "note")
    for i, a in enumerate(p.adjustments):
        problems += _too_long(f"adjustments[{i}].clause", a.clause, Adjustment, "clause")
        problems += _too_long(f"adjustments[{i}].note", a.note, Adjustment, "note")
    return problems


def resolve_club(club_name: str | None) -> Club:
    """`--club NAME` (created when missing), else the site's only club, else a new «Клуб»."""
    if club_name:
        club, _created = Club.objects.get_or_create(name=club_name.strip())
        return club
    clubs = list(Club.objects.order_by("id")[:2])
    if len(clubs) == 1:
        return clubs[0]
    if not clubs:
        return Club.objects.create(name=DEFAULT_CLUB_NAME)
    raise ServiceError("there are several clubs on this site; name one with --club")


def import_documents(*, documents: Sequence[tuple[str, bytes | str]], club_name: str | None = None,
                     club: Club | None = None, by=None) -> ImportReport:
    """Import `mafclub/1` documents all-or-nothing.

    Every structural and rule problem of every file is collected first; if there is any error, `ImportFailed`
    carries them all as "FILE: game N: field: message" and nothing is written.
    """
    problems: list[str] = []
    warnings: list[str] = []
    shown: list[str] = []  # `problems` in the request's language
    warnings_shown: list[str] = []
    parsed = []

    def report(label: str, game: str, problem: Problem) -> None:
        """One problem, in English for the command line and in the request's language for the page."""
        (problems if problem.is_error else warnings).append(f"{label}: {GameProblem(game, problem)}")
        (shown if problem.is_error else warnings_shown).append(problem_line(label, game, problem))

    for label, raw in documents:
        data, load_problems = _load(label, raw)
        if load_problems:
            problems += load_problems
            shown += load_problems
            continue
        doc = parse_document(data)
        for p in doc.problems:
            if p.problem.is_error:
                report(label, p.game, p.problem)
        if not any(p.problem.template == NUL_MESSAGE for p in doc.problems):
            parsed.append((label, doc))  # a text holding NUL is never sent to the database, not even in a query

    if club is not None and by is not None and not is_club_admin(by, club):
        raise PermissionDenied(_("Only a club admin may import protocols."))
    if club is None and club_name:
        for p in _too_long("club", club_name.strip(), Club, "name"):
            problems.append(f"--club: {p}")
            shown.append(f"--club: {problem_text(p)}")
        if problems:
            raise ImportFailed(problems, shown)

    try:
        return _import_parsed(parsed, club=club, club_name=club_name, problems=problems, shown=shown,
                              warnings=warnings, warnings_shown=warnings_shown, report_problem=report)
    except (DataError, IntegrityError, OverflowError) as exc:
        # The checks above mirror every column's limit; should one still be missed, the database's refusal is a
        # message (and the transaction is rolled back), never a server error.
        line = f"{documents[0][0] if len(documents) == 1 else '-'}: document: the database refused it: {exc}"
        raise ImportFailed(problems + [line], shown + [line]) from exc


def _import_parsed(parsed, *, club, club_name, problems, shown, warnings, warnings_shown, report_problem):
    report = report_problem
    with transaction.atomic():
        target_club = club or resolve_club(club_name)
        planned = []
        for label, doc in parsed:
            if doc.tournament is None:
                continue
            for p in _too_long("tournament.name", doc.tournament.name, Tournament, "name"):
                report(label, "-", p)
            version = ruleset_by_slug(doc.tournament.ruleset, target_club)
            if version is None:
                known = ", ".join(sorted({v.slug for v in RuleSetVersion.objects.filter(club__isnull=True)}))
                report(label, "-", error_t("tournament.ruleset", N_("unknown rule set %(ruleset)s (known: %(known)s)"),
                                           ruleset=repr(doc.tournament.ruleset), known=known))
                continue
            ruleset = version.ruleset()
            signed = set(Game.objects.filter(
                tournament__club=target_club, tournament__name=doc.tournament.name,
                status__in=[Game.Status.SIGNED, Game.Status.ANNULLED]).values_list("number", flat=True))
            stored_protests: dict[int, list] = {}
            for number, filed_at, category, status in Protest.objects.filter(
                    game__tournament__club=target_club, game__tournament__name=doc.tournament.name).values_list(
                    "game__number", "filed_at", "category", "status"):
                stored_protests.setdefault(number, []).append((filed_at, category, status))
            numbers = {p.number for p in doc.games} | set(Game.objects.filter(
                tournament__club=target_club, tournament__name=doc.tournament.name).values_list("number", flat=True))
            for protocol in doc.games:
                record = doc.records.get(protocol.number) or GameRecord()
                game_problems = (_header_problems(protocol) + _record_problems(protocol, record, numbers)
                                 + validate(protocol, ruleset, finished=protocol.result is not None))
                if record.protests and protocol.number in stored_protests and (
                        sorted(stored_protests[protocol.number]) != sorted(
                            (_aware(p.filed_at), p.category, p.status) for p in record.protests)):
                    # 000 T6.3.4, 002 III.15.4: a decided protest is final; the file's cannot replace the site's
                    # (the same protests, as an export of this site carries them, are kept as they are).
                    game_problems.append(error_t("protests", N_(
                        "game %(number)s of this tournament already has its protests here; a protest decision is "
                        "final (000 T6.3.4)"), number=protocol.number))
                if protocol.number in signed:
                    # 000 P7.10: a signed protocol changes only through a protest decision, never by an import.
                    game_problems.append(error_t("number", N_(
                        "000 P7.10: game %(number)s of this tournament is signed (or annulled); it changes only "
                        "through a protest decision"), number=protocol.number))
                for p in game_problems:
                    report(label, str(protocol.number), p)
            planned.append((doc, version))
        if problems:
            transaction.set_rollback(True)
            raise ImportFailed(problems, shown)

        report = ImportReport(club=target_club, warnings=warnings, warnings_shown=warnings_shown)
        for doc, version in planned:
            tournament = _upsert_tournament(target_club, doc.tournament, version)
            nicknames = [s.player for p in doc.games for s in p.seats]
            nicknames += [pr.player for r in doc.records.values() for pr in r.protests if pr.player]
            players = _players_by_key(target_club, nicknames, report)
            stored = {}
            for protocol in doc.games:
                record = doc.records.get(protocol.number) or GameRecord()
                stored[protocol.number], created = _store_game(tournament, version, protocol, players, record)
                report.created += created
                report.updated += not created
            _store_decisions(tournament, doc.records, stored, players)
            _store_lots(tournament, doc.tournament.lots, players)
            score_games(tournament=tournament)
            report.tournaments.append(tournament)
    return report


def _upsert_tournament(club: Club, header, version: RuleSetVersion) -> Tournament:
    tournament, created = Tournament.objects.get_or_create(
        club=club, name=header.name,
        defaults={"ruleset": version, "difficult_roles": header.difficult_roles or [], "stages": header.stages},
    )
    if not created:
        tournament.ruleset = version
        if header.difficult_roles is not None:
            tournament.difficult_roles = header.difficult_roles
        if header.stages:
            tournament.stages = header.stages
        tournament.save()
    return tournament


def _players_by_key(club: Club, nicknames: Iterable[str], report: ImportReport) -> dict[str, Player]:
    wanted = {nickname_key(n): clean_nickname(n) for n in nicknames}
    found = {p.nickname_key: p for p in Player.objects.filter(club=club, nickname_key__in=list(wanted))}
    missing = [Player(club=club, nickname=nick, nickname_key=key) for key, nick in wanted.items() if key not in found]
    if missing:
        Player.objects.bulk_create(missing)
        report.players_created += len(missing)
        found.update({p.nickname_key: p for p in Player.objects.filter(club=club, nickname_key__in=list(wanted))})
    return found


def _store_lots(tournament: Tournament, lots: dict[str, int], players: dict[str, Player]) -> None:
    """Keep the lot an export carried (it is drawn once, docs/rules.md D8); players not at these games are skipped.

    The lot is ratings' data: it is handed over by the `lots_imported` signal, before the tournament is scored.
    """
    by_player = {players[nickname_key(nick)].pk: number for nick, number in lots.items()
                 if nickname_key(nick) in players}
    if by_player:
        signals.lots_imported.send(sender=Tournament, tournament_id=tournament.pk, lots=by_player)


def _ended_at(protocol: Protocol) -> dt.datetime | None:
    if not protocol.ended_at:
        return None
    value = _safe_datetime(protocol.ended_at)
    if value is not None and timezone.is_naive(value):
        value = timezone.make_aware(value)
    return value


def _record_problems(protocol: Protocol, record: GameRecord, numbers: set[int]) -> list[Problem]:
    """The extension fields checked against this site's columns (lengths, choices, date-times)."""
    problems = []
    if record.signed_at and _safe_datetime(record.signed_at) is None:
        problems.append(error_t("signed_at", N_("must be an ISO date-time, got %(got)s"), got=repr(record.signed_at)))
    if record.replay_of is not None and (record.replay_of == protocol.number or record.replay_of not in numbers):
        problems.append(error_t("replay_of", N_("must be the number of another game of this tournament, got %(got)s"),
                                got=record.replay_of))
    categories = {c.value for c in Protest.Category}
    for i, p in enumerate(record.protests):
        path = f"protests[{i}]"
        if p.category not in categories:
            problems.append(error_t(f"{path}.category", N_("must be one of %(allowed)s, got %(got)s"),
                                    allowed=", ".join(sorted(categories)), got=repr(p.category)))
        for name in ("filed_at", "decided_at"):
            value = getattr(p, name)
            if value and _safe_datetime(value) is None:
                problems.append(error_t(f"{path}.{name}", N_("must be an ISO date-time, got %(got)s"), got=repr(value)))
        if len(clean_nickname(p.player)) > NICKNAME_MAX_LENGTH:
            problems.append(error_t(f"{path}.player", N_("a nickname has at most %(max)s characters"),
                                    max=NICKNAME_MAX_LENGTH))
    for i, a in enumerate(record.protest_adjustments):
        problems += _too_long(f"adjustments[protest {i}].clause", a.clause, Adjustment, "clause")
        problems += _too_long(f"adjustments[protest {i}].note", a.note, Adjustment, "note")
    return problems


def _aware(value: str) -> dt.datetime | None:
    parsed = _safe_datetime(value) if value else None
    if parsed is not None and timezone.is_naive(parsed):
        parsed = timezone.make_aware(parsed)
    return parsed


def _store_game(tournament: Tournament, version: RuleSetVersion, protocol: Protocol,
                players: dict[str, Player], record: GameRecord) -> tuple[Game, bool]:
    result = record.result if record.protests else protocol.result  # the official result (after any reversal)
    status = record.status or (Game.Status.FINISHED if result else Game.Status.IN_PROGRESS)
    fields = {
        "club": tournament.club,
        "ruleset": version,
        "table": protocol.table,
        "stage": protocol.stage,
        "date": _safe_date(protocol.date),
        "judge_name": protocol.judge,
        "status": status,
        "ended_at": _ended_at(protocol),
        "result": result or "",
        "signed_at": _aware(record.signed_at) if status == Game.Status.SIGNED else None,
    }
    game = Game.objects.filter(tournament=tournament, number=protocol.number).first()
    created = game is None
    if created:
        game = Game(tournament=tournament, number=protocol.number, **fields)
    else:
        for key, value in fields.items():
            setattr(game, key, value)
        game.version += 1
    write_protocol(game=game, protocol=dataclasses.replace(protocol, result=result), players=players, fresh=created)
    if record.protest_adjustments and (created or not game.protests.exists()):  # else kept from the decision
        start = next_adjustment_order(game)
        Adjustment.objects.bulk_create([
            Adjustment(game=game, order=start + i, seat=a.seat, points=a.points, clause=a.clause, note=a.note,
                       source=Adjustment.Source.PROTEST)
            for i, a in enumerate(record.protest_adjustments)
        ])
    return game, created


def _store_decisions(tournament: Tournament, records: dict[int, GameRecord], stored: dict[int, Game],
                     players: dict[str, Player]) -> None:
    """Replays linked to the games they replay, and each game's protests with their decisions as the file has
    them (a decision is final: the rows are created once, 000 T6.3.4)."""
    by_number = dict(stored)
    wanted = {r.replay_of for r in records.values() if r.replay_of} - set(by_number)
    by_number.update({g.number: g for g in Game.objects.filter(tournament=tournament, number__in=wanted)})
    for number, record in records.items():
        if record.replay_of and number in stored:
            Game.objects.filter(pk=stored[number].pk).update(replay_of=by_number[record.replay_of])
    for number, record in records.items():
        game = stored.get(number)
        if game is None or game.protests.exists():  # the same protests are here already (checked before)
            continue
        for p in record.protests:
            outcomes = [dict(o) for o in p.outcomes]
            for outcome in outcomes:  # the site's links, by game number (the file carries no row ids)
                if outcome.get("kind") == "replay" and outcome.get("number") in by_number:
                    outcome.update(annulled=game.pk, replay=by_number[outcome["number"]].pk)
            Protest.objects.create(
                game=game, category=p.category, text=p.text, filed_at=_aware(p.filed_at), status=p.status,
                seat=p.seat, player=players.get(nickname_key(p.player)) if p.player else None,
                decided_at=_aware(p.decided_at), explanation=p.explanation, outcomes=outcomes)


def write_protocol(*, game: Game, protocol: Protocol, players: dict[str, Player], fresh: bool = False) -> None:
    """Store `protocol` as the game's rows, replacing what was there (`fresh`: a new game, nothing to replace).

    Call inside a transaction.
    """
    game.best_move = list(protocol.best_move) if protocol.best_move is not None else None
    game.result = protocol.result or ""
    game.save()
    if not fresh:
        for related in (game.seats, game.days, game.nights, game.removals, game.colours, game.judge_extras):
            related.all().delete()
        game.adjustments.filter(source=Adjustment.Source.JUDGE).delete()
    Seat.objects.bulk_create([
        Seat(game=game, number=s.seat, player=players[nickname_key(s.player)], role=s.role or "", fouls=s.fouls)
        for s in protocol.seats
    ])
    Day.objects.bulk_create([
        Day(game=game, index=i,
            nominations=None if d.nominations is None else [
                {"by": n.by, "nominee": n.nominee, **({"withdrawn": True} if n.withdrawn else {})}
                for n in d.nominations],
            votes=None if d.votes is None else [{"seat": t.seat, "votes": t.votes} for t in d.votes],
            revotes=[[{"seat": t.seat, "votes": t.votes} for t in r] for r in d.revotes],
            lift_for=d.lift, out=list(d.out))
        for i, d in enumerate(protocol.days, start=1)
    ])
    Night.objects.bulk_create([
        Night(game=game, index=i, kill=n.kill, don_check=n.don_check, sheriff_check=n.sheriff_check)
        for i, n in enumerate(protocol.nights, start=1)
    ])
    Removal.objects.bulk_create([
        Removal(game=game, order=i, seat=r.seat, reason=r.reason, at=r.at, after_vote=r.after_vote, note=r.note)
        for i, r in enumerate(protocol.removals)
    ])
    RecordedColour.objects.bulk_create([
        RecordedColour(game=game, order=i, by=c.by, target=c.target) for i, c in enumerate(protocol.colours)
    ])
    JudgeExtra.objects.bulk_create([
        JudgeExtra(game=game, order=i, seat=e.seat, points=e.points, note=e.note, approved=e.approved)
        for i, e in enumerate(protocol.judge_extras)
    ])
    Adjustment.objects.bulk_create([
        Adjustment(game=game, order=i, seat=a.seat, points=a.points, clause=a.clause, note=a.note)
        for i, a in enumerate(protocol.adjustments)
    ])


# ---------------------------------------------------------------------------------------------------- scoring


def scoring_scope(game: Game):
    """The games whose scores depend on each other (Ci, docs/rules.md D4): the tournament, or for club
    games the club's games of the same season (calendar year)."""
    if game.tournament_id:
        return Game.objects.filter(tournament_id=game.tournament_id)
    return Game.objects.filter(club_id=game.club_id, tournament__isnull=True, date__year=game.date.year)


def lock_scoring_scope(*, tournament_id: int | None, club_id: int | None) -> None:
    """Serialise the rescoring of one scope until the transaction ends: a row lock on the tournament, or for club
    games (scored per club and season) on the club. Call inside a transaction, after locking the game itself.

    On PostgreSQL this is `SELECT … FOR UPDATE`; SQLite has no row locks, but there every write transaction
    begins IMMEDIATE (club.settings), which serialises the writers as a whole.
    """
    if tournament_id is not None:
        list(Tournament.objects.select_for_update().filter(pk=tournament_id).values_list("pk", flat=True))
    elif club_id is not None:
        list(Club.objects.select_for_update().filter(pk=club_id).values_list("pk", flat=True))


def score_games(*, tournament: Tournament | None = None, game: Game | None = None) -> int:
    """Recompute and store the scores of a whole scope (a tournament, or the scope of `game`).

    Returns the number of games scored. Games that do not count (not finished, annulled) get empty scores.
    """
    if tournament is not None:
        scope = Game.objects.filter(tournament=tournament)
    elif game is not None:
        scope = scoring_scope(game)
    else:
        raise ValueError("score_games needs a tournament or a game")
    with transaction.atomic():
        # Two tables of one tournament finishing at once: each rescoring reads every game of the scope, so the
        # second must read after the first has committed, or it would store the first game as unfinished.
        lock_scoring_scope(tournament_id=tournament.pk if tournament is not None else game.tournament_id,
                           club_id=None if tournament is not None else game.club_id)
        games = list(with_protocol(scope.order_by("date", "number", "id")))
        counting = [g for g in games if g.counts]
        # Only the seats whose score or items change are written (a sign-off or a protest moves one game, the
        # tournament's other hundred stay as they were): compare with what is stored.
        stored_items: dict[int, list[tuple]] = {}
        for row in ScoreItem.objects.filter(seat__game__in=games).order_by("seat_id", "id").values_list(
                "seat_id", *ITEM_COLUMNS):
            stored_items.setdefault(row[0], []).append(row[1:])
        by_version: dict[int, list[Game]] = {}
        for g in counting:
            by_version.setdefault(g.ruleset_id, []).append(g)
        items: list[ScoreItem] = []
        items_changed: list[int] = []  # seats whose items are replaced
        seats_to_update: list[Seat] = []
        for group in by_version.values():
            ruleset = group[0].ruleset.ruleset()
            scores = score_tournament([protocol_of(g) for g in group], ruleset)
            for g, score in zip(group, scores, strict=True):
                seats = {s.number: s for s in g.seats.all()}
                for seat_score in score.seats:
                    seat = seats[seat_score.seat]
                    before = tuple(getattr(seat, c) for c in SCORE_COLUMNS)
                    seat.main, seat.extras, seat.total = seat_score.main, seat_score.extras, seat_score.total
                    seat.tiebreak_extras = seat_score.tiebreak_extras
                    seat.won, seat.first_night_death = seat_score.won, seat_score.first_night_death
                    if tuple(getattr(seat, c) for c in SCORE_COLUMNS) != before:
                        seats_to_update.append(seat)
                    seat_items = [(i.kind, i.points, i.clause, i.note, i.effective, _item_source(i.source))
                                  for i in seat_score.items]
                    seat_items = _mark_protest_adjustments(g, seat.number, seat_items)
                    if seat_items != stored_items.get(seat.pk, []):
                        items_changed.append(seat.pk)
                        items += [ScoreItem(seat=seat, **dict(zip(ITEM_COLUMNS, i, strict=True))) for i in seat_items]
        for g in games:
            if g.counts:
                continue
            for seat in g.seats.all():
                if any(getattr(seat, c) for c in SCORE_COLUMNS):
                    seat.main = seat.extras = seat.total = seat.tiebreak_extras = Decimal(0)
                    seat.won = seat.first_night_death = False
                    seats_to_update.append(seat)
                if seat.pk in stored_items:
                    items_changed.append(seat.pk)
        _write_seat_scores(seats_to_update)
        ScoreItem.objects.filter(seat_id__in=items_changed).delete()
        ScoreItem.objects.bulk_create(items, batch_size=1000)
        _scores_changed(games)  # in the same transaction: the stored ratings change with the scores
    return len(counting)


SCORE_COLUMNS = ("main", "extras", "total", "tiebreak_extras", "won", "first_night_death")
ITEM_COLUMNS = ("kind", "points", "clause", "note", "effective", "source")


def _write_seat_scores(seats: list[Seat]) -> None:
    """Store the materialised score columns of many seats with one prepared UPDATE (executemany).

    `bulk_update` builds a CASE expression per row and column, which took most of an import's time.
    """
    if not seats:
        return
    meta = Seat._meta
    qn = connection.ops.quote_name
    columns = [meta.get_field(name) for name in SCORE_COLUMNS]
    sql = (f"UPDATE {qn(meta.db_table)} SET " + ", ".join(f"{qn(f.column)} = %s" for f in columns)
           + f" WHERE {qn(meta.pk.column)} = %s")
    rows = [[f.get_db_prep_save(getattr(seat, f.attname), connection) for f in columns] + [seat.pk] for seat in seats]
    with connection.cursor() as cursor:
        cursor.executemany(sql, rows)


def _item_source(source: str) -> str:
    return source if source in ScoreItem.Source.values else ScoreItem.Source.AUTO


def _mark_protest_adjustments(game: Game, seat_number: int, items: list[tuple]) -> list[tuple]:
    """Lines from adjustments a protest decided keep source=protest (the sheet's back side). The engine
    appends a seat's adjustments in the protocol's order, so they pair up one to one. `items` are ITEM_COLUMNS
    tuples (kind first, source last)."""
    sources = iter([a.source for a in game.adjustments.all() if a.seat == seat_number])
    marked = []
    for item in items:
        if item[0] == "adjustment" and next(sources, None) == Adjustment.Source.PROTEST:
            item = (*item[:-1], ScoreItem.Source.PROTEST)
        marked.append(item)
    return marked


def _scores_changed(games: list[Game]) -> None:
    """Announce the new scores (`games.signals.scores_changed`): ratings refreshes its aggregates and caches."""
    if games:
        signals.scores_changed.send(sender=Game, game_ids=signals.ids(g.pk for g in games),
                                    tournament_ids=signals.ids(g.tournament_id for g in games),
                                    club_ids=signals.ids(g.club_id for g in games))


# ---------------------------------------------------------------------------------------------------- rule sets


def ruleset_copy(*, club: Club, by, source: RuleSetVersion, name: str, slug: str) -> RuleSetVersion:
    """A club's own copy of a rule set ("our club's rules"), editable by its admins."""
    if not is_club_admin(by, club):
        raise PermissionDenied(_("Only a club admin may copy a rule set."))
    if RuleSetVersion.objects.filter(slug=slug).exists():
        raise ServiceError(f"the code {slug!r} is taken; choose another")
    params = dict(source.params, slug=slug, name=name)
    return RuleSetVersion.objects.create(slug=slug, name=name, club=club, based_on=source, params=params)


def ruleset_set_default(*, club: Club, by, ruleset: RuleSetVersion) -> None:
    if club is None or not is_club_admin(by, club):
        raise PermissionDenied(_("Only a club admin may choose the club's rule set."))
    if ruleset.club_id not in (None, club.pk):
        raise ServiceError("that rule set belongs to another club")
    club.default_ruleset = ruleset
    club.save(update_fields=["default_ruleset"])


def ruleset_update(*, ruleset: RuleSetVersion, by, params: dict) -> RuleSetVersion:
    """Edit a club copy. A version already used by a game is never changed: a new version is made instead."""
    if ruleset.is_preset or ruleset.club is None:
        raise ServiceError("a preset is never edited; make the club's copy first")
    if not is_club_admin(by, ruleset.club):
        raise PermissionDenied(_("Only a club admin may edit the club's rules."))
    merged = RuleSet.from_dict(dict(ruleset.params, **params, slug=ruleset.slug)).to_dict()
    name = merged.get("name") or ruleset.name
    with transaction.atomic():
        if ruleset.is_used:
            newest = RuleSetVersion.objects.filter(slug=ruleset.slug).order_by("-version").first()
            ruleset = RuleSetVersion.objects.create(
                slug=ruleset.slug, version=newest.version + 1, name=name, club=ruleset.club,
                based_on=ruleset, params=merged)
            # New games of these tournaments and of the club use the new version; scored games keep theirs.
            Tournament.objects.filter(ruleset__slug=ruleset.slug).exclude(pk=ruleset.pk).update(ruleset=ruleset)
            Club.objects.filter(default_ruleset__slug=ruleset.slug).update(default_ruleset=ruleset)
        else:
            ruleset.params = merged
            ruleset.name = name
            ruleset.save(update_fields=["params", "name"])
    return ruleset


# --- creating work: tournaments, club evenings, games -------------------------------------------------------------


def tournament_create(*, club: Club, by, name: str, ruleset: RuleSetVersion, start_date: dt.date | None = None,
                      end_date: dt.date | None = None, head_judge=None, stages: list[str] | None = None
                      ) -> Tournament:
    if not is_club_admin(by, club):
        raise PermissionDenied(_("Only a club admin may create a tournament."))
    name = name.strip()
    if not name:
        raise ServiceError(_("Enter the tournament's name."))
    if ruleset.club_id not in (None, club.pk):
        raise ServiceError(_("Choose a preset or this club's own rule set."))
    if start_date and end_date and end_date < start_date:
        raise ServiceError(_("The tournament cannot end before it starts."))
    with transaction.atomic():
        if Tournament.objects.filter(club=club, name=name).exists():
            raise ServiceError(_("The club already has a tournament with this name."))
        return Tournament.objects.create(club=club, name=name, ruleset=ruleset, start_date=start_date,
                                         end_date=end_date, head_judge=head_judge,
                                         stages=[s.strip() for s in (stages or []) if s.strip()])


def evening_create(*, club: Club, by, date: dt.date, ruleset: RuleSetVersion, name: str = "") -> ClubEvening:
    if not is_club_admin(by, club):
        raise PermissionDenied(_("Only a club admin may create a club evening."))
    if ruleset.club_id not in (None, club.pk):
        raise ServiceError(_("Choose a preset or this club's own rule set."))
    return ClubEvening.objects.create(club=club, date=date, ruleset=ruleset, name=name.strip())


def game_start_new(*, by, tournament: Tournament | None = None, evening: ClubEvening | None = None,
                   table: int | None = None, stage: str = "") -> Game:
    """One button: a new draft game at a table, judged by `by`; the judge's screen opens on it."""
    if (tournament is None) == (evening is None):
        raise ServiceError("a game belongs to a tournament or a club evening")
    owner = tournament or evening
    if not can_start_game(by, owner.club):
        raise PermissionDenied(_("Only a judge of the club may start a game."))
    with transaction.atomic():
        # Lock the owner so two judges pressing at once get different numbers.
        type(owner).objects.select_for_update().filter(pk=owner.pk).first()
        number = next_game_number(owner)
        date = timezone.localdate()
        if tournament is not None and tournament.start_date and tournament.end_date and not (
                tournament.start_date <= date <= tournament.end_date):
            date = tournament.start_date
        if evening is not None:
            date = evening.date
        judge_name = known_name(by, owner.club)
        return Game.objects.create(
            club=owner.club, tournament=tournament, evening=evening, ruleset=owner.ruleset, number=number,
            table=table, stage=stage or (tournament.stages[0] if tournament and tournament.stages else ""),
            date=date, judge=by, judge_name=judge_name, status=Game.Status.DRAFT,
        )
