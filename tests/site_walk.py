"""The demo club and the list of its pages that both site walks use (tests/test_site_crawl.py for the text,
tests/test_site_layout.py for the layout)."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.utils import timezone

from broadcast.models import OverlayToken
from club.models import Club, Membership, Player, PlayerClaim
from club.selectors_invitations import invitation_token
from club.services_invitations import invitation_create
from games.demo import DEMO_TOURNAMENT
from games.models import ClubEvening, Game, Protest, RuleSetVersion, Tournament
from games.permissions import played_in
from games.protests.services import protest_decide
from games.tournaments.signups.models import SignupSheet
from ratings.models import Season
from tests.league_world import league_pks, league_world
from tests.url_walk import Params, fill, routes

# Patterns that are not pages a person reads (and why), by URL name.
NOT_PAGES = {
    "admin": "Django's own admin: its texts are Django's catalogue; the admin is checked by the two-club tests",
    "set_language": "the language switch: a POST that redirects",
    "logout": "POST-only, redirects",
    "notify:webhook": "the Telegram bot's webhook: POST only, for Telegram (notify/tests)",
    "notify:club_calendar": "an iCalendar file, not a page (read back by icalendar in notify/tests)",
    "notify:my_calendar": "a player's secret iCalendar file, not a page (notify/tests)",
    "first_run": "the site's first run: a page only while the site has no user, a 404 on the demo "
                 "(club/tests/test_first_run.py walks it on an empty site)",
}

@dataclass
class Scene:
    ids: dict[str, list[int]]
    names: set[str] = field(default_factory=set)
    named: dict[str, list[str]] = field(default_factory=dict)  # free-text parameters the scene's objects give
    pks: dict[str, list[int]] = field(default_factory=dict)  # URL name → pks, where the path's word names no kind


# Documents of a tournament's seating schedule: a 404 until the organiser publishes one (the demo has none).
ABSENT_UNTIL_PUBLISHED = {"games:tournament_seating_json", "games:tournament_cards", "games:round_seating_pdf"}

# Pages that need a query to be a page at all (their bad-query answers are tested by the hostile-input tests).
QUERIES = {"games:round_sheets_pdf": ["?games=1-2"],
           "player_detail": ["", "?all=1"]}  # the card, and the whole card its sections' links open without scripts
NAMED = {"kind": ["undo"], "section": ["history", "partners", "games"],
         "uidb64": ["MQ"], "token": ["set-password"],  # a reset link that is no longer valid
         "overlay": ["demo-overlay-public", "demo-overlay-director"]}  # the tournament's two overlays (build_scene)


def site_urls(scene: Scene) -> tuple[list[tuple[str, str]], list[str]]:
    """(name, URL) of every page a person reads (not the admin, `NOT_PAGES` or DEBUG's static files), and the
    patterns the walk cannot fill."""
    # The read API (api-v1:…) answers programs in JSON; its answers are checked against its schema (api/tests).
    pages = [r for r in routes() if not r.is_admin and not r.is_regex and r.name not in NOT_PAGES
             and not r.name.startswith("api-v1:")]
    return fill(pages, Params(ids=scene.ids, pks=scene.pks, named={**NAMED, **scene.named}, queries=QUERIES,
                              hint="add its values to build_scene or NAMED in tests/site_walk.py (or its name to NOT_PAGES)"))


def _pending_history(club):
    """An uploaded results sheet waiting for the admin's confirmation (games/histories): two rows of a game."""
    from games.histories.services import stash_upload

    rows = "date,event,table,game,seat,nickname,role,result,fouls,best_move,first_night_killed,extra_points,extra_reason\n"
    rows += "".join(f"2026-11-01,Архив,1,1,{seat},Игрок {seat},{'К' if seat > 3 else 'Ч'},красные,0,,,,\n"
                    for seat in range(1, 11))
    admin = get_user_model().objects.get(username="admin")
    return stash_upload(club=club, by=admin, fmt="csv", files=[("history.csv", rows.encode())])


def build_scene() -> Scene:
    call_command("seed_demo", stdout=open("/dev/null", "w"))  # noqa: SIM115
    club = Club.objects.get()
    tournament = Tournament.objects.get(club=club, name=DEMO_TOURNAMENT)  # the demo also has an upcoming cup
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
    # decided by the head judge in a game he did not play (a head judge who sat at the table decides nothing of it)
    head = User.objects.get(username="headjudge")
    decided_game = next(g for g in finished[1:] if not played_in(head, g))
    decided_game.ended_at = timezone.now() - dt.timedelta(minutes=3)
    decided_game.save(update_fields=["ended_at"])
    filer_seat = decided_game.seats.select_related("player").get(number=2)
    decided = Protest.objects.create(game=decided_game, player=filer_seat.player, seat=2, filed_by=player_user,
                                     category="result", text="Результат записан неверно", filed_at=timezone.now())
    other = {"red": "black", "black": "red"}.get(decided_game.result, "red")
    protest_decide(protest=decided, by=head, decision="uphold", sk_representative="Лебедева",
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
        "signup_sheet": list(SignupSheet.objects.order_by("pk").values_list("pk", flat=True)),
        "claim": [claim.pk],
        "protest": [protest.pk, decided.pk],
        "game": [game.pk, decided_game.pk, finished.last().pk] + ([live.pk] if live else []),
        "history_import": [_pending_history(club).pk],
    }
    # People's own names (logins, nicknames) may be written in Latin letters.
    names = set(User.objects.values_list("username", flat=True)) | set(
        Player.objects.values_list("nickname", flat=True))
    # a staff invitation not used yet: its link's page (club/views_invitations.py)
    invitation = invitation_create(club=club, by=User.objects.get(username="admin"), role=Membership.Role.JUDGE)
    return Scene(ids=ids, names=names, named={"link": [invitation_token(invitation)]},
                 pks=league_pks(league_world(club, tournament)))




# ------------------------------------------------------------------------------------------ the judge's phases
# The judge's screen in every phase of a game (setup, day speeches, nominations, vote, night, the night whose shot
# ends the game, result, signed), each reached through the live actions themselves (games.live.apply).
JUDGE_PHASES = ("setup", "speeches", "nominations", "vote", "night", "last night", "result", "signed")


def judge_phase_games(scene: Scene) -> dict[str, int]:
    """A game of the demo tournament in each of `JUDGE_PHASES`, judged by "judge1": phase -> game id."""
    import uuid

    from games.demo import DEMO_LIVE_NUMBER
    from games.live.apply import live_apply
    from games.models import Seat

    tournament = Tournament.objects.get(pk=scene.ids["tournament"][0])
    judge = get_user_model().objects.get(username="judge1")
    players = list(tournament.club.players.filter(active=True).order_by("id")[:10])
    roles = ["К", "Д", "К", "К", "Ч", "К", "Ш", "К", "Ч", "К"]
    games = {}

    for offset, phase in enumerate(JUDGE_PHASES, start=1):
        game = Game.objects.create(club=tournament.club, tournament=tournament, ruleset=tournament.ruleset,
                                   number=DEMO_LIVE_NUMBER + offset, table=10 + offset, date=timezone.localdate(),
                                   judge=judge, judge_name=judge.username)
        seated = 6 if phase == "setup" else 10
        Seat.objects.bulk_create([Seat(game=game, number=n, player=players[n - 1],
                                       role=roles[n - 1] if phase != "setup" else "")
                                  for n in range(1, seated + 1)])

        def act(kind: str, game=game, **payload) -> None:
            version = Game.objects.values_list("version", flat=True).get(pk=game.pk)
            live_apply(game_id=game.pk, by=judge, kind=kind, payload={k: str(v) for k, v in payload.items()},
                       version=version, action_id=uuid.uuid4().hex)

        games[phase] = game.pk
        if phase == "setup":
            continue
        act("start")
        act("foul", seat=4, delta=1)
        act("speech")
        if phase == "speeches":
            continue
        act("nominate", by=2, nominee=5)
        if phase == "nominations":
            continue
        act("nominate", by=3, nominee=9)
        for _ in range(9):
            act("speech")
        if phase == "vote":
            continue
        act("votes", v5=6, v9=4)  # 5 leaves
        act("night")
        if phase == "night":
            continue
        # four reds removed by their 4th foul: the shot at 6 ends the game (reds 7, 10 against blacks 2, 9)
        for seat in (1, 3, 4, 8):
            for _ in range(3 if seat == 4 else 4):
                act("foul", seat=seat, delta=1)
        act("kill", seat=6)
        if phase == "last night":
            continue
        act("don_check", seat=7)
        act("sheriff_check", seat=2)
        act("result", result="black")
        if phase == "signed":
            act("sign")
    return games
