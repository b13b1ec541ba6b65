"""django-axes: repeated failed logins lock the username on that address out."""

import pytest
from axes.models import AccessAttempt
from django.urls import reverse

pytestmark = pytest.mark.django_db


def test_five_failed_logins_lock_the_account_out_even_with_the_right_password(client, django_user_model, settings):
    django_user_model.objects.create_user("judge1", password="right-password-2026")
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        response = client.post(reverse("login"), {"username": "judge1", "password": "wrong"})
        assert response.status_code == 200  # the form again, with its error
    assert client.post(reverse("login"), {"username": "judge1", "password": "wrong"}).status_code == 429
    locked = client.post(reverse("login"), {"username": "judge1", "password": "right-password-2026"})
    assert locked.status_code == 429
    assert "Слишком много неудачных попыток входа" in locked.content.decode()
    assert "_auth_user_id" not in client.session
    assert AccessAttempt.objects.get(username="judge1").failures_since_start >= settings.AXES_FAILURE_LIMIT


def test_a_successful_login_before_the_limit_resets_the_count(client, django_user_model):
    django_user_model.objects.create_user("judge2", password="right-password-2026")
    client.post(reverse("login"), {"username": "judge2", "password": "wrong"})
    response = client.post(reverse("login"), {"username": "judge2", "password": "right-password-2026"})
    assert response.status_code == 302
    assert not AccessAttempt.objects.filter(username="judge2").exists()


def _fail(client, username: str, address: str = "10.0.0.7"):
    return client.post(reverse("login"), {"username": username, "password": "wrong"}, REMOTE_ADDR=address)


def test_one_address_trying_many_usernames_is_locked_out_at_the_address_limit(client, django_user_model, settings):
    settings.AXES_IP_FAILURE_LIMIT = 12  # (30 by default) above the pair limit of 5
    django_user_model.objects.create_user("judge1", password="right-password-2026")
    for i in range(settings.AXES_IP_FAILURE_LIMIT - 1):
        assert _fail(client, f"guess{i % 4}").status_code == 200, i  # never 5 per username: the pair limit never hits
    assert _fail(client, "guess-last").status_code == 429
    # the address is locked for every username, even with the right password
    locked = client.post(reverse("login"), {"username": "judge1", "password": "right-password-2026"},
                         REMOTE_ADDR="10.0.0.7")
    assert locked.status_code == 429 and "_auth_user_id" not in client.session
    # another address is not
    other = client.post(reverse("login"), {"username": "judge1", "password": "right-password-2026"},
                        REMOTE_ADDR="10.0.0.8")
    assert other.status_code == 302


def test_logging_into_ones_own_account_does_not_wipe_the_addresss_failures(client, django_user_model, settings):
    settings.AXES_IP_FAILURE_LIMIT = 10
    django_user_model.objects.create_user("mole", password="right-password-2026")
    for i in range(settings.AXES_IP_FAILURE_LIMIT - 2):
        _fail(client, f"victim{i % 3}")
    assert client.post(reverse("login"), {"username": "mole", "password": "right-password-2026"},
                       REMOTE_ADDR="10.0.0.7").status_code == 302
    client.logout()
    assert _fail(client, "victim9").status_code == 200
    assert _fail(client, "victim10").status_code == 429  # the 10th failure from the address


def test_behind_a_proxy_the_forwarded_client_address_is_counted(rf, settings):
    from club.axes_handler import client_ip

    request = rf.get("/", REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR="203.0.113.9, 198.51.100.2")
    settings.TRUSTED_PROXY_COUNT = 0
    assert client_ip(request) == "127.0.0.1"
    settings.TRUSTED_PROXY_COUNT = 1
    assert client_ip(request) == "198.51.100.2"  # the address our one proxy saw (the rest is the client's word)
    settings.TRUSTED_PROXY_COUNT = 2
    assert client_ip(request) == "203.0.113.9"
    assert client_ip(rf.get("/", REMOTE_ADDR="127.0.0.1")) == "127.0.0.1"  # no header: the direct address
