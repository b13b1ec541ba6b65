"""The club's settings page (/club/settings/): its admin sets everything of the club there, without /admin/."""

from __future__ import annotations

import io

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.forms.models import model_to_dict
from django.urls import reverse
from PIL import Image

from club.models import Club

pytestmark = pytest.mark.django_db


def _rulesets():
    return Club._meta.get_field("default_ruleset").related_model.objects.filter(is_preset=True).order_by("pk")


def _data(club: Club, **changes) -> dict:
    data = {"name": club.name, "city": club.city, "accent_color": club.accent_color,
            "default_ruleset": club.default_ruleset_id or _rulesets()[0].pk, "time_zone": club.time_zone,
            "season_counts_guests": "on" if club.season_counts_guests else "", "judge_timer_autostart": "on",
            "trusted_addresses": club.trusted_addresses}
    data.update(changes)
    return data


def _png() -> SimpleUploadedFile:
    out = io.BytesIO()
    Image.new("RGB", (64, 64), "#2e7d32").save(out, "PNG")
    return SimpleUploadedFile("logo.png", out.getvalue(), content_type="image/png")


def test_the_club_admin_changes_every_setting_on_the_page(cast, client, settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    client.force_login(cast.club_admin)
    ruleset = _rulesets()[1]
    response = client.post(reverse("club_settings"), _data(
        cast.club, name="Полночь-2", city="Самара", accent_color="#2e7d32", default_ruleset=ruleset.pk,
        time_zone="Asia/Yekaterinburg", season_counts_guests="", judge_timer_autostart="",
        trusted_addresses="203.0.113.0/28\n198.51.100.7", logo=_png()))
    assert response.status_code == 302
    club = Club.objects.get(pk=cast.club.pk)
    assert (club.name, club.city, club.accent_color, club.default_ruleset, club.time_zone,
            club.season_counts_guests, club.judge_timer_autostart) == (
        "Полночь-2", "Самара", "#2e7d32", ruleset, "Asia/Yekaterinburg", False, False)
    assert club.trusted_addresses == "203.0.113.0/28\n198.51.100.7"
    with Image.open(club.logo.path) as logo:
        assert logo.format == "PNG"  # re-encoded by club.pictures (the LOGO rule: a PNG)
    html = client.get(reverse("home")).content.decode()
    assert "Полночь-2" in html and "--club-accent: #2e7d32" in html and club.logo.url in html


@pytest.mark.parametrize("who", ["anonymous", "outsider", "player", "judge", "head_judge", "other_judge"])
def test_nobody_but_the_club_admin_may_open_or_post_the_settings(cast, client, who):
    if who != "anonymous":
        client.force_login(cast[who])
    before = model_to_dict(Club.objects.get(pk=cast.club.pk))
    for response in (client.get(reverse("club_settings")),
                     client.post(reverse("club_settings"), _data(cast.club, name="Захват", accent_color="#000000"))):
        assert response.status_code == (302 if who == "anonymous" else 403)
    assert model_to_dict(Club.objects.get(pk=cast.club.pk)) == before


def test_a_superuser_may_change_the_settings(cast, client, django_user_model):
    client.force_login(django_user_model.objects.create_superuser("root", "root@example.org", "x-Pass-2026"))
    assert client.post(reverse("club_settings"), _data(cast.club, city="Тверь")).status_code == 302
    assert Club.objects.get(pk=cast.club.pk).city == "Тверь"


@pytest.mark.parametrize(("changes", "field", "words"), [
    ({"trusted_addresses": "203.0.113.0/28\nзал на Ленина"}, "trusted_addresses", "2"),  # the line's number
    ({"trusted_addresses": "10.0.0.0/8"}, "trusted_addresses", "/16"),
    ({"time_zone": "Europe/Atlantis"}, "time_zone", "Europe/Atlantis"),
    ({"accent_color": "#12345"}, "accent_color", "#RRGGBB"),
    ({"name": "Рассвет"}, "name", ""),  # another club's name
    ({"name": ""}, "name", ""),
])
def test_bad_settings_are_refused_naming_the_field_and_nothing_changes(cast, client, changes, field, words):
    client.force_login(cast.club_admin)
    before = model_to_dict(Club.objects.get(pk=cast.club.pk))
    response = client.post(reverse("club_settings"), _data(cast.club, city="Другой", **changes))
    assert response.status_code == 400
    errors = response.context["form"].errors
    assert field in errors and words in " ".join(errors[field]), errors
    assert model_to_dict(Club.objects.get(pk=cast.club.pk)) == before


def test_a_file_that_is_not_a_picture_is_refused_as_the_logo(cast, client, settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    client.force_login(cast.club_admin)
    fake = SimpleUploadedFile("logo.png", b"<html><script>alert(1)</script>", content_type="image/png")
    response = client.post(reverse("club_settings"), _data(cast.club, city="Другой", logo=fake))
    assert response.status_code == 400 and "Логотип:" in " ".join(response.context["form"].errors["logo"])
    club = Club.objects.get(pk=cast.club.pk)
    assert not club.logo and club.city != "Другой"


def test_the_menu_links_the_club_admin_to_the_settings_and_the_rule_sets(cast, client):
    client.force_login(cast.club_admin)
    html = client.get(reverse("home")).content.decode()
    assert f'href="{reverse("club_settings")}"' in html and f'href="{reverse("games:ruleset_list")}"' in html
    client.force_login(cast.judge)
    assert f'href="{reverse("club_settings")}"' not in client.get(reverse("home")).content.decode()


def test_the_settings_page_is_in_russian(cast, client):
    client.force_login(cast.club_admin)
    html = client.get(reverse("club_settings")).content.decode()
    for words in ("Настройки клуба", "Часовой пояс", "Логотип", "Адреса площадки".lower()[:6]):
        assert words.lower() in html.lower()


def test_the_clubs_pages_show_times_in_the_clubs_time_zone(cast, client, settings):
    """The club's zone is activated for its pages: the same moment reads 15:00 in Moscow and 17:00 in
    Yekaterinburg."""
    import datetime

    from django.template import Context, Template
    from django.utils import timezone

    from club.middleware_tz import ClubTimeZoneMiddleware

    moment = datetime.datetime(2026, 10, 1, 12, 0, tzinfo=datetime.UTC)
    seen = []

    def page(request):
        seen.append(Template("{{ moment|time:'H:i' }}").render(Context({"moment": moment})))
        return None

    middleware = ClubTimeZoneMiddleware(page)
    request = type("Request", (), {"path": "/games/"})()
    middleware(request)
    client.force_login(cast.club_admin)
    client.post(reverse("club_settings"), _data(cast.club, time_zone="Asia/Yekaterinburg"))
    middleware(request)
    assert seen == ["15:00", "17:00"]
    assert timezone.get_current_timezone_name() == settings.TIME_ZONE  # deactivated after the page


def test_the_rule_set_choice_offers_the_presets_and_the_newest_version_of_the_clubs_copies(cast, client):
    from games.rulesets.services import ruleset_copy

    model = Club._meta.get_field("default_ruleset").related_model
    copy = ruleset_copy(club=cast.club, by=cast.club_admin, source=_rulesets()[0], name="Наши правила", slug="ours")
    newer = model.objects.create(slug="ours", version=2, name="Наши правила", club=cast.club, params=copy.params)
    theirs = ruleset_copy(club=cast.other_club, by=cast.other_judge.__class__.objects.create_superuser(
        "root", "root@example.org", "x-Pass-2026"), source=_rulesets()[0], name="Чужие", slug="theirs")
    client.force_login(cast.club_admin)
    offered = set(client.get(reverse("club_settings")).context["form"].fields["default_ruleset"].queryset)
    assert offered == set(_rulesets()) | {newer}
    assert copy not in offered and theirs not in offered
