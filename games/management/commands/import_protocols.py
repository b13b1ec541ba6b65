"""`python manage.py import_protocols FILE [FILE ...] [--club NAME]` — a contract: keep the name and options.

`--format mafiaratings|xlsx|csv` reads a club's history in another format (docs/imports.md) with `--ruleset`,
`--tournament` (all games into that tournament, made if absent) and `--dry-run` (check and print, write nothing);
the players' matching is printed, and an ambiguous name stops the import with its candidates.

The import queues the ratings' recomputes (Elo, rating history) for the task worker; the command line then runs
them itself (as `manage.py db_worker --batch` would) and waits for any a running worker took, so that
`manage.py elo` and `standings` right after it show the new figures. `--no-wait` leaves them to the site's worker.
"""

import io
import time
from pathlib import Path

from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError
from django_tasks import DEFAULT_TASK_BACKEND_ALIAS, task_backends
from django_tasks_db.backend import DatabaseBackend

from club import task_queue
from club.services import ServiceError
from games.histories.importing import HISTORY_FORMATS, import_history
from games.protocol.services.imports import ImportFailed, import_documents

WAIT_SECONDS = 600  # the longest the command waits for a recompute another worker runs


class Command(BaseCommand):
    help = "Import mafclub/1 JSON protocols, all files in one transaction (nothing is written on any error)."

    def add_arguments(self, parser):
        parser.add_argument("files", nargs="+", metavar="FILE")
        parser.add_argument("--club", help="the club (created when missing); default: the site's only club")
        parser.add_argument("--format", default="mafclub", choices=["mafclub", *HISTORY_FORMATS],
                            help="the files' format (default mafclub/1 JSON)")
        parser.add_argument("--ruleset", help="the rule set of the games (other formats; default the club's)")
        parser.add_argument("--tournament", help="put every game into this tournament (other formats)")
        parser.add_argument("--dry-run", action="store_true", help="check and print, write nothing (other formats)")
        parser.add_argument("--no-wait", action="store_true",
                            help="leave the rating recomputes to the site's task worker (manage.py db_worker)")

    def handle(self, *args, files, club=None, no_wait=False, **options):
        if options.get("format", "mafclub") != "mafclub":
            import_history(self, files=files, club=club, fmt=options["format"], ruleset=options.get("ruleset"),
                           tournament=options.get("tournament"), dry_run=options.get("dry_run", False))
            if not options.get("dry_run") and not no_wait:
                self.finish_recomputes()
            return
        documents = []
        for name in files:
            try:
                documents.append((name, Path(name).read_bytes()))
            except OSError as exc:
                raise CommandError(f"{name}: cannot read: {exc.strerror}") from exc
        try:
            report = import_documents(documents=documents, club_name=club)
        except ImportFailed as exc:
            for line in exc.problems:
                self.stderr.write(line)
            raise CommandError(f"{len(exc.problems)} problem(s); nothing was imported") from exc
        except ServiceError as exc:
            raise CommandError(str(exc)) from exc
        for line in report.warnings:
            self.stderr.write(f"warning: {line}")
        names = ", ".join(t.name for t in report.tournaments)
        self.stdout.write(self.style.SUCCESS(
            f"Imported into {report.club.name}: {report.created} new game(s), {report.updated} updated, "
            f"{report.players_created} new player(s); tournament(s): {names}"))
        if no_wait:
            self.stdout.write("The ratings are recomputed by the site's task worker (manage.py db_worker).")
        else:
            self.finish_recomputes()

    def finish_recomputes(self) -> None:
        """Run the queued tasks here, then wait (with a progress line) for those a running worker holds."""
        if not isinstance(task_backends[DEFAULT_TASK_BACKEND_ALIAS], DatabaseBackend):
            return  # the immediate backend ran them inside the import
        deadline = time.monotonic() + WAIT_SECONDS
        while True:
            call_command("db_worker", batch=True, startup_delay=False, reload=False, queue_name="*", verbosity=0,
                         stdout=io.StringIO(), stderr=io.StringIO())
            state = task_queue.summary()
            left = state["queued"] + state["running"]
            if not left:
                self.stdout.write("Ratings recomputed.")
                return
            if time.monotonic() > deadline:
                self.stderr.write(f"warning: {left} recompute(s) still running; manage.py elo and standings say so")
                return
            self.stderr.write(f"recomputing the ratings: {state['queued']} queued, {state['running']} running …")
            time.sleep(1)
