"""Reading never writes: every GET URL pattern of the site, crawled over the demo data as anonymous, player, judge,
head judge and admin, runs no INSERT, UPDATE or DELETE — except on the session, the login throttle (django-axes)
and a database cache table, which are bookkeeping of the request itself, not the site's data.

The URL list is built from the URL configuration itself (tests/url_walk.py), so a new pattern is crawled without
editing this file; a pattern whose parameters this file gives no value for makes the test fail (add its objects to
`pk_values`, or its values to `params`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import pytest
from django.apps import apps
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.contenttypes.models import ContentType
from django.core.management import call_command
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from club.models import Club, Player, PlayerClaim
from games.demo import DEMO_LIVE_NUMBER, DEMO_TOURNAMENT
from games.models import ClubEvening, Game, Protest, Tournament
from games.rulesets.services import ruleset_copy
from games.tournaments.signups.models import SignupSheet
from ratings.models import Season
from tests.league_world import league_pks, league_world
from tests.url_walk import Params, fill, routes

pytestmark = pytest.mark.django_db

ROLES = (None, "player", "judge1", "headjudge", "admin")  # None: anonymous
WRITE = re.compile(r'^\s*(?:INSERT\s+INTO|UPDATE|DELETE\s+FROM)\s+["`]?(\w+)', re.IGNORECASE)


def exempt_tables() -> set[str]:
    tables = {"django_session"}
    tables |= {m._meta.db_table for m in _axes_models()}
    for cache in settings.CACHES.values():
        if cache.get("BACKEND", "").endswith("DatabaseCache"):
            tables.add(cache["LOCATION"])
    return tables


def _axes_models():
    from django.apps import apps

    return apps.get_app_config("axes").get_models() if apps.is_installed("axes") else []


@dataclass
class World:
    tournament: Tournament
    empty_tournament: Tournament
    finished: Game
    live: Game
    player: Player
    pending: Protest
    decided: Protest
    claim: PlayerClaim
    evening: ClubEvening
    season: Season
    club_rules: int
    preset_rules: int
    league: dict[str, int]


@pytest.fixture
def world(db) -> World:
    call_command("seed_demo", stdout=open("/dev/null", "w"))  # noqa: SIM115
    club = Club.objects.get()
    User = get_user_model()
    tournament = Tournament.objects.get(name=DEMO_TOURNAMENT)
    finished = tournament.games.filter(status=Game.Status.FINISHED).order_by("number").last()
    live = tournament.games.get(number=DEMO_LIVE_NUMBER)
    player = Player.objects.get(user__username="player")
    now = timezone.now()
    pending = Protest.objects.create(game=finished, filed_by=User.objects.get(username="player"),
                                     category=Protest.Category.RESULT, text="the result is wrong", filed_at=now)
    other = tournament.games.filter(status=Game.Status.FINISHED).order_by("number").first()
    decided = Protest.objects.create(game=other, filed_by=User.objects.get(username="judge2"),
                                     category=Protest.Category.RESULT, text="a foul was missed", filed_at=now,
                                     status=Protest.Status.REJECTED, decided_at=now,
                                     decided_by=User.objects.get(username="headjudge"), explanation="no evidence")
    outsider = User.objects.create_user("outsider", password="x-outsider-2026")
    claim = PlayerClaim.objects.create(user=outsider, player=Player.objects.filter(user=None).first())
    evening = ClubEvening.objects.create(club=club, date=now.date(), name="Вечер", ruleset=tournament.ruleset)
    copy = ruleset_copy(club=club, by=User.objects.get(username="admin"), source=tournament.ruleset,
                        name="Правила клуба", slug="club-rules")
    empty = Tournament.objects.create(club=club, name="Ещё не сыгран", ruleset=tournament.ruleset)
    OverlayToken = apps.get_model("broadcast", "OverlayToken")  # a higher layer's model: no import from here
    # an uploaded history waiting for its admin's confirmation (games/histories): its review page reads only
    apps.get_model("games", "PendingHistoryImport").objects.create(
        club=club, created_by=User.objects.get(username="admin"), format="csv",
        files=[{"name": "history.csv", "data": ""}])
    for kind in OverlayToken.Kind.values:  # the overlays' pages read the game in play, the standings, a player
        OverlayToken.objects.create(club=club, tournament=tournament, kind=kind, token=f"world-overlay-{kind}")
    return World(tournament=tournament, empty_tournament=empty, finished=finished, live=live, player=player,
                 pending=pending, decided=decided, claim=claim, evening=evening, season=Season.objects.get(club=club),
                 club_rules=copy.pk, preset_rules=tournament.ruleset_id, league=league_world(club, tournament))


def pk_values(w: World) -> dict[str, list[int]]:
    """The objects each named pattern with a `pk` is crawled with (several where the page has branches)."""
    games = [w.finished.pk, w.live.pk]
    tournaments = [w.tournament.pk, w.empty_tournament.pk]
    return {
        "player_detail": [w.player.pk], "player_edit": [w.player.pk], "player_claim": [w.player.pk],
        "player_photo": [w.player.pk], "player_card_section": [w.player.pk], "player_everywhere": [w.player.pk],
        "player_login_create": [w.player.pk], "claim_decide": [w.claim.pk],
        "player_member_add": [w.player.pk], "player_member_end": [w.player.pk],
        "games:tournament_detail": tournaments, "games:tournament_json": tournaments,
        "games:tournament_mafiaratings": tournaments,
        "games:history_review": list(apps.get_model("games", "PendingHistoryImport").objects.values_list("pk", flat=True)),
        "games:round_sheets_pdf": [w.tournament.pk],
        "games:ruleset_detail": [w.preset_rules, w.club_rules], "games:ruleset_copy": [w.preset_rules],
        "games:ruleset_edit": [w.club_rules], "games:ruleset_default": [w.club_rules],
        "games:game_detail": games, "games:game_json": games, "games:protocol_pdf": [w.finished.pk],
        "games:evening_detail": [w.evening.pk],
        # the demo's sign-ups: tonight's club evening and the upcoming cup (games/tournaments/signups/demo.py)
        **{name: list(SignupSheet.objects.order_by("pk").values_list("pk", flat=True)) for name in (
            "games:signup_sheet", "games:signup_join", "games:signup_leave", "games:signup_remove", "games:signup_add",
            "games:signup_convert", "games:signup_paste")},
        "games:evening_table_take": games,
        "games:evening_signup_edit": [w.evening.pk] + list(
            SignupSheet.objects.exclude(evening=None).values_list("evening_id", flat=True)),
        "games:tournament_signup_edit": tournaments,
        "games:tournament_participants": tournaments, "games:tournament_schedule": tournaments,
        "games:schedule_action": [w.tournament.pk], "games:tournament_seating_json": tournaments,
        "games:round_seating_pdf": [w.tournament.pk], "games:tournament_cards": tournaments,
        "games:judge": games, "games:judge_players": [w.live.pk], "games:judge_action": [w.live.pk],
        "games:live": games,
        "games:protest_detail": [w.pending.pk, w.decided.pk], "games:protest_decide": [w.pending.pk],
        "games:protest_file": games, "games:protest_paper": [w.finished.pk],
        "ratings:season_edit": [w.season.pk], "ratings:season_delete": [w.season.pk],
        "ratings:season_standings_csv": [w.season.pk],
        "ratings:player_profile": [w.player.pk], "ratings:player_history_csv": [w.player.pk],
        "ratings:tournament_standings": tournaments, "ratings:tournament_standings_csv": tournaments,
        "ratings:tournament_standings_json": tournaments,
        "broadcast:manage_tournament": tournaments, "broadcast:manage_evening": [w.evening.pk],
        "broadcast:player": [w.player.pk],
        "notify:sheet_message": list(SignupSheet.objects.order_by("pk").values_list("pk", flat=True)),
        **league_pks(w.league),
    }


def params(w: World) -> Params:
    """What the walk fills URL parameters with: the world's objects, and query strings that select another branch
    of a page (tried besides the bare URL)."""
    queries = {
        "ratings:club_rating": [f"?season={w.season.pk}"],
        "ratings:club_stats": [f"?season={w.season.pk}"],
        "player_detail": [f"?tournament={w.tournament.pk}", f"?season={w.season.pk}&page=2", "?all=1",
                          "?everywhere=1", f"?club={w.season.club_id}&games_page=2"],
        "player_everywhere": [f"?club={w.season.club_id}"],
        "player_card_section": [f"?tournament={w.tournament.pk}", f"?season={w.season.pk}"],
        "ratings:player_history_csv": [f"?tournament={w.tournament.pk}"],
        "games:judge_players": ["?q=Ли"],
        "player_list": ["?q=Ли"],
    }
    return Params(
        pks=pk_values(w), ids={"round": [1], "table": [1, 2]},
        named={"kind": ["start"], "section": ["history", "partners", "games"],
               "overlay": ["world-overlay-public", "world-overlay-director"],
               # a password-reset link that is no longer valid, and one that never was: a page, no write
               "uidb64": ["MQ"], "token": ["set-password", "abc-0123456789"],
               "link": ["1-abc"],  # a staff invitation's link that names none: a page, no write
               "secret": ["no-such-calendar"],  # a player's calendar address that names none (notify)
               # the admin's "view on site" of a game; its catch-all and DEBUG's media files
               "content_type_id": [str(ContentType.objects.get_for_model(Game).pk)], "object_id": [str(w.finished.pk)],
               "url": ["no-such-page/"], "path": ["no-such-file.txt"],
               # the read API's path parameters (api/endpoints.py)
               "club_id": [str(w.tournament.club_id)], "player_id": [str(w.player.pk)],
               "season_id": [str(w.season.pk)], "tournament_id": [str(w.tournament.pk), str(w.empty_tournament.pk)],
               "game_id": [str(w.finished.pk), str(w.live.pk)], "series_id": [str(w.league["series"])]},
        queries={name: ["", *q] for name, q in queries.items()},
        hint="add its objects to pk_values (or its values to params) in ratings/tests/test_get_never_writes.py")


def htmx_too(url: str) -> bool:
    """Pages also answer htmx requests with a fragment (another code path); files and the admin do not."""
    return not url.startswith("/admin/") and not re.search(r"\.(pdf|csv|json)(\?|$)", url)


def test_no_get_writes_to_the_database(world, monkeypatch):
    # The PDF views run in full (data, template); only WeasyPrint's layout, which never touches the database and
    # takes a second per sheet, is skipped.
    monkeypatch.setattr("weasyprint.HTML.write_pdf", lambda self, *a, **kw: b"%PDF-1.7 (layout skipped)")
    exempt = exempt_tables()
    users = {u.username: u for u in get_user_model().objects.filter(username__in=[r for r in ROLES if r])}
    walked, unfillable = fill(routes(), params(world))
    assert not unfillable, "URL patterns the walk cannot fill:\n" + "\n".join(unfillable)
    urls = [url for _name, url in walked]
    assert len(urls) > 150, "the URL configuration was not walked"
    writes, errors, crawled = [], [], 0
    for role in ROLES:
        client = Client(raise_request_exception=False)
        if role:
            client.force_login(users[role])
        for url in urls:
            for headers in ({}, {"HTTP_HX_REQUEST": "true"}) if htmx_too(url) else ({},):
                with CaptureQueriesContext(connection) as queries:
                    response = client.get(url, **headers)
                crawled += 1
                if response.status_code >= 500:
                    errors.append(f"{role or 'anonymous'} GET {url}: {response.status_code}")
                for q in queries.captured_queries:
                    m = WRITE.match(q["sql"])
                    if m and m.group(1) not in exempt:
                        writes.append(f"{role or 'anonymous'} GET {url}{' (htmx)' if headers else ''}: "
                                      f"{q['sql'][:160]}")
    assert crawled >= len(ROLES) * len(urls)
    assert not errors, "\n".join(errors)
    assert not writes, f"{len(writes)} writes on GET:\n" + "\n".join(writes[:40])
