"""A player who forgot his password gets back in by e-mail: Django's own views, a Russian letter, the login page
links it."""

import re

import pytest
from django.core import mail
from django.test import Client

from club.tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def test_login_page_links_the_password_reset(client):
    page = client.get("/login/").content.decode()
    assert 'href="/password/reset/"' in page
    assert "Забыли пароль?" in page


def test_password_reset_by_email_end_to_end(settings):
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    user = UserFactory(username="lisa", email="lisa@example.org")
    user.set_password("old-password-2026")
    user.save()
    client = Client()

    sent = client.post("/password/reset/", {"email": "lisa@example.org"})
    assert sent.status_code == 302 and sent["Location"] == "/password/reset/sent/"
    assert "Проверьте почту" in client.get("/password/reset/sent/").content.decode()
    assert len(mail.outbox) == 1
    letter = mail.outbox[0]
    assert letter.to == ["lisa@example.org"]
    assert "пароль" in letter.subject.lower() and "«lisa»" in letter.body
    link = re.search(r"https?://[^/\s]+(/password/reset/[^\s]+/)", letter.body).group(1)

    form = client.get(link, follow=True)  # Django swaps the token for a session one and redirects
    assert form.status_code == 200 and "Новый пароль" in form.content.decode()
    done = client.post(form.redirect_chain[-1][0],
                       {"new_password1": "a-new-Secret-2026", "new_password2": "a-new-Secret-2026"})
    assert done.status_code == 302 and done["Location"] == "/password/reset/complete/"

    user.refresh_from_db()
    assert user.check_password("a-new-Secret-2026") and not user.check_password("old-password-2026")
    signed_in = Client().post("/login/", {"username": "lisa", "password": "a-new-Secret-2026"})
    assert signed_in.status_code == 302
    # The link works once.
    again = client.get(link, follow=True).content.decode()
    assert "больше не действует" in again


def test_password_reset_for_an_unknown_address_sends_nothing_and_says_the_same(settings):
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    response = Client().post("/password/reset/", {"email": "nobody@example.org"})
    assert response.status_code == 302 and response["Location"] == "/password/reset/sent/"
    assert mail.outbox == []
