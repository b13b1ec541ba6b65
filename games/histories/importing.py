"""The command line's side of a history import (`manage.py import_protocols --format …`): read the files, print the
players' matching and what mafclub cannot keep, refuse an ambiguous name, import or (with --dry-run) only check."""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import CommandError
from django.db import transaction

from club.services import ServiceError
from games.histories.mafiaratings import SOURCE
from games.histories.matching import AMBIGUOUS, where
from games.histories.services import plan_import, read_files, run_import
from games.protocol.services.imports import ImportFailed, resolve_club

HISTORY_FORMATS = ("mafiaratings", "xlsx", "csv", "protocol-xlsx", "protocol-csv")


def _read(files: list[str]) -> list[tuple[str, bytes]]:
    out = []
    for name in files:
        try:
            out.append((name, Path(name).read_bytes()))
        except OSError as exc:
            raise CommandError(f"{name}: cannot read: {exc.strerror}") from exc
    return out


def import_history(command, *, files: list[str], club: str | None, fmt: str, ruleset: str | None,
                   tournament: str | None, dry_run: bool) -> None:
    try:
        with transaction.atomic():  # a dry run writes nothing, not even a club named by --club
            plan, report = _run(command, files=files, club=club, fmt=fmt, ruleset=ruleset, tournament=tournament,
                                dry_run=dry_run)
            if dry_run:
                transaction.set_rollback(True)
    except ImportFailed as exc:
        for line in exc.problems:
            command.stderr.write(line)
        raise CommandError(f"{len(exc.problems)} problem(s); nothing was imported") from exc
    except ServiceError as exc:
        raise CommandError(str(exc)) from exc
    unchanged = sum(1 for g in plan.games if g.unchanged)
    names = ", ".join(sorted({g.tournament for g in plan.games}))
    prefix = "Dry run (nothing written): would import" if dry_run else "Imported"
    command.stdout.write(command.style.SUCCESS(
        f"{prefix} into {plan.club.name}: {report.created} new game(s), {report.updated} updated, "
        f"{unchanged} unchanged, {report.players_created} new player(s); tournament(s): {names}"))


def _run(command, *, files, club, fmt, ruleset, tournament, dry_run):
    """Read, match (printing the mapping and what is not kept), refuse an ambiguous name, import."""
    games = read_files(_read(files), fmt)
    target = resolve_club(club)
    plan = plan_import(club=target, games=games, source=SOURCE if fmt == SOURCE else "sheet", tournament=tournament, ruleset=ruleset)
    for match in plan.matches:
        found = f"#{match.player.pk} {match.player.nickname}" if match.player is not None else ""
        others = ", ".join(f"#{p.pk} {p.nickname} ({where(p)})" for p in match.candidates)
        command.stdout.write(f"player {match.name}: {match.status}"
                             + (f" by {match.how}" if match.how else "") + (f": {found}" if found else "")
                             + (f"; candidates: {others}" if others else ""))
    for line in plan.lost:
        command.stderr.write(f"not kept: {line}")
    if plan.ambiguous:
        raise CommandError(f"{len(plan.ambiguous)} ambiguous name(s); nothing was imported: "
                           + "; ".join(f"{m.name}: " + ", ".join(f"#{p.pk} {p.nickname}" for p in m.candidates)
                                       for m in plan.ambiguous if m.status == AMBIGUOUS))
    return plan, run_import(plan=plan, dry_run=dry_run)
