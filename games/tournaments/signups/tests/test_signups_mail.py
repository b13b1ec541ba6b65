"""The sign-up letters leave from the task worker: a mail server that is down or silent never fails a sign-up (the
place is taken and the page says so), and with working mail the letter still reaches the player."""

from __future__ import annotations

import socket

import pytest
from django.core import mail
from django.core.mail import get_connection
from django.test import Client
from django.urls import reverse
from django_tasks_db.models import DBTaskResult

from games.tests.signup_fixtures import build_cast
from games.tournaments.signups import services
from games.tournaments.signups.models import Signup

# transaction=True: the sign-up really commits, so its on-commit work runs inside the request as in production
pytestmark = pytest.mark.django_db(transaction=True)
CONFIRMED, WAITING = Signup.Status.CONFIRMED, Signup.Status.WAITING
DB_TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}


@pytest.fixture
def cast(db):
    return build_cast()


def _closed_port() -> int:
    """A loopback port nobody listens on: connecting to it is refused at once."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture
def mail_server_down(settings):
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT = "127.0.0.1", _closed_port()
    with pytest.raises(ConnectionRefusedError):  # the premise: this server refuses every letter
        mail.send_mail("probe", "probe", None, ["x@example.org"])


def _client(user) -> Client:
    client = Client(raise_request_exception=False)
    client.force_login(user)
    return client


def test_a_sign_up_answers_as_if_the_letter_had_gone_when_the_mail_server_is_down(cast, mail_server_down):
    client = _client(cast.users[0])
    response = client.post(reverse("games:signup_join", args=[cast.sheet.pk]))
    assert response.status_code == 302
    assert Signup.objects.get(player=cast.players[0]).status == CONFIRMED
    page = client.get(response.url).content.decode()
    assert "Вы записаны" in page
    # the htmx card too: the place is taken, no error, and a retry says "already on the list", not a 500
    second = _client(cast.users[1])
    card = second.post(reverse("games:signup_join", args=[cast.sheet.pk]), headers={"HX-Request": "true"})
    assert card.status_code == 200 and "Вы записаны" in card.content.decode()
    assert Signup.objects.get(player=cast.players[1]).status == CONFIRMED


def test_a_move_up_from_the_waiting_list_answers_when_the_mail_server_is_down(cast, mail_server_down):
    for index in range(4):
        services.sign_up(sheet=cast.sheet, by=cast.users[index])
    response = _client(cast.users[0]).post(reverse("games:signup_leave", args=[cast.sheet.pk]))
    assert response.status_code == 302
    assert Signup.objects.get(player=cast.players[3]).status == CONFIRMED


def test_with_working_mail_the_letter_reaches_the_player(cast):
    mail.outbox.clear()
    response = _client(cast.users[0]).post(reverse("games:signup_join", args=[cast.sheet.pk]))
    assert response.status_code == 302
    assert [(m.to, m.subject) for m in mail.outbox] == [(["player0@example.org"], "Вы записаны: Вечер пятницы")]


def test_the_letter_waits_for_the_worker_and_keeps_what_happened_at_the_sign_up(cast, settings):
    settings.TASKS = DB_TASKS
    for index in range(4):  # three places: the fourth waits
        services.sign_up(sheet=cast.sheet, by=cast.users[index])
    assert mail.outbox == []
    queued = list(DBTaskResult.objects.ready().order_by("enqueued_at"))
    assert [row.task_path.rsplit(".", 1)[-1] for row in queued] == ["mail_signed_up"] * 4
    services.sign_up_cancel(sheet=cast.sheet, by=cast.users[0])  # the fourth moves up; the first gets no letter
    for row in DBTaskResult.objects.ready().order_by("enqueued_at"):
        row.claim("test-worker")
        row.set_successful(row.task.call(*row.args_kwargs["args"], **row.args_kwargs["kwargs"]))
    assert sorted((m.to[0], m.subject) for m in mail.outbox) == [
        ("player1@example.org", "Вы записаны: Вечер пятницы"),
        ("player2@example.org", "Вы записаны: Вечер пятницы"),
        ("player3@example.org", "Лист ожидания: Вечер пятницы"),
        ("player3@example.org", "Место освободилось: Вечер пятницы"),
    ]


def test_a_silent_mail_server_holds_a_letter_for_email_timeout_seconds_at_most(settings):
    assert settings.EMAIL_TIMEOUT == 10
    assert get_connection("django.core.mail.backends.smtp.EmailBackend").timeout == 10
