"""`manage.py series create|add-tournament|standings` — a contract (docs/leagues.md).

    series create NAME --league LEAGUE --gaining FILE.json [--from DATE --to DATE]
    series add-tournament SERIES TOURNAMENT --stars 2.5 [--finals]
    series standings SERIES [--format table|json|csv]
        json: {"series", "gaining_version", "rows": [{"rank", "player", "club", "total",
               "tournaments": [{"tournament", "place", "points", "counted"}]}]}

Bad input exits 1 with one line per problem, naming it, and changes nothing. The gaining file makes the league's
table of its name (or a new version of it when it differs)."""

from __future__ import annotations

import csv
import datetime as dt
import json
import sys

from django.core.management.base import BaseCommand, CommandError, no_translations
from django.db import transaction

from club.services import ServiceError
from leagues import exports, gaining, lookup, selectors, services
from leagues.models import GainingTable


class Command(BaseCommand):
    help = "Create a series, add a tournament to it, or print its standings."

    def add_arguments(self, parser):
        sub = parser.add_subparsers(dest="action", required=True)
        create = sub.add_parser("create")
        create.add_argument("name")
        create.add_argument("--league", required=True)
        create.add_argument("--gaining", required=True, metavar="FILE.json")
        create.add_argument("--from", dest="start", metavar="DATE")
        create.add_argument("--to", dest="end", metavar="DATE")
        add = sub.add_parser("add-tournament")
        add.add_argument("series")
        add.add_argument("tournament")
        add.add_argument("--stars", required=True)
        add.add_argument("--finals", action="store_true")
        standings = sub.add_parser("standings")
        standings.add_argument("series")
        standings.add_argument("--format", choices=["table", "json", "csv"], default="table")

    @no_translations  # the command line speaks English (its messages are the msgids)
    def handle(self, *args, action, **options):
        try:
            {"create": self._create, "add-tournament": self._add_tournament, "standings": self._standings}[action](options)
        except lookup.NotFound as exc:
            raise CommandError(str(exc)) from exc
        except ServiceError as exc:
            raise CommandError(exc.message) from exc

    def _create(self, options) -> None:
        problems = []
        try:
            league = lookup.league(options["league"])
        except lookup.NotFound as exc:
            problems.append(str(exc))
        data = _read_json(options["gaining"], problems)
        if data is not None:
            try:
                gaining.parse(data)
            except gaining.TableError as exc:
                problems.extend(f"{options['gaining']}: {p}" for p in exc.problems)
        start, end = _date(options["start"], "--from", problems), _date(options["end"], "--to", problems)
        if problems:
            raise CommandError("\n".join(problems))
        with transaction.atomic():
            table = GainingTable.objects.filter(league=league, name=str(data["name"]).strip()).first()
            version = (services.table_update(table=table, data=data, by=None) if table
                       else services.table_create(league=league, data=data))
            series = services.series_create(league=league, name=options["name"], version=version, start=start, end=end)
        self.stdout.write(f"series {series.name} created ({version.table.name} v{version.number})")

    def _add_tournament(self, options) -> None:
        series = lookup.series(options["series"])
        tournament = lookup.tournament(options["tournament"])
        entry = services.series_add_tournament(series=series, tournament=tournament, stars=options["stars"],
                                               finals=options["finals"])
        self.stdout.write(f"{tournament.name} added to {series.name} ({entry.stars} stars"
                          f"{', finals' if entry.finals else ''})")

    def _standings(self, options) -> None:
        series = lookup.series(options["series"])
        data = selectors.series_standings(series)
        if options["format"] == "json":
            self.stdout.write(json.dumps(exports.contract_json(data), ensure_ascii=False, indent=2))
        elif options["format"] == "csv":
            writer = csv.writer(self.stdout)
            for row in exports.csv_rows(data):
                writer.writerow(row)
        else:
            self.stdout.write(f"{data['series']} · {data['gaining_table']} v{data['gaining_version']}")
            for row in data["rows"]:
                self.stdout.write(f"{row['rank']:>4}  {row['player']:<30} {row['club']:<24} {row['total']:>9.2f}")


def _read_json(path: str, problems: list[str]):
    try:
        with open(path, encoding="utf-8") if path != "-" else sys.stdin as handle:
            return json.load(handle)
    except OSError as exc:
        problems.append(f"--gaining: cannot read {path}: {exc.strerror}")
    except (ValueError, RecursionError) as exc:
        problems.append(f"--gaining: {path} is not JSON: {exc}")
    return None


def _date(value: str | None, name: str, problems: list[str]) -> dt.date | None:
    if not value:
        return None
    try:
        return dt.date.fromisoformat(value)
    except ValueError:
        problems.append(f"{name}: a date YYYY-MM-DD is expected ({value!r})")
        return None
