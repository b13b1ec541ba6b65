"""The schedule page as the organiser's steps, each shown when it applies; no element id twice; a published
seating changes only with a confirmation, and the change is in the games' audit trail."""

from __future__ import annotations

import re
from collections import Counter

import pytest
from django.urls import reverse
from django.utils import translation

from club.tests.factories import PlayerFactory
from games.models import Game, Seat
from games.protocol.selectors import audit_trail
from games.tests.live_fixtures import make_cast
from games.tournaments import services as schedule

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _short_search(monkeypatch):
    monkeypatch.setattr(schedule, "SEARCH_STEPS", 300)


@pytest.fixture
def cast(db):
    c = make_cast()
    c.players += [PlayerFactory(club=c.club, nickname=f"Участник {i:02d}") for i in range(13, 21)]
    return c


def _page(client, cast) -> str:
    client.force_login(cast.club_admin)
    return client.get(reverse("games:tournament_schedule", args=[cast.tournament.pk]),
                      HTTP_ACCEPT_LANGUAGE="ru").content.decode()


def _steps(html: str) -> list[str]:
    return re.findall(r'data-testid="step-([a-z]+)"', html)


def _repeated_ids(html: str) -> list[str]:
    return [i for i, n in Counter(re.findall(r'\bid="([^"]+)"', html)).items() if n > 1]


def test_before_any_participant_only_the_participants_and_judges_steps_show(client, cast):
    html = _page(client, cast)
    assert _steps(html) == ["participants", "judges"]
    assert "Тур*" not in html and "с участником" not in html


def test_each_step_appears_when_it_applies_and_no_id_repeats(client, cast):
    schedule.participants_add(tournament=cast.tournament, players=cast.players[:20], by=cast.club_admin)
    assert _steps(_page(client, cast)) == ["participants", "generate", "judges"]
    schedule.schedule_generate(tournament=cast.tournament, by=cast.club_admin, rounds=2, seed=1)
    html = _page(client, cast)
    assert _steps(html) == ["participants", "generate", "adjust", "judges", "publish", "hide", "final"]
    for heading in ("Правка рассадки", "Судьи столов", "Публикация", "Результаты до награждения", "Финал"):
        assert heading in html
    assert _repeated_ids(html) == []


def test_results_hidden_is_said_once_after_the_action(client, cast):
    schedule.participants_add(tournament=cast.tournament, players=cast.players[:20], by=cast.club_admin)
    schedule.schedule_generate(tournament=cast.tournament, by=cast.club_admin, rounds=2, seed=1)
    client.force_login(cast.club_admin)
    response = client.post(reverse("games:schedule_action", args=[cast.tournament.pk, "hide"]), {"from_round": 2},
                           follow=True, HTTP_ACCEPT_LANGUAGE="ru")
    html = response.content.decode()
    assert html.lower().count("результаты с тура 2 скрыты") + html.lower().count("результаты скрыты") == 1
    assert 'data-testid="reveal"' in html and 'data-testid="hide"' not in html


def test_a_published_seating_changes_only_with_a_confirmation_and_leaves_a_trail(client, cast):
    schedule.participants_add(tournament=cast.tournament, players=cast.players[:20], by=cast.club_admin)
    schedule.schedule_generate(tournament=cast.tournament, by=cast.club_admin, rounds=1, seed=1)
    schedule.schedule_publish(tournament=cast.tournament, by=cast.club_admin)
    before = sorted(Seat.objects.values_list("game_id", "number", "player_id"))
    client.force_login(cast.club_admin)
    url = reverse("games:schedule_action", args=[cast.tournament.pk, "swap"])
    refused = client.post(url, {"round": 1, "a": 1, "b": 2}, HTTP_ACCEPT_LANGUAGE="ru")
    assert refused.status_code == 400 and "Подтверждение: рассадка уже опубликована" in refused.content.decode()
    assert sorted(Seat.objects.values_list("game_id", "number", "player_id")) == before
    assert client.post(url, {"round": 1, "a": 1, "b": 2, "confirm": "on"}).status_code == 302
    assert sorted(Seat.objects.values_list("game_id", "number", "player_id")) != before
    game = Seat.objects.get(player=cast.tournament.participants.get(number=1).player).game
    with translation.override("ru"):
        trail = audit_trail(game)
    assert any("участники №1 и №2 поменялись местами" in e.detail and e.who for e in trail)


def _published(cast, rounds=2):
    schedule.participants_add(tournament=cast.tournament, players=cast.players[:20], by=cast.club_admin)
    schedule.schedule_generate(tournament=cast.tournament, by=cast.club_admin, rounds=rounds, seed=1)
    schedule.schedule_publish(tournament=cast.tournament, by=cast.club_admin)


def _seating():
    return sorted(Seat.objects.values_list("game_id", "number", "player_id"))


def _rounds():
    return sorted(Game.objects.filter(round__isnull=False).values_list("pk", "round"))


def _trail(game) -> list[str]:
    with translation.override("ru"):
        return [e.detail for e in audit_trail(game) if e.who]


# (the page's action, the posted fields, the trail's words on a game it touched)
PUBLISHED_CHANGES = [
    ("generate", {"rounds": 2, "seed": 7}, "рассадка разыграна заново (организатор)"),
    ("move", {"round": 2}, "перенесена в тур 2 (организатор)"),  # round 1's game at table 1
]


@pytest.mark.parametrize(("kind", "data", "said"), PUBLISHED_CHANGES)
def test_each_change_of_a_published_seating_needs_the_confirmation_and_leaves_a_note(client, cast, kind, data, said):
    _published(cast)
    if kind == "move":
        data = {**data, "game": Game.objects.get(tournament=cast.tournament, round=1, table=1).number}
    before = (_seating(), _rounds())
    client.force_login(cast.club_admin)
    url = reverse("games:schedule_action", args=[cast.tournament.pk, kind])
    page = client.get(reverse("games:tournament_schedule", args=[cast.tournament.pk])).content.decode()
    assert page.count('name="confirm"') == 3  # the swap, the new draw and the move each ask
    refused = client.post(url, data, HTTP_ACCEPT_LANGUAGE="ru")
    assert refused.status_code == 400 and "Подтверждение: рассадка уже опубликована" in refused.content.decode()
    assert (_seating(), _rounds()) == before
    assert client.post(url, {**data, "confirm": "on"}).status_code == 302
    assert (_seating(), _rounds()) != before
    touched = [g for g in Game.objects.filter(tournament=cast.tournament) if any(said in d for d in _trail(g))]
    assert touched


def test_a_withdrawal_from_a_published_seating_needs_the_confirmation_and_leaves_a_note(client, cast):
    _published(cast)
    before = _seating()
    client.force_login(cast.club_admin)
    url = reverse("games:tournament_participants", args=[cast.tournament.pk])
    assert 'name="confirm"' in client.get(url).content.decode()
    data = {"action": "withdraw", "number": 3, "after_round": 1}
    refused = client.post(url, data, HTTP_ACCEPT_LANGUAGE="ru")
    assert refused.status_code == 400 and "Подтверждение: рассадка уже опубликована" in refused.content.decode()
    assert _seating() == before
    assert cast.tournament.participants.get(number=3).withdrawn_after is None
    assert client.post(url, {**data, "confirm": "on"}).status_code == 302
    quitter = cast.tournament.participants.get(number=3).player
    assert not Seat.objects.filter(game__round=2, player=quitter).exists()
    noted = [g for g in Game.objects.filter(tournament=cast.tournament, round=2)
             if any("участник №3 снят после тура 1" in d for d in _trail(g))]
    assert len(noted) == 1


def test_before_publishing_the_changes_need_no_confirmation(client, cast):
    schedule.participants_add(tournament=cast.tournament, players=cast.players[:20], by=cast.club_admin)
    schedule.schedule_generate(tournament=cast.tournament, by=cast.club_admin, rounds=2, seed=1)
    client.force_login(cast.club_admin)
    url = reverse("games:schedule_action", args=[cast.tournament.pk, "generate"])
    assert client.post(url, {"rounds": 2, "seed": 7}).status_code == 302
