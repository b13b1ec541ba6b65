"""`python manage.py rebuild_ratings [--club NAME] [--format text|json]` — rebuild the stored ratings (every game's
facts, every scope's table and history, every club's Elo) from the protocols, while the site runs
(`ratings.standings.rebuild`). Progress goes to stderr; stdout keeps the summary."""

import json

from django.core.management.base import BaseCommand, CommandError

from club.models import Club
from ratings.standings.rebuild import rebuild

PASSES = {"facts": "games' facts", "scopes": "tables and histories", "elo": "Elo"}


class Command(BaseCommand):
    help = "Rebuild the stored ratings from the protocols (all clubs, or one), safely beside the running site."

    def add_arguments(self, parser):
        parser.add_argument("--club", metavar="NAME", help="only this club (its name)")
        parser.add_argument("--workers", type=int, metavar="N",
                            help="processes on PostgreSQL (default: settings.REBUILD_WORKERS; SQLite uses one)")
        parser.add_argument("--format", choices=["text", "json"], default="text")

    def handle(self, *args, club=None, workers=None, format="text", **options):
        found = None
        if club is not None:
            found = Club.objects.filter(name=club).first()
            if found is None:
                raise CommandError(f"--club: no club named {club!r}")
        if workers is not None and workers < 1:
            raise CommandError("--workers: at least 1")

        def progress(name: str, done: int, total: int) -> None:
            self.stderr.write(f"\r{PASSES[name]}: {done}/{total}", ending="\n" if done == total else "")
            self.stderr.flush()

        summary = rebuild(found, workers=workers, progress=progress)
        if format == "json":
            self.stdout.write(json.dumps(summary.as_dict()))
            return
        self.stdout.write(f"rebuilt {summary.clubs} club(s): {summary.games} games ({summary.games_changed} with "
                          f"changed facts), {summary.players} players, {summary.scopes} scopes")
