"""Importing protocols (the mafclub/1 format): parse, check, store the games, their decisions and lots, then score.

Every service is keyword-only, runs in one transaction and raises a `ServiceError` (or a subclass) with a
user-facing message; the database is unchanged when it raises.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from django.core.exceptions import PermissionDenied
from django.db import DataError, IntegrityError, OperationalError, transaction
from django.utils import timezone
from django.utils.dateparse import parse_date, parse_datetime
from django.utils.translation import gettext as _

from club.db import is_conflict
from club.models import NICKNAME_MAX_LENGTH, Club, ClubMember, Player, clean_nickname, nickname_key
from club.permissions import is_club_admin
from club.selectors import member_players
from club.selectors_people import club_named
from club.services import ServiceError
from games import signals
from games.i18n import problem_line, problem_text
from games.models import (
    Adjustment,
    Day,
    Game,
    JudgeExtra,
    Night,
    Protest,
    RecordedColour,
    Removal,
    RuleSetVersion,
    Seat,
    Tournament,
)
from games.protocol.selectors import next_adjustment_order, ruleset_by_slug
from games.protocol.services.import_guard import lock_stored_games, stale_game_problems
from games.protocol.services.scoring import lock_scoring_scope, score_games, seated
from games.rules.i18n import N_
from games.rules.interchange import NUL_MESSAGE, GameProblem, GameRecord, parse_document
from games.rules.interchange_parts import summary_to_json, voters_to_json
from games.rules.problems import Problem, error_t
from games.rules.protocol import Protocol
from games.rules.validate import validate

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


def _load(label: str, raw: bytes | str) -> tuple[object | None, list[str], list[str]]:
    """The document's JSON, or the problem twice: in English for the command line (the contract's
    "FILE: document: …" line) and in the reader's language for the page."""
    try:
        return json.loads(raw), [], []
    except RecursionError:  # "[[[[…" nested deeper than the decoder's stack
        return None, [f"{label}: document: broken JSON: nested too deeply"], [
            f"{label}: " + _("the file is not valid JSON: it is nested too deeply.")]
    except json.JSONDecodeError as exc:
        return None, [f"{label}: document: broken JSON: {exc}"], [
            f"{label}: " + _("the file is not valid JSON (line %(line)s, column %(column)s).")
            % {"line": exc.lineno, "column": exc.colno}]
    except ValueError as exc:  # UnicodeDecodeError, an integer of more than 4300 digits
        return None, [f"{label}: document: broken JSON: {exc}"], [
            f"{label}: " + _("the file is not valid JSON in UTF-8, or holds a number too long to read.")]


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
        data, load_problems, load_shown = _load(label, raw)
        if load_problems:
            problems += load_problems
            shown += load_shown
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
        for problem in _too_long("club", club_name.strip(), Club, "name"):
            problems.append(f"--club: {problem}")
            shown.append(f"--club: {problem_text(problem)}")
        if problems:
            raise ImportFailed(problems, shown)

    try:
        return _import_parsed(parsed, club=club, club_name=club_name, problems=problems, shown=shown,
                              warnings=warnings, warnings_shown=warnings_shown, report_problem=report)
    except OperationalError as exc:
        if not is_conflict(exc):
            raise
        # Another writer held the same rows past the database's patience (a PostgreSQL deadlock or lock timeout,
        # SQLite's busy timeout): the transaction was rolled back; a message, never a traceback or a 500.
        line = "-: document: the database was busy with another write (a judge, a protest or another import); " \
               "nothing was imported: run the import again"
        raise ImportFailed(problems + [line], shown + [_(
            "The database was busy with another write (a judge, a protest or another import); nothing was "
            "imported. Please run the import again.")]) from exc
    except (DataError, IntegrityError, OverflowError) as exc:
        # The checks above mirror every column's limit; should one still be missed, the database's refusal is a
        # message (and the transaction is rolled back), never a server error.
        line = f"{documents[0][0] if len(documents) == 1 else '-'}: document: the database refused it: {exc}"
        raise ImportFailed(problems + [line], shown + [line]) from exc


def _import_parsed(parsed, *, club, club_name, problems, shown, warnings, warnings_shown, report_problem):
    with transaction.atomic():
        target_club = club or resolve_club(club_name)
        _lock_tournaments(target_club, {doc.tournament.name for _label, doc in parsed if doc.tournament})
        planned = []
        for label, doc in parsed:
            if doc.tournament is None:
                continue
            version = _check_document(label, doc, target_club, report_problem)
            if version is not None:
                planned.append((doc, version))
        if problems:
            transaction.set_rollback(True)
            raise ImportFailed(problems, shown)

        report = ImportReport(club=target_club, warnings=warnings, warnings_shown=warnings_shown)
        for doc, version in planned:
            _store_document(target_club, doc, version, report)
    return report


def _check_document(label, doc, target_club: Club, report) -> RuleSetVersion | None:
    """Report (through `report(label, game, problem)`) every problem of one document against what is stored; the
    rule-set version its games are stored with, or None when its rule set is unknown."""
    for p in _too_long("tournament.name", doc.tournament.name, Tournament, "name"):
        report(label, "-", p)
    version = ruleset_by_slug(doc.tournament.ruleset, target_club)
    if version is None:
        known = ", ".join(sorted({v.slug for v in RuleSetVersion.objects.filter(club__isnull=True)}))
        report(label, "-", error_t("tournament.ruleset", N_("unknown rule set %(ruleset)s (known: %(known)s)"),
                                   ruleset=repr(doc.tournament.ruleset), known=known))
        return None
    ruleset = version.ruleset()
    signed = set(Game.objects.filter(
        tournament__club=target_club, tournament__name=doc.tournament.name,
        status__in=[Game.Status.SIGNED, Game.Status.ANNULLED]).values_list("number", flat=True))
    stored_protests: dict[int, list] = {}
    for number, filed_at, category, status in Protest.objects.filter(
            game__tournament__club=target_club, game__tournament__name=doc.tournament.name).values_list(
            "game__number", "filed_at", "category", "status"):
        stored_protests.setdefault(number, []).append((filed_at, category, status))
    # After its tournament, each stored game is locked: no judge's tap lands between the check and the write.
    existing = lock_stored_games(club=target_club, tournament_name=doc.tournament.name)
    numbers = {p.number for p in doc.games} | set(existing)
    for protocol in doc.games:
        record = doc.records.get(protocol.number) or GameRecord()
        game_problems = (_header_problems(protocol) + _record_problems(protocol, record, numbers)
                         + validate(protocol, ruleset, finished=protocol.result is not None)
                         + stale_game_problems(existing.get(protocol.number), record.version,
                                               event=doc.tournament.name))
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
    return version


def _store_document(target_club: Club, doc, version: RuleSetVersion, report: ImportReport) -> None:
    """Write one checked document: its tournament, players, games, protest decisions and lots, then score it."""
    tournament = _upsert_tournament(target_club, doc.tournament, version)
    entries = [(s.player, s.club) for p in doc.games for s in p.seats]
    seated_keys = {nickname_key(nickname) for nickname, _club in entries}  # a protest names a seated player
    entries += [(pr.player, "") for r in doc.records.values() for pr in r.protests
                if pr.player and nickname_key(pr.player) not in seated_keys]
    players = _players_by_key(target_club, entries, report)
    # A one-game document changes only that game's scores and the Ci of the games it moves (games.protocol.services.scoring):
    # who sat in it before is read before it is rewritten.
    one = doc.games[0].number if len(doc.games) == 1 else None
    existing = (Game.objects.filter(tournament=tournament, number=one).values_list("pk", flat=True).first()
                if one is not None else None)
    seated_before = seated(existing) if existing is not None else frozenset()
    stored = {}
    for protocol in doc.games:
        record = doc.records.get(protocol.number) or GameRecord()
        stored[protocol.number], created = _store_game(tournament, version, protocol, players, record)
        report.created += created
        report.updated += not created
    _store_decisions(tournament, doc.records, stored, players)
    _store_lots(tournament, doc.tournament.lots, players)
    if one is not None:
        score_games(game=stored[one], seated_before=seated_before)
    else:
        score_games(tournament=tournament)
    report.tournaments.append(tournament)


def _lock_tournaments(club: Club, names: set[str]) -> None:
    """Lock the stored tournaments the documents re-write, in one order (by id), before anything of them is read or
    written: the scope before its games (games.protocol.services.scoring.lock_scoring_scope). The checks below (a signed
    game is never overwritten) then read what no judge changes until the import commits."""
    ids = Tournament.objects.filter(club=club, name__in=names).order_by("pk").values_list("pk", flat=True)
    for pk in ids:
        lock_scoring_scope(tournament_id=pk, club_id=None)


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


def seat_key(nickname: str, club: str = "") -> str:
    """The key a document's seat finds its person by: the nickname's, and with a home club named (mafclub/1's
    optional per-seat "club") that club's too — two namesakes of two clubs at one table stay two people."""
    key = nickname_key(nickname)
    return f"{key}\x1f{nickname_key(club)}" if club else key


def _players_by_key(club: Club, entries: Iterable[tuple[str, str]], report: ImportReport) -> dict[str, Player]:
    """The person of each (nickname, home club name) of a document, by `seat_key` (and by the bare nickname key,
    the first person of that nickname, for what names a player by his nickname alone: a protest, a lot). A seat
    without a club is the target club's member, as before; with one, that club's member — an existing person is
    attached, never copied. Nobody found: a new player whose home club is that club (a club the site has no row
    of yet is created by its name, so that a round trip keeps the people and their clubs)."""
    by_club: dict[str, dict[str, str]] = {}
    for nickname, club_name in entries:
        by_club.setdefault(clean_nickname(club_name), {})[nickname_key(nickname)] = clean_nickname(nickname)
    found: dict[str, Player] = {}
    for club_name in sorted(by_club, key=lambda name: name != ""):  # the target club's seats name a player first
        home = _home_club(club, club_name)
        for key, player in _members_or_new(home, by_club[club_name], report).items():
            found[seat_key(key, club_name)] = player
            found.setdefault(key, player)
    return found


def _home_club(target: Club, name: str) -> Club:
    if not name or nickname_key(name) == nickname_key(target.name):
        return target
    home = club_named(name)
    if home is None:
        home = Club.objects.create(name=name[:Club._meta.get_field("name").max_length or 120])
    return home


def _members_or_new(home: Club, wanted: dict[str, str], report: ImportReport) -> dict[str, Player]:
    """The club's members of these nickname keys (his home players first), new home players for the others."""
    found: dict[str, Player] = {}
    for player in member_players(home).filter(nickname_key__in=list(wanted)).order_by("pk"):
        if player.nickname_key not in found or player.club_id == home.pk:
            found[player.nickname_key] = player
    missing = [Player(club=home, nickname=nick, nickname_key=key) for key, nick in wanted.items() if key not in found]
    if missing:
        Player.objects.bulk_create(missing)
        report.players_created += len(missing)
        created = list(Player.objects.filter(club=home, nickname_key__in=[p.nickname_key for p in missing]))
        ClubMember.objects.bulk_create([ClubMember(player=p, club=home, joined=p.joined) for p in created],
                                       ignore_conflicts=True)  # a bulk insert sends no post_save (club.signals)
        found.update({p.nickname_key: p for p in created})
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
    stored = Game.objects.filter(tournament=tournament, number=protocol.number).first()  # type: ignore[misc]
    created = stored is None
    if stored is None:
        game = Game(tournament=tournament, number=protocol.number, **fields)  # type: ignore[misc]
    else:
        game = stored
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
            Protest.objects.create(  # type: ignore[misc]
                game=game, category=p.category, text=p.text, filed_at=_aware(p.filed_at), status=p.status,
                seat=p.seat, player=players.get(nickname_key(p.player)) if p.player else None,
                decided_at=_aware(p.decided_at), explanation=p.explanation, outcomes=outcomes)


def write_protocol(*, game: Game, protocol: Protocol, players: dict[str, Player], fresh: bool = False) -> None:
    """Store `protocol` as the game's rows, replacing what was there (`fresh`: a new game, nothing to replace).

    Call inside a transaction.
    """
    game.best_move = list(protocol.best_move) if protocol.best_move is not None else None
    game.summary = summary_to_json(protocol)
    game.result = protocol.result or ""
    game.save()
    if not fresh:
        for related in (game.seats, game.days, game.nights, game.removals, game.colours, game.judge_extras):
            related.all().delete()
        game.adjustments.filter(source=Adjustment.Source.JUDGE).delete()
    Seat.objects.bulk_create([
        Seat(game=game, number=s.seat, player=players[seat_key(s.player, s.club)], role=s.role or "", fouls=s.fouls)
        for s in protocol.seats
    ])
    Day.objects.bulk_create([
        Day(game=game, index=i,
            nominations=None if d.nominations is None else [
                {"by": n.by, "nominee": n.nominee, **({"withdrawn": True} if n.withdrawn else {})}
                for n in d.nominations],
            votes=None if d.votes is None else [{"seat": t.seat, "votes": t.votes} for t in d.votes],
            revotes=[[{"seat": t.seat, "votes": t.votes} for t in r] for r in d.revotes],
            lift_for=d.lift, out=list(d.out), voters=voters_to_json(d))
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
