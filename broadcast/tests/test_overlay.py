"""The broadcast overlay: secrecy of the public board, the director's token, revoked and foreign tokens, the
organiser's permission, the ETag poll and the lower thirds."""

import re

import pytest
from django.test import Client
from django.urls import reverse

from broadcast.models import OverlayToken
from broadcast.tests.conftest import token_for
from club.tests.factories import ClubFactory, PlayerFactory
from games.live.apply import live_apply
from games.models import ClubEvening, Game, Tournament
from games.tests.live_fixtures import ROLES, seat_everyone

pytestmark = pytest.mark.django_db

ROLE_CELL = re.compile(r'data-testid="ov-role-|class="role-chip')
CHECKS = re.compile(r"ov-checks|[Пп]роверка (дона|шерифа)|Don's check|Sheriff's check|не шериф|not the Sheriff")


# The whole game of games/live/tests/test_live_final.py: red wins on Day 3.
WHOLE_GAME = [("start", {}), ("speech", {}), ("nominate", {"by": 1, "nominee": 5}),
              ("nominate", {"by": 2, "nominee": 4}), ("votes", {"v5": 7}), ("night", {}), ("kill", {"seat": 1}),
              ("best_move", {"seats": "2 5 9"}), ("day", {}), ("nominate", {"by": 3, "nominee": 9}),
              ("nominate", {"by": 4, "nominee": 2}), ("votes", {"v9": 6}), ("night", {}), ("kill", {"seat": ""}),
              ("day", {}), ("nominate", {"by": 3, "nominee": 2}), ("night", {}), ("result", {"result": "red"})]


def play(game, judge, steps):
    for kind, payload in steps:
        version = Game.objects.get(pk=game.pk).version
        live_apply(game_id=game.pk, by=judge, kind=kind, payload=payload, version=version, action_id=f"{kind}{version}")


def in_day_two(cast):
    """Day 1 voted out seat 5, night 1 killed seat 1 with both checks made; day 2 has begun."""
    seat_everyone(cast.game, cast.players, ROLES)
    play(cast.game, cast.judge, [("start", {}), ("speech", {}), ("nominate", {"by": 1, "nominee": 5}),
                                 ("foul", {"seat": 6, "delta": 1}), ("nominate", {"by": 2, "nominee": 4}),
                                 ("votes", {"v5": 7}), ("night", {}),
                                 ("kill", {"seat": 1}), ("don_check", {"seat": 7}), ("sheriff_check", {"seat": 9}),
                                 ("day", {})])
    return Game.objects.get(pk=cast.game.pk)


def in_night_one(cast):
    seat_everyone(cast.game, cast.players, ROLES)
    play(cast.game, cast.judge, [("start", {}), ("speech", {}), ("nominate", {"by": 1, "nominee": 5}),
                                 ("nominate", {"by": 2, "nominee": 4}), ("votes", {"v5": 7}), ("night", {}),
                                 ("kill", {"seat": 1}),
                                 ("don_check", {"seat": 7}), ("sheriff_check", {"seat": 9})])
    return Game.objects.get(pk=cast.game.pk)


def overlay_urls(tok, player, table=1):
    """Every overlay page of a token (broadcast/urls.py): the table, its poll, the three lower thirds."""
    return [reverse("broadcast:table", args=[tok.token, table]),
            reverse("broadcast:table_state", args=[tok.token, table]),
            reverse("broadcast:result", args=[tok.token, table]),
            reverse("broadcast:standings", args=[tok.token]),
            reverse("broadcast:player", args=[tok.token, player.pk])]


def test_the_public_overlay_of_a_game_in_play_shows_no_role_and_no_check(cast):
    in_night_one(cast)
    tok = token_for(cast)
    for url in overlay_urls(tok, cast.players[1]):  # the don of the game in play
        body = Client().get(url).content.decode()
        assert not ROLE_CELL.search(body), url
        assert not CHECKS.search(body), url
    board = Client().get(reverse("broadcast:table", args=[tok.token, 1])).content.decode()
    assert "Бендер" in board and "Ночь 1" in board
    # the night's kill is announced in the morning (000 4.5.4): seat 1 is not shown out yet
    assert 'data-testid="ov-seat-1"' in board and "ov-seat is-out\" data-testid=\"ov-seat-1\"" not in board


def test_the_public_overlay_shows_fouls_speaker_nominations_and_who_is_out(cast):
    in_day_two(cast)
    tok = token_for(cast)
    body = Client().get(reverse("broadcast:table", args=[tok.token, 1])).content.decode()
    assert "День 2" in body
    assert re.search(r'ov-seat is-out" data-testid="ov-seat-5"', body)  # voted out on day 1
    assert re.search(r'ov-seat is-out" data-testid="ov-seat-1"', body)  # killed on night 1, announced
    assert re.search(r'data-testid="ov-fouls-6">1 фол<', body)
    assert 'data-testid="ov-speaker"' in body
    assert not ROLE_CELL.search(body) and not CHECKS.search(body)


def test_the_directors_token_shows_roles_and_night_checks(cast):
    in_night_one(cast)
    tok = token_for(cast, OverlayToken.Kind.DIRECTOR)
    body = Client().get(reverse("broadcast:table", args=[tok.token, 1])).content.decode()
    assert re.search(r'data-testid="ov-role-2"><span class="role-chip role-don ov-role"[^>]*>Д<', body)
    assert re.search(r'data-testid="ov-role-7"><span class="role-chip role-sheriff ov-role"[^>]*>Ш<', body)
    checks = body[body.index('data-testid="ov-checks"'):]
    assert "Проверка дона — 7 (шериф)" in re.sub(r"\s+", " ", checks)
    assert "Проверка шерифа — 9 (чёрный)" in re.sub(r"\s+", " ", checks)


def test_a_revoked_token_answers_404_everywhere(cast):
    in_night_one(cast)
    tok = token_for(cast)
    client = Client()
    client.force_login(cast.club_admin)
    assert Client().get(overlay_urls(tok, cast.players[0])[0]).status_code == 200
    manage = reverse("broadcast:manage_tournament", args=[cast.tournament.pk])
    assert client.post(manage, {"revoke": tok.pk}).status_code == 302
    assert OverlayToken.objects.get(pk=tok.pk).revoked_at is not None
    for url in overlay_urls(tok, cast.players[0]):
        assert Client().get(url).status_code == 404, url
    assert Client().get("/broadcast/no-such-token/table/1/").status_code == 404


def test_a_token_of_another_event_or_club_does_not_reach_this_game_or_player(cast):
    in_night_one(cast)
    other_tournament = Tournament.objects.create(club=cast.club, name="Другой", ruleset=cast.tournament.ruleset)
    other = OverlayToken.objects.create(club=cast.club, tournament=other_tournament, kind=OverlayToken.Kind.DIRECTOR)
    body = Client().get(reverse("broadcast:table", args=[other.token, 1])).content.decode()
    assert "Бендер" not in body and 'data-testid="ov-empty"' in body
    foreign_club = ClubFactory(name="Чужой")
    evening = ClubEvening.objects.create(club=foreign_club, date="2026-11-28", ruleset=cast.tournament.ruleset)
    foreign = OverlayToken.objects.create(club=foreign_club, evening=evening)
    assert Client().get(reverse("broadcast:player", args=[foreign.token, cast.players[0].pk])).status_code == 404
    own = token_for(cast)
    stranger = PlayerFactory(club=foreign_club, nickname="Чужак")
    assert Client().get(reverse("broadcast:player", args=[own.token, stranger.pk])).status_code == 404


def test_a_hidden_rounds_game_stays_hidden_on_both_overlays(cast):
    in_night_one(cast)
    Game.objects.filter(pk=cast.game.pk).update(results_hidden=True)
    for kind in OverlayToken.Kind.values:
        tok = token_for(cast, kind)
        body = Client().get(reverse("broadcast:table", args=[tok.token, 1])).content.decode()
        assert 'data-testid="ov-hidden"' in body and "Бендер" not in body


@pytest.mark.parametrize("who", ["outsider", "player", "judge", "other_judge", None])
def test_only_the_organiser_creates_or_revokes_tokens(cast, who):
    tok = token_for(cast)
    client = Client()
    if who:
        client.force_login(getattr(cast, who))
    url = reverse("broadcast:manage_tournament", args=[cast.tournament.pk])
    response = client.post(url, {"kind": "public"})
    assert response.status_code in (302, 403)
    if who:
        assert response.status_code == 403
        assert client.get(url).status_code == 403
        assert client.post(url, {"revoke": tok.pk}).status_code == 403
    else:
        assert response["Location"].startswith("/login/")
    assert OverlayToken.objects.count() == 1 and OverlayToken.objects.get().revoked_at is None


@pytest.mark.parametrize("who", ["club_admin", "head_judge"])
def test_the_organiser_creates_both_kinds_and_sees_the_urls(cast, who):
    client = Client()
    client.force_login(getattr(cast, who))
    url = reverse("broadcast:manage_tournament", args=[cast.tournament.pk])
    assert client.post(url, {"kind": "public"}).status_code == 302
    assert client.post(url, {"kind": "director"}).status_code == 302
    kinds = sorted(OverlayToken.objects.values_list("kind", flat=True))
    assert kinds == ["director", "public"]
    page = client.get(url).content.decode()
    for tok in OverlayToken.objects.all():
        assert reverse("broadcast:table", args=[tok.token, 1]) in page
        assert reverse("broadcast:table", args=[tok.token, 2]) in page


def test_a_bad_kind_is_refused_with_its_field_named_and_nothing_stored(cast):
    client = Client()
    client.force_login(cast.club_admin)
    url = reverse("broadcast:manage_tournament", args=[cast.tournament.pk])
    response = client.post(url, {"kind": "everything"})
    assert response.status_code == 422
    assert "Вид:" in response.content.decode()
    assert not OverlayToken.objects.exists()
    other_tournament = Tournament.objects.create(club=cast.club, name="Другой", ruleset=cast.tournament.ruleset)
    foreign = OverlayToken.objects.create(club=cast.club, tournament=other_tournament)
    response = client.post(url, {"revoke": foreign.pk})  # another event's overlay is not revoked from this page
    assert response.status_code == 422 and "Оверлей: у этого мероприятия нет такого оверлея" in response.content.decode()
    assert OverlayToken.objects.get(pk=foreign.pk).revoked_at is None


def test_the_director_url_is_on_no_public_page(cast):
    in_night_one(cast)
    director = token_for(cast, OverlayToken.Kind.DIRECTOR)
    public = token_for(cast)
    site = [reverse("games:tournament_detail", args=[cast.tournament.pk]), reverse("games:live", args=[cast.game.pk]),
            reverse("games:game_detail", args=[cast.game.pk]), reverse("home")]
    for who in (None, cast.player, cast.outsider, cast.judge):
        client = Client()
        if who:
            client.force_login(who)
        for url in [*site, *overlay_urls(public, cast.players[1])]:
            body = client.get(url).content.decode()
            assert director.token not in body, url
            assert 'data-testid="overlay-link"' not in body, url
        for url in site:
            assert public.token not in client.get(url).content.decode(), url


def test_the_overlay_link_is_shown_to_the_organiser_on_the_event_page_and_the_judge_screen(cast):
    client = Client()
    client.force_login(cast.club_admin)
    body = client.get(reverse("games:tournament_detail", args=[cast.tournament.pk])).content.decode()
    assert reverse("broadcast:manage_tournament", args=[cast.tournament.pk]) in body
    assert 'data-testid="overlay-link"' in client.get(reverse("games:judge", args=[cast.game.pk])).content.decode()
    judge = Client()
    judge.force_login(cast.judge)  # a table judge is not the organiser
    assert 'data-testid="overlay-link"' not in judge.get(reverse("games:judge", args=[cast.game.pk])).content.decode()


def test_an_unchanged_poll_is_a_304_and_a_tap_changes_the_etag(cast):
    in_day_two(cast)
    tok = token_for(cast)
    url = reverse("broadcast:table_state", args=[tok.token, 1])
    first = Client().get(url)
    etag = first["ETag"]
    assert first.status_code == 200 and b"<html" not in first.content and b'id="ov-board"' in first.content
    again = Client().get(url, HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 304 and again.content == b""
    play(cast.game, cast.judge, [("foul", {"seat": 3, "delta": 1})])
    after = Client().get(url, HTTP_IF_NONE_MATCH=etag)
    assert after.status_code == 200 and after["ETag"] != etag
    assert re.search(r'data-testid="ov-fouls-3">1 фол<', after.content.decode())
    public_etag = after["ETag"]
    director = token_for(cast, OverlayToken.Kind.DIRECTOR)
    director_url = reverse("broadcast:table_state", args=[director.token, 1])
    director_board = Client().get(director_url, HTTP_IF_NONE_MATCH=public_etag)  # kinds share no ETag, no fragment
    assert director_board.status_code == 200 and ROLE_CELL.search(director_board.content.decode())
    assert not ROLE_CELL.search(Client().get(url).content.decode())


def test_the_overlay_page_is_bare_for_obs_and_runs_no_inline_script(cast):
    in_day_two(cast)
    body = Client().get(reverse("broadcast:table", args=[token_for(cast).token, 1])).content.decode()
    assert "<nav" not in body and "navbar" not in body and "bootstrap" not in body
    assert re.findall(r"<script[^>]*>", body) == ['<script src="/static/js/overlay.js" defer>']
    assert 'class="overlay"' in body and "/static/css/overlay.css" in body


def test_the_lower_thirds_show_the_result_the_standings_and_a_players_card(cast):
    seat_everyone(cast.game, cast.players, ROLES)
    tok = token_for(cast)
    assert 'data-testid="ov-no-result"' in Client().get(reverse("broadcast:result", args=[tok.token, 1])).content.decode()
    play(cast.game, cast.judge, WHOLE_GAME)
    game = Game.objects.get(pk=cast.game.pk)
    assert game.is_finished, game.status
    body = Client().get(reverse("broadcast:result", args=[tok.token, 1])).content.decode()
    assert "Победа красных" in body
    standings = Client().get(reverse("broadcast:standings", args=[tok.token])).content.decode()
    assert 'data-testid="ov-standing-1"' in standings and "Кубок" in standings
    card = Client().get(reverse("broadcast:player", args=[tok.token, cast.players[0].pk])).content.decode()
    assert "Бендер" in card and "1 игра" in card
    Game.objects.filter(pk=game.pk).update(results_hidden=True)
    body = Client().get(reverse("broadcast:result", args=[tok.token, 1])).content.decode()
    assert "Победа красных" not in body


def test_the_board_says_who_nominated_whom(cast):
    seat_everyone(cast.game, cast.players, ROLES)
    play(cast.game, cast.judge, [("start", {}), ("speech", {}), ("nominate", {"by": 1, "nominee": 5}),
                                 ("speech", {}), ("nominate", {"by": 2, "nominee": 4})])
    body = Client().get(reverse("broadcast:table_state", args=[token_for(cast).token, 1])).content.decode()
    strip = re.sub(r"\s+", " ", body[body.index('data-testid="ov-nominations"'):])
    assert "№1 → №5" in strip and "№2 → №4" in strip
    assert strip.index("№1 → №5") < strip.index("№2 → №4")  # in the order they were made
