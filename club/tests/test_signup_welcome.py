"""Self-registration asks for an optional e-mail (and says why), then offers «Это я»: the club's players whose
nickname is like the newcomer's name, one tap to claim."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from club.models import PlayerClaim
from club.tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db
User = get_user_model()
PASSWORD = "Zx-ampl3-pass!"


def _signup(client, **data):
    return client.post(reverse("signup"), {"password1": PASSWORD, "password2": PASSWORD, **data},
                       HTTP_ACCEPT_LANGUAGE="ru")


def test_the_sign_up_form_asks_for_an_optional_e_mail_and_says_why(client, cast):
    html = client.get(reverse("signup"), HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert 'name="email"' in html and "Электронная почта (необязательно)" in html
    assert "восстановить забытый пароль" in html and "уведомления клуба" in html
    _signup(client, username="mail", email="mail@example.org")
    assert User.objects.get(username="mail").email == "mail@example.org"
    client.logout()
    _signup(client, username="nomail")
    assert User.objects.get(username="nomail").email == ""


def test_a_bad_e_mail_is_refused_naming_the_field_and_creates_nobody(client, cast):
    response = _signup(client, username="badmail", email="not-an-address")
    assert response.status_code == 400 and "email" in response.context["form"].errors
    assert not User.objects.filter(username="badmail").exists()


def test_after_sign_up_the_club_players_with_a_similar_nickname_are_offered_and_one_tap_claims(client, cast):
    crow = PlayerFactory(club=cast.club, nickname="Ворон")
    PlayerFactory(club=cast.club, nickname="Сова")
    response = _signup(client, username="Ворон77")
    assert response.status_code == 302 and response["Location"] == reverse("claim_suggest")
    page = client.get(response["Location"], HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    offered = page.split('data-testid="claim-suggestions"', 1)[1].split("</ul>", 1)[0]
    assert "Ворон" in offered and "Сова" not in offered
    assert "Лиса" not in offered  # linked to a login already
    # a typed nickname looks again
    page = client.get(reverse("claim_suggest"), {"nickname": "сова"}).content.decode()
    assert "Сова" in page.split('data-testid="claim-suggestions"', 1)[1].split("</ul>", 1)[0]
    client.post(reverse("player_claim", args=[crow.pk]))
    claim = PlayerClaim.objects.get(user__username="Ворон77")
    assert claim.player == crow and claim.status == PlayerClaim.Status.PENDING
    assert 'data-testid="claim-pending"' in client.get(reverse("claim_suggest")).content.decode()


def test_the_suggestions_need_a_login(client, cast):
    response = client.get(reverse("claim_suggest"))
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))
