"""`python manage.py backup FILE`: a consistent copy of the site's database, safe while the site runs.

SQLite: SQLite's online backup API; PostgreSQL: `pg_dump --format=custom` (pg_dump not older than the server).
Exit 0 and one line naming the file; 1 with the reason on stderr. `manage.py restore FILE` loads it back.
"""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from club.backups import BackupError, backup


class Command(BaseCommand):
    help = "Back the database up into FILE (SQLite online backup, or pg_dump --format=custom)."

    def add_arguments(self, parser):
        parser.add_argument("file", metavar="FILE")

    def handle(self, *args, file, **options):
        try:
            kind = backup(Path(file))
        except BackupError as e:
            raise CommandError(f"backup: {e}") from e
        self.stdout.write(f"{file}: backup of the {kind} database written")
