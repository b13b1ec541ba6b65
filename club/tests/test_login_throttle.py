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
