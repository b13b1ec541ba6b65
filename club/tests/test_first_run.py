"""/setup/: the site's first run creates its first administrator and the club, once; the empty home page and the
sign-up page lead there."""

from __future__ import annotations

import io
import threading
import time

import pytest
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.db import connections
from django.urls import reverse
from PIL import Image

from club import selectors
from club.models import Club, Membership
from club.setup import services

User = get_user_model()
PASSWORD = "Полночь-2026-лиса"


def _preset():
    return Club._meta.get_field("default_ruleset").related_model.objects.filter(is_preset=True).order_by("pk").first()


def _data(**changes) -> dict:
    data = {"username": "olga", "email": "olga@example.org", "password1": PASSWORD, "password2": PASSWORD,
            "name": "Полночь", "city": "Казань", "accent_color": "#c62828", "default_ruleset": _preset().pk,
            "time_zone": "Europe/Samara"}
    data.update(changes)
    return data


def _png() -> SimpleUploadedFile:
    out = io.BytesIO()
    Image.new("RGB", (40, 20), "#c62828").save(out, "PNG")
    return SimpleUploadedFile("logo.png", out.getvalue(), content_type="image/png")


@pytest.mark.django_db
def test_the_empty_home_page_links_to_setup_in_words_not_the_administration(client):
    html = client.get(reverse("home")).content.decode()
    assert f'href="{reverse("first_run")}"' in html
    assert "Создать клуб и его администратора" in html
    assert "администрировании" not in html


@pytest.mark.django_db
def test_the_setup_page_speaks_russian(client):
    html = client.get(reverse("first_run")).content.decode()
    for words in ("Вы — администратор", "Электронная почта", "Пароль ещё раз", "Название клуба", "Логотип",
                  "Регламент по умолчанию", "Часовой пояс", "Создать клуб"):
        assert words in html


@pytest.mark.django_db
def test_setup_creates_the_superuser_and_the_club_logs_him_in_and_shows_the_next_steps(client, settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    response = client.post(reverse("first_run"), _data(logo=_png()))
    assert response.status_code == 302 and response["Location"] == reverse("club_next_steps")
    user = User.objects.get()
    assert (user.username, user.email, user.is_superuser, user.is_staff) == ("olga", "olga@example.org", True, True)
    assert user.check_password(PASSWORD)
    club = Club.objects.get()
    assert (club.name, club.city, club.accent_color, club.time_zone) == ("Полночь", "Казань", "#c62828",
                                                                         "Europe/Samara")
    assert club.default_ruleset == _preset()
    assert club.logo.name.endswith(".png")  # re-encoded by club.pictures (LOGO: PNG), never the upload as sent
    with Image.open(club.logo.path) as logo:
        assert logo.format == "PNG"
    assert Membership.objects.filter(club=club, user=user, role=Membership.Role.ADMIN).exists()
    page = client.get(response["Location"])  # logged in: the next steps are the admin's page
    html = page.content.decode()
    assert page.status_code == 200
    for name in ("club_settings", "staff", "roster_paste", "games:evening_new", "games:import"):
        assert f'href="{reverse(name)}"' in html


@pytest.mark.django_db
def test_the_next_steps_players_step_opens_the_roster_paste_not_the_one_player_form(client):
    """A new club brings its players as a list (the first hour: twenty players in one paste); the paste page
    links the one-player form itself."""
    client.post(reverse("first_run"), _data())
    html = client.get(reverse("club_next_steps")).content.decode()
    assert f'<a href="{reverse("roster_paste")}">Игроки</a>' in html
    assert f'href="{reverse("player_create")}"' not in html


@pytest.mark.django_db
def test_once_a_user_exists_setup_answers_404_and_creates_nothing(client, cast):
    assert client.get(reverse("first_run")).status_code == 404
    response = client.post(reverse("first_run"), _data(username="intruder", name="Захват"))
    assert response.status_code == 404
    assert not User.objects.filter(username="intruder").exists()
    assert not Club.objects.filter(name="Захват").exists()


@pytest.mark.django_db
def test_manage_py_createsuperuser_still_works_and_closes_setup(client, monkeypatch):
    monkeypatch.setenv("DJANGO_SUPERUSER_PASSWORD", PASSWORD)
    call_command("createsuperuser", interactive=False, username="root", email="root@example.org", verbosity=0)
    assert User.objects.get().is_superuser
    assert client.get(reverse("first_run")).status_code == 404
    assert "first-run-link" not in client.get(reverse("home")).content.decode()


@pytest.mark.django_db
@pytest.mark.parametrize(("changes", "field", "words"), [
    ({"password2": "другой-пароль-2026"}, "password2", "Пароли"),
    ({"password1": "12345678", "password2": "12345678"}, "password1", "пароль"),  # Django's validators
    ({"username": "o l g a"}, "username", ""),
    ({"email": "not-an-address"}, "email", ""),
    ({"accent_color": "red"}, "accent_color", "#RRGGBB"),
    ({"time_zone": "Mars/Olympus"}, "time_zone", ""),
    ({"name": ""}, "name", ""),
])
def test_bad_input_is_refused_naming_the_field_and_nothing_is_created(client, changes, field, words):
    response = client.post(reverse("first_run"), _data(**changes))
    assert response.status_code == 400
    errors = response.context["form"].errors
    assert field in errors and words in " ".join(errors[field])
    assert not User.objects.exists() and not Club.objects.exists()


@pytest.mark.django_db
def test_a_file_that_is_not_a_picture_is_refused_as_the_logo_and_nothing_is_created(client):
    fake = SimpleUploadedFile("logo.png", b"<svg onload=alert(1)>", content_type="image/png")
    response = client.post(reverse("first_run"), _data(logo=fake))
    assert response.status_code == 400
    assert "logo" in response.context["form"].errors
    assert not User.objects.exists() and not Club.objects.exists()


@pytest.mark.django_db
def test_sign_up_on_the_empty_site_leads_to_setup_and_makes_no_user(client):
    assert client.get(reverse("signup"))["Location"] == reverse("first_run")
    response = client.post(reverse("signup"), {"username": "early", "password1": PASSWORD, "password2": PASSWORD})
    assert response.status_code == 302 and response["Location"] == reverse("first_run")
    assert selectors.site_is_empty()  # a visitor cannot take the administrator's place by signing up first


@pytest.mark.django_db
def test_sign_up_with_users_but_no_club_explains_on_the_home_page_instead_of_a_404(client):
    User.objects.create_superuser("root", "root@example.org", PASSWORD)
    response = client.get(reverse("signup"), follow=True)
    assert response.status_code == 200
    assert "Клуб ещё не создан" in response.content.decode()


@pytest.mark.django_db(transaction=True)
def test_two_first_runs_at_once_make_one_administrator(monkeypatch):
    """A double submit: both requests reach the service together. The check for an empty site is slowed down,
    so without the lock (PostgreSQL's advisory lock, SQLite's BEGIN IMMEDIATE) both would see no user."""
    checked = selectors.site_is_empty

    def slow_check():
        empty = checked()
        time.sleep(0.3)
        return empty

    monkeypatch.setattr(selectors, "site_is_empty", slow_check)
    start = threading.Barrier(2)
    outcomes: list[str] = []
    preset = _preset()

    def submit(username: str, name: str) -> None:
        try:
            start.wait()
            services.first_run(username=username, email="", password=PASSWORD,
                               club_fields={"name": name, "default_ruleset": preset, "time_zone": "Europe/Moscow"})
            outcomes.append("created")
        except services.SetupClosed:
            outcomes.append("closed")
        except BaseException as error:  # noqa: BLE001 (reported below)
            outcomes.append(repr(error))
        finally:
            connections.close_all()

    threads = [threading.Thread(target=submit, args=(f"admin{n}", f"Клуб {n}")) for n in (1, 2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert sorted(outcomes) == ["closed", "created"]
    assert User.objects.filter(is_superuser=True).count() == 1
    assert Club.objects.count() == 1
