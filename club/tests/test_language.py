import pytest
from django.urls import reverse

from club.models import Club

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def club():
    return Club.objects.create(name="Полночь")


def test_the_site_speaks_russian_even_to_an_english_browser(client):
    page = client.get(reverse("player_list"), HTTP_ACCEPT_LANGUAGE="en-US,en;q=0.9").content.decode()
    assert 'lang="ru"' in page and "Игроки" in page


def test_the_language_switch_is_remembered(client):
    client.post(reverse("set_language"), {"language": "en", "next": "/players/"})
    page = client.get(reverse("player_list")).content.decode()
    assert 'lang="en"' in page and "Players" in page
