"""`python manage.py elo [--club NAME] [--format table|json]` — a contract: keep the name and the JSON.

JSON: `{"rows": [{"player": NAME, "elo": NUMBER, "games": N}]}`, highest Elo first (docs/elo.md).
"""

import json

from django.core.management.base import BaseCommand, CommandError

from club.models import Club
from ratings.elo.selectors import elo_json, recomputing


class Command(BaseCommand):
    help = "Print the club's Elo table (highest first)."

    def add_arguments(self, parser):
        parser.add_argument("--club", metavar="NAME")
        parser.add_argument("--format", choices=["table", "json"], default="table")

    def handle(self, *args, club=None, format="table", **options):
        if club:
            found = Club.objects.filter(name=club.strip()).first()
            if found is None:
                raise CommandError(f"--club: no club named {club!r}")
        else:
            clubs = list(Club.objects.order_by("pk")[:2])
            if len(clubs) > 1:
                raise CommandError("--club: there are several clubs on this site; name one")
            found = clubs[0] if clubs else None
        data = elo_json(found)
        if recomputing(found):  # on stderr: the JSON on stdout keeps its contract
            self.stderr.write("note: the Elo figures are still being recomputed (the task worker, manage.py db_worker, "
                              "is on it); run this again when it is done")
        if format == "json":
            self.stdout.write(json.dumps(data, ensure_ascii=False, indent=2))
            return
        for i, row in enumerate(data["rows"], start=1):
            self.stdout.write(f"{i:>4}  {row['player']:<30} {row['elo']:>8.1f}  {row['games']}")
