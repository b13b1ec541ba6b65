from django.core.management.base import BaseCommand

from club.demo import DEMO_LOGINS, seed_club
from games.demo import seed_games
from games.tournaments.signups.demo import seed_signups


class Command(BaseCommand):
    help = "Build the demo club (players, staff logins) and its demo games. Idempotent."

    def handle(self, *args, **options):
        club = seed_club()
        self.stdout.write(f"{club.name} ({club.city}): {club.players.count()} players")
        seed_games(club)
        self.stdout.write("games.demo.seed_games: done")
        seed_signups(club, stdout=self.stdout)
        self._print_logins()

    def _print_logins(self) -> None:
        rows = [
            (login.username, login.password, ", ".join(login.roles) or "player", login.nickname or "")
            for login in DEMO_LOGINS
        ]
        headers = ("login", "password", "roles", "player")
        widths = [max(len(str(row[i])) for row in [headers, *rows]) for i in range(len(headers))]
        line = "  ".join(f"{{:<{width}}}" for width in widths)
        self.stdout.write("")
        self.stdout.write("Demo logins (passwords of existing accounts are never reset):")
        self.stdout.write(line.format(*headers).rstrip())
        self.stdout.write(line.format(*("-" * width for width in widths)).rstrip())
        for row in rows:
            self.stdout.write(line.format(*row).rstrip())
