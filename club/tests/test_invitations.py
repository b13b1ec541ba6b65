"""Staff by invitation: the club's admin makes a one-time link (or sends it by e-mail from the worker); whoever
opens it accepts with his login or registers on the spot and gets the role; a used, expired, revoked or forged
link gives nothing and says so."""

from __future__ import annotations

import datetime as dt

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.urls import reverse
from django.utils import timezone

from club import selectors_invitations
from club.models import Membership, StaffInvitation
from club.services_invitations import INVITATION_DAYS, invitation_create

pytestmark = pytest.mark.django_db
Role = Membership.Role
User = get_user_model()
NEW_PASSWORD = "kolokol-zvonit-42"


def _invite(client, cast, role=Role.JUDGE, **extra) -> StaffInvitation:
    client.force_login(cast.club_admin)
    response = client.post(reverse("staff_invite"), {"role": role, "send": "link", **extra})
    assert response.status_code == 302, response.content.decode()[:500]
    client.logout()
    return StaffInvitation.objects.latest("pk")


def _roles(user) -> set[str]:
    return set(Membership.objects.filter(user=user).values_list("role", flat=True))


def test_an_admin_makes_a_link_shown_on_the_staff_page_valid_seven_days(client, cast):
    invitation = _invite(client, cast)
    assert invitation.role == Role.JUDGE and invitation.club == cast.club and invitation.created_by == cast.club_admin
    assert dt.timedelta(days=INVITATION_DAYS - 1) < invitation.expires_at - timezone.now() <= dt.timedelta(
        days=INVITATION_DAYS)
    client.force_login(cast.club_admin)
    html = client.get(reverse("staff")).content.decode()
    assert selectors_invitations.invitation_path(invitation) in html
    assert invitation.nonce not in selectors_invitations.invitation_path(invitation)  # the link is not the nonce


def test_a_newcomer_registers_from_the_link_and_is_a_judge(client, cast):
    invitation = _invite(client, cast)
    url = selectors_invitations.invitation_path(invitation)
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "Полночь" in page and "судья" in page and "Электронная почта" in page
    assert not StaffInvitation.objects.get(pk=invitation.pk).used_at  # opening the link spends nothing
    response = client.post(url, {"username": "olga", "email": "olga@example.org", "password1": NEW_PASSWORD,
                                 "password2": NEW_PASSWORD})
    assert response.status_code == 302 and response["Location"] == reverse("home")
    olga = User.objects.get(username="olga")
    assert olga.email == "olga@example.org" and olga.check_password(NEW_PASSWORD)
    assert _roles(olga) == {Role.JUDGE} and not olga.is_staff
    invitation.refresh_from_db()
    assert invitation.used_by == olga and invitation.used_at is not None
    assert client.get(reverse("home")).wsgi_request.user == olga  # logged in


def test_a_logged_in_user_accepts_with_one_tap(client, cast):
    invitation = _invite(client, cast, role=Role.HEAD_JUDGE)
    client.force_login(cast.outsider)
    url = selectors_invitations.invitation_path(invitation)
    assert client.get(url).status_code == 200 and _roles(cast.outsider) == set()
    client.post(url)
    assert _roles(cast.outsider) == {Role.HEAD_JUDGE}


def test_an_admin_invitation_gives_the_admin_site_too(client, cast):
    invitation = _invite(client, cast, role=Role.ADMIN)
    client.force_login(cast.outsider)
    client.post(selectors_invitations.invitation_path(invitation))
    cast.outsider.refresh_from_db()
    assert _roles(cast.outsider) == {Role.ADMIN} and cast.outsider.is_staff


def test_a_used_link_says_so_in_russian_and_gives_nothing_more(client, cast):
    invitation = _invite(client, cast)
    url = selectors_invitations.invitation_path(invitation)
    client.force_login(cast.outsider)
    client.post(url)
    client.force_login(cast.player)
    for response in (client.get(url, HTTP_ACCEPT_LANGUAGE="ru"), client.post(url, HTTP_ACCEPT_LANGUAGE="ru")):
        assert response.status_code == 410
        assert "Это приглашение уже использовано." in response.content.decode()
    assert _roles(cast.player) == set()


def test_an_expired_revoked_or_forged_link_gives_nothing(client, cast):
    expired = _invite(client, cast)
    StaffInvitation.objects.filter(pk=expired.pk).update(expires_at=timezone.now() - dt.timedelta(seconds=1))
    revoked = _invite(client, cast)
    client.force_login(cast.club_admin)
    client.post(reverse("staff_invite_revoke"), {"invitation": revoked.pk})
    assert StaffInvitation.objects.get(pk=revoked.pk).revoked_at is not None
    good = selectors_invitations.invitation_path(_invite(client, cast))
    forged = good[:-3] + ("000" if not good.endswith("000/") else "111") + "/"
    client.force_login(cast.outsider)
    cases = [(selectors_invitations.invitation_path(expired), "истёк"),
             (selectors_invitations.invitation_path(revoked), "отозвано"),
             (forged, "недействительна"), (reverse("staff_join", args=["x-1"]), "недействительна")]
    for url, text in cases:
        response = client.post(url, HTTP_ACCEPT_LANGUAGE="ru")
        assert response.status_code == 410 and text in response.content.decode(), url
    assert _roles(cast.outsider) == set()


@pytest.mark.parametrize("who", ["anonymous", "player", "judge", "head_judge", "outsider", "other_judge"])
def test_only_the_clubs_admin_invites_or_revokes(client, cast, who):
    invitation = invitation_create(club=cast.club, by=cast.club_admin, role=Role.JUDGE)
    if who != "anonymous":
        client.force_login(cast[who])
    responses = [client.post(reverse("staff_invite"), {"role": Role.ADMIN, "send": "link"}),
                 client.post(reverse("staff_invite_revoke"), {"invitation": invitation.pk})]
    for response in responses:
        assert response.status_code in (302, 403)
        if response.status_code == 302:
            assert response["Location"].startswith(reverse("login"))
    assert StaffInvitation.objects.count() == 1 and StaffInvitation.objects.get().revoked_at is None


def test_a_registration_with_bad_input_names_the_field_and_creates_nothing(client, cast):
    invitation = _invite(client, cast)
    url = selectors_invitations.invitation_path(invitation)
    response = client.post(url, {"username": "olga", "password1": NEW_PASSWORD, "password2": "другой-пароль-1"},
                           HTTP_ACCEPT_LANGUAGE="ru")
    assert response.status_code == 400 and "password2" in response.context["form"].errors
    response = client.post(url, {"username": "judge", "password1": NEW_PASSWORD, "password2": NEW_PASSWORD})
    assert response.status_code == 400 and "username" in response.context["form"].errors
    assert not User.objects.filter(username="olga").exists()
    assert StaffInvitation.objects.get(pk=invitation.pk).used_at is None


def test_an_invitation_by_e_mail_is_a_letter_with_a_working_link(client, cast, django_capture_on_commit_callbacks):
    client.force_login(cast.club_admin)
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(reverse("staff_invite"), {"role": Role.JUDGE, "send": "email",
                                                         "email": "new.judge@example.org"})
    assert response.status_code == 302
    assert [m.to for m in mail.outbox] == [["new.judge@example.org"]]
    letter = mail.outbox[0]
    assert "Полночь" in letter.subject and "судья" in letter.body
    link = next(word for word in letter.body.split() if "/staff/join/" in word)
    assert link.startswith("http://testserver/staff/join/")
    client.logout()
    client.post(link.removeprefix("http://testserver"), {"username": "newjudge", "password1": NEW_PASSWORD,
                                                         "password2": NEW_PASSWORD})
    assert _roles(User.objects.get(username="newjudge")) == {Role.JUDGE}


def test_an_e_mail_invitation_without_an_address_is_refused_naming_the_field(client, cast):
    client.force_login(cast.club_admin)
    response = client.post(reverse("staff_invite"), {"role": Role.JUDGE, "send": "email", "email": ""},
                           HTTP_ACCEPT_LANGUAGE="ru")
    assert response.status_code == 400 and "email" in response.context["invite"].errors
    assert not StaffInvitation.objects.exists()


def test_another_clubs_invitation_cannot_be_revoked_from_here(client, cast):
    from club.tests.factories import MembershipFactory, UserFactory
    elsewhere_admin = MembershipFactory(club=cast.other_club, user=UserFactory(username="elsewhere"),
                                        role=Role.ADMIN).user
    foreign = invitation_create(club=cast.other_club, by=elsewhere_admin, role=Role.JUDGE)
    client.force_login(cast.club_admin)
    assert client.post(reverse("staff_invite_revoke"), {"invitation": foreign.pk}).status_code == 404
    assert client.post(reverse("staff_invite_revoke"), {"invitation": "x"}).status_code == 404
    assert StaffInvitation.objects.get(pk=foreign.pk).revoked_at is None
