"""Audit: every mutating URL of the site checks its permission on the server and writes nothing when refused.

A table of every mutating URL, each with a plausible payload (so the permission is the only reason to refuse):
anonymous callers are sent to log in (or refused), the outsider, the plain player and the judge of another table
get 403, and no row of any model changes. The allowed user's same request does change the database, so each row
of the table can fail. GET on a POST-only URL is 405; a POST without the CSRF token is 403.
"""

from __future__ import annotations

import datetime as dt
import io
import uuid
from dataclasses import dataclass, field

import pytest
from django.apps import apps
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from PIL import Image

from club.models import PlayerClaim
from games.live.apply import live_apply
from games.models import Game, Protest, RuleSetVersion, Seat
from games.rulesets.services import ruleset_copy
from games.tests.live_fixtures import ROLES, make_cast

pytestmark = pytest.mark.django_db

SKIPPED_MODELS = {"sessions.Session"}  # logging in writes a session row; it is not the site's data


def snapshot() -> dict[str, list[dict]]:
    """Every row of every model (sessions aside), to compare before and after a refused request."""
    return {model._meta.label: list(model._default_manager.order_by("pk").values())
            for model in apps.get_models() if model._meta.label not in SKIPPED_MODELS}


@pytest.fixture
def world(db, english):
    cast = make_cast()
    players = cast.players
    game = cast.game  # table 1, judged by cast.judge; the login "player" (players[3]) is NOT seated here
    seated = [p for i, p in enumerate(players) if i != 3][:10]
    Seat.objects.bulk_create([Seat(game=game, number=n, player=seated[n - 1], role=ROLES[n]) for n in range(1, 11)])
    live_apply(game_id=game.pk, by=cast.judge, kind="start", payload={}, version=game.version, action_id="start")
    other = Game.objects.get(tournament=cast.tournament, number=2)
    Game.objects.filter(pk=other.pk).update(status=Game.Status.FINISHED, result="red",
                                            ended_at=timezone.now() - dt.timedelta(minutes=5))
    cast.protest = Protest.objects.create(game=other, filed_by=cast.other_judge, category=Protest.Category.RESULT,
                                          text="the result is wrong", filed_at=timezone.now())
    cast.preset = cast.tournament.ruleset
    cast.club_rules = ruleset_copy(club=cast.club, by=cast.club_admin, source=cast.preset, name="Наши правила",
                                   slug="club-audit-rules")
    cast.claim = PlayerClaim.objects.create(user=cast.outsider, player=players[11])
    cast.game.refresh_from_db()
    return cast


@dataclass
class Write:
    """One mutating URL: who may not call it, who may (the positive control), and what to send."""

    name: str
    url: object  # world -> str
    data: object  # world -> dict
    allowed: str | None  # the cast member whose identical request must change the database
    also_denied: tuple[str, ...] = ()  # refused besides anonymous / outsider / plain player
    denied: tuple[str, ...] = ("outsider", "player")
    files: dict = field(default_factory=dict)


@pytest.fixture(autouse=True)
def _media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path  # the allowed photo upload is stored here, not in the project's media/


def _png() -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (40, 30), (200, 30, 30)).save(out, "PNG")
    return out.getvalue()


_PNG = _png()


def _action(kind: str, **payload):
    return lambda w: {"version": w.game.version, "action_id": uuid.uuid4().hex, **payload}


WRITES = [
    Write("player_create", lambda w: reverse("player_create"), lambda w: {"nickname": "Новичок", "joined": "2026-01-01"}, "club_admin",
          ("other_judge",)),
    Write("player_edit", lambda w: reverse("player_edit", args=[w.players[0].pk]),
          lambda w: {"nickname": "Переименован", "joined": "2026-01-01", "active": "on"}, "club_admin", ("other_judge",)),
    # every form that writes a picture (the player form above takes one too; /admin/: club/tests/test_pictures.py)
    Write("player_photo", lambda w: reverse("player_photo", args=[w.players[5].pk]), lambda w: {}, "club_admin",
          ("other_judge", "judge"), files={"photo": ("me.png", _PNG)}),
    Write("player_login_create", lambda w: reverse("player_login_create", args=[w.players[11].pk]),
          lambda w: {"username": "newlogin", "password1": "Zx9!long-password", "password2": "Zx9!long-password"},
          "club_admin", ("other_judge",)),
    Write("claim_decide", lambda w: reverse("claim_decide", args=[w.claim.pk]),
          lambda w: {"decision": "approve", "note": ""}, "club_admin", ("other_judge",)),
    Write("import", lambda w: reverse("games:import"), lambda w: {}, None, ("other_judge",),
          files={"files": ("protocol.json", b'{"format": "mafclub/1", "games": []}')}),
    Write("ruleset_copy", lambda w: reverse("games:ruleset_copy", args=[w.preset.pk]), lambda w: {"name": "Копия"},
          "club_admin", ("other_judge",)),
    Write("ruleset_edit", lambda w: reverse("games:ruleset_edit", args=[w.club_rules.pk]),
          lambda w: {"name": "Правка"}, None, ("other_judge",)),
    Write("ruleset_default", lambda w: reverse("games:ruleset_default", args=[w.club_rules.pk]), lambda w: {},
          "club_admin", ("other_judge",)),
    Write("tournament_new", lambda w: reverse("games:tournament_new"),
          lambda w: {"name": "Новый турнир", "ruleset": w.preset.pk}, "club_admin", ("other_judge",)),
    Write("evening_new", lambda w: reverse("games:evening_new"),
          lambda w: {"date": "2026-12-01", "ruleset": w.preset.pk}, "club_admin", ("other_judge",)),
    Write("game_new", lambda w: reverse("games:game_new"), lambda w: {"tournament": w.tournament.pk, "table": 5},
          "judge"),
    *[Write(f"judge_action:{kind}", lambda w, kind=kind: reverse("games:judge_action", args=[w.game.pk, kind]),
            _action(kind, **payload), allowed, ("other_judge",))
      for kind, payload, allowed in [
          ("foul", {"seat": "3", "delta": "1"}, "judge"),
          ("role", {"seat": "1", "role": "Ч"}, None),
          ("nominate", {"by": "1", "nominee": "5"}, "judge"),
          ("don_check", {"seat": "7"}, None),
          ("result", {"result": "red"}, None),
          ("sign", {}, None),
          ("undo", {}, None),
          ("remove", {"seat": "6", "reason": "disqualified"}, None),
      ]],
    Write("protest_file", lambda w: reverse("games:protest_file", args=[w.game.pk]),
          lambda w: {"category": "result", "text": "protest"}, None, ("other_judge",)),
    Write("protest_paper", lambda w: reverse("games:protest_paper", args=[w.game.pk]),
          lambda w: {"seat": 2, "category": "result", "text": "paper",
                     "written_at": timezone.localtime().strftime("%Y-%m-%d %H:%M")}, "judge", ("other_judge",)),
    Write("protest_decide", lambda w: reverse("games:protest_decide", args=[w.protest.pk]),
          lambda w: {"decision": "reject", "explanation": "no grounds"}, "head_judge", ("other_judge",)),
    # Logged-in users may claim a player (that is the feature): only anonymous callers are sent to log in.
    Write("player_claim", lambda w: reverse("player_claim", args=[w.players[10].pk]), lambda w: {}, "judge",
          denied=()),
    Write("password_change", lambda w: reverse("password_change"),
          lambda w: {"old_password": "x", "new_password1": "Zx9!long-password", "new_password2": "Zx9!long-password"},
          None, denied=()),
]


def _login(user) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def _post(client: Client, write: Write, world):
    data = dict(write.data(world))
    for name, (filename, content) in write.files.items():
        upload = io.BytesIO(content)
        upload.name = filename
        data[name] = upload
    return client.post(write.url(world), data)


@pytest.mark.parametrize("write", WRITES, ids=[w.name for w in WRITES])
def test_a_mutating_url_refuses_callers_without_the_permission_and_changes_nothing(world, write):
    for who in (None, *write.denied, *write.also_denied):
        client = _login(getattr(world, who) if who else None)
        before = snapshot()
        response = _post(client, write, world)
        if who is None:
            assert response.status_code in (302, 403), write.name
            if response.status_code == 302:
                assert response["Location"].startswith(reverse("login") + "?next="), (write.name, response["Location"])
        else:
            assert response.status_code == 403, (write.name, who, response.status_code)
        assert snapshot() == before, f"{write.name}: refused for {who or 'anonymous'} but the database changed"
    if write.allowed:
        client = _login(getattr(world, write.allowed))
        before = snapshot()
        response = _post(client, write, world)
        assert response.status_code in (200, 302), (write.name, response.status_code)
        assert snapshot() != before, f"{write.name}: the allowed {write.allowed} changed nothing (the test is blind)"


POST_ONLY = ["player_claim", "claim_decide", "ruleset_copy", "ruleset_default", "game_new", "judge_action:foul",
             "protest_file", "protest_paper", "protest_decide"]


@pytest.mark.parametrize("name", POST_ONLY)
def test_a_post_only_url_answers_get_with_405_and_changes_nothing(world, name):
    write = next(w for w in WRITES if w.name == name)
    client = _login(world.club_admin)
    before = snapshot()
    assert client.get(write.url(world)).status_code == 405
    assert snapshot() == before


# password_change is Django's own FormView (PUT is handled as POST there, still behind login and CSRF).
@pytest.mark.parametrize("write", [w for w in WRITES if w.name not in POST_ONLY and w.name != "password_change"],
                         ids=lambda w: w.name)
def test_a_form_url_refuses_other_methods(world, write):
    client = _login(world.club_admin)
    before = snapshot()
    assert client.delete(write.url(world)).status_code == 405
    assert client.put(write.url(world)).status_code == 405
    assert snapshot() == before


@pytest.mark.parametrize("write", [w for w in WRITES if w.allowed], ids=lambda w: w.name)
def test_a_post_without_the_csrf_token_is_refused_even_for_the_allowed_user(world, write):
    client = Client(enforce_csrf_checks=True)
    client.force_login(getattr(world, write.allowed))
    before = snapshot()
    response = _post(client, write, world)
    assert response.status_code == 403
    assert snapshot() == before


def test_the_admin_site_is_closed_to_non_staff(world):
    for user in (None, world.outsider, world.player, world.judge, world.head_judge):
        client = _login(user)
        before = snapshot()
        for url in (reverse("admin:index"), reverse("admin:games_game_changelist"),
                    reverse("admin:games_seat_changelist") if _registered("games", "seat") else reverse("admin:index"),
                    reverse("admin:games_gameaction_changelist")):
            response = client.get(url)
            assert response.status_code == 302 and response["Location"].startswith(reverse("admin:login")), url
        response = client.post(reverse("admin:club_player_add"), {"nickname": "x", "club": world.club.pk})
        assert response.status_code == 302 and response["Location"].startswith(reverse("admin:login"))
        assert snapshot() == before


def test_a_club_admin_in_the_admin_site_cannot_read_game_protocols(world):
    """Club admins reach /admin/ for players and memberships only; protocols (roles) are not theirs to browse."""
    client = _login(world.club_admin)
    assert client.get(reverse("admin:index")).status_code == 200
    assert client.get(reverse("admin:games_game_change", args=[world.game.pk])).status_code == 403
    assert client.get(reverse("admin:games_gameaction_changelist")).status_code == 403


def _registered(app_label: str, model_name: str) -> bool:
    from django.contrib import admin

    return any(m._meta.app_label == app_label and m._meta.model_name == model_name for m in admin.site._registry)


def test_bad_input_names_the_field_and_changes_nothing(world):
    client = _login(world.judge)
    before = snapshot()
    response = client.post(reverse("games:game_new"), {"tournament": world.tournament.pk, "table": 500}, follow=True)
    assert snapshot() == before
    text = " ".join(str(m) for m in response.context["messages"])
    assert "Table" in text and "99" in text


def test_a_refused_judge_action_rolls_back_everything(world):
    client = _login(world.judge)
    before = snapshot()
    response = client.post(reverse("games:judge_action", args=[world.game.pk, "foul"]),
                           {"version": world.game.version, "action_id": uuid.uuid4().hex, "seat": "11", "delta": "1"},
                           HTTP_HX_REQUEST="true")
    assert response.status_code == 400  # seat 11 breaks its field's rule: bad input, named (games.live BadInput)
    assert snapshot() == before


def test_making_another_clubs_rule_set_the_default_is_a_message_not_a_server_error(world):
    from club.tests.factories import ClubFactory

    foreign = RuleSetVersion.objects.create(slug="foreign-rules", name="Чужие", club=ClubFactory(name="Чужой клуб"),
                                            params=dict(world.preset.params, slug="foreign-rules"))
    client = _login(world.club_admin)
    before = snapshot()
    response = client.post(reverse("games:ruleset_default", args=[foreign.pk]), follow=True)
    assert response.status_code == 200
    assert any("another club" in str(m) for m in response.context["messages"])
    assert snapshot() == before
