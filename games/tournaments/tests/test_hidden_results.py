"""Hidden standings: from round N the public sees the standings as of round N−1, and nothing of the later games'
results leaks through any page, export, CSV, JSON or PDF — checked by crawling every page a visitor reaches from
the home page, plus every game's own URLs and the exports; then the organiser reveals and all is visible."""

from __future__ import annotations

import io
import json
import random
import re
from collections import deque
from decimal import Decimal
from urllib.parse import urljoin, urlsplit

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from club.models import Membership
from club.tests.factories import ClubFactory, MembershipFactory, PlayerFactory, UserFactory
from games.models import Game, JudgeExtra, Seat
from games.protocol.services.imports import write_protocol
from games.protocol.services.scoring import score_games
from games.rules.generate import generate_game
from games.tests.live_fixtures import make_cast
from games.tournaments import services as schedule

pytestmark = pytest.mark.django_db

MARK = "СКРЫТАЯ-ОТМЕТКА"  # a judge's note written only into the hidden games' protocols
HIDE_FROM = 5
ROUNDS = 6
SKIP = ("/admin/", "/i18n/", "/accounts/logout", "/logout")


@pytest.fixture(autouse=True)
def _short_search(monkeypatch):
    monkeypatch.setattr(schedule, "SEARCH_STEPS", 300)


@pytest.fixture
def played(db):
    """20 participants, 6 rounds drawn, published and played; results hidden from round 5."""
    cast = make_cast()
    t = cast.tournament
    Game.objects.filter(tournament=t, round__isnull=True).delete()
    players = cast.players + [PlayerFactory(club=cast.club, nickname=f"Участник {i:02d}") for i in range(13, 21)]
    for p in players[:20]:
        schedule.participant_add(tournament=t, by=cast.club_admin, player=p)
    schedule.judge_set(tournament=t, by=cast.club_admin, user=cast.judge, table=1)
    schedule.judge_set(tournament=t, by=cast.club_admin, user=cast.other_judge, table=2)
    schedule.schedule_generate(tournament=t, by=cast.club_admin, rounds=ROUNDS, seed=2)
    schedule.schedule_publish(tournament=t, by=cast.club_admin)
    rng = random.Random(7)
    ruleset = t.ruleset.ruleset()
    by_nick = {p.nickname_key: p for p in players}
    for game in t.games.order_by("round", "table"):
        seated = [s.player.nickname for s in game.seats.order_by("number").select_related("player")]
        protocol = generate_game(rng, ruleset, players=seated, number=game.number)
        write_protocol(game=game, protocol=protocol, players={k: v for k, v in by_nick.items()})
        Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
        if game.round >= HIDE_FROM:
            JudgeExtra.objects.create(game=game, order=9, seat=1, points=Decimal("0.3"), note=MARK)
    score_games(tournament=t)
    schedule.results_hide(tournament=t, by=cast.club_admin, from_round=HIDE_FROM)
    return cast


def _expected_totals(tournament, rounds) -> dict[str, Decimal]:
    totals: dict[str, Decimal] = {}
    for seat in Seat.objects.filter(game__tournament=tournament, game__round__in=rounds).select_related("player"):
        totals[seat.player.nickname] = totals.get(seat.player.nickname, Decimal(0)) + seat.total
    return totals


def _standings(client, tournament) -> dict[str, Decimal]:
    data = json.loads(client.get(reverse("ratings:tournament_standings_json", args=[tournament.pk])).content)
    return {row["player"]: Decimal(str(row["total"])) for row in data["rows"]}


def _body(response) -> bytes:
    if not hasattr(response, "body_read"):
        # a streaming answer (CSV) is read once and kept for the later checks
        response.body_read = b"".join(response.streaming_content) if response.streaming else response.content
    return response.body_read


def _text_of(response) -> str:
    kind = response.get("Content-Type", "")
    if kind.startswith("application/pdf"):
        from pypdf import PdfReader

        return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(_body(response))).pages)
    return _body(response).decode("utf-8", "replace")


def _crawl(client, *, start: list[str], limit: int, skip: set[str]) -> dict[str, object]:
    """GET every same-site page reachable from `start` (links and form-less hrefs), at most `limit` pages."""
    seen: dict[str, object] = {}
    queue = deque(start)
    while queue and len(seen) < limit:
        url = queue.popleft()
        if url in seen or url.startswith(SKIP) or url in skip:
            continue
        response = client.get(url)
        _body(response)
        seen[url] = response
        assert response.status_code < 500, url
        if response.get("Content-Type", "").startswith("text/html"):
            for href in re.findall(r'href="([^"#]+)"', response.content.decode()):
                href = href.replace("&amp;", "&")
                target = urljoin(url, href)
                parts = urlsplit(target)
                if parts.netloc or not parts.path.startswith("/"):
                    continue
                local = parts.path + (f"?{parts.query}" if parts.query else "")
                if local not in seen and not local.startswith(SKIP):
                    queue.append(local)
    return seen


def _game_urls(game: Game) -> list[str]:
    return [reverse("games:game_detail", args=[game.pk]), reverse("games:game_json", args=[game.pk]),
            reverse("games:protocol_pdf", args=[game.pk]), reverse("games:live", args=[game.pk])]


def test_nothing_of_the_hidden_rounds_leaks_to_a_visitor_or_a_player_then_the_reveal_shows_all(client, played):
    cast = played
    t = cast.tournament
    hidden = list(t.games.filter(round__gte=HIDE_FROM))
    assert hidden and all(g.results_hidden for g in hidden)
    expected_before = _expected_totals(t, range(1, HIDE_FROM))
    # a visible game's own sheet holds only that game: not rendered again for every crawl (WeasyPrint is slow)
    visible_pdfs = {reverse("games:protocol_pdf", args=[g.pk]) for g in t.games.filter(round__lt=HIDE_FROM)}
    for who in (None, cast.player):
        if who is None:
            client.logout()
        else:
            client.force_login(who)
        # standings as of round N−1
        assert _standings(client, t) == expected_before
        extra = [reverse("games:tournament_json", args=[t.pk]), reverse("games:tournament_seating_json", args=[t.pk]),
                 reverse("games:tournament_cards", args=[t.pk]),
                 reverse("ratings:tournament_standings_csv", args=[t.pk]),
                 *[reverse("games:round_seating_pdf", args=[t.pk, r]) for r in range(1, ROUNDS + 1)],
                 *[reverse("player_detail", args=[p.player_id]) + f"?tournament={t.pk}"
                   for p in t.participants.all()],
                 *[reverse("ratings:player_history_csv", args=[p.player_id]) for p in t.participants.all()]]
        start = ["/", "/games/", reverse("games:tournament_detail", args=[t.pk]), reverse("ratings:club_rating"),
                 reverse("ratings:club_stats"), reverse("ratings:club_elo")]
        # the visitor follows every link; the player (same rules, his own profile) the key pages and exports
        pages = _crawl(client, start=start + extra if who is None else extra + start,
                       limit=400 if who is None else len(extra) + len(start), skip=visible_pdfs)
        if who is None:
            assert any(u.startswith(reverse("games:round_sheets_pdf", args=[t.pk])) for u in pages), \
                "the round sheets are linked from the tournament page"
        for url, response in pages.items():
            if response.status_code == 200:
                assert MARK not in _text_of(response), f"{url} shows a hidden protocol"
        assert 'data-testid="staff-standings"' not in _body(
            client.get(reverse("games:tournament_schedule", args=[t.pk]))).decode()
        for game in hidden:
            # the game page is a placeholder (table, players, date; its own players' protests), the rest a 404
            detail, *others = _game_urls(game)
            placeholder = client.get(detail)
            assert placeholder.status_code == 200 and 'data-testid="game-hidden"' in _body(placeholder).decode()
            assert MARK not in _text_of(placeholder)
            for url in others:
                assert client.get(url).status_code == 404, url
        # the round sheets of a hidden round print only the seating
        numbers = ",".join(str(g.number) for g in hidden)
        sheets = client.get(reverse("games:round_sheets_pdf", args=[t.pk]) + f"?games={numbers}")
        assert sheets.status_code in (200, 400, 403)
        if sheets.status_code == 200:
            assert MARK not in _text_of(sheets)
        # a player's profile counts only the visible rounds
        someone = t.participants.first()
        profile = _body(client.get(reverse("ratings:player_history_csv", args=[someone.player_id]))).decode()
        played_visible = Seat.objects.filter(player=someone.player, game__round__lt=HIDE_FROM).count()
        assert len([line for line in profile.strip().splitlines()[1:] if line]) == played_visible
    # the judge staff sees the hidden protocols and the standings with every round
    client.force_login(cast.judge)
    assert MARK in client.get(reverse("games:game_detail", args=[hidden[0].pk])).content.decode()
    staff_page = client.get(reverse("games:tournament_schedule", args=[t.pk])).content.decode()
    assert 'data-testid="staff-standings"' in staff_page
    everything = _expected_totals(t, range(1, ROUNDS + 1))
    best = max(everything, key=everything.get)
    assert best in staff_page[staff_page.index('data-testid="staff-standings"'):][:3000]
    # the organiser reveals: everything is visible
    schedule.results_reveal(tournament=t, by=cast.club_admin)
    client.logout()
    assert _standings(client, t) == _expected_totals(t, range(1, ROUNDS + 1))
    detail = client.get(reverse("games:game_detail", args=[hidden[0].pk]))
    assert detail.status_code == 200 and MARK in detail.content.decode()


def test_only_the_organiser_hides_and_reveals(client, played):
    cast = played
    t = cast.tournament
    for who in (cast.judge, cast.player, cast.outsider):
        client.force_login(who)
        assert client.post(reverse("games:schedule_action", args=[t.pk, "reveal"])).status_code == 403
    assert t.games.filter(results_hidden=True).count() == 4
    client.force_login(cast.head_judge)
    assert client.post(reverse("games:schedule_action", args=[t.pk, "reveal"])).status_code == 302
    assert not t.games.filter(results_hidden=True).exists()


# What differs between two renders of one page for one visitor: the masked CSRF token, the CSP nonce.
PER_REQUEST = re.compile(r'(csrfmiddlewaretoken" value="|"X-CSRFToken": "|nonce="|csrf-token" content=")[^"]*')


def test_while_a_hidden_round_is_played_no_public_list_tells_when_or_in_which_order_its_games_end(played):
    """The home page (and every other list of games) polled while the hidden round is played: for anonymous, a
    player of the club, a player of the hidden games and a judge of another club, each page reads the same after
    every hidden game's end as before the round began, and names none of its games."""
    cast = played
    t = cast.tournament
    hidden = list(t.games.filter(round__gte=HIDE_FROM).order_by("round", "table"))
    results = dict(Game.objects.filter(pk__in=[g.pk for g in hidden]).values_list("pk", "result"))
    Game.objects.filter(pk__in=results).update(status=Game.Status.IN_PROGRESS, result="", ended_at=None)
    neighbour = MembershipFactory(club=ClubFactory(name="Соседи"), user=UserFactory(username="neighbour_judge"),
                                  role=Membership.Role.JUDGE).user
    bystander = UserFactory(username="bystander")
    PlayerFactory(club=cast.club, nickname="Зритель", user=bystander)
    readers = {"anonymous": Client()}
    for who, user in (("a player of the club", bystander), ("a player of the hidden games", cast.player),
                      ("a judge of another club", neighbour)):
        readers[who] = Client()
        readers[who].force_login(user)
    seated = Seat.objects.filter(game=hidden[0]).values_list("player_id", flat=True).first()
    lists = ["/", "/games/", reverse("games:tournament_detail", args=[t.pk]), reverse("player_detail", args=[seated]),
             reverse("ratings:tournament_standings", args=[t.pk]), reverse("ratings:club_rating")]
    # the published seating names the hidden round's tables (the players must find them), the same all along
    schedule = reverse("games:tournament_schedule", args=[t.pk])
    links = [re.compile(rf'href="/games/{g.pk}/(live/)?"') for g in hidden]

    def pages() -> dict[tuple[str, str], str]:
        seen = {}
        for who, client in readers.items():
            for url in [*lists, schedule]:
                response = client.get(url)
                assert response.status_code == 200, (who, url)
                seen[who, url] = PER_REQUEST.sub(r"\1…", response.content.decode())
        return seen

    before = pages()
    for game in hidden:
        Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED, result=results[game.pk],
                                               ended_at=timezone.now())
        after = pages()
        for (who, url), body in after.items():
            if url != schedule:
                assert not any(link.search(body) for link in links), f"{url} lists a hidden game to {who}"
                assert "скрыто до награждения" not in body, f"{url} lists a hidden game to {who}"
            assert body == before[who, url], f"{url} changed for {who} when game {game.number} ended"
