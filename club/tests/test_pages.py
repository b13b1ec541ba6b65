"""The club pages through the test client: fragments, private fields, claims, logins, admin access."""

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils import translation

from club import services
from club.models import Membership, Player, PlayerClaim
from club.tests.factories import PlayerFactory, UserFactory

User = get_user_model()
HTMX = {"HTTP_HX_REQUEST": "true"}


def test_home_shows_the_club(cast, client):
    body = client.get(reverse("home")).content.decode()
    assert "Полночь" in body and "Москва" in body
    assert reverse("player_list") in body


def test_home_without_a_club_explains_what_to_do(db, client):
    response = client.get(reverse("home"))
    assert response.status_code == 200
    assert "seed_demo" in response.content.decode()


def test_player_search_is_a_fragment_for_htmx(cast, client):
    PlayerFactory(club=cast.club, nickname="Ворон")
    response = client.get(reverse("player_list"), {"q": "вор"}, **HTMX)
    body = response.content.decode()
    assert response.status_code == 200
    assert "<html" not in body and "<nav" not in body
    assert 'id="player-rows"' in body
    assert "Ворон" in body and "Лиса" not in body


def test_player_search_is_a_full_page_without_htmx(cast, client):
    PlayerFactory(club=cast.club, nickname="Ворон")
    response = client.get(reverse("player_list"), {"q": "  ВОР "})
    body = response.content.decode()
    assert "<html" in body and 'id="player-search"' in body
    assert "Ворон" in body and "Лиса" not in body
    # The live filter is wired to the same URL and still works as a plain form.
    assert 'hx-get="/players/"' in body and 'type="submit"' in body


def test_player_search_says_when_nothing_matches(cast, client):
    body = client.get(reverse("player_list"), {"q": "нет-такого"}, **HTMX).content.decode()
    assert 'data-testid="no-players"' in body and "нет-такого" in body


def _profile(client, player):
    return client.get(reverse("player_detail", args=[player.pk])).content.decode()


@pytest.mark.parametrize(
    "member, sees",
    [
        ("anonymous", False),
        ("outsider", False),
        ("other_judge", False),
        ("player", True),
        ("judge", True),
        ("head_judge", True),
        ("club_admin", True),
    ],
)
def test_profile_private_fields_only_for_staff_and_the_player(cast, client, member, sees):
    if member != "anonymous":
        client.force_login(cast[member])
    body = _profile(client, Player.objects.get(nickname="Лиса"))
    assert "Лиса" in body
    assert ("Алиса Лисицына" in body) is sees
    assert ('data-testid="private-part"' in body) is sees


def test_claim_flow_sign_up_claim_and_admin_approves(cast, client):
    crow = PlayerFactory(club=cast.club, nickname="Ворон", real_name="Игорь Волков")
    response = client.post(
        reverse("signup"), {"username": "newbie", "password1": "Zx-ampl3-pass!", "password2": "Zx-ampl3-pass!"}
    )
    assert response.status_code == 302
    newbie = User.objects.get(username="newbie")
    assert "Это я" in _profile(client, crow)  # the "this is me" button, in Russian by default

    client.post(reverse("player_claim", args=[crow.pk]))
    claim = PlayerClaim.objects.get(user=newbie)
    assert claim.player == crow and claim.status == PlayerClaim.Status.PENDING
    assert "Игорь Волков" not in _profile(client, crow)  # not linked yet

    admin_client = client.__class__()
    admin_client.force_login(cast.club_admin)
    assert "newbie" in admin_client.get(reverse("claim_list")).content.decode()
    response = admin_client.post(reverse("claim_decide", args=[claim.pk]), {"decision": "approve"})
    assert response.status_code == 302

    claim.refresh_from_db()
    crow.refresh_from_db()
    assert claim.status == PlayerClaim.Status.APPROVED and claim.decided_by == cast.club_admin
    assert crow.user == newbie
    assert "Игорь Волков" in _profile(client, crow)  # the linked player now sees his private part


def test_a_refused_claim_links_nobody(cast, client):
    crow = PlayerFactory(club=cast.club, nickname="Ворон")
    claim = services.claim_create(user=cast.outsider, player=crow)
    client.force_login(cast.club_admin)
    client.post(reverse("claim_decide", args=[claim.pk]), {"decision": "refuse", "note": "Не похож"})
    claim.refresh_from_db()
    crow.refresh_from_db()
    assert claim.status == PlayerClaim.Status.REFUSED and claim.note == "Не похож"
    assert crow.user is None
    # Refused, the user may try again.
    assert services.claim_create(user=cast.outsider, player=crow).status == PlayerClaim.Status.PENDING


@pytest.mark.parametrize("member", ["judge", "head_judge", "player", "outsider", "other_judge"])
def test_a_non_admin_cannot_approve_a_claim(cast, client, member):
    crow = PlayerFactory(club=cast.club, nickname="Ворон")
    claim = services.claim_create(user=UserFactory(username="claimant"), player=crow)
    client.force_login(cast[member])
    assert client.get(reverse("claim_list")).status_code == 403
    response = client.post(reverse("claim_decide", args=[claim.pk]), {"decision": "approve"})
    assert response.status_code == 403
    claim.refresh_from_db()
    crow.refresh_from_db()
    assert claim.status == PlayerClaim.Status.PENDING and crow.user is None


def test_deciding_a_claim_needs_post(cast, client):
    claim = services.claim_create(user=cast.outsider, player=PlayerFactory(club=cast.club, nickname="Ворон"))
    client.force_login(cast.club_admin)
    assert client.get(reverse("claim_decide", args=[claim.pk])).status_code == 405
    claim.refresh_from_db()
    assert claim.status == PlayerClaim.Status.PENDING


@pytest.mark.parametrize(
    "claimant, target, reason",
    [
        ("player", "free", "already linked to a player"),
        ("outsider", "linked", "player is already linked"),
        ("outsider", "second", "claim waiting"),
    ],
)
def test_claims_that_cannot_be_made(cast, claimant, target, reason):
    free = PlayerFactory(club=cast.club, nickname="Ворон")
    second = PlayerFactory(club=cast.club, nickname="Сова")
    services.claim_create(user=cast.outsider, player=free) if target == "second" else None
    player = {"free": free, "second": second, "linked": Player.objects.get(nickname="Лиса")}[target]
    with translation.override("en"), pytest.raises(services.ServiceError) as refused:
        services.claim_create(user=cast[claimant], player=player)
    assert reason in refused.value.message
    assert PlayerClaim.objects.filter(user=cast[claimant], player=player).count() == 0


def test_anonymous_cannot_claim(cast, client):
    crow = PlayerFactory(club=cast.club, nickname="Ворон")
    response = client.post(reverse("player_claim", args=[crow.pk]))
    assert response.status_code == 302 and reverse("login") in response["Location"]
    assert not PlayerClaim.objects.exists()


def test_admin_creates_a_login_for_a_player(cast, client):
    crow = PlayerFactory(club=cast.club, nickname="Ворон")
    pending = services.claim_create(user=cast.outsider, player=crow)
    client.force_login(cast.club_admin)
    url = reverse("player_login_create", args=[crow.pk])
    response = client.post(url, {"username": "voron", "password1": "Zx-ampl3-pass!", "password2": "Zx-ampl3-pass!"})
    assert response.status_code == 302
    crow.refresh_from_db()
    assert crow.user.username == "voron" and crow.user.check_password("Zx-ampl3-pass!")
    pending.refresh_from_db()
    assert pending.status == PlayerClaim.Status.REFUSED  # the player is taken now
    # The new login works and sees its own private part.
    voron_client = client.__class__()
    voron_client.force_login(crow.user)
    assert 'data-testid="private-part"' in _profile(voron_client, crow)


def test_creating_a_login_refuses_a_taken_name_and_a_weak_password(cast, client):
    crow = PlayerFactory(club=cast.club, nickname="Ворон")
    client.force_login(cast.club_admin)
    url = reverse("player_login_create", args=[crow.pk])
    taken = client.post(url, {"username": "JUDGE", "password1": "Zx-ampl3-pass!", "password2": "Zx-ampl3-pass!"})
    assert taken.context["form"].errors["username"]
    weak = client.post(url, {"username": "voron", "password1": "123", "password2": "123"})
    assert weak.context["form"].errors["password1"]
    crow.refresh_from_db()
    assert crow.user is None and not User.objects.filter(username="voron").exists()


def test_a_judge_cannot_create_a_login(cast, client):
    crow = PlayerFactory(club=cast.club, nickname="Ворон")
    client.force_login(cast.judge)
    url = reverse("player_login_create", args=[crow.pk])
    response = client.post(url, {"username": "voron", "password1": "Zx-ampl3-pass!", "password2": "Zx-ampl3-pass!"})
    assert response.status_code == 403
    assert not User.objects.filter(username="voron").exists()


def test_a_club_admin_membership_opens_the_admin_site_and_its_removal_closes_it(cast, client):
    user = UserFactory(username="new_admin")
    client.force_login(user)
    assert client.get("/admin/club/player/").status_code == 302  # to the admin login

    services.membership_set(club=cast.club, by=cast.club_admin, user=user, role=Membership.Role.ADMIN)
    user.refresh_from_db()
    assert user.is_staff
    assert client.get("/admin/club/player/").status_code == 200
    assert client.get("/admin/club/membership/").status_code == 200
    assert client.get("/admin/auth/user/").status_code == 403  # club admins do not manage logins there

    services.membership_remove(club=cast.club, by=cast.club_admin, user=user, role=Membership.Role.ADMIN)
    user = User.objects.get(pk=user.pk)
    assert not user.is_staff and not user.has_perm("club.change_player")
    assert client.get("/admin/club/player/").status_code == 302


def test_a_judge_membership_gives_no_admin_site(cast):
    cast.judge.refresh_from_db()
    assert not cast.judge.is_staff


def test_only_a_club_admin_sets_memberships(cast):
    from django.core.exceptions import PermissionDenied

    with pytest.raises(PermissionDenied):
        services.membership_set(club=cast.club, by=cast.head_judge, user=cast.outsider, role=Membership.Role.JUDGE)
    assert not Membership.objects.filter(user=cast.outsider).exists()


def test_logout_is_a_post_and_the_login_page_renders(cast, client):
    assert "<form" in client.get(reverse("login")).content.decode()
    client.force_login(cast.judge)
    assert client.post(reverse("logout")).status_code == 302
    assert "_auth_user_id" not in client.session


def test_the_password_change_page_needs_a_login(cast, client):
    assert client.get(reverse("password_change")).status_code == 302
    client.force_login(cast.judge)
    assert client.get(reverse("password_change")).status_code == 200


def test_pages_speak_russian_by_default_and_english_on_request(cast, client):
    assert "Игроки" in client.get(reverse("player_list")).content.decode()
    client.post(reverse("set_language"), {"language": "en", "next": "/players/"})
    assert "Players" in client.get(reverse("player_list")).content.decode()


def test_a_membership_made_in_the_admin_site_grants_access_too(cast, client):
    client.force_login(cast.club_admin)
    user = UserFactory(username="helper")
    response = client.post(
        "/admin/club/membership/add/", {"club": cast.club.pk, "user": user.pk, "role": Membership.Role.ADMIN}
    )
    assert response.status_code == 302
    user.refresh_from_db()
    assert user.is_staff and user.has_perm("club.change_player")
    Membership.objects.get(user=user).delete()
    user = User.objects.get(pk=user.pk)
    assert not user.is_staff and not user.has_perm("club.change_player")


def test_the_admin_site_shows_a_duplicate_nickname_as_a_form_error(cast, client):
    client.force_login(cast.club_admin)
    response = client.post(
        "/admin/club/player/add/", {"club": cast.club.pk, "nickname": " ЛИСА ", "joined": "2025-01-01", "active": "on"}
    )
    assert response.status_code == 200
    assert response.context["adminform"].form.errors["nickname"]
    assert Player.objects.filter(club=cast.club).count() == 1


def test_a_photo_can_be_uploaded(cast, client, settings, tmp_path):
    import io

    from django.core.files.uploadedfile import SimpleUploadedFile
    from PIL import Image

    settings.MEDIA_ROOT = tmp_path
    buffer = io.BytesIO()
    Image.new("RGB", (4, 4), "red").save(buffer, "PNG")
    player = Player.objects.get(nickname="Лиса")
    client.force_login(cast.club_admin)
    client.post(
        reverse("player_edit", args=[player.pk]),
        {
            "nickname": "Лиса",
            "joined": "2025-01-01",
            "active": "on",
            "photo": SimpleUploadedFile("fox.png", buffer.getvalue(), "image/png"),
        },
    )
    player.refresh_from_db()
    assert player.photo.name.startswith("players/") and (tmp_path / player.photo.name).exists()
    assert player.photo.url in _profile(client, player)
