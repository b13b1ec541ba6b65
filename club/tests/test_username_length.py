"""A login name longer than a login name can be (150 characters) is refused at every form that takes one, with
the field's message — it used to reach axes, whose AccessAttempt.username is varchar(255): a 500 on PostgreSQL.
Runs on both databases (`DATABASE_URL=postgres://…` for PostgreSQL)."""

import pytest
from axes.models import AccessAttempt
from django.contrib.auth import get_user_model
from django.core import mail
from django.test import Client
from django.urls import reverse

from club.tests.factories import ClubFactory

pytestmark = pytest.mark.django_db

LONG = "u" * 300
LIMIT = "не более 150 символов"  # Django's MaxLengthValidator message, in Russian


@pytest.mark.parametrize("url", ["login", "admin:login"])
def test_a_login_name_over_the_limit_is_the_fields_message_not_a_500(url, settings):
    settings.DEBUG = False
    response = Client(raise_request_exception=False).post(reverse(url), {"username": LONG, "password": "wrong"})
    assert response.status_code == 200, response.content[:300]
    assert LIMIT in " ".join(response.context["form"].errors["username"])
    assert not AccessAttempt.objects.exists()


def test_a_login_name_at_the_limit_still_counts_as_a_failed_login():
    Client().post(reverse("login"), {"username": "u" * 150, "password": "wrong"})
    assert AccessAttempt.objects.get().username == "u" * 150


def test_signup_refuses_a_login_name_over_the_limit():
    ClubFactory()  # sign-up is for a club's site (an empty site leads to /setup/)
    response = Client().post(reverse("signup"), {"username": LONG, "password1": "Long-enough-2026",
                                                 "password2": "Long-enough-2026"})
    assert response.status_code == 400  # a refused form is a 4xx
    assert LIMIT in " ".join(response.context["form"].errors["username"])
    assert not get_user_model().objects.exists()


def test_password_reset_refuses_an_address_over_the_limit():
    response = Client().post(reverse("password_reset"), {"email": "u" * 300 + "@example.org"})
    assert response.status_code == 200
    assert "не более 254 символов" in " ".join(response.context["form"].errors["email"])
    assert not mail.outbox
