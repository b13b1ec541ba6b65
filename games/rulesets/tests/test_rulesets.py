"""Rule sets as data: seeded presets, the club's copy, versions kept by scored games."""

from __future__ import annotations

import json
from decimal import Decimal

import pytest
from django.urls import reverse

from club.models import Club, Membership
from games.models import Game, RuleSetVersion, Seat
from games.protocol.services.imports import import_documents
from games.protocol.services.scoring import score_games
from games.protocol.tests.test_import_export import document, ex1_game
from games.rules.ruleset import PRESETS, RuleSet
from games.rulesets.forms import RuleSetForm

pytestmark = pytest.mark.django_db


def test_the_four_presets_are_seeded_by_the_migration_exactly_as_decided():
    stored = {v.slug: v for v in RuleSetVersion.objects.filter(is_preset=True)}
    assert set(stored) == {"xcraft", "kamchatka", "cml", "moscow"}
    for slug, preset in PRESETS.items():
        assert stored[slug].ruleset() == preset
        assert stored[slug].club is None


@pytest.mark.parametrize("slug", sorted(PRESETS))
def test_a_preset_survives_the_edit_form_unchanged(slug):
    preset = PRESETS[slug]
    form = RuleSetForm(data=_form_data(RuleSetForm.initial_from(preset.name, preset)))
    assert form.is_valid(), form.errors
    assert RuleSet.from_dict(dict(preset.to_dict(), **form.params())) == preset


def _form_data(initial: dict) -> dict:
    data = {}
    for key, value in initial.items():
        if value is None or value is False:
            continue
        data[key] = "on" if value is True else value
    return data


@pytest.fixture
def club_and_admin(django_user_model):
    club = Club.objects.create(name="Полночь")
    admin = django_user_model.objects.create_user("boss", password="pw-123456-x")
    Membership.objects.create(club=club, user=admin, role=Membership.Role.ADMIN)
    return club, admin


def _copy(client, preset_slug="cml"):
    source = RuleSetVersion.objects.get(slug=preset_slug, is_preset=True)
    response = client.post(reverse("games:ruleset_copy", args=[source.pk]), {"name": "Наши правила"})
    assert response.status_code == 302
    return RuleSetVersion.objects.get(club__isnull=False, name="Наши правила")


def _edit(client, version, **changes):
    data = _form_data(RuleSetForm.initial_from(version.name, version.ruleset()))
    data.update(changes)
    return client.post(reverse("games:ruleset_edit", args=[version.pk]), data)


def test_a_club_admin_copies_a_preset_and_edits_the_copy_in_place_while_unused(client, club_and_admin):
    _club, admin = club_and_admin
    client.force_login(admin)
    copy = _copy(client)
    assert copy.ruleset().best_move_points == PRESETS["cml"].best_move_points
    response = _edit(client, copy, best_move_3="0.6")
    assert response.status_code == 302
    copy.refresh_from_db()
    assert copy.version == 1 and copy.ruleset().best_move_points[3] == Decimal("0.6")
    assert copy.ruleset().source == "002" and copy.ruleset().ci_enabled
    assert RuleSetVersion.objects.get(slug="cml", is_preset=True).ruleset() == PRESETS["cml"]


def test_editing_a_used_version_makes_a_new_one_and_scored_games_keep_theirs(client, club_and_admin):
    club, admin = club_and_admin
    client.force_login(admin)
    copy = _copy(client)
    data = document(ex1_game(), ruleset=copy.slug)
    import_documents(documents=[("a.json", json.dumps(data, ensure_ascii=False))], club=club)
    game = Game.objects.get()
    assert game.ruleset_id == copy.pk
    assert _edit(client, copy, best_move_2="0.1").status_code == 302
    newest = RuleSetVersion.objects.filter(slug=copy.slug).order_by("-version").first()
    assert newest.version == 2 and newest.ruleset().best_move_points[2] == Decimal("0.1")
    game.refresh_from_db()
    assert game.ruleset_id == copy.pk  # the game keeps the version it was scored under
    assert game.tournament.ruleset_id == newest.pk  # new games of the tournament use the new one
    score_games(game=game)
    assert Seat.objects.get(game=game, number=3).total == Decimal("1.3")  # BM 0.3 under version 1


@pytest.mark.parametrize("role", [None, "judge", "head_judge"])
def test_only_a_club_admin_copies_or_edits(client, club_and_admin, django_user_model, role):
    club, admin = club_and_admin
    client.force_login(admin)
    copy = _copy(client)
    before = copy.params
    user = django_user_model.objects.create_user("someone", password="pw-123456-x")
    if role:
        Membership.objects.create(club=club, user=user, role=role)
    client.force_login(user)
    preset = RuleSetVersion.objects.get(slug="xcraft", is_preset=True)
    assert client.post(reverse("games:ruleset_copy", args=[preset.pk])).status_code == 403
    assert _edit(client, copy, best_move_3="0.9").status_code == 403
    copy.refresh_from_db()
    assert copy.params == before
    assert RuleSetVersion.objects.count() == 5


def test_a_preset_is_never_edited(client, club_and_admin):
    _club, admin = club_and_admin
    client.force_login(admin)
    preset = RuleSetVersion.objects.get(slug="xcraft", is_preset=True)
    assert _edit(client, preset, best_move_3="0.9").status_code == 403
    assert RuleSetVersion.objects.get(pk=preset.pk).ruleset() == PRESETS["xcraft"]


def test_bad_input_names_the_field_and_saves_nothing(client, club_and_admin):
    _club, admin = club_and_admin
    client.force_login(admin)
    copy = _copy(client)
    before = copy.params
    response = _edit(client, copy, tiebreakers="extras, luck", judge_values="0.2, много")
    assert response.status_code == 400
    form = response.context["form"]
    assert "luck" in str(form.errors["tiebreakers"]) and "judge_values" in form.errors
    copy.refresh_from_db()
    assert copy.params == before


def test_the_rule_set_pages_render(client, club_and_admin):
    page = client.get(reverse("games:ruleset_list")).content.decode()
    assert "CML" in page and "X-Craft" in page
    cml = RuleSetVersion.objects.get(slug="cml", is_preset=True)
    assert client.get(reverse("games:ruleset_detail", args=[cml.pk])).status_code == 200


NEW_PARAMETERS = ("protest_needs_sk_agreement", "team_vote_annulment", "conditional_items")


@pytest.mark.parametrize("slug", sorted(PRESETS))
def test_a_club_copy_stored_before_a_parameter_existed_reads_it_from_its_rule_book(slug):
    preset = PRESETS[slug]
    stored = {k: v for k, v in preset.to_dict().items() if k not in NEW_PARAMETERS}
    copy = RuleSet.from_dict(dict(stored, slug="our-club-rules"))
    assert [getattr(copy, name) for name in NEW_PARAMETERS] == [getattr(preset, name) for name in NEW_PARAMETERS]


def test_the_migration_gives_stored_versions_the_values_their_behaviour_had():
    from importlib import import_module

    from django.apps import apps

    migration = import_module("games.migrations.0005_ruleset_protest_fields")
    club = Club.objects.create(name="Полночь")
    rows = {}
    for slug, preset in PRESETS.items():
        params = {k: v for k, v in preset.to_dict().items() if k not in NEW_PARAMETERS}
        rows[slug] = RuleSetVersion.objects.create(slug=f"old-{slug}", name=slug, club=club,
                                                   params=dict(params, slug=f"old-{slug}"))
    # an old club copy of 000 that chose the 003 stalemate rule had the team vote (draw_rule was the test)
    rows["xcraft-3-misses"] = RuleSetVersion.objects.create(
        slug="old-x3", name="x3", club=club, params=dict(rows["xcraft"].params, slug="old-x3",
                                                         draw_rule="three_misses_red_win"))
    migration.fill(apps, None)
    for slug, preset in PRESETS.items():
        params = RuleSetVersion.objects.get(pk=rows[slug].pk).params
        assert {k: params[k] for k in NEW_PARAMETERS} == {k: preset.to_dict()[k] for k in NEW_PARAMETERS}
    assert RuleSetVersion.objects.get(pk=rows["xcraft-3-misses"].pk).params["team_vote_annulment"] is True


def test_conditional_items_are_checked_json_with_a_known_condition(client, club_and_admin):
    _club, admin = club_and_admin
    client.force_login(admin)
    copy = _copy(client)
    before = copy.params
    for bad in ('[{"pattern": "(", "holds_if": "red_lost", "clause": "x"}]',
                '[{"pattern": "x", "holds_if": "sometimes", "clause": "x"}]', '{"pattern": 1}', "[1]"):
        response = _edit(client, copy, conditional_items=bad)
        assert response.status_code == 400, bad
        assert "conditional_items" in response.context["form"].errors
    copy.refresh_from_db()
    assert copy.params == before
    items = '[{"pattern": "III\\\\.6", "holds_if": "team_lost_or_drew", "clause": "002 III.6 l.345"}]'
    assert _edit(client, copy, conditional_items=items, team_vote_annulment="on").status_code == 302
    edited = RuleSetVersion.objects.filter(slug=copy.slug).order_by("-version").first().ruleset()
    assert edited.team_vote_annulment and edited.protest_needs_sk_agreement
    assert [(i.pattern, i.checked, i.lapses) for i in edited.conditional_items] == [(r"III\.6", False, True)]


def test_a_copied_rule_sets_name_over_its_limit_is_refused_with_the_limit(client, club_and_admin):
    _club, admin = club_and_admin
    client.force_login(admin)
    source = RuleSetVersion.objects.get(slug="cml", is_preset=True)
    count = RuleSetVersion.objects.count()
    response = client.post(reverse("games:ruleset_copy", args=[source.pk]), {"name": "Я" * 121},
                           HTTP_ACCEPT_LANGUAGE="ru")
    assert response.status_code == 400
    assert "Название: не больше 120 символов, а в этом 121" in response.content.decode()
    assert RuleSetVersion.objects.count() == count
    assert client.post(reverse("games:ruleset_copy", args=[source.pk]), {"name": "Я" * 120}).status_code == 302
