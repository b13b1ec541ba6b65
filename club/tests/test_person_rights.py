"""One person, many clubs (docs/persons.md): club B's admin adds A's member to B's events and sees his public
card, but every write of B on A's player — his profile, photo, real name, login, a merge — is refused with the
database as it was; the real name is shown to the staff of the player's own clubs and to himself only."""

from __future__ import annotations

import io

import pytest
from django.test import Client
from django.urls import reverse
from PIL import Image

from club import permissions
from club.models import Club, ClubMember, Membership, Player
from club.tests.factories import MembershipFactory, UserFactory
from club.tests.test_audit_permissions import snapshot

pytestmark = pytest.mark.django_db


@pytest.fixture
def world():
    a, b = Club.objects.create(name="Полночь"), Club.objects.create(name="Рассвет")
    player = Player.objects.create(club=a, nickname="Странник", real_name="Иван Странников")
    admin_a, admin_b = UserFactory(username="admin_a"), UserFactory(username="admin_b")
    MembershipFactory(club=a, user=admin_a, role=Membership.Role.ADMIN)
    MembershipFactory(club=b, user=admin_b, role=Membership.Role.ADMIN)
    return a, b, player, admin_a, admin_b


def _png() -> io.BytesIO:
    out = io.BytesIO()
    Image.new("RGB", (64, 64), "#2e7d32").save(out, "PNG")
    out.seek(0)
    out.name = "me.png"
    return out


def test_club_b_cannot_write_on_club_as_player_and_nothing_changes(world):
    a, b, player, _admin_a, admin_b = world
    client = Client()
    client.force_login(admin_b)
    writes = [
        (reverse("player_edit", args=[player.pk]), {"nickname": "Захвачен", "real_name": "Чужое имя",
                                                    "city": "Тверь", "joined": "2026-01-01", "active": "on"}),
        (reverse("player_photo", args=[player.pk]), {"photo": _png()}),
        (reverse("player_login_create", args=[player.pk]), {"username": "stolen", "password1": "x-Pass-2026-long",
                                                            "password2": "x-Pass-2026-long"}),
        (reverse("games:player_merge"), {"keep": player.pk,
                                         "other": Player.objects.create(club=b, nickname="Копия").pk}),
    ]
    before = snapshot()  # with the copy in club B
    for url, data in writes:
        assert client.post(url, data).status_code == 403, url
    assert snapshot() == before
    card = client.get(reverse("player_detail", args=[player.pk])).content.decode()
    assert player.nickname in card and player.real_name not in card  # his public card, not his real name


def test_the_real_name_is_for_the_staff_of_his_own_clubs_and_himself(world):
    a, b, player, admin_a, admin_b = world
    assert permissions.can_see_private(admin_a, player)
    assert not permissions.can_see_private(admin_b, player)  # he played at B: B does not see it
    ClubMember.objects.create(player=player, club=b)  # a member of B too: B's staff sees it
    permissions.forget_roles(admin_b)
    assert permissions.can_see_private(admin_b, player)
    assert not permissions.can_edit_player(admin_b, player)  # ... but the profile stays his home club's
    assert permissions.can_edit_player(admin_a, player)


def test_the_claim_page_and_his_own_card_offer_to_merge_his_guest_copies(world):
    a, b, player, _admin_a, _admin_b = world
    me = UserFactory(username="wanderer")
    Player.objects.filter(pk=player.pk).update(user=me)
    copy = Player.objects.create(club=b, nickname="Странник")  # the copy club B made of him as a guest
    stranger = Player.objects.create(club=b, nickname="Другой")
    client = Client()
    client.force_login(me)
    merge = f'{reverse("games:player_merge")}?keep={player.pk}&amp;other={copy.pk}'
    for url in (reverse("claim_suggest"), reverse("player_detail", args=[player.pk])):
        html = client.get(url).content.decode()
        assert 'data-testid="own-copies"' in html and merge in html and f"other={stranger.pk}" not in html, url
    # the merge page shows him what would move; only an admin of both clubs may confirm
    page = client.get(merge.replace("&amp;", "&")).content.decode()
    assert 'data-testid="merge-preview"' in page and 'data-testid="merge-confirm"' not in page
    assert client.post(reverse("games:player_merge"), {"keep": player.pk, "other": copy.pk}).status_code == 403
    assert Player.objects.filter(pk=copy.pk).exists()
