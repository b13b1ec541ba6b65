"""The public pages kept whole for anonymous visitors (club/page_cache.py): each write that changes what a page
shows is seen on the next request, a logged-in visitor is never served the anonymous page (nor the reverse), and
the CSRF token of a served page is the requester's own. The writes are the services' own: a sign-off, a protest
decided, an import, a rename, a photo, a hidden round shown, a sign-up; the tests run with the cache on and off."""

from __future__ import annotations

import datetime as dt
import json
import re
import uuid
from unittest import mock

import pytest
from django.contrib.messages.storage.fallback import FallbackStorage
from django.contrib.sessions.backends.db import SessionStore
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client, RequestFactory
from django.urls import reverse
from django.utils import timezone

from club import page_cache
from club.photos import player_photo_set
from club.services import player_update
from club.tests.craft import picture
from club.tests.factories import UserFactory
from games.live.apply import live_apply
from games.models import Game
from games.protests.services import protest_decide
from games.protests.tests.test_protests import file_p1
from games.protocol.services.imports import import_documents
from games.tests.protest_fixtures import ENDED_AT, NICKS, _doc_game, protest_cast
from games.tests.rules_builders import ex1
from games.tests.signup_fixtures import build_cast
from games.tournaments.services import results_hide, results_reveal
from games.tournaments.signups.models import SignupSheet
from games.tournaments.signups.services import sign_up

pytestmark = pytest.mark.django_db
HX = {"HTTP_HX_REQUEST": "true"}
TOKEN = re.compile(r'(?:csrfmiddlewaretoken" value="|"X-CSRFToken": ")([A-Za-z0-9]+)"')


@pytest.fixture(params=[True, False], ids=["cache-on", "cache-off"])
def switch(request, settings):
    settings.PUBLIC_PAGE_CACHE = request.param
    return request.param


@pytest.fixture(autouse=True)
def _kept_long(settings):
    settings.PUBLIC_PAGE_CACHE_LOCAL_SECONDS = 3600  # no entry ends within a slow test on a loaded machine
    settings.PUBLIC_PAGE_CACHE = True  # the cache's own tests, whatever the environment says (`switch`: both ways)


@pytest.fixture
def cast(db):
    cast = protest_cast()
    now = timezone.now()
    SignupSheet.objects.create(club=cast.club, tournament=cast.tournament, starts_at=now + dt.timedelta(days=7),
                               opens_at=now - dt.timedelta(days=1), closes_at=now + dt.timedelta(days=6), limit=40)
    return cast


def pages(cast) -> dict[str, tuple[str, dict]]:
    game, tournament = cast.game, cast.tournament
    seat5 = game.seats.get(number=5).player
    card = reverse("player_card_section", args=[seat5.pk, "games"])
    return {
        "home": ("/", {}), "players": (reverse("player_list"), {}),
        "card": (reverse("player_detail", args=[seat5.pk]), {}), "card games": (card, HX),
        "game": (reverse("games:game_detail", args=[game.pk]), {}),
        "spectator": (reverse("games:live", args=[game.pk]), {}),
        "spectator board": (reverse("games:live", args=[game.pk]), HX),
        "tournament": (reverse("games:tournament_detail", args=[tournament.pk]), {}),
        "standings": (reverse("ratings:tournament_standings", args=[tournament.pk]), {}),
        "season": (reverse("ratings:club_rating"), {}), "elo": (reverse("ratings:club_elo"), {}),
        "statistics": (reverse("ratings:club_stats"), {}),
        "signup": (reverse("games:signup_sheet", args=[SignupSheet.objects.get(club=cast.club).pk]), {}),
        "pdf": (reverse("games:protocol_pdf", args=[game.pk]), {}),
        "api games": ("/api/v1/games/", {}), "api game": (f"/api/v1/games/{game.pk}/", {}),
    }


def fetch(client, url: str, headers: dict) -> tuple[str, bool]:
    """The answer's body (the CSRF tokens blanked) and whether its view ran (False: served kept)."""
    with mock.patch.object(page_cache, "_keepable", wraps=page_cache._keepable) as keepable, \
            mock.patch.object(page_cache, "_served", wraps=page_cache._served) as served:
        response = client.get(url, **headers)
    assert response.status_code == 200, url
    body = response.content.decode("utf-8", "replace") if "pdf" not in response["Content-Type"] else ""
    ran = keepable.call_count > 0 or served.call_count == 0  # a miss, or the view called without the cache
    return TOKEN.sub("TOKEN", body), ran


def kept(cast, switch) -> dict[str, str]:
    """Every page read twice by anonymous visitors: the second is served kept, without its view (cache on)."""
    bodies = {}
    for name, (url, headers) in pages(cast).items():
        first, ran = fetch(Client(), url, headers)
        assert ran, name
        again, ran = fetch(Client(), url, headers)
        if ran and switch:  # the minute turned between the two (a page stamped with the minute): once at most
            again, ran = fetch(Client(), url, headers)
        assert again == first, name
        assert ran is not switch, name
        bodies[name] = first
    return bodies


def renders_again(cast, switch) -> dict[str, str]:  # noqa: ARG001 — switch: as kept()
    """After a write: no page is served kept (each runs its view again)."""
    bodies = {}
    for name, (url, headers) in pages(cast).items():
        bodies[name], ran = fetch(Client(), url, headers)
        assert ran, name
    return bodies


def test_every_public_page_is_kept_and_a_rename_shows_on_each_that_names_the_player(cast, switch):
    kept(cast, switch)
    seat5 = cast.game.seats.get(number=5).player
    player_update(player=seat5, by=cast.club_admin, nickname="Новое Имя")
    after = renders_again(cast, switch)
    for name in ("players", "card", "game", "spectator", "spectator board", "standings", "season"):
        assert "Новое Имя" in after[name] and NICKS[4] not in after[name], name


def test_a_protest_decided_shows_on_the_game_page_and_the_standings(cast, switch):
    protest = file_p1(cast)
    before = kept(cast, switch)
    assert 'data-testid="under-protest"' in before["game"]
    protest_decide(protest=protest, by=cast.head_judge, decision="reject", explanation="Видео не подтвердило")
    after = renders_again(cast, switch)
    assert 'data-testid="under-protest"' not in after["game"] and "Видео не подтвердило" in after["game"]


def test_a_sign_off_shows_on_the_game_page(cast, switch):
    before = kept(cast, switch)
    admin = UserFactory(is_superuser=True, is_staff=True)
    game = Game.objects.get(pk=cast.game.pk)
    live_apply(game_id=game.pk, by=admin, kind="sign", payload={}, version=game.version, action_id=str(uuid.uuid4()))
    assert Game.objects.get(pk=game.pk).status == Game.Status.SIGNED
    after = renders_again(cast, switch)
    assert after["game"] != before["game"]


def test_an_import_shows_its_tournament_at_once(cast, switch):
    before = kept(cast, switch)
    assert "Второй кубок" not in before["home"]
    games = [_doc_game(ex1(players=dict(enumerate(NICKS, start=1))), 1, ENDED_AT)]
    document = {"format": "mafclub/1", "tournament": {"name": "Второй кубок", "ruleset": "cml"}, "games": games}
    import_documents(documents=[("second.json", json.dumps(document, ensure_ascii=False))], club=cast.club)
    after = renders_again(cast, switch)
    assert "Второй кубок" in after["home"] or "Второй кубок" in fetch(Client(), "/games/", {})[0]
    assert after["players"] != before["players"] or after["statistics"] != before["statistics"]


def test_a_photo_shows_on_the_card_at_once(cast, switch):
    seat5 = cast.game.seats.get(number=5).player
    before = kept(cast, switch)
    assert "photos/" not in before["card"]
    upload = SimpleUploadedFile("me.png", picture("PNG", (300, 300)), content_type="image/png")
    player = player_photo_set(player=seat5, by=cast.club_admin, upload=upload)
    after = renders_again(cast, switch)
    assert player.photo.url in after["card"]


def test_a_hidden_round_shown_comes_back_on_every_page(cast, switch):
    game = cast.game
    results_hide(tournament=cast.tournament, by=cast.club_admin, from_round=1)
    if not Game.objects.get(pk=game.pk).results_hidden:  # the import's games have no round: hide the game itself
        Game.objects.filter(pk=game.pk).update(results_hidden=True)
    url, headers = pages(cast)["game"]
    hidden, _ = fetch(Client(), url, headers)
    assert fetch(Client(), url, headers)[0] == hidden
    assert 'data-testid="game-hidden"' in hidden
    results_reveal(tournament=cast.tournament, by=cast.club_admin)
    Game.objects.filter(pk=game.pk).update(results_hidden=False)  # a queryset UPDATE: no model signal
    shown, ran = fetch(Client(), url, headers)
    assert ran and 'data-testid="game-hidden"' not in shown


def test_a_sign_up_shows_on_the_sheet_and_the_home_page(switch):
    cast = build_cast()
    url = reverse("games:signup_sheet", args=[cast.sheet.pk])
    before, _ = fetch(Client(), url, {})
    home, _ = fetch(Client(), "/", {})
    assert fetch(Client(), url, {})[0] == before
    sign_up(sheet=cast.sheet, by=cast.users[0])
    after, ran = fetch(Client(), url, {})
    assert ran and after != before  # one place fewer
    assert fetch(Client(), "/", {})[0] != home


def test_a_logged_in_visitor_is_never_served_the_anonymous_page_nor_the_reverse(cast):
    judge, admin, player = Client(), Client(), Client()
    judge.force_login(cast.table_judge)
    admin.force_login(cast.club_admin)
    player.force_login(cast.participant)
    for name, (url, headers) in pages(cast).items():
        if name == "pdf":
            continue
        anonymous, _ = fetch(Client(), url, headers)
        for client, who in ((judge, "table_judge"), (admin, "club_admin"), (player, "participant")):
            body, ran = fetch(client, url, headers)
            assert ran, (name, who)
            if not headers and not url.startswith("/api/"):
                assert f">{who}</a>" in body and reverse("login") + '"' not in body, (name, who)
        again, ran = fetch(Client(), url, headers)
        assert not ran and again == anonymous, name
        assert not any(f">{who}<" in again for who in ("table_judge", "club_admin", "participant")), name


def test_a_page_first_rendered_for_a_judge_is_not_kept_for_the_public(cast):
    judge = Client()
    judge.force_login(cast.table_judge)
    url, headers = pages(cast)["game"]
    fetch(judge, url, headers)
    body, ran = fetch(Client(), url, headers)
    assert ran and "table_judge</a>" not in body


def test_the_token_of_a_kept_page_is_the_requesters_own(cast):
    url = pages(cast)["home"][0]
    assert fetch(Client(), url, {})[1]  # rendered and kept
    tokens = []
    for _ in range(2):
        client = Client(enforce_csrf_checks=True)
        response = client.get(url)
        found = set(TOKEN.findall(response.content.decode()))
        assert len(found) == 1, found  # one token in the whole page, never the kept placeholder
        token = found.pop()
        assert not re.fullmatch(r"csrf[0-9a-f]{60}", token)
        tokens.append(token)
        answer = client.post(reverse("set_language"), {"language": "en", "next": "/"}, HTTP_X_CSRFTOKEN=token)
        assert answer.status_code == 302  # the token works with this visitor's own cookie
    assert tokens[0] != tokens[1]
    # a visitor whose cookie is not the one the token was made for is refused
    stranger = Client(enforce_csrf_checks=True)
    stranger.get(url)
    refused = stranger.post(reverse("set_language"), {"language": "en", "next": "/"}, HTTP_X_CSRFTOKEN=tokens[0])
    assert refused.status_code == 403


def test_pending_messages_and_logins_are_never_served_kept(settings):
    settings.PUBLIC_PAGE_CACHE = True
    request = RequestFactory().get("/")
    request.session = SessionStore()
    request.user = UserFactory()
    assert not page_cache.anonymous_reader(request)
    from django.contrib.auth.models import AnonymousUser

    request.user = AnonymousUser()
    request._messages = FallbackStorage(request)
    assert page_cache.anonymous_reader(request)
    request._messages.add(20, "Сохранено")
    assert not page_cache.anonymous_reader(request)
    settings.PUBLIC_PAGE_CACHE = False
    request._messages = FallbackStorage(request)
    assert not page_cache.anonymous_reader(request)


@pytest.mark.parametrize(("sql", "public"), [
    ('UPDATE "games_game" SET "version" = 3 WHERE "games_game"."id" = 1', True),
    ('INSERT INTO "games_signup" ("sheet_id") VALUES (1)', True),
    ('DELETE FROM "ratings_playerstats" WHERE 1', True),
    ('WITH v(id) AS (VALUES (1)) UPDATE "ratings_ratingscope" SET "version" = 1', True),
    ('SELECT "games_game"."id" FROM "games_game"', False),
    ('UPDATE "django_session" SET "expire_date" = 1', False),
    ('INSERT INTO "axes_accessattempt" ("username") VALUES (1)', False),
    ('UPDATE "auth_user" SET "last_login" = 1 WHERE "auth_user"."id" = 1', False),
])
def test_which_statements_move_the_public_generation(sql, public):
    assert page_cache.writes_public(sql) is public


def test_a_queryset_update_which_sends_no_signal_still_shows_at_once(cast, switch):
    from club.models import Player

    kept(cast, switch)
    seat5 = cast.game.seats.get(number=5).player
    Player.objects.filter(pk=seat5.pk).update(nickname="Тихое Имя")  # no model signal, no service
    url, headers = pages(cast)["players"]
    body, ran = fetch(Client(), url, headers)
    assert ran and "Тихое Имя" in body


def test_a_transactions_statements_drop_the_generation_once_unless_it_was_read_between(cast):
    from django.db import transaction

    from club.models import Player

    players = [seat.player_id for seat in cast.game.seats.all()]
    page_cache.public_generation()
    with mock.patch.object(page_cache, "_drop", wraps=page_cache._drop) as drops:
        with transaction.atomic():
            for pk in players[:5]:
                Player.objects.filter(pk=pk).update(city="Тверь")
        assert drops.call_count == 1  # (the commit hook of the test's own transaction never runs)
        page_cache.public_generation()  # a page read between two writes: the next one drops again
        Player.objects.filter(pk=players[5]).update(city="Тула")
        assert drops.call_count == 2


def test_a_game_in_play_is_kept_only_as_its_public_view_whoever_reads_first(db):
    from games.live.tests.test_live_spectator import LEAKS, in_night_one
    from games.tests.live_fixtures import make_cast

    live = make_cast()
    game = in_night_one(live)
    urls = [(reverse("games:game_detail", args=[game.pk]), {}), (reverse("games:live", args=[game.pk]), {}),
            (reverse("games:live", args=[game.pk]), HX), (f"/api/v1/games/{game.pk}/", {})]
    judge = Client()
    judge.force_login(live.judge)
    for url, headers in urls:
        for first in ("judge", "anonymous"):
            page_cache._drop()
            readers = [judge, Client()] if first == "judge" else [Client(), judge]
            for reader in readers + [Client()]:
                body = reader.get(url, **headers).content.decode()
                api = url.startswith("/api/")  # a role given is a string; the public's is null
                secret = ([m.group(0) for m in re.finditer(r'"role"\s*:\s*"[^"]+"', body)] if api
                          else [p.pattern for p in LEAKS if p.search(body)])
                assert bool(secret) is (reader is judge), (url, first, secret)
