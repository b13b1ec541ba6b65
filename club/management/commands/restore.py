"""`python manage.py restore FILE [--force]`: load a backup made by `manage.py backup` into the site's database.

Refuses a database that already holds data (logins, clubs or players) unless --force, which replaces all of
it. Stop the site and the task workers first. Exit 0 when restored; 2 when refused because the database holds
data; 1 for any other problem (no file, the wrong kind of backup, a damaged file, pg_restore failing — the database
is then unchanged), the reason on stderr.
"""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from club.backups import BackupError, NotEmpty, restore


class Command(BaseCommand):
    help = "Restore the database from a backup FILE made by manage.py backup."

    def add_arguments(self, parser):
        parser.add_argument("file", metavar="FILE")
        parser.add_argument("--force", action="store_true", help="replace a database that already holds data")

    def handle(self, *args, file, force=False, **options):
        try:
            kind = restore(Path(file), force=force)
        except NotEmpty as e:
            raise CommandError(f"restore: {e}", returncode=2) from e
        except BackupError as e:
            raise CommandError(f"restore: {e}") from e
        self.stdout.write(f"{file}: restored into the {kind} database")
