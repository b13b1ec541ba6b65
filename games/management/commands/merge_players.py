"""`python manage.py merge_players KEEP OTHER [--dry-run]` — merge player OTHER into player KEEP (ids), as the
merge page does (games.people.services): everything of OTHER moves to KEEP in one transaction, the ratings and
the Elo are recomputed, OTHER's card redirects to KEEP's. `--dry-run` prints what would move and changes
nothing. Refused, with the reason, when the two sat in one game."""

from django.core.management.base import BaseCommand, CommandError

from club.models import Player
from club.services import ServiceError
from games.people.services import merge_players


class Command(BaseCommand):
    help = "Merge player OTHER into player KEEP (ids); --dry-run prints what would move."

    def add_arguments(self, parser):
        parser.add_argument("keep", type=int, metavar="KEEP")
        parser.add_argument("other", type=int, metavar="OTHER")
        parser.add_argument("--dry-run", action="store_true")

    def handle(self, *args, keep, other, dry_run=False, **options):
        players = Player.objects.in_bulk([keep, other])
        for name, pk in (("KEEP", keep), ("OTHER", other)):
            if pk not in players:
                raise CommandError(f"{name}: no player with id {pk}")
        try:
            plan = merge_players(keep=players[keep], other=players[other], dry_run=dry_run)
        except ServiceError as exc:
            raise CommandError(f"refused: {exc.message}") from exc
        self.stdout.write(f"{'would move' if dry_run else 'moved'}: {plan.other.nickname} #{other} -> "
                          f"{plan.keep.nickname} #{keep}")
        for key, count in plan.moved.items():  # the plan's keys: a stable output for scripts
            self.stdout.write(f"  {key}: {count}")
