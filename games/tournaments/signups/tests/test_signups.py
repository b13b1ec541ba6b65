"""Sign-ups («Запись»): places, the waiting list, cancel deadlines, permissions on every write, the letters, the
organiser's one step into tables or participants, and the cards on the home page and the sign-up page."""

from __future__ import annotations

import datetime as dt
import random

import pytest
from django.core import mail
from django.core.exceptions import PermissionDenied
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from club.services import ServiceError
from games.models import Game, Seat
from games.tests.signup_fixtures import build_cast
from games.tournaments.signups import services
from games.tournaments.signups.models import Signup, SignupSheet

pytestmark = pytest.mark.django_db
WAITING, CONFIRMED, CANCELLED = Signup.Status.WAITING, Signup.Status.CONFIRMED, Signup.Status.CANCELLED


@pytest.fixture
def cast(db):
    return build_cast()


def _statuses(sheet) -> dict[str, str]:
    return dict(sheet.signups.values_list("player__nickname", "status"))


def _join(cast, *indexes, note=""):
    return [services.sign_up(sheet=cast.sheet, by=cast.users[i], note=note) for i in indexes]


# ------------------------------------------------------------------------------------------------ places and waiting


def test_players_beyond_the_limit_go_to_the_waiting_list_in_order(cast):
    signups = _join(cast, 0, 1, 2, 3, 4)
    assert [s.status for s in signups] == [CONFIRMED] * 3 + [WAITING] * 2
    assert SignupSheet.objects.get(pk=cast.sheet.pk).signups.filter(status=CONFIRMED).count() == 3


def test_a_cancel_moves_the_first_waiting_player_up_and_mails_him(cast, django_capture_on_commit_callbacks):
    _join(cast, 0, 1, 2, 3, 4)
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        services.sign_up_cancel(sheet=cast.sheet, by=cast.users[1])
    assert _statuses(cast.sheet) == {"Игрок00": CONFIRMED, "Игрок01": CANCELLED, "Игрок02": CONFIRMED,
                                     "Игрок03": CONFIRMED, "Игрок04": WAITING}
    assert Signup.objects.get(player=cast.players[3]).promoted_at is not None
    assert [m.to for m in mail.outbox] == [["player3@example.org"]]
    assert "Место освободилось" in mail.outbox[0].subject and "Вечер пятницы" in mail.outbox[0].body


def test_a_waiting_player_who_cancels_moves_nobody(cast, django_capture_on_commit_callbacks):
    _join(cast, 0, 1, 2, 3, 4)
    with django_capture_on_commit_callbacks(execute=True):
        services.sign_up_cancel(sheet=cast.sheet, by=cast.users[3])
    assert _statuses(cast.sheet)["Игрок04"] == WAITING
    assert mail.outbox == []


def test_a_sign_up_is_confirmed_by_a_russian_letter(cast, django_capture_on_commit_callbacks, settings):
    settings.SITE_URL = "https://club.example.org"
    with django_capture_on_commit_callbacks(execute=True):
        _join(cast, 0)
    letter = mail.outbox[0]
    assert letter.to == ["player0@example.org"] and letter.subject == "Вы записаны: Вечер пятницы"
    when = timezone.localtime(cast.sheet.starts_at)
    assert f"{when.day} " in letter.body and "Тверская, 7" in letter.body
    assert f"https://club.example.org/games/signups/{cast.sheet.pk}/" in letter.body


def test_a_waiting_list_letter_says_so(cast, django_capture_on_commit_callbacks):
    _join(cast, 0, 1, 2)
    with django_capture_on_commit_callbacks(execute=True):
        _join(cast, 3)
    assert mail.outbox[-1].subject.startswith("Лист ожидания")


def test_signing_up_twice_is_refused_and_changes_nothing(cast):
    _join(cast, 0)
    with pytest.raises(ServiceError, match="вы уже в списке"):
        _join(cast, 0)
    assert cast.sheet.signups.count() == 1


def test_after_a_cancel_a_player_may_sign_up_again_at_the_end(cast):
    _join(cast, 0, 1, 2, 3)
    services.sign_up_cancel(sheet=cast.sheet, by=cast.users[0])
    again = services.sign_up(sheet=cast.sheet, by=cast.users[0])
    assert again.status == WAITING and again.cancelled_at is None


def test_a_note_reaches_the_organiser_and_a_long_one_is_refused(cast):
    _join(cast, 0, note="  Опоздаю на полчаса ")
    assert Signup.objects.get(player=cast.players[0]).note == "Опоздаю на полчаса"
    with pytest.raises(ServiceError, match="Записка организатору: не больше 300") as error:
        services.sign_up(sheet=cast.sheet, by=cast.users[1], note="x" * 301)
    assert error.value.field == "note"
    assert not Signup.objects.filter(player=cast.players[1]).exists()


@pytest.mark.parametrize(("opens", "closes", "message"), [
    (dt.timedelta(hours=1), dt.timedelta(hours=3), "Запись: откроется"),
    (dt.timedelta(hours=-3), dt.timedelta(hours=-1), "Запись: закрыта"),
])
def test_outside_its_window_the_sign_up_is_refused(cast, opens, closes, message):
    now = timezone.now()
    SignupSheet.objects.filter(pk=cast.sheet.pk).update(opens_at=now + opens, closes_at=now + closes, cancel_until=None)
    with pytest.raises(ServiceError, match=message):
        _join(cast, 0)
    assert not cast.sheet.signups.exists()


def test_after_the_cancel_deadline_the_place_is_kept(cast):
    _join(cast, 0)
    SignupSheet.objects.filter(pk=cast.sheet.pk).update(cancel_until=timezone.now() - dt.timedelta(minutes=1))
    with pytest.raises(ServiceError, match="можно было до"):
        services.sign_up_cancel(sheet=cast.sheet, by=cast.users[0])
    assert _statuses(cast.sheet) == {"Игрок00": CONFIRMED}


def test_without_a_limit_nobody_waits(db):
    cast = build_cast(limit=None)
    assert {s.status for s in _join(cast, 0, 1, 2, 3, 4, 5)} == {CONFIRMED}


# ------------------------------------------------------------------------------------------------ permissions


def test_a_login_without_a_player_cannot_sign_up(cast):
    with pytest.raises(PermissionDenied):
        services.sign_up(sheet=cast.sheet, by=cast.outsider)
    assert not cast.sheet.signups.exists()


def test_a_player_signs_up_only_himself_whatever_the_request_names(cast):
    client = Client()
    client.force_login(cast.users[0])
    client.post(reverse("games:signup_join", args=[cast.sheet.pk]), {"player": cast.players[4].pk})
    assert _statuses(cast.sheet) == {"Игрок00": CONFIRMED}


@pytest.mark.parametrize("who", ["outsider", "judge", "player"])
def test_only_the_organiser_takes_a_player_off_or_makes_tables(cast, who):
    _join(cast, 0, 1, 2, 3)
    user = {"outsider": cast.outsider, "judge": cast.judge, "player": cast.users[1]}[who]
    signup = Signup.objects.get(player=cast.players[0])
    with pytest.raises(PermissionDenied):
        services.signup_remove(signup=signup, by=user)
    with pytest.raises(PermissionDenied):
        services.signups_to_tables(sheet=cast.sheet, by=user)
    client = Client()
    client.force_login(user)
    assert client.post(reverse("games:signup_remove", args=[cast.sheet.pk]), {"signup": signup.pk}).status_code == 403
    assert client.post(reverse("games:signup_convert", args=[cast.sheet.pk])).status_code == 403
    assert "signup-lists" not in client.get(reverse("games:signup_sheet", args=[cast.sheet.pk])).content.decode()
    assert _statuses(cast.sheet)["Игрок00"] == CONFIRMED and not Game.objects.exists()


def test_the_organiser_takes_a_player_off_and_the_waiting_list_moves_up(cast):
    _join(cast, 0, 1, 2, 3)
    client = Client()
    client.force_login(cast.head_judge)
    signup = Signup.objects.get(player=cast.players[0])
    client.post(reverse("games:signup_remove", args=[cast.sheet.pk]), {"signup": signup.pk, "confirm": "1"})
    assert _statuses(cast.sheet) == {"Игрок00": "removed", "Игрок01": CONFIRMED, "Игрок02": CONFIRMED,
                                     "Игрок03": CONFIRMED}
    page = client.get(reverse("games:signup_sheet", args=[cast.sheet.pk])).content.decode()
    assert 'data-testid="signup-removed"' in page and "Игрок00" in page


def test_only_the_organiser_opens_a_sign_up(cast):
    url = reverse("games:tournament_signup_edit", args=[cast.tournament.pk])
    client = Client()
    client.force_login(cast.users[0])
    assert client.get(url).status_code == 403
    client.force_login(cast.admin)
    now = timezone.localtime().replace(second=0, microsecond=0, tzinfo=None)
    form = {"starts_at": (now + dt.timedelta(days=9)).isoformat(), "place": "Зал", "limit": "30",
            "opens_at": now.isoformat(), "closes_at": (now + dt.timedelta(days=8)).isoformat()}
    assert client.post(url, form).status_code == 302
    sheet = SignupSheet.objects.get(tournament=cast.tournament)
    assert sheet.limit == 30 and sheet.place == "Зал"


def test_a_sign_up_that_closes_before_it_opens_is_refused_with_the_field(cast):
    url = reverse("games:tournament_signup_edit", args=[cast.tournament.pk])
    client = Client()
    client.force_login(cast.admin)
    now = timezone.localtime().replace(second=0, microsecond=0, tzinfo=None)
    response = client.post(url, {"starts_at": now.isoformat(), "opens_at": now.isoformat(),
                                 "closes_at": (now - dt.timedelta(hours=1)).isoformat()})
    assert response.status_code == 400
    assert "closes_at" in response.context["form"].errors
    assert not SignupSheet.objects.filter(tournament=cast.tournament).exists()


def test_a_lower_limit_than_the_signed_up_is_refused(cast):
    _join(cast, 0, 1, 2)
    sheet = cast.sheet
    with pytest.raises(ServiceError, match="меньше сделать нельзя"):
        services.sheet_open(event=cast.evening, by=cast.admin, starts_at=sheet.starts_at, opens_at=sheet.opens_at,
                            closes_at=sheet.closes_at, limit=2)
    assert SignupSheet.objects.get(pk=sheet.pk).limit == 3


def test_a_higher_limit_moves_the_waiting_list_up(cast):
    _join(cast, 0, 1, 2, 3, 4)
    sheet = cast.sheet
    services.sheet_open(event=cast.evening, by=cast.admin, starts_at=sheet.starts_at, opens_at=sheet.opens_at,
                        closes_at=sheet.closes_at, limit=4)
    assert _statuses(sheet)["Игрок03"] == CONFIRMED and _statuses(sheet)["Игрок04"] == WAITING


# ------------------------------------------------------------------------------------------------ one step


def test_the_organiser_turns_twenty_three_sign_ups_into_two_seated_tables(db):
    cast = build_cast(limit=None, players=23)
    _join(cast, *range(23))
    games = services.signups_to_tables(sheet=cast.sheet, by=cast.admin, rng=random.Random(1))
    assert [(g.table, g.number, g.status) for g in games] == [(1, 1, "draft"), (2, 2, "draft")]
    seated = [set(Seat.objects.filter(game=g).values_list("player__nickname", flat=True)) for g in games]
    assert seated == [{f"Игрок{i:02d}" for i in range(10)}, {f"Игрок{i:02d}" for i in range(10, 20)}]
    assert sorted(Seat.objects.filter(game=games[0]).values_list("number", flat=True)) == list(range(1, 11))
    with pytest.raises(ServiceError, match="уже превращён"):
        services.signups_to_tables(sheet=cast.sheet, by=cast.admin)
    assert Game.objects.count() == 2
    with pytest.raises(ServiceError, match="уже составил столы"):
        services.sign_up(sheet=cast.sheet, by=cast.users[22])


def test_fewer_than_ten_make_no_table_and_change_nothing(cast):
    _join(cast, 0, 1, 2)
    with pytest.raises(ServiceError, match="нужно 10 игроков"):
        services.signups_to_tables(sheet=cast.sheet, by=cast.admin)
    assert not Game.objects.exists() and SignupSheet.objects.get(pk=cast.sheet.pk).converted_at is None


def test_the_tournament_list_becomes_its_participants(cast):
    now = timezone.now()
    sheet = services.sheet_open(event=cast.tournament, by=cast.admin, starts_at=now + dt.timedelta(days=3),
                                opens_at=now - dt.timedelta(hours=1), closes_at=now + dt.timedelta(days=2), limit=4)
    for user in cast.users[:5]:
        services.sign_up(sheet=sheet, by=user)
    added = services.signups_to_participants(sheet=sheet, by=cast.admin)
    assert [(p.number, p.player.nickname) for p in added] == [(1, "Игрок00"), (2, "Игрок01"), (3, "Игрок02"),
                                                              (4, "Игрок03")]
    assert cast.tournament.participants.count() == 4


# ------------------------------------------------------------------------------------------------ pages


def test_the_htmx_tap_answers_the_card_fragment_and_signs_up(cast):
    client = Client()
    client.force_login(cast.users[0])
    response = client.post(reverse("games:signup_join", args=[cast.sheet.pk]), HTTP_HX_REQUEST="true")
    html = response.content.decode()
    assert response.status_code == 200 and "<html" not in html and 'data-signup-card' in html
    assert 'data-testid="signup-leave"' in html
    assert _statuses(cast.sheet) == {"Игрок00": CONFIRMED}


def test_a_refused_htmx_tap_is_a_4xx_card_with_the_message(cast):
    client = Client()
    client.force_login(cast.users[0])
    url = reverse("games:signup_join", args=[cast.sheet.pk])
    client.post(url, HTTP_HX_REQUEST="true")
    response = client.post(url, HTTP_HX_REQUEST="true", HTTP_ACCEPT_LANGUAGE="ru")
    assert response.status_code == 409 and 'data-testid="signup-error"' in response.content.decode()
    assert cast.sheet.signups.count() == 1


def test_anonymous_visitors_see_the_count_and_a_login_link_on_the_home_page(cast):
    _join(cast, 0, 1)
    html = Client().get("/").content.decode()
    assert 'data-testid="home-events"' in html and 'data-testid="signup-login"' in html
    assert "Вечер пятницы" in html and "2 из 3" in html
    assert 'data-testid="signup-join"' not in html


def test_a_player_sees_the_button_on_the_home_page_and_on_the_event_page(cast):
    client = Client()
    client.force_login(cast.users[0])
    assert 'data-testid="signup-join"' in client.get("/").content.decode()
    page = client.get(reverse("games:evening_detail", args=[cast.evening.pk])).content.decode()
    assert 'data-testid="signup-join"' in page
    assert 'data-testid="signup-join"' in client.get(reverse("games:signup_sheet", args=[cast.sheet.pk])).content.decode()


def test_the_home_page_dates_are_in_words(cast):
    html = Client().get("/").content.decode()
    when = timezone.localtime(cast.sheet.starts_at)
    months = ["января", "февраля", "марта", "апреля", "мая", "июня", "июля", "августа", "сентября", "октября",
              "ноября", "декабря"]
    assert f"{when.day} {months[when.month - 1]} {when.year}, {when:%H:%M}" in html
