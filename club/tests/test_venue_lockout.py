"""One person at a venue cannot lock every judge out (club/axes_handler.py): failures lock a login name (at an
address at 5, from anywhere at 10), an address only at the generous AXES_IP_FAILURE_LIMIT and never a venue
address the club admin trusts (Club.trusted_addresses, validated); password-reset requests are throttled per
address and per e-mail (club.views.ThrottledPasswordResetView)."""

import pytest
from django.core import mail
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse

from club.models import Club, parse_trusted_networks
from club.tests.factories import ClubFactory, MembershipFactory, UserFactory

pytestmark = pytest.mark.django_db

VENUE = "203.0.113.7"
RIGHT = "right-password-2026"


def _login(client, username, password="wrong", address=VENUE):
    return client.post(reverse("login"), {"username": username, "password": password}, REMOTE_ADDR=address)


@pytest.fixture
def judges(django_user_model):
    for i in range(1, 10):
        django_user_model.objects.create_user(f"judge{i}", password=RIGHT)


def test_eight_usernames_times_four_wrong_passwords_at_a_venue_do_not_lock_out_a_judge(judges):
    client = Client()
    for i in range(2, 10):
        for _ in range(4):
            assert _login(client, f"judge{i}").status_code == 200
    assert _login(client, "judge1", RIGHT).status_code == 302


def test_a_login_name_is_locked_at_an_address_after_five_failures(judges):
    client = Client()
    for _ in range(4):
        _login(client, "judge1")
    assert _login(client, "judge1").status_code == 429
    assert _login(client, "judge1", RIGHT).status_code == 429
    assert _login(Client(), "judge2", RIGHT).status_code == 302  # the venue's other judges are not


def test_a_login_name_guessed_from_many_addresses_is_locked_everywhere(judges, settings):
    client = Client()
    for i in range(settings.AXES_USERNAME_FAILURE_LIMIT - 1):
        assert _login(client, "judge1", address=f"198.51.100.{i + 1}").status_code == 200, i
    assert _login(client, "judge1", address="198.51.100.200").status_code == 429
    locked = _login(Client(), "judge1", RIGHT, address="192.0.2.1")
    assert locked.status_code == 429 and "Вход в эту учётную запись или с вашего адреса" in locked.content.decode()
    assert _login(Client(), "judge2", RIGHT, address="198.51.100.1").status_code == 302


def test_an_untrusted_address_is_still_locked_at_the_address_limit(judges, settings):
    settings.AXES_IP_FAILURE_LIMIT = 20
    client = Client()
    for i in range(settings.AXES_IP_FAILURE_LIMIT - 1):
        assert _login(client, f"guess{i % 5}").status_code == 200, i
    assert _login(client, "guess-last").status_code == 429
    assert _login(Client(), "judge1", RIGHT).status_code == 429


def test_a_trusted_venue_address_is_never_locked_as_a_whole(judges, settings):
    settings.AXES_IP_FAILURE_LIMIT = 20
    ClubFactory(trusted_addresses="# the club's hall\n203.0.113.0/28\n2001:db8::/48")
    client = Client()
    for i in range(settings.AXES_IP_FAILURE_LIMIT + 10):
        assert _login(client, f"guess{i % 8}").status_code == 200, i
    assert _login(client, "judge1", RIGHT).status_code == 302
    # the limits per login name still hold at the venue
    for _ in range(5):
        _login(Client(), "judge2")
    assert _login(Client(), "judge2", RIGHT).status_code == 429


@pytest.mark.parametrize("text, problem", [
    ("203.0.113.300", "строка 1: «203.0.113.300» — не адрес"),
    ("10.0.0.0/8", "слишком широкая (не шире /16)"),
    ("0.0.0.0/0", "слишком широкая"),
    ("::/0", "не шире /48"),
    ("192.0.2.1\nvenue", "строка 2: «venue»"),
])
def test_trusted_addresses_are_validated_naming_the_line(text, problem):
    with pytest.raises(ValidationError) as refused:
        parse_trusted_networks(text)
    assert problem in " ".join(refused.value.messages)
    club = ClubFactory()
    club.trusted_addresses = text
    with pytest.raises(ValidationError) as on_model:
        club.full_clean()
    assert "trusted_addresses" in on_model.value.message_dict


def test_the_club_admin_sets_the_trusted_addresses_in_the_admin_and_a_bad_one_is_refused():
    club = ClubFactory(name="Полночь")
    admin = MembershipFactory(club=club, user=UserFactory(username="boss", is_staff=True), role="admin").user
    client = Client()
    client.force_login(admin)
    url = reverse("admin:club_club_change", args=[club.pk])
    form = client.get(url).context["adminform"].form
    data = {name: value for name, value in form.initial.items() if value}  # no empty logo file
    data.update({"name": club.name, "judge_timer_autostart": "on"})
    data["default_ruleset"] = ""
    refused = client.post(url, {**data, "trusted_addresses": "10.0.0.0/8"})
    assert refused.status_code == 200 and "слишком широкая" in refused.content.decode()
    assert Club.objects.get(pk=club.pk).trusted_addresses == ""
    saved = client.post(url, {**data, "trusted_addresses": "203.0.113.0/28"})
    assert saved.status_code == 302, saved.content.decode()[:2000]
    assert Club.objects.get(pk=club.pk).trusted_addresses == "203.0.113.0/28"


def _reset(client, email="lisa@example.org", address=VENUE):
    return client.post(reverse("password_reset"), {"email": email}, REMOTE_ADDR=address)


@pytest.fixture
def lisa(settings):
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    return UserFactory(username="lisa", email="lisa@example.org")


def test_password_reset_is_throttled_per_e_mail(lisa, settings):
    client = Client()
    for i in range(settings.PASSWORD_RESET_LIMIT_PER_EMAIL):
        assert _reset(client, address=f"198.51.100.{i + 1}").status_code == 302
    sent = len(mail.outbox)
    refused = _reset(client, address="192.0.2.9")
    assert refused.status_code == 429
    assert "Слишком много запросов на сброс пароля" in refused.content.decode()
    assert len(mail.outbox) == sent == settings.PASSWORD_RESET_LIMIT_PER_EMAIL


def test_password_reset_is_throttled_per_address_but_not_at_a_trusted_venue(lisa, settings):
    client = Client()
    for i in range(settings.PASSWORD_RESET_LIMIT_PER_ADDRESS):
        assert _reset(client, email=f"nobody{i}@example.org").status_code == 302
    assert _reset(client).status_code == 429
    assert not mail.outbox  # lisa's letter was not sent
    assert _reset(client, address="192.0.2.9").status_code == 302 and len(mail.outbox) == 1  # another address
    ClubFactory(trusted_addresses=VENUE)
    assert _reset(client, email="other@example.org").status_code == 302
