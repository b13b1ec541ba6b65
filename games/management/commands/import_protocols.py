"""`python manage.py import_protocols FILE [FILE ...] [--club NAME]` — a contract: keep the name and options."""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from club.services import ServiceError
from games.services import ImportFailed, import_documents


class Command(BaseCommand):
    help = "Import mafclub/1 JSON protocols, all files in one transaction (nothing is written on any error)."

    def add_arguments(self, parser):
        parser.add_argument("files", nargs="+", metavar="FILE")
        parser.add_argument("--club", help="the club (created when missing); default: the site's only club")

    def handle(self, *args, files, club=None, **options):
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
