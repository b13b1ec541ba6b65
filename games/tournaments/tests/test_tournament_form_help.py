"""The organiser's forms say what they do: a new tournament starts under the club's own rule set, and «Команда» /
«Родственники» (of a participant and of a table's judge) explain what the seating does with them."""

import pytest
from django.urls import reverse

from games.models import RuleSetVersion

pytestmark = pytest.mark.django_db


def test_the_new_tournament_form_preselects_the_clubs_rule_set(live, client):
    club = live.club
    club.default_ruleset = RuleSetVersion.objects.filter(is_preset=True).exclude(slug="fiim").order_by("-pk").first()
    club.save(update_fields=["default_ruleset"])
    client.force_login(live.club_admin)
    form = client.get(reverse("games:tournament_new")).context["form"]
    assert form["ruleset"].value() == club.default_ruleset.pk
    assert f'<option value="{club.default_ruleset.pk}" selected>' in str(form["ruleset"])


def test_team_and_relatives_are_explained_in_russian_where_the_organiser_fills_them(live, client):
    client.force_login(live.club_admin)
    participants = client.get(reverse("games:tournament_participants", args=[live.tournament.pk])).content.decode()
    schedule = client.get(reverse("games:tournament_schedule", args=[live.tournament.pk])).content.decode()
    client.cookies["django_language"] = "ru"  # the language switch's choice
    with_russian = client.get(reverse("games:tournament_participants", args=[live.tournament.pk]))
    assert "never sit at one table" in participants and "never judges a table" in schedule
    assert "никогда не сидят за одним столом" in with_russian.content.decode()
