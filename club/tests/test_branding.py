"""The club's look: its name, logo and accent colour, set by its admin, in every page's header."""

from __future__ import annotations

import pytest
from django.contrib import admin
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import RequestFactory
from django.urls import reverse

from club.models import Club
from club.tests.craft import picture


@pytest.mark.django_db
def test_the_club_admin_form_has_the_branding_fields_and_keeps_the_trusted_addresses(cast):
    request = RequestFactory().get("/admin/club/club/")
    request.user = cast.club_admin
    form = admin.site._registry[Club].get_form(request, cast.club)
    assert {"name", "logo", "accent_color", "trusted_addresses"} <= set(form.base_fields)


@pytest.mark.django_db
def test_an_accent_colour_not_written_as_rrggbb_is_refused_naming_the_field(cast):
    cast.club.accent_color = "red; background: url(x)"
    with pytest.raises(ValidationError) as error:
        cast.club.full_clean()
    assert "accent_color" in error.value.message_dict
    assert "#RRGGBB" in " ".join(error.value.message_dict["accent_color"])


@pytest.mark.django_db
def test_the_header_shows_the_clubs_name_logo_and_accent_colour(cast, client, settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    club = Club.objects.order_by("pk").first()
    club.accent_color = "#c62828"
    club.logo = SimpleUploadedFile("logo.png", picture("PNG", (64, 64)), content_type="image/png")
    club.save()
    html = client.get(reverse("player_list")).content.decode()
    assert 'style="--club-accent: #c62828"' in html
    brand = html.split('class="navbar-brand"', 1)[1].split("</a>", 1)[0]
    assert club.logo.url in brand and club.name in brand
