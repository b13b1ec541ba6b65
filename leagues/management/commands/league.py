"""`manage.py league create NAME [--manager USERNAME ...]` and `manage.py league add-club LEAGUE CLUB` — a contract
(docs/leagues.md). Bad input exits 1 with one line per problem, naming it, and changes nothing."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError, no_translations

from club.services import ServiceError
from leagues import lookup, services


class Command(BaseCommand):
    help = "Create a league, or add a club to one (as if both sides had accepted)."

    def add_arguments(self, parser):
        sub = parser.add_subparsers(dest="action", required=True)
        create = sub.add_parser("create")
        create.add_argument("name")
        create.add_argument("--manager", action="append", default=[], metavar="USERNAME")
        create.add_argument("--ruleset", action="append", default=[], metavar="CODE",
                            help="a rule-set code the league's series may use (repeat; none: every rule set)")
        add = sub.add_parser("add-club")
        add.add_argument("league")
        add.add_argument("club")

    @no_translations  # the command line speaks English (its messages are the msgids)
    def handle(self, *args, action, **options):
        try:
            if action == "create":
                self._create(options["name"], options["manager"], options["ruleset"])
            else:
                membership = services.league_add_club(league=lookup.league(options["league"]),
                                                      club=lookup.club(options["club"]))
                self.stdout.write(f"{membership.club.name} is a member of {membership.league.name}")
        except lookup.NotFound as exc:
            raise CommandError(str(exc)) from exc
        except ServiceError as exc:
            raise CommandError(exc.message) from exc

    def _create(self, name: str, managers: list[str], rulesets: list[str]) -> None:
        problems, users = [], []
        for username in managers:
            try:
                users.append(lookup.user(username))
            except lookup.NotFound as exc:
                problems.append(str(exc))
        if problems:
            raise CommandError("\n".join(problems))
        league = services.league_create(name=name, managers=users, rulesets=rulesets)
        self.stdout.write(f"league {league.name} created")
