"""The waiting list in its own words, and the organiser's «Убрать из списка»: asked before it acts (in the browser,
and on a page of its own without JavaScript), the player kept apart as taken off by the organiser — not among
those who cancelled."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games.tests.signup_fixtures import build_cast
from games.tournaments.signups import services
from games.tournaments.signups.models import Signup, SignupSheet

pytestmark = pytest.mark.django_db
CONFIRMED, WAITING, CANCELLED = Signup.Status.CONFIRMED, Signup.Status.WAITING, Signup.Status.CANCELLED
REMOVED = "removed"  # Signup.Status.REMOVED


@pytest.fixture
def cast(db):
    cast = build_cast()  # three places
    for user in cast.users[:5]:
        services.sign_up(sheet=cast.sheet, by=user)
    return cast


def _client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _statuses(cast) -> dict[str, str]:
    return dict(cast.sheet.signups.values_list("player__nickname", "status"))


def _section(page: str, testid: str) -> str:
    found = re.search(rf'data-testid="{testid}">(.*?)</[uo]l>', page, re.S)
    return found.group(1) if found else ""


def test_a_waiting_player_leaves_the_waiting_list_not_a_place(cast):
    client = _client(cast.users[3])
    page = client.get(reverse("games:signup_sheet", args=[cast.sheet.pk])).content.decode()
    assert "Выйти из листа ожидания" in page
    assert "Отказаться от места" not in page  # he has no place to give back
    response = client.post(reverse("games:signup_leave", args=[cast.sheet.pk]), follow=True)
    assert "Вы вышли из листа ожидания" in response.content.decode()
    assert _statuses(cast)["Игрок03"] == CANCELLED and _statuses(cast)["Игрок04"] == WAITING


def test_a_waiting_player_may_leave_after_the_cancel_deadline_a_signed_up_one_may_not(cast):
    past = timezone.now() - dt.timedelta(minutes=1)
    SignupSheet.objects.filter(pk=cast.sheet.pk).update(cancel_until=past)
    waiting_card = _client(cast.users[4]).get(reverse("games:signup_sheet", args=[cast.sheet.pk])).content.decode()
    assert 'data-testid="signup-leave"' in waiting_card
    services.sign_up_cancel(sheet=cast.sheet, by=cast.users[4])
    assert _statuses(cast)["Игрок04"] == CANCELLED
    with pytest.raises(Exception, match="можно было"):
        services.sign_up_cancel(sheet=cast.sheet, by=cast.users[0])
    assert _statuses(cast)["Игрок00"] == CONFIRMED


def test_take_off_the_list_asks_first_and_without_javascript_on_a_page_of_its_own(cast):
    organiser = _client(cast.head_judge)
    url = reverse("games:signup_remove", args=[cast.sheet.pk])
    signup = Signup.objects.get(player=cast.players[0])
    page = organiser.get(reverse("games:signup_sheet", args=[cast.sheet.pk])).content.decode()
    assert 'hx-confirm="Убрать Игрок00 из списка?"' in page and """hx-vals='{"confirm": "1"}'""" in page
    asked = organiser.post(url, {"signup": signup.pk})  # the plain form's post: the question, nothing done
    question = asked.content.decode()
    assert asked.status_code == 200 and "Убрать Игрок00 из списка?" in question
    assert 'name="confirm" value="1"' in question and 'data-testid="signup-remove-confirm"' in question
    assert _statuses(cast)["Игрок00"] == CONFIRMED
    done = organiser.post(url, {"signup": signup.pk, "confirm": "1"})
    assert done.status_code == 302
    assert _statuses(cast) == {"Игрок00": REMOVED, "Игрок01": CONFIRMED, "Игрок02": CONFIRMED,
                               "Игрок03": CONFIRMED, "Игрок04": WAITING}
    page = organiser.get(reverse("games:signup_sheet", args=[cast.sheet.pk])).content.decode()
    assert "Игрок00" in _section(page, "signup-removed") and "Убраны организатором" in page
    assert "Игрок00" not in _section(page, "signup-cancelled")


def test_the_htmx_removal_sends_the_browser_back_to_the_list(cast):
    signup = Signup.objects.get(player=cast.players[3])  # a waiting one: nobody moves up
    response = _client(cast.admin).post(reverse("games:signup_remove", args=[cast.sheet.pk]),
                                        {"signup": signup.pk, "confirm": "1"}, headers={"HX-Request": "true"})
    assert response["HX-Redirect"] == reverse("games:signup_sheet", args=[cast.sheet.pk])
    assert _statuses(cast)["Игрок03"] == REMOVED and _statuses(cast)["Игрок04"] == WAITING


def test_a_player_who_cancelled_is_not_taken_off_again_and_one_taken_off_not_twice(cast):
    services.sign_up_cancel(sheet=cast.sheet, by=cast.users[1])
    client = _client(cast.admin)
    url = reverse("games:signup_remove", args=[cast.sheet.pk])
    cancelled = Signup.objects.get(player=cast.players[1])
    page = client.post(url, {"signup": cancelled.pk, "confirm": "1"}, follow=True).content.decode()
    assert "уже отказался" in page and _statuses(cast)["Игрок01"] == CANCELLED
    removed = Signup.objects.get(player=cast.players[0])
    client.post(url, {"signup": removed.pk, "confirm": "1"})
    page = client.post(url, {"signup": removed.pk, "confirm": "1"}, follow=True).content.decode()
    assert "уже убран из списка" in page and _statuses(cast)["Игрок00"] == REMOVED


def test_the_confirmation_page_is_the_organisers_only(cast):
    signup = Signup.objects.get(player=cast.players[0])
    response = _client(cast.users[1]).post(reverse("games:signup_remove", args=[cast.sheet.pk]),
                                           {"signup": signup.pk})
    assert response.status_code == 403 and "Игрок00" not in response.content.decode()
