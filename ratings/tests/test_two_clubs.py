"""Two clubs on one site: an admin of one club can neither read nor change the other club's objects.

Through /admin/ (every registered ModelAdmin: the changelist does not list them, the change/delete/history pages
answer 403 or 404, the add forms do not offer the other club in their choices, a POST naming the other club's ids
is refused) and through the site's own staff pages (staff roles, players, claims, rule sets, seasons, import,
protests). Every refused request leaves the database exactly as it was.

The admin checks run twice: with the "Club admins" group's permissions, and with every model permission of the
site given to the club admin directly, so the scoping (not a missing permission) is what refuses.
"""

from __future__ import annotations

import datetime as dt
import io
from dataclasses import dataclass

import pytest
from django.contrib import admin
from django.contrib.auth.models import Permission
from django.test import Client
from django.urls import NoReverseMatch, reverse
from django.utils import timezone

from club.admin_scope import ClubScopedAdmin, unscoped_model_admins
from club.models import Club, Membership, Player, PlayerClaim
from club.tests.factories import ClubFactory, MembershipFactory, PlayerFactory, UserFactory
from club.tests.test_audit_permissions import snapshot
from games.models import (
    Adjustment,
    ClubEvening,
    Game,
    GameAction,
    JudgeExtra,
    Protest,
    RecordedColour,
    Removal,
    RuleSetVersion,
    ScoreItem,
    Seat,
    Tournament,
)
from games.rulesets.services import ruleset_copy
from ratings.models import Lot, Season

pytestmark = pytest.mark.django_db

Role = Membership.Role


@dataclass
class ClubSide:
    club: Club
    admin: object
    judge: object
    players: list
    claim: PlayerClaim
    rules: RuleSetVersion
    tournament: Tournament
    evening: ClubEvening
    game: Game
    protest: Protest
    season: Season
    objects: dict  # model -> one object of this club


def _side(name: str, prefix: str, preset: RuleSetVersion) -> ClubSide:
    club = ClubFactory(name=name)
    admin_user = UserFactory(username=f"{prefix}_admin")
    MembershipFactory(club=club, user=admin_user, role=Role.ADMIN)
    MembershipFactory(club=club, user=admin_user, role=Role.HEAD_JUDGE)
    judge = MembershipFactory(club=club, user=UserFactory(username=f"{prefix}_judge"), role=Role.JUDGE).user
    players = [PlayerFactory(club=club, nickname=f"{prefix} игрок {n}") for n in range(1, 12)]
    players[0].user = UserFactory(username=f"{prefix}_player")
    players[0].save()
    claim = PlayerClaim.objects.create(user=UserFactory(username=f"{prefix}_claimer"), player=players[1])
    rules = ruleset_copy(club=club, by=admin_user, source=preset, name=f"Правила {prefix}", slug=f"rules-{prefix}")
    tournament = Tournament.objects.create(club=club, name=f"Кубок {prefix}", ruleset=preset, head_judge=admin_user)
    evening = ClubEvening.objects.create(club=club, date=dt.date(2026, 11, 20), name=f"Вечер {prefix}", ruleset=preset)
    game = Game.objects.create(club=club, tournament=tournament, ruleset=preset, number=1, table=1,
                               date=dt.date(2026, 11, 28), judge=judge, judge_name="judge", status=Game.Status.FINISHED,
                               result="red", ended_at=timezone.now() - dt.timedelta(minutes=3))
    seats = Seat.objects.bulk_create([Seat(game=game, number=n, player=players[n - 1]) for n in range(1, 11)])
    protest = Protest.objects.create(game=game, filed_by=judge, category=Protest.Category.RESULT, text="неверно",
                                     filed_at=timezone.now())
    season = Season.objects.create(club=club, name=f"Сезон {prefix}", start=dt.date(2026, 1, 1),
                                   end=dt.date(2026, 12, 31))
    objects = {
        Club: club, Player: players[0], Membership: Membership.objects.filter(club=club).first(),
        PlayerClaim: claim, RuleSetVersion: rules, Tournament: tournament, ClubEvening: evening, Game: game,
        Protest: protest, Season: season,
        Lot: Lot.objects.create(tournament=tournament, player=players[0], number=1),
        GameAction: GameAction.objects.create(game=game, seq=1, action_id=f"{prefix}-1", kind="start", payload={},
                                              by=judge),
        Removal: Removal.objects.create(game=game, seat=4, reason="fouls", at="D1"),
        RecordedColour: RecordedColour.objects.create(game=game, by=1, target=2),
        JudgeExtra: JudgeExtra.objects.create(game=game, seat=2, points=1),
        Adjustment: Adjustment.objects.create(game=game, seat=3, points=-1, clause="000 T6.3"),
        ScoreItem: ScoreItem.objects.create(seat=seats[0], kind="win", points=1),
    }
    return ClubSide(club, admin_user, judge, players, claim, rules, tournament, evening, game, protest, season,
                    objects)


@pytest.fixture
def clubs(db, settings):
    settings.LANGUAGE_CODE = "en"
    preset = RuleSetVersion.objects.filter(slug="xcraft", club__isnull=True).order_by("-version").first()
    first = _side("Альфа", "a", preset)  # created first: the club this site serves
    second = _side("Бета", "b", preset)
    return first, second


def _client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _greedy(user) -> None:
    """Every model permission of the site, given to the user directly (he stays a non-superuser)."""
    user.user_permissions.set(Permission.objects.all())


def _admin_url(obj, view: str) -> str | None:
    opts = obj._meta
    try:
        return reverse(f"admin:{opts.app_label}_{opts.model_name}_{view}", args=[obj.pk])
    except NoReverseMatch:
        return None


def test_every_club_level_model_admin_is_scoped():
    assert unscoped_model_admins() == []


@pytest.mark.parametrize("greedy", [False, True], ids=["group-permissions", "every-permission"])
def test_an_admin_cannot_reach_the_other_clubs_objects_in_the_admin(clubs, greedy):
    mine, theirs = clubs
    if greedy:
        _greedy(mine.admin)
    client = _client(mine.admin)
    before = snapshot()
    registered = {model for model in admin.site._registry if isinstance(admin.site._registry[model], ClubScopedAdmin)}
    assert set(theirs.objects) <= registered
    for model, obj in theirs.objects.items():
        label = model._meta.label
        changelist = client.get(reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_changelist"))
        assert changelist.status_code in (200, 403), label
        if changelist.status_code == 200:
            assert _admin_url(obj, "change") not in changelist.content.decode(), label
            mine_url = _admin_url(mine.objects[model], "change")
            if greedy or model in (Player, Membership, PlayerClaim, Club):
                assert mine_url in changelist.content.decode(), label  # the positive control: his own is listed
        for view in ("change", "delete", "history"):
            url = _admin_url(obj, view)
            if url is None:
                continue
            assert client.get(url).status_code in (403, 404), (label, view)
            assert client.post(url, {"post": "yes"}).status_code in (403, 404), (label, view)
        # The bulk delete action with the other club's id deletes nothing.
        client.post(reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_changelist"),
                    {"action": "delete_selected", "_selected_action": [obj.pk], "post": "yes"})
    assert snapshot() == before


@pytest.mark.parametrize("greedy", [False, True], ids=["group-permissions", "every-permission"])
def test_add_and_change_forms_offer_only_the_admins_clubs(clubs, greedy):
    mine, theirs = clubs
    if greedy:
        _greedy(mine.admin)
    client = _client(mine.admin)
    form = client.get(reverse("admin:club_player_add")).context["adminform"].form
    assert list(form.fields["club"].queryset) == [mine.club]
    assert "user" not in form.fields  # logins are linked through claims on the site, not chosen here
    page = client.get(reverse("admin:club_membership_add"))
    form = page.context["adminform"].form
    assert list(form.fields["club"].queryset) == [mine.club]
    # The logins are not listed (the other club's people among them): the login is typed by its id.
    for user in (theirs.admin, theirs.judge, theirs.players[0].user):
        assert f">{user.username}<" not in page.content.decode()
    form = client.get(reverse("admin:club_club_change", args=[mine.club.pk])).context["adminform"].form
    offered = set(form.fields["default_ruleset"].queryset)
    assert mine.rules in offered and theirs.rules not in offered
    if greedy:
        form = client.get(reverse("admin:ratings_season_add")).context["adminform"].form
        assert list(form.fields["club"].queryset) == [mine.club]
        form = client.get(reverse("admin:games_tournament_add")).context["adminform"].form
        assert list(form.fields["club"].queryset) == [mine.club]
        assert theirs.rules not in set(form.fields["ruleset"].queryset)
        form = client.get(reverse("admin:ratings_lot_add")).context["adminform"].form
        assert theirs.tournament not in set(form.fields["tournament"].queryset)
        assert theirs.players[0] not in set(form.fields["player"].queryset)


@pytest.mark.parametrize("greedy", [False, True], ids=["group-permissions", "every-permission"])
def test_posts_naming_the_other_club_are_refused_and_change_nothing(clubs, greedy):
    mine, theirs = clubs
    if greedy:
        _greedy(mine.admin)
    client = _client(mine.admin)
    before = snapshot()
    # The takeover of the report: make myself admin of the other club, move a player there, rename the other club.
    response = client.post(reverse("admin:club_membership_add"),
                           {"club": theirs.club.pk, "user": mine.admin.pk, "role": Role.ADMIN})
    assert response.status_code == 200 and response.context["adminform"].form.errors.get("club")
    response = client.post(reverse("admin:club_player_add"),
                           {"club": theirs.club.pk, "nickname": "Засланный", "joined": "2026-01-01", "active": "on"})
    assert response.status_code == 200 and response.context["adminform"].form.errors.get("club")
    player = mine.players[2]
    response = client.post(reverse("admin:club_player_change", args=[player.pk]),
                           {"club": theirs.club.pk, "nickname": player.nickname, "joined": "2026-01-01"})
    assert response.status_code == 200 and response.context["adminform"].form.errors.get("club")
    response = client.post(reverse("admin:club_player_change", args=[theirs.players[0].pk]),
                           {"club": theirs.club.pk, "nickname": "Угнан", "joined": "2026-01-01",
                            "user": mine.admin.pk})
    assert response.status_code == 403
    response = client.post(reverse("admin:club_club_change", args=[theirs.club.pk]), {"name": "Захвачен"})
    assert response.status_code == 403
    response = client.post(reverse("admin:club_club_add"), {"name": "Новый клуб"})
    assert response.status_code == 403
    response = client.post(reverse("admin:club_membership_change", args=[theirs.objects[Membership].pk]),
                           {"club": theirs.club.pk, "user": mine.admin.pk, "role": Role.ADMIN})
    assert response.status_code == 403
    if greedy:
        response = client.post(reverse("admin:ratings_season_add"),
                               {"club": theirs.club.pk, "name": "Чужой", "start": "2026-01-01", "end": "2026-02-01"})
        assert response.status_code == 200 and response.context["adminform"].form.errors.get("club")
        response = client.post(reverse("admin:ratings_season_change", args=[theirs.season.pk]),
                               {"club": theirs.club.pk, "name": "Чужой", "start": "2026-01-01", "end": "2026-02-01"})
        assert response.status_code == 403
        # A historical version of the other club's player is not a way in either.
        record = theirs.players[0].history.first()
        response = client.get(reverse("admin:club_player_simple_history",
                                      args=[theirs.players[0].pk, record.history_id]))
        assert response.status_code in (403, 404)
    assert snapshot() == before
    # His own club he may still edit (the positive control).
    response = client.post(reverse("admin:club_club_change", args=[mine.club.pk]),
                           {"name": "Альфа-2", "city": "", "accent_color": "#0d6efd",
                            "time_zone": "Europe/Moscow"})
    assert response.status_code == 302
    assert Club.objects.get(pk=mine.club.pk).name == "Альфа-2"
    assert Club.objects.get(pk=theirs.club.pk).name == "Бета"


@pytest.mark.parametrize("greedy", [False, True], ids=["group-permissions", "every-permission"])
def test_a_club_admin_cannot_edit_logins_or_make_himself_superuser(clubs, greedy):
    mine, theirs = clubs
    if greedy:
        _greedy(mine.admin)
    client = _client(mine.admin)
    before = snapshot()
    assert client.get(reverse("admin:auth_user_changelist")).status_code == 403
    for user in (mine.admin, theirs.admin, theirs.players[0].user):
        assert client.get(reverse("admin:auth_user_change", args=[user.pk])).status_code == 403
        response = client.post(reverse("admin:auth_user_change", args=[user.pk]),
                               {"username": user.username, "is_superuser": "on", "is_staff": "on", "is_active": "on"})
        assert response.status_code == 403
    assert client.get(reverse("admin:auth_group_changelist")).status_code == 403
    assert client.post(reverse("admin:auth_user_add"), {"username": "root2", "password1": "x-Very-long-9",
                                                         "password2": "x-Very-long-9"}).status_code == 403
    # Every other model without a club (login throttling, task results…) is the superuser's too.
    for model, model_admin in admin.site._registry.items():
        if not isinstance(model_admin, ClubScopedAdmin):
            url = reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_changelist")
            assert client.get(url).status_code == 403, url
    assert snapshot() == before
    assert not type(mine.admin).objects.get(pk=mine.admin.pk).is_superuser


def test_the_site_refuses_the_other_clubs_admin(clubs):
    """The site serves the first club; the second club's admin (and head judge) gets 403 on its staff pages."""
    site, other = clubs
    client = _client(other.admin)
    before = snapshot()
    player = site.players[3]
    refused = [
        ("get", reverse("staff"), {}),
        ("post", reverse("staff"), {"username": other.admin.username, "role": Role.ADMIN}),
        ("post", reverse("staff_remove"), {"user": site.admin.pk, "role": Role.ADMIN}),
        ("get", reverse("player_create"), {}),
        ("post", reverse("player_create"), {"nickname": "Чужак", "joined": "2026-01-01"}),
        ("get", reverse("player_edit", args=[player.pk]), {}),
        ("post", reverse("player_edit", args=[player.pk]), {"nickname": "Переименован", "joined": "2026-01-01"}),
        ("post", reverse("player_login_create", args=[player.pk]),
         {"username": "hijack", "password1": "x-Very-long-9", "password2": "x-Very-long-9"}),
        ("get", reverse("claim_list"), {}),
        ("post", reverse("claim_decide", args=[site.claim.pk]), {"decision": "approve"}),
        ("get", reverse("games:import"), {}),
        ("post", reverse("games:import"), {"files": io.BytesIO(b"{}")}),
        ("get", reverse("games:ruleset_edit", args=[site.rules.pk]), {}),
        ("post", reverse("games:ruleset_edit", args=[site.rules.pk]), {"name": "Чужие"}),
        ("post", reverse("games:ruleset_default", args=[site.rules.pk]), {}),
        ("post", reverse("games:ruleset_copy", args=[site.rules.pk]), {"name": "Копия", "slug": "copy-x"}),
        ("get", reverse("ratings:season_list"), {}),
        ("post", reverse("ratings:season_list"), {"name": "Чужой", "start": "2026-01-01", "end": "2026-02-01"}),
        ("get", reverse("ratings:season_edit", args=[site.season.pk]), {}),
        ("post", reverse("ratings:season_edit", args=[site.season.pk]),
         {"name": "Чужой", "start": "2026-01-01", "end": "2026-02-01"}),
        ("post", reverse("ratings:season_delete", args=[site.season.pk]), {}),
        ("get", reverse("games:protest_detail", args=[site.protest.pk]), {}),
        ("post", reverse("games:protest_decide", args=[site.protest.pk]), {"decision": "reject", "explanation": "x"}),
        ("post", reverse("games:tournament_new"), {"name": "Чужой кубок", "ruleset": site.rules.pk}),
    ]
    for method, url, data in refused:
        response = getattr(client, method)(url, data)
        assert response.status_code in (403, 404), (method, url, response.status_code)
    # The protests queue lists nothing of the other club.
    queue = client.get(reverse("games:protest_queue"))
    assert queue.status_code in (200, 403)
    if queue.status_code == 200:
        assert reverse("games:protest_decide", args=[site.protest.pk]) not in queue.content.decode()
    assert snapshot() == before


def test_the_site_clubs_admin_cannot_reach_the_second_clubs_objects(clubs):
    site, other = clubs
    client = _client(site.admin)
    before = snapshot()
    player = other.players[3]
    refused = [
        ("get", reverse("player_edit", args=[player.pk]), {}),
        ("post", reverse("player_edit", args=[player.pk]), {"nickname": "Переименован", "joined": "2026-01-01"}),
        ("post", reverse("player_login_create", args=[player.pk]),
         {"username": "hijack", "password1": "x-Very-long-9", "password2": "x-Very-long-9"}),
        ("post", reverse("claim_decide", args=[other.claim.pk]), {"decision": "approve"}),
        ("get", reverse("games:ruleset_edit", args=[other.rules.pk]), {}),
        ("post", reverse("games:ruleset_edit", args=[other.rules.pk]), {"name": "Чужие"}),
        ("get", reverse("ratings:season_edit", args=[other.season.pk]), {}),
        ("post", reverse("ratings:season_edit", args=[other.season.pk]),
         {"name": "Чужой", "start": "2026-01-01", "end": "2026-02-01"}),
        ("post", reverse("ratings:season_delete", args=[other.season.pk]), {}),
        ("get", reverse("games:protest_detail", args=[other.protest.pk]), {}),
        ("post", reverse("games:protest_decide", args=[other.protest.pk]), {"decision": "reject", "explanation": "x"}),
    ]
    for method, url, data in refused:
        response = getattr(client, method)(url, data)
        assert response.status_code in (403, 404), (method, url, response.status_code)
    # Making the other club's rule set his club's default is a message, not a change.
    client.post(reverse("games:ruleset_default", args=[other.rules.pk]))
    # The claims page and the protests queue list only his club's.
    assert reverse("claim_decide", args=[other.claim.pk]) not in client.get(reverse("claim_list")).content.decode()
    queue = client.get(reverse("games:protest_queue")).content.decode()
    assert reverse("games:protest_detail", args=[other.protest.pk]) not in queue
    assert snapshot() == before
