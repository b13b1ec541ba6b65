import datetime as dt

import pytest
from django.utils import translation

from games.tests.signup_fixtures import build_cast
from notify.models import ClubChat, TelegramLink
from notify.tests.fake_bot_api import FakeBotAPI, start

CLUB_CHAT = -1001


@pytest.fixture(autouse=True)
def _russian(settings):
    settings.LANGUAGE_CODE = "ru"
    with translation.override("ru"):
        yield


@pytest.fixture
def bot_api(settings):
    api = FakeBotAPI()
    server = start(api)
    settings.TELEGRAM_BOT_TOKEN = "123:TEST"
    settings.TELEGRAM_API_BASE = api.url
    settings.TELEGRAM_WEBHOOK_SECRET = "webhook-secret"
    settings.TELEGRAM_BOT_USERNAME = "mafclub_test_bot"
    settings.SITE_URL = "https://club.example.org"
    yield api
    server.shutdown()
    server.server_close()


@pytest.fixture
def cast(db):
    return build_cast()


def link_chat(club, chat_id: int = CLUB_CHAT) -> ClubChat:
    return ClubChat.objects.update_or_create(club=club, defaults={"chat_id": chat_id, "title": "Клуб"})[0]


def link_user(user, chat_id: int, language: str = "ru") -> TelegramLink:
    return TelegramLink.objects.update_or_create(user=user, defaults={"chat_id": chat_id, "language": language})[0]


def no_sleep(_seconds: float) -> None:
    pass


def later(now, **delta) -> dt.datetime:
    return now + dt.timedelta(**delta)
