"""`python manage.py export_protocols --tournament NAME [-o FILE]` — a contract: keep the name and options."""

import json

from django.core.management.base import BaseCommand, CommandError

from games.histories.selectors import export_mafiaratings
from games.models import Tournament
from games.protocol.selectors_export import export_tournament


def find_tournament(name: str, club: str | None = None) -> Tournament:
    qs = Tournament.objects.filter(name=name)
    if club:
        qs = qs.filter(club__name=club)
    found = list(qs[:2])
    if not found:
        raise CommandError(f"no tournament named {name!r}")
    if len(found) > 1:
        raise CommandError(f"several clubs have a tournament named {name!r}; name the club with --club")
    return found[0]


class Command(BaseCommand):
    help = "Export a tournament's protocols as mafclub/1 JSON, with a computed score per seat."

    def add_arguments(self, parser):
        parser.add_argument("--tournament", required=True, metavar="NAME")
        parser.add_argument("--club", metavar="NAME")
        parser.add_argument("-o", "--output", metavar="FILE")
        parser.add_argument("--format", default="mafclub", choices=["mafclub", "mafiaratings"],
                            help="mafclub/1 (default) or MafiaRatings' game format (docs/imports.md)")

    def handle(self, *args, tournament, club=None, output=None, **options):
        if options.get("format") == "mafiaratings":
            data, lost = export_mafiaratings(find_tournament(tournament, club))
            for line in lost:
                self.stderr.write(f"not carried: {line}")
        else:
            data = export_tournament(find_tournament(tournament, club))
        text = json.dumps(data, ensure_ascii=False, indent=2) + "\n"
        if output:
            with open(output, "w", encoding="utf-8") as fh:
                fh.write(text)
            self.stdout.write(self.style.SUCCESS(f"{len(data['games'])} game(s) written to {output}"))
        else:
            self.stdout.write(text, ending="")
