"""Importing a club's history from other formats (MafiaRatings' games, the XLSX and CSV sheets): read the files,
match the players, group the games into tournaments, then hand mafclub/1 documents to the one import pipeline
(games.protocol.services.imports), all or nothing; keep the external ids so that a re-import changes nothing.
docs/imports.md describes the formats and what maps where."""

from __future__ import annotations

import base64
import datetime as dt
import json
from dataclasses import dataclass, field
from typing import Any

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils.translation import gettext as _

from club.models import Club, ClubMember, Player, nickname_key
from club.permissions import is_club_admin
from club.selectors import clubs_of, member_players
from games.histories.mafiaratings import SOURCE, FormatError, ReadGame, games_of, read_game
from games.histories.matching import AMBIGUOUS, Match, match_players, ref_key
from games.histories.models import ExternalId, PendingHistoryImport
from games.histories.protocol_sheets import read_protocol_csv, read_protocol_xlsx
from games.histories.spreadsheets import SheetProblems, read_results_csv, read_results_xlsx
from games.histories.texts import N_, Located, Msg, shown
from games.models import Game
from games.protocol.selectors_export import game_to_dict
from games.protocol.services.imports import ImportFailed, ImportReport, import_documents
from games.rules.interchange import parse_game, protocol_to_dict

DEFAULT_RULESET = "xcraft"
COMPARED = ("table", "stage", "date", "judge", "seats", "days", "nights", "removals", "colours", "judge_extras",
            "adjustments", "result", "best_move")


@dataclass
class Planned:
    label: str  # "FILE: game ID" — how the report names the game
    tournament: str
    number: int
    read: ReadGame
    unchanged: bool = False


@dataclass
class Plan:
    club: Club
    source: str
    ruleset: str
    games: list[Planned] = field(default_factory=list)
    matches: list[Match] = field(default_factory=list)

    @property
    def ambiguous(self) -> list[Match]:
        return [m for m in self.matches if m.status == AMBIGUOUS]

    @property
    def lost(self) -> list[str]:
        """What mafclub cannot keep, game by game (English; `lost_shown` in the active language)."""
        return [Located(g.label, line) for g in self.games for line in g.read.lost]

    @property
    def lost_shown(self) -> list[str]:
        return [shown(line, _) for line in self.lost]


class _DryRun(Exception):
    def __init__(self, report: ImportReport):
        super().__init__("dry run")
        self.report = report


def read_mafiaratings(files: list[tuple[str, bytes]]) -> list[tuple[str, ReadGame]]:
    """Every game of every file, or `ImportFailed` with every problem as "FILE: path: message"."""
    problems: list[str] = []
    found: list[tuple[str, ReadGame]] = []
    for name, raw in files:
        try:
            games = games_of(json.loads(raw))
        except FormatError as exc:
            problems.append(Located(f"{name}: {exc.path}", exc.message))
            continue
        except (ValueError, RecursionError) as exc:
            problems.append(Located(f"{name}: document", Msg(N_("not valid JSON: %(error)s"), error=str(exc))))
            continue
        for i, game in enumerate(games):
            try:
                read = read_game(game, i)
            except FormatError as exc:
                problems.append(Located(f"{name}: {exc.path}", exc.message))
                continue
            found.append((f"{name}: game {read.external_id or '#' + str(i + 1)}", read))
    if problems:
        raise ImportFailed(problems, [shown(line, _) for line in problems])
    return found


def _group_name(read: ReadGame, source: str) -> str:
    return f"MafiaRatings {read.group}" if source == SOURCE else read.group


def read_files(files: list[tuple[str, bytes]], fmt: str) -> list[tuple[str, ReadGame]]:
    """The games of the files in `fmt` (mafiaratings, xlsx, csv, protocol-xlsx, protocol-csv), or `ImportFailed` naming every problem."""
    if fmt == SOURCE:
        return read_mafiaratings(files)
    problems = SheetProblems()
    found = []
    readers = {"xlsx": read_results_xlsx, "csv": read_results_csv, "protocol-xlsx": read_protocol_xlsx,
               "protocol-csv": read_protocol_csv}
    for name, raw in files:
        reader = readers[fmt]
        for read in reader(name, raw, problems):
            found.append((read.where or name, read))
    if problems.lines:
        raise ImportFailed(problems.lines, [shown(line, _) for line in problems.lines])
    return found


def plan_import(*, club: Club, games: list[tuple[str, ReadGame]], source: str = SOURCE,
                tournament: str | None = None, ruleset: str | None = None,
                choices: dict[str, int | None] | None = None) -> Plan:
    """What the import would do: the games by tournament and number, the players' matches. `choices` settles an
    ambiguous name ("external id|email|nickname key" → a candidate's id, or None for a new player)."""
    default = club.default_ruleset
    slug = ruleset or (default.slug if default is not None else DEFAULT_RULESET)
    plan = Plan(club=club, source=source, ruleset=slug)
    plan.matches = match_players(club, [ref for _label, read in games for ref in read.players], source)
    for match in plan.matches:
        _settle(match, choices or {})
    known = {e.external_id: e.game for e in ExternalId.objects.filter(game__isnull=False,
        club=club, source=source, kind=ExternalId.Kind.GAME,
        external_id__in=[r.external_id for _l, r in games if r.external_id]).select_related("game__tournament")
        if e.game is not None}
    next_number: dict[str, int] = {}
    for label, read in sorted(games, key=lambda item: item[1].started):
        stored = known.get(read.external_id)
        if stored is not None and stored.tournament is not None and (tournament is None
                                                                     or stored.tournament.name == tournament):
            plan.games.append(Planned(label, stored.tournament.name, stored.number, read))
            continue
        name = tournament or _group_name(read, source)
        if read.number is not None and tournament is None:
            plan.games.append(Planned(label, name, read.number, read))
            continue
        if name not in next_number:
            last = (Game.objects.filter(tournament__club=club, tournament__name=name).order_by("-number")
                    .values_list("number", flat=True).first())
            next_number[name] = (last or 0) + 1
        plan.games.append(Planned(label, name, next_number[name], read))
        next_number[name] += 1
    _mark_unchanged(plan, known)
    return plan


def match_token(match: Match) -> str:
    return "|".join(match.key)


def _settle(match: Match, choices: dict[str, int | None]) -> None:
    token = match_token(match)
    if match.status != AMBIGUOUS or token not in choices:
        return
    chosen = choices[token]
    match.player = next((p for p in match.candidates if p.pk == chosen), None)
    match.status = "matched" if match.player is not None else "new"


def seat_club(player: Player | None, club: Club) -> str:
    """The per-seat "club" of mafclub/1 that makes the import attach `player` (docs/persons.md): "" for a new
    player or the club's own member, else a club he is a member of — his home club first. A person with no
    membership anywhere (a guest) is made the importing club's member when the plan is written (`_join`)."""
    if player is None or player.club_id == club.pk:
        return ""
    if player.club is not None:
        return player.club.name
    clubs = [m.club for m in clubs_of(player)]
    if not clubs or any(c.pk == club.pk for c in clubs):
        return ""
    return clubs[0].name


def _nicknames(plan: Plan) -> dict[tuple[str, str, str], tuple[str, str]]:
    return {m.key: (m.nickname, seat_club(m.player, plan.club)) for m in plan.matches}


def _game_dict(plan: Plan, planned: Planned) -> dict[str, Any]:
    names = _nicknames(plan)
    game = json.loads(json.dumps(planned.read.game))
    for seat, ref in zip(game["seats"], planned.read.players, strict=True):
        seat["player"], club = names[ref_key(ref.external_id, ref.email, ref.name)]
        if club:
            seat["club"] = club
    game["number"] = planned.number
    return game


def _normal(game: dict[str, Any]) -> dict[str, Any] | None:
    protocol, problems = parse_game(game, "-")
    if protocol is None:
        return None
    data = protocol_to_dict(protocol)
    for seat in data["seats"]:  # the person is compared by his nickname; the home club is how the import finds him
        seat.pop("club", None)
    return {key: data.get(key) for key in COMPARED}


def _mark_unchanged(plan: Plan, known: dict[str, Game]) -> None:
    for planned in plan.games:
        stored = known.get(planned.read.external_id)
        if stored is None or stored.number != planned.number:
            continue
        mine = game_to_dict(stored, with_score=False)
        theirs = _game_dict(plan, planned)
        planned.unchanged = _normal(theirs) is not None and _normal(mine) == _normal(theirs)


def documents_of(plan: Plan) -> list[tuple[str, bytes]]:
    """One mafclub/1 document per tournament, with the games that change."""
    by_tournament: dict[str, list[dict[str, Any]]] = {}
    for planned in plan.games:
        if not planned.unchanged:
            by_tournament.setdefault(planned.tournament, []).append(_game_dict(plan, planned))
    return [(name, json.dumps({"format": "mafclub/1", "tournament": {"name": name, "ruleset": plan.ruleset},
                               "games": games}, ensure_ascii=False).encode())
            for name, games in by_tournament.items()]


def ambiguous_lines(plan: Plan) -> list[str]:
    return [f"{m.name}: ambiguous ({m.how}): " + ", ".join(f"#{p.pk} {p.nickname}" for p in m.candidates)
            for m in plan.ambiguous]


def run_import(*, plan: Plan, dry_run: bool = False, by=None) -> ImportReport:
    """Write the plan (all or nothing); `dry_run` checks everything and writes nothing."""
    if plan.ambiguous:
        raise ImportFailed(ambiguous_lines(plan))
    try:
        with transaction.atomic():
            report = _write(plan, by)
            if dry_run:
                raise _DryRun(report)
    except _DryRun as done:
        return done.report
    except ImportFailed as exc:
        raise ImportFailed(_located(plan, exc.problems), _located(plan, exc.shown)) from exc
    return report


def _located(plan: Plan, lines: list[str]) -> list[str]:
    """The importer names a game by its tournament and number; the file's place of it is put in front."""
    places = {f"{g.tournament}: game {g.number}: ": f"{g.label}: game {g.number}: " for g in plan.games}
    out = []
    for line in lines:
        prefix = next((p for p in places if line.startswith(p)), None)
        out.append(places[prefix] + line[len(prefix):] if prefix else line)
    return out


def _join(plan: Plan) -> None:
    """A matched person of no club at all (a guest) becomes the importing club's member, so that the import finds
    him by his nickname instead of making a copy (`seat_club`)."""
    guests = [m.player for m in plan.matches if m.player is not None and m.player.club_id is None
              and not ClubMember.objects.filter(player=m.player).exists()]
    ClubMember.objects.bulk_create([ClubMember(player=p, club=plan.club) for p in guests], ignore_conflicts=True)


def _write(plan: Plan, by) -> ImportReport:
    _join(plan)
    documents = documents_of(plan)
    if documents:
        report = import_documents(documents=documents, club=plan.club, by=by)
    else:
        report = ImportReport(club=plan.club)
    _keep_ids(plan)
    return report


def _keep_ids(plan: Plan) -> None:
    club = plan.club
    players = {p.nickname_key: p for p in member_players(club).filter(
        nickname_key__in=[nickname_key(m.nickname) for m in plan.matches]).order_by("-pk")}
    for match in plan.matches:
        player = match.player or players.get(nickname_key(match.nickname))
        if match.external_id and player is not None:
            ExternalId.objects.update_or_create(club=club, source=plan.source, kind=ExternalId.Kind.PLAYER,
                                                external_id=match.external_id, defaults={"player": player})
    for planned in plan.games:
        if not planned.read.external_id:
            continue
        game = Game.objects.filter(tournament__club=club, tournament__name=planned.tournament,
                                   number=planned.number).first()
        if game is not None and planned.read.started and game.started_at is None:
            Game.objects.filter(pk=game.pk).update(started_at=dt.datetime.fromisoformat(planned.read.started))
        if game is not None:
            ExternalId.objects.update_or_create(club=club, source=plan.source, kind=ExternalId.Kind.GAME,
                                                external_id=planned.read.external_id, defaults={"game": game})



# ------------------------------------------------------------------------------------------- the upload page


def stash_upload(*, club: Club, by, fmt: str, files: list[tuple[str, bytes]], tournament: str = "",
                 ruleset: str = "") -> PendingHistoryImport:
    """Keep an upload whose files read without a problem (else `ImportFailed`) until the admin confirms it."""
    if not is_club_admin(by, club):
        raise PermissionDenied(_("Only a club admin may import protocols."))
    read_files(files, fmt)
    return PendingHistoryImport.objects.create(
        club=club, created_by=by, format=fmt, tournament=tournament.strip(), ruleset=ruleset.strip(),
        files=[{"name": name, "data": base64.b64encode(raw).decode()} for name, raw in files])


def pending_plan(pending: PendingHistoryImport, choices: dict[str, int | None] | None = None) -> Plan:
    files = [(f["name"], base64.b64decode(f["data"])) for f in pending.files]
    return plan_import(club=pending.club, games=read_files(files, pending.format),
                       source=SOURCE if pending.format == SOURCE else "sheet", tournament=pending.tournament or None,
                       ruleset=pending.ruleset or None, choices=choices)


def confirm_upload(*, pending: PendingHistoryImport, by, choices: dict[str, int | None]) -> ImportReport:
    """Import the kept upload with the admin's answers for the ambiguous names; the upload is then dropped."""
    if not is_club_admin(by, pending.club):
        raise PermissionDenied(_("Only a club admin may import protocols."))
    with transaction.atomic():
        report = run_import(plan=pending_plan(pending, choices), by=by)
        PendingHistoryImport.objects.filter(pk=pending.pk).delete()
    return report
