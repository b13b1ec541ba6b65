"""A token reads and imports only inside its own club, with its holder's roles there and never the site's superuser
powers; a token is never issued to a holder with powers its issuer lacks; an import through the API names its
author in the history; a wrong body is refused in order (401, 403, then 415), never a 500.

The access matrix: club A's admin who is also a judge in club B (and the table judge of B's game in play), and the
site's superuser, each with a token of club A, against every secret of both clubs. The same people logged in on the
site (a session) do read B's secrets: the matrix tells a refusal from a world without secrets."""

from __future__ import annotations

import json

import pytest
from django.test import Client

from api.models import ApiToken
from api.services import token_issue
from api.tests.helpers import bearer, token_for, token_in, two_clubs
from club.models import Membership
from club.services import ServiceError
from games.models import Game, Tournament
from games.tests.sheet_builders import sheet_game

pytestmark = pytest.mark.django_db


def _get(client, url, headers):
    response = client.get(url, **headers)
    assert response.status_code < 500, url
    return response


def _roles(client, game, headers) -> set:
    response = _get(client, f"/api/v1/games/{game.pk}/", headers)
    return {seat["role"] for seat in json.loads(response.content)["seats"]} if response.status_code == 200 else set()


def _listed(client, headers, query="") -> set[int]:
    return {g["id"] for g in json.loads(_get(client, f"/api/v1/games/?per_page=100{query}", headers).content)["items"]}


def _with_hidden(client, tournament, headers):
    return json.loads(_get(client, f"/api/v1/tournaments/{tournament.pk}/standings/", headers).content)["with_hidden"]


def _reads(world, client, headers) -> dict[str, bool]:
    """Which secret each reader reads, one row of the matrix."""
    cast, b = world.cast, world
    return {
        "A hidden game": _get(client, f"/api/v1/games/{b.hidden_a.pk}/", headers).status_code == 200,
        "A hidden game listed": b.hidden_a.pk in _listed(client, headers),
        "A hidden table": _with_hidden(client, cast.tournament, headers) is not None,
        "A roles in play": _roles(client, cast.game, headers) - {None} != set(),
        "B hidden game": _get(client, f"/api/v1/games/{b.hidden_b.pk}/", headers).status_code == 200,
        "B hidden game listed": b.hidden_b.pk in _listed(client, headers) | _listed(client, headers,
                                                                                    f"&club={b.club_b.pk}"),
        "B hidden protests": _get(client, f"/api/v1/protests/?game={b.hidden_b.pk}", headers).status_code == 200,
        "B hidden table": _with_hidden(client, b.tournament_b, headers) is not None,
        "B roles in play": _roles(client, b.playing_b, headers) - {None} != set(),
    }


NOTHING = dict.fromkeys(["A hidden game", "A hidden game listed", "A hidden table", "A roles in play",
                         "B hidden game", "B hidden game listed", "B hidden protests", "B hidden table",
                         "B roles in play"], False)
CLUB_A = {**NOTHING, "A hidden game": True, "A hidden game listed": True, "A hidden table": True,
          "A roles in play": True}
CLUB_B = {**NOTHING, "B hidden game": True, "B hidden game listed": True, "B hidden protests": True,
          "B hidden table": True, "B roles in play": True}
BOTH = {secret: CLUB_A[secret] or CLUB_B[secret] for secret in NOTHING}


def test_the_access_matrix_of_tokens_a_two_club_staff_member_s_and_the_superuser_s():
    world = two_clubs()
    cast = world.cast
    dual_key = token_in(cast.club, by=cast.club_admin, holder=world.dual)
    root_key = token_in(cast.club, by=world.superuser, holder=world.superuser)
    dual_session, root_session = Client(), Client()
    dual_session.force_login(world.dual)
    root_session.force_login(world.superuser)
    matrix = {
        "anonymous": _reads(world, Client(), {}),
        "A admin + B judge, token of A": _reads(world, Client(), bearer(dual_key)),
        "superuser, token of A (no role in A)": _reads(world, Client(), bearer(root_key)),
        # the site's own pages give a session every power its user has: the secrets are there to be leaked
        "A admin + B judge, session": _reads(world, dual_session, {}),
        "superuser, session": _reads(world, root_session, {}),
    }
    assert matrix == {
        "anonymous": NOTHING,
        "A admin + B judge, token of A": CLUB_A,
        "superuser, token of A (no role in A)": NOTHING,
        "A admin + B judge, session": BOTH,
        "superuser, session": BOTH,
    }


def test_a_token_reads_another_club_s_public_data_as_an_anonymous_reader_does():
    world = two_clubs()
    dual_key = token_in(world.cast.club, by=world.cast.club_admin, holder=world.dual)
    for url in (f"/api/v1/games/{world.playing_b.pk}/", f"/api/v1/tournaments/{world.tournament_b.pk}/schedule/",
                f"/api/v1/tournaments/{world.tournament_b.pk}/standings/", f"/api/v1/games/?club={world.club_b.pk}",
                f"/api/v1/clubs/{world.club_b.pk}/", f"/api/v1/protests/?tournament={world.tournament_b.pk}"):
        anonymous, token = Client().get(url), Client().get(url, **bearer(dual_key))
        assert token.status_code == anonymous.status_code == 200, url
        assert json.loads(token.content) == json.loads(anonymous.content), url


def test_a_superusers_token_with_a_role_in_the_club_reads_with_that_role_only():
    world = two_clubs()
    cast = world.cast
    Membership.objects.create(club=cast.club, user=world.superuser, role=Membership.Role.JUDGE)
    key = token_in(cast.club, by=world.superuser, holder=world.superuser)
    reads = _reads(world, Client(), bearer(key))
    # a judge of A reads A's hidden rounds; A's game in play is another judge's table: its roles stay his
    assert reads == {**NOTHING, "A hidden game": True, "A hidden game listed": True, "A hidden table": True}


def test_issuing_a_token_for_a_holder_with_powers_the_issuer_lacks_is_refused_with_the_reason():
    world = two_clubs()
    cast = world.cast
    Membership.objects.create(club=cast.club, user=world.superuser, role=Membership.Role.JUDGE)  # on the form's list
    admin = Client()
    admin.force_login(cast.club_admin)
    answer = admin.post("/staff/api-tokens/", {"name": "всё", "holder": world.superuser.pk})
    assert answer.status_code == 400 and not ApiToken.objects.exists()
    assert answer.context["form"].errors["holder"] == [
        "Владелец: root — суперпользователь сайта, а вы нет; токен выдаётся только владельцу, чьи права есть у вас "
        "самих."]
    assert "root — суперпользователь сайта, а вы нет" in answer.content.decode()
    with pytest.raises(ServiceError) as refused:
        token_issue(club=cast.club, by=cast.club_admin, name="всё", holder=world.superuser)
    assert refused.value.field == "holder" and not ApiToken.objects.exists()
    # the powers the issuer has himself: a judge's token, the dual member's (an admin of A as the issuer is)
    assert admin.post("/staff/api-tokens/", {"name": "судья", "holder": cast.judge.pk}).status_code == 200
    assert admin.post("/staff/api-tokens/", {"name": "двое", "holder": world.dual.pk}).status_code == 200
    assert sorted(ApiToken.objects.values_list("holder__username", flat=True)) == ["dual", "judge"]


def _document(name="Кубок импорта") -> str:
    return json.dumps({"format": "mafclub/1", "tournament": {"name": name, "ruleset": "cml"},
                       "games": [sheet_game(1, result="red")]})


def test_an_import_through_a_token_names_its_holder_in_the_history():
    world = two_clubs()
    key = token_in(world.cast.club, by=world.cast.club_admin, holder=world.dual)
    response = Client().post("/api/v1/imports/", _document(), content_type="application/json", **bearer(key))
    assert response.status_code == 201, response.content
    tournament = Tournament.objects.get(name="Кубок импорта")
    assert tournament.club == world.cast.club
    assert tournament.history.earliest().history_user == world.dual
    assert Game.objects.get(tournament=tournament).history.earliest().history_user == world.dual


def test_a_superusers_token_imports_nothing_without_an_admins_role_in_its_club():
    world = two_clubs()
    key = token_in(world.cast.club, by=world.superuser, holder=world.superuser)
    refused = Client().post("/api/v1/imports/", _document(), content_type="application/json", **bearer(key))
    assert refused.status_code == 403 and "администратор" in json.loads(refused.content)["detail"]
    assert not Tournament.objects.filter(name="Кубок импорта").exists()
    # a club B judge's token issued in B by its superuser imports nothing into B either
    b_key = token_in(world.club_b, by=world.superuser, holder=world.dual)
    refused = Client().post("/api/v1/imports/", _document(), content_type="application/json", **bearer(b_key))
    assert refused.status_code == 403 and not Tournament.objects.filter(name="Кубок импорта").exists()


def test_a_multipart_import_is_refused_in_order_403_then_415_never_a_500():
    cast = two_clubs().cast
    judge = Client().post("/api/v1/imports/", {"document": _document()}, **bearer(token_for(cast, cast.judge)))
    assert judge.status_code == 403 and judge["Content-Type"].startswith("application/json")
    admin_key = token_for(cast, cast.club_admin, name="админ")
    multipart = Client().post("/api/v1/imports/", {"document": _document()}, **bearer(admin_key))
    assert multipart.status_code == 415 and "application/json" in json.loads(multipart.content)["detail"]
    plain = Client().post("/api/v1/imports/", _document(), content_type="text/plain", **bearer(admin_key))
    assert plain.status_code == 415 and "application/json" in json.loads(plain.content)["detail"]
    assert not Tournament.objects.filter(name="Кубок импорта").exists()
    anonymous = Client().post("/api/v1/imports/", {"document": _document()})
    assert anonymous.status_code == 401 and anonymous["Content-Type"].startswith("application/json")
