"""Sign-up counts in the API: the figures of the public sign-up page (times, places, signed up, waiting), never a
name or a note; a cancelled place counts nowhere."""

from __future__ import annotations

import datetime as dt
import json

import pytest
from django.test import Client
from django.utils import timezone

from games.tests.signup_fixtures import build_cast
from games.tournaments.signups import services
from games.tournaments.signups.models import SignupSheet

pytestmark = pytest.mark.django_db


def _get(url: str, client: Client | None = None) -> dict:
    response = (client or Client()).get(url)
    assert response.status_code == 200, response.content
    return json.loads(response.content)


@pytest.fixture
def cast(db):
    """Three places; five players sign up (three confirmed, two waiting), one confirmed cancels (the first waiting
    moves up), and the first waiting notes something for the organiser."""
    cast = build_cast(limit=3, players=6)
    for index in range(5):
        services.sign_up(sheet=cast.sheet, by=cast.users[index], note="опоздаю на полчаса" if index == 4 else "")
    services.sign_up_cancel(sheet=cast.sheet, by=cast.users[1])
    return cast


def test_the_list_gives_the_counts_without_the_cancelled_place(cast):
    data = _get(f"/api/v1/signups/?club={cast.club.pk}")
    assert data["count"] == 1
    sheet = data["items"][0]
    assert (sheet["places"], sheet["signed_up"], sheet["waiting"], sheet["free"]) == (3, 3, 1, 0)
    assert sheet["state"] == "open" and sheet["event"] == "Вечер пятницы"
    assert sheet["evening_id"] == cast.evening.pk and sheet["tournament_id"] is None
    assert sheet["place"] == "Тверская, 7"
    # ISO 8601 to the millisecond (Django's JSON encoder)
    assert abs(dt.datetime.fromisoformat(sheet["cancel_until"]) - cast.sheet.cancel_until) < dt.timedelta(milliseconds=1)


def test_no_answer_names_a_player_or_shows_a_note(cast):
    organiser = Client()
    organiser.force_login(cast.admin)
    for client in (Client(), organiser):
        text = json.dumps(_get(f"/api/v1/signups/?evening={cast.evening.pk}", client), ensure_ascii=False)
        assert "Игрок" not in text and "опоздаю" not in text


def test_a_tournament_answers_with_its_sign_up_and_one_without_with_none(cast):
    assert _get(f"/api/v1/tournaments/{cast.tournament.pk}/")["signup"] is None
    now = timezone.now()
    SignupSheet.objects.create(club=cast.club, tournament=cast.tournament, starts_at=now + dt.timedelta(days=9),
                               opens_at=now + dt.timedelta(days=1), closes_at=now + dt.timedelta(days=8))
    signup = _get(f"/api/v1/tournaments/{cast.tournament.pk}/")["signup"]
    assert signup["state"] == "soon" and signup["places"] is None and signup["free"] is None
    assert (signup["signed_up"], signup["waiting"]) == (0, 0)
    listed = _get(f"/api/v1/signups/?tournament={cast.tournament.pk}")["items"]
    assert [s["tournament_id"] for s in listed] == [cast.tournament.pk]


def test_upcoming_leaves_out_an_event_long_past_and_lists_the_soonest_first(cast):
    now = timezone.now()
    SignupSheet.objects.filter(pk=cast.sheet.pk).update(starts_at=now - dt.timedelta(days=2),
                                                        opens_at=now - dt.timedelta(days=5),
                                                        closes_at=now - dt.timedelta(days=2))
    cup = SignupSheet.objects.create(club=cast.club, tournament=cast.tournament, starts_at=now + dt.timedelta(days=9),
                                     opens_at=now - dt.timedelta(days=1), closes_at=now + dt.timedelta(days=8))
    assert [s["id"] for s in _get(f"/api/v1/signups/?club={cast.club.pk}&upcoming=1")["items"]] == [cup.pk]
    everything = _get(f"/api/v1/signups/?club={cast.club.pk}")["items"]
    assert [s["id"] for s in everything] == [cup.pk, cast.sheet.pk]
    assert everything[1]["state"] == "closed"
