"""The demo club and the list of its pages that both site walks use (tests/test_site_crawl.py for the text,
tests/test_site_layout.py for the layout)."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.utils import timezone

from broadcast.models import OverlayToken
from club.models import Club, Player, PlayerClaim
from games.models import ClubEvening, Game, Protest, RuleSetVersion, Tournament
from games.protests import protest_decide
from ratings.models import Season
from tests.url_walk import Params, fill, routes

# Patterns that are not pages a person reads (and why), by URL name.
NOT_PAGES = {
    "admin": "Django's own admin: its texts are Django's catalogue; the admin is checked by the two-club tests",
    "set_language": "the language switch: a POST that redirects",
    "logout": "POST-only, redirects",
}

@dataclass
class Scene:
    ids: dict[str, list[int]]
    names: set[str] = field(default_factory=set)


# Documents of a tournament's seating schedule: a 404 until the organiser publishes one (the demo has none).
ABSENT_UNTIL_PUBLISHED = {"games:tournament_seating_json", "games:tournament_cards", "games:round_seating_pdf"}

# Pages that need a query to be a page at all (their bad-query answers are tested by the hostile-input tests).
QUERIES = {"games:round_sheets_pdf": ["?games=1-2"]}
NAMED = {"kind": ["undo"], "uidb64": ["MQ"], "token": ["set-password"],  # a reset link that is no longer valid
         "overlay": ["demo-overlay-public", "demo-overlay-director"]}  # the tournament's two overlays (build_scene)


def site_urls(scene: Scene) -> tuple[list[tuple[str, str]], list[str]]:
    """(name, URL) of every page a person reads (not the admin, `NOT_PAGES` or DEBUG's static files), and the
    patterns the walk cannot fill."""
    pages = [r for r in routes() if not r.is_admin and not r.is_regex and r.name not in NOT_PAGES]
    return fill(pages, Params(ids=scene.ids, named=NAMED, queries=QUERIES,
                              hint="add its values to build_scene or NAMED in tests/site_walk.py (or its name to NOT_PAGES)"))


def build_scene() -> Scene:
    call_command("seed_demo", stdout=open("/dev/null", "w"))  # noqa: SIM115
    club = Club.objects.get()
    tournament = Tournament.objects.get(club=club)
    finished = Game.objects.filter(tournament=tournament, status__in=["finished", "signed"]).order_by("number")
    live = Game.objects.exclude(status__in=["finished", "signed"]).filter(tournament=tournament).first()
    User = get_user_model()
    player_user = User.objects.get(username="player")
    season, _ = Season.objects.get_or_create(club=club, start=dt.date(2026, 1, 1), end=dt.date(2026, 12, 31),
                                             defaults={"name": "2026"})  # the club's scoring may have made it
    evening = ClubEvening.objects.create(club=club, date=dt.date(2026, 11, 20), ruleset=tournament.ruleset)
    game = finished.first()
    game.ended_at = timezone.now() - dt.timedelta(minutes=2)
    game.save(update_fields=["ended_at"])
    seat = game.seats.get(number=4)
    protest = Protest.objects.create(game=game, player=seat.player, seat=4, filed_by=player_user,
                                     category="result", text="Судья не дал последнее слово", filed_at=timezone.now())
    # A decided protest that reversed a result and added a penalty: its outcomes are shown as words, never codes.
    decided_game = finished[1]
    decided_game.ended_at = timezone.now() - dt.timedelta(minutes=3)
    decided_game.save(update_fields=["ended_at"])
    filer_seat = decided_game.seats.select_related("player").get(number=2)
    decided = Protest.objects.create(game=decided_game, player=filer_seat.player, seat=2, filed_by=player_user,
                                     category="result", text="Результат записан неверно", filed_at=timezone.now())
    other = {"red": "black", "black": "red"}.get(decided_game.result, "red")
    protest_decide(protest=decided, by=User.objects.get(username="headjudge"), decision="uphold", sk_representative="Лебедева",
                   explanation="Пересчитали голоса",
                   outcomes=[{"kind": "reverse_result", "result": other},
                             {"kind": "add_penalty", "seat": 3, "points": "-0.5", "clause": "002 II.2.1"}])
    claimant = User.objects.create_user("newcomer", password="x-demo-2026")
    free = Player.objects.filter(club=club, user__isnull=True).first()
    claim = PlayerClaim.objects.create(user=claimant, player=free)
    busiest = Player.objects.filter(club=club).order_by("-seats__game__id").first()
    for kind in OverlayToken.Kind.values:
        OverlayToken.objects.create(club=club, tournament=tournament, kind=kind, token=f"demo-overlay-{kind}")
    ids = {
        "table": [1],
        "player": [busiest.pk],
        "tournament": [tournament.pk],
        "ruleset": [RuleSetVersion.objects.filter(club__isnull=True).order_by("pk").first().pk],
        "season": [season.pk],
        "round": [1],
        "evening": [evening.pk],
        "claim": [claim.pk],
        "protest": [protest.pk, decided.pk],
        "game": [game.pk, decided_game.pk, finished.last().pk] + ([live.pk] if live else []),
    }
    # People's own names (logins, nicknames) may be written in Latin letters.
    names = set(User.objects.values_list("username", flat=True)) | set(
        Player.objects.values_list("nickname", flat=True))
    return Scene(ids=ids, names=names)


