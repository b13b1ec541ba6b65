"""The organiser's sign-up form starts filled: the event's start and place (or the club's last sign-up's), open from
now until the start — sent as it comes, it opens the sign-up."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games.models import ClubEvening, Tournament
from games.tests.signup_fixtures import build_cast
from games.tournaments.signups.models import SignupSheet

pytestmark = pytest.mark.django_db


def _values(html: str) -> dict[str, str]:
    """The form's input values by name ("" for an empty one)."""
    found = {}
    for tag in re.findall(r"<input[^>]*>", html):
        name = re.search(r'name="([^"]+)"', tag)
        value = re.search(r'value="([^"]*)"', tag)
        if name:
            found[name.group(1)] = value.group(1) if value else ""
    return found


def _organiser(cast) -> Client:
    client = Client()
    client.force_login(cast.admin)
    return client


def test_a_tournaments_sign_up_starts_with_its_day_time_and_place_and_opens_as_it_comes():
    cast = build_cast()
    day = timezone.localdate() + dt.timedelta(days=10)
    Tournament.objects.filter(pk=cast.tournament.pk).update(start_date=day, start_time=dt.time(11, 30),
                                                             place="Клуб «Полночь», Арбат 1")
    url = reverse("games:tournament_signup_edit", args=[cast.tournament.pk])
    client = _organiser(cast)
    values = _values(client.get(url).content.decode())
    assert values["starts_at"] == f"{day.isoformat()}T11:30"
    assert values["place"] == "Клуб «Полночь», Арбат 1"
    assert values["closes_at"] == values["starts_at"]
    assert values["opens_at"].startswith(timezone.localdate().isoformat())
    sent = {name: value for name, value in values.items() if name != "csrfmiddlewaretoken"}
    assert client.post(url, sent).status_code == 302
    sheet = SignupSheet.objects.get(tournament=cast.tournament)
    assert timezone.localtime(sheet.starts_at).time() == dt.time(11, 30) and sheet.place == "Клуб «Полночь», Арбат 1"


def test_an_evening_without_time_and_place_takes_the_clubs_last_sign_ups():
    cast = build_cast(limit=20)  # tonight's evening has a sheet at Тверская, 7 for 20 places
    last = timezone.localtime(cast.sheet.starts_at)
    day = timezone.localdate() + dt.timedelta(days=7)
    evening = ClubEvening.objects.create(club=cast.club, date=day, ruleset=cast.evening.ruleset, name="Следующая")
    values = _values(_organiser(cast).get(reverse("games:evening_signup_edit", args=[evening.pk])).content.decode())
    assert values["starts_at"] == f"{day.isoformat()}T{last:%H:%M}"
    assert values["place"] == "Тверская, 7" and values["limit"] == "20"


def test_a_sheet_being_changed_shows_its_own_values():
    cast = build_cast()
    values = _values(_organiser(cast).get(reverse("games:evening_signup_edit",
                                                  args=[cast.evening.pk])).content.decode())
    assert values["starts_at"] == f"{timezone.localtime(cast.sheet.starts_at):%Y-%m-%dT%H:%M}"
    assert values["closes_at"] == f"{timezone.localtime(cast.sheet.closes_at):%Y-%m-%dT%H:%M}"
