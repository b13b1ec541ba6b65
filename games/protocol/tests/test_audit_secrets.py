"""Audit: roles and night checks of an unfinished game reach no one but its judge staff (can_see_secrets).

One tournament holds a finished, scored game (so every ratings page has real rows) and an unfinished one with
roles and both night checks. The unfinished game was once marked finished and scored, then reopened: whatever
the ratings stored for it then must be gone. Every public page, fragment, export and PDF that could show it is
read as anonymous, as a player of that game, as an outsider and as the judge of another table.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from pypdf import PdfReader

from games.live.apply import live_apply
from games.models import Game, Protest, Seat
from games.protocol.services.scoring import score_games
from games.tests.live_fixtures import ROLES, make_cast
from ratings.models import PlayerGame, PlayerStats, RatingPoint, Season

pytestmark = pytest.mark.django_db

# The finished game 3: seats 1..10 are players[2..11]; the player of the login "player" (players[3]) is black here.
FINISHED_ROLES = {1: "К", 2: "Д", 3: "Ч", 4: "Ч", 5: "К", 6: "Ш", 7: "К", 8: "К", 9: "К", 10: "К"}
ONLY_IN_PLAY = ("Бендер", "Шерлок")  # players[0] and players[1] sit only at the unfinished game

# What a secret looks like in each medium (never a bare letter: К/Ч/Ш/Д also appear in legends and words).
# game page / sheet print block / live page role cells, and the role chip wherever it is (games_tags.role_chip)
ROLE_CELL = re.compile(r'class="role"[^>]*>\s*[КЧШДCMSD]|class="role-chip')
LIVE_ROLE = re.compile(r'data-testid="live-role')
CHECK_TEXT = re.compile(r"(Don's check|Sheriff's check|[Пп]роверка (дона|шерифа))\s*:\s*\d")
CHECK_CELL = re.compile(r'class="night">\s*\d{1,2}\s*—')  # the sheet's "7 — Ш" / "9 — Ч" cells
PDF_CHECK = re.compile(r"\b\d{1,2}\s*—\s*(Ш|Ч|К|S|M|C|not Ш|not S|не Ш)\b")  # the check cells in either language
PDF_ROLE_ROW = re.compile(r"(?m)^\s*\d{1,2}\s+\S+\s+[КЧШДCMSD]\s")
JUDGE_ANSWERS = re.compile(r"thumb (up|down)|not the Sheriff|proposed-result")


def _play(game, judge, steps):
    for kind, payload in steps:
        version = Game.objects.get(pk=game.pk).version
        live_apply(game_id=game.pk, by=judge, kind=kind, payload=payload, version=version,
                   action_id=f"audit-{kind}-{version}")


@pytest.fixture
def scene(db, english):
    cast = make_cast()
    players = cast.players
    game = cast.game  # table 1, judged by cast.judge
    Seat.objects.bulk_create([Seat(game=game, number=n, player=players[n - 1], role=ROLES[n]) for n in range(1, 11)])
    _play(game, cast.judge, [("start", {}), ("nominate", {"by": 1, "nominee": 5}), ("nominate", {"by": 2, "nominee": 4}),
                             ("votes", {"v5": 7}), ("night", {}), ("kill", {"seat": 1}),
                             ("don_check", {"seat": 7}), ("sheriff_check", {"seat": 9})])

    finished = Game.objects.create(club=cast.club, tournament=cast.tournament, ruleset=cast.tournament.ruleset,
                                   number=3, table=3, date=dt.date(2026, 11, 28), judge=cast.other_judge,
                                   judge_name="other_judge", status=Game.Status.FINISHED, result="red",
                                   ended_at=timezone.now() - dt.timedelta(hours=2))
    Seat.objects.bulk_create([Seat(game=finished, number=n, player=players[n + 1], role=FINISHED_ROLES[n])
                              for n in range(1, 11)])
    Season.objects.create(club=cast.club, name="2026", start=dt.date(2026, 1, 1), end=dt.date(2026, 12, 31))

    # The unfinished game was once (wrongly) marked finished and scored, then reopened: the same scoring call
    # a live "undo" of the result makes. Nothing stored in between may survive.
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED, result="black")
    score_games(game=game)
    assert PlayerGame.objects.filter(game=game).exists()  # the stale rows really existed
    Game.objects.filter(pk=game.pk).update(status=Game.Status.IN_PROGRESS, result="")
    score_games(game=game)
    game.refresh_from_db()

    # A paper protest of the unfinished game's seat 4 (the player of the login "player"), recorded by its judge.
    protest = Protest.objects.create(game=game, player=players[3], seat=4, filed_by=cast.judge,
                                     category=Protest.Category.choices[0][0], text="paper protest",
                                     filed_at=timezone.now())
    cast.finished, cast.protest = finished, protest
    return cast


def _client(user) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def _readers(scene):
    return {"anonymous": None, "player of the game": scene.player, "outsider": scene.outsider,
            "judge of another table": scene.other_judge}


def _public_urls(scene) -> list[tuple[str, dict]]:
    game, t, players = scene.game, scene.tournament, scene.players
    season = Season.objects.get(club=scene.club)
    htmx = {"HTTP_HX_REQUEST": "true"}
    urls = [
        (reverse("home"), {}), (reverse("games:tournament_list"), {}),
        (reverse("games:tournament_detail", args=[t.pk]), {}),
        (reverse("games:game_detail", args=[game.pk]), {}),
        (reverse("games:live", args=[game.pk]), {}), (reverse("games:live", args=[game.pk]), htmx),
        (reverse("games:game_json", args=[game.pk]), {}),
        (reverse("games:tournament_json", args=[t.pk]), {}),
        (reverse("games:protocol_pdf", args=[game.pk]), {}),
        (reverse("games:round_sheets_pdf", args=[t.pk]) + "?games=1-2", {}),  # the unfinished game and a draft
        (reverse("games:protest_detail", args=[scene.protest.pk]), {}),
        (reverse("games:my_protests"), {}), (reverse("games:protest_queue"), {}),
        (reverse("ratings:club_rating"), {}), (reverse("ratings:club_rating"), htmx),
        (reverse("ratings:club_stats"), {}), (reverse("ratings:club_stats"), htmx),
        (reverse("ratings:tournament_standings", args=[t.pk]), {}),
        (reverse("ratings:tournament_standings_csv", args=[t.pk]), {}),
        (reverse("ratings:tournament_standings_json", args=[t.pk]), {}),
        (reverse("ratings:season_standings_csv", args=[season.pk]), {}),
    ]
    for player in players[:10]:
        urls += [
            (reverse("player_detail", args=[player.pk]), {}),
            (reverse("player_detail", args=[player.pk]), {}),
            (reverse("player_detail", args=[player.pk]) + f"?tournament={t.pk}", htmx),
            (reverse("ratings:player_history_csv", args=[player.pk]) + f"?tournament={t.pk}", {}),
        ]
    return urls


def _pdf_text(content: bytes) -> str:
    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(content)).pages)


def _json_keys(value) -> set[str]:
    if isinstance(value, dict):
        return set(value) | set().union(*(_json_keys(v) for v in value.values()))
    if isinstance(value, list):
        return set().union(*(_json_keys(v) for v in value)) if value else set()
    return set()


def _assert_nothing_secret(scene, url: str, response, who: str) -> None:
    game = scene.game
    kind = response.get("Content-Type", "")
    where = f"{url} as {who}"
    if kind.startswith("application/pdf"):
        text = _pdf_text(response.content)
        assert not PDF_ROLE_ROW.search(text), f"{where}: a role in a seat row"
        assert not PDF_CHECK.search(text), f"{where}: a night check answer"
        return
    body = b"".join(response.streaming_content) if response.streaming else response.content
    text = body.decode("utf-8-sig")
    if kind.startswith("application/json"):
        data = json.loads(text)
        assert not {"role", "score", "don_check", "sheriff_check"} & _json_keys(data), where
        assert not any(nick in text for nick in ONLY_IN_PLAY), f"{where}: a player of the unfinished game"
        return
    if kind.startswith("text/csv"):
        rows = list(csv.reader(io.StringIO(text)))
        assert not any(nick in text for nick in ONLY_IN_PLAY), f"{where}: a player of the unfinished game"
        if "history.csv" in url:
            game_ids = {row[2] for row in rows[1:]}
            assert str(game.pk) not in game_ids, f"{where}: the unfinished game in the rating history"
        return
    for pattern in (ROLE_CELL, LIVE_ROLE, CHECK_TEXT, CHECK_CELL, JUDGE_ANSWERS):
        assert not pattern.search(text), f"{where}: {pattern.pattern}"
    assert 'data-testid="action-log"' not in text, f"{where}: the judge's action log"
    audit = re.search(r'data-testid="audit-trail">(.*?)</ul>', text, re.S)
    if audit:
        assert "role" not in audit.group(1) and "check" not in audit.group(1), f"{where}: the audit trail"
    if url.startswith(("/ratings/", "/players/")):
        if not url.startswith("/players/"):  # a player's card names its own player, of course
            assert not any(nick in text for nick in ONLY_IN_PLAY), f"{where}: a player of the unfinished game"
        assert reverse("games:game_detail", args=[game.pk]) not in text, f"{where}: a link to the unfinished game"


def test_no_public_page_fragment_export_or_pdf_shows_the_secrets_of_an_unfinished_game(scene):
    shown = 0
    for who, user in _readers(scene).items():
        client = _client(user)
        for url, headers in _public_urls(scene):
            response = client.get(url, **headers)
            if response.status_code in (302, 403, 404):
                assert response.status_code != 302 or "/login/" in response["Location"], url
                continue  # refused (or sent to log in): nothing shown
            assert response.status_code == 200, f"{url} as {who}: {response.status_code}"
            _assert_nothing_secret(scene, url, response, who)
            shown += 1
    assert shown > 100  # the pages really were read, not all refused


def test_the_exports_of_an_unfinished_game_are_refused_to_everyone_but_its_staff(scene):
    for who, user in _readers(scene).items():
        client = _client(user)
        assert client.get(reverse("games:game_json", args=[scene.game.pk])).status_code == 403, who
        assert client.get(reverse("games:tournament_json", args=[scene.tournament.pk])).status_code == 403, who


def test_the_ratings_store_nothing_of_the_reopened_unfinished_game(scene):
    game, players = scene.game, scene.players
    assert not PlayerGame.objects.filter(game=game).exists()
    assert not RatingPoint.objects.filter(game_id=game.pk).exists()
    assert not PlayerStats.objects.filter(player__in=players[:2]).exists()
    assert not Seat.objects.filter(game=game).exclude(total=0).exists()
    assert not Seat.objects.filter(game=game, won=True).exists()
    # players[3] was a red citizen at the unfinished game and a don at the finished one: only the don counts
    stats = PlayerStats.objects.get(player=players[3], scope__tournament=scene.tournament)
    assert (stats.games, stats.citizen_games, stats.don_games) == (1, 0, 1)


def test_the_profile_of_a_player_of_the_unfinished_game_lists_only_finished_games(scene):
    players, client = scene.players, _client(scene.player)
    page = client.get(reverse("player_detail", args=[players[3].pk]) + f"?tournament={scene.tournament.pk}",
                      HTTP_HX_REQUEST="true").content.decode()
    assert reverse("games:game_detail", args=[scene.finished.pk]) in page  # the finished game is listed
    assert reverse("games:game_detail", args=[scene.game.pk]) not in page
    assert re.search(r'<th scope="row">К</th><td class="text-end">0</td>', page)  # no citizen game counted
    assert re.search(r'<th scope="row">Д</th><td class="text-end">1</td>', page)
    only = client.get(reverse("player_detail", args=[players[1].pk])).content.decode()
    assert 'data-testid="no-games"' in only  # the don of the unfinished game: nothing scored yet


def test_the_judge_staff_of_the_unfinished_game_does_see_its_secrets(scene):
    """The positive control: the patterns above do match where the secrets are allowed."""
    client = _client(scene.judge)
    game_page = client.get(reverse("games:game_detail", args=[scene.game.pk])).content.decode()
    assert ROLE_CELL.search(game_page) and CHECK_TEXT.search(game_page)
    assert LIVE_ROLE.search(client.get(reverse("games:live", args=[scene.game.pk])).content.decode())
    pdf = _pdf_text(client.get(reverse("games:protocol_pdf", args=[scene.game.pk])).content)
    assert PDF_CHECK.search(pdf)
    assert client.get(reverse("games:game_json", args=[scene.game.pk])).status_code == 200
    detail = client.get(reverse("games:protest_detail", args=[scene.protest.pk])).content.decode()
    audit = re.search(r'data-testid="audit-trail">(.*?)</ul>', detail, re.S).group(1)
    # the trail says it in words (the don checked seat 7), never as the stored code `don_check`
    assert "Don&#x27;s check seat 7" in audit and "don_check" not in audit


def test_the_protest_page_of_an_unfinished_game_hides_the_audit_trail_from_its_player(scene):
    """The gap this audit found: the protest page showed the live actions' payloads (roles, checks) to the
    protesting player and to every club judge while the game was still in play."""
    for user in (scene.player, scene.other_judge):
        page = _client(user).get(reverse("games:protest_detail", args=[scene.protest.pk]))
        assert page.status_code == 200
        audit = re.search(r'data-testid="audit-trail">(.*?)</ul>', page.content.decode(), re.S).group(1)
        assert "don_check" not in audit and "sheriff_check" not in audit and "role" not in audit
        assert page.context["review"]["audit"] == []


def test_the_judge_screen_and_its_fragments_are_refused_to_non_staff(scene):
    game = scene.game
    for who, user in _readers(scene).items():
        client = _client(user)
        for url in (reverse("games:judge", args=[game.pk]), reverse("games:judge_players", args=[game.pk]) + "?q=Л"):
            for headers in ({}, {"HTTP_HX_REQUEST": "true"}):
                response = client.get(url, **headers)
                if user is None:
                    assert response.status_code == 302 and "/login/" in response["Location"], (who, url)
                else:
                    assert response.status_code == 403, (who, url)
                    assert not ROLE_CELL.search(response.content.decode())
