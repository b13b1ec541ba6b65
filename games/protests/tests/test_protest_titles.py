"""Wherever a protest is listed — the queue, the protest's page, «Мои протесты», the letters, the admin's name of
it — its title says the event and the table, not only «игра 1»: a head judge with several tables and events open
knows which game it is without opening it."""

from __future__ import annotations

import re

import pytest
from django.core import mail
from django.urls import reverse

from games.models import Game
from games.protests.tests.test_protests import file_p1
from games.tests.protest_fixtures import TOURNAMENT, protest_cast

pytestmark = pytest.mark.django_db
PLACE = f"{TOURNAMENT} — стол 3, игра 1"


@pytest.fixture
def cast():
    cast = protest_cast()
    Game.objects.filter(pk=cast.game.pk).update(table=3)
    cast.game.table = 3
    return cast


def _text(response) -> str:
    return re.sub(r"\s+", " ", response.content.decode())


def test_the_queue_the_protest_page_and_my_protests_name_the_event_and_the_table(client, cast):
    protest = file_p1(cast)
    client.force_login(cast.head_judge)
    queue = _text(client.get(reverse("games:protest_queue")))
    assert f"Протест #{protest.pk}</strong> — <a href=\"/games/{cast.game.pk}/\">{PLACE}</a>" in queue
    page = _text(client.get(reverse("games:protest_detail", args=[protest.pk])))
    assert f"<title>Протест #{protest.pk} — {PLACE}" in page
    client.force_login(cast.participant)
    mine = _text(client.get(reverse("games:my_protests")))
    assert f'<a href="/games/{cast.game.pk}/">{PLACE}</a>' in mine
    assert str(protest) == f"Протест #{protest.pk} — {PLACE}"


def test_the_letters_name_the_event_and_the_table(cast, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        protest = file_p1(cast)
    [filed] = mail.outbox
    assert PLACE in filed.subject and PLACE in filed.body
    from games.protests.mail import notify_decision
    from games.protests.services import protest_decide

    mail.outbox.clear()
    protest = protest_decide(protest=protest, by=cast.head_judge, decision="reject", explanation="нет оснований")
    mail.outbox.clear()
    notify_decision(protest)
    assert mail.outbox and all(PLACE in m.subject and PLACE in m.body for m in mail.outbox)
