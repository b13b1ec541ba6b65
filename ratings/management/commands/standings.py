"""`python manage.py standings --tournament NAME [--format table|json|csv]` — a contract: keep the name."""

import csv
import io
import json

from django.core.management.base import BaseCommand

from games.management.commands.export_protocols import find_tournament
from ratings.standings.csv_cells import safe_row
from ratings.standings.selectors import standings_json, standings_recomputing


class Command(BaseCommand):
    help = "Print a tournament's standings, ordered by total and the rule set's tie-breakers."

    def add_arguments(self, parser):
        parser.add_argument("--tournament", required=True, metavar="NAME")
        parser.add_argument("--club", metavar="NAME")
        parser.add_argument("--format", choices=["table", "json", "csv"], default="table")

    def handle(self, *args, tournament, club=None, format="table", **options):
        found = find_tournament(tournament, club)
        data = standings_json(found)
        if standings_recomputing(found):  # on stderr: stdout keeps its formats
            self.stderr.write("note: the ratings of this tournament are still being recomputed (the task worker, "
                              "manage.py db_worker, is on it); run this again when it is done")
        if format == "json":
            self.stdout.write(json.dumps(data, ensure_ascii=False, indent=2))
            return
        columns = ["rank", "player", "games", "wins", "main", "extras", "total"]
        if format == "csv":
            buffer = io.StringIO()
            writer = csv.writer(buffer, lineterminator="\n")
            writer.writerow(columns)
            for row in data["rows"]:
                writer.writerow(safe_row([row[c] for c in columns]))  # text never read as a formula
            self.stdout.write(buffer.getvalue(), ending="")
            return
        widths = {c: max([len(c)] + [len(str(r[c])) for r in data["rows"]]) for c in columns}
        self.stdout.write(data["tournament"])
        self.stdout.write("  ".join(c.ljust(widths[c]) for c in columns))
        for row in data["rows"]:
            self.stdout.write("  ".join(str(row[c]).ljust(widths[c]) for c in columns))
