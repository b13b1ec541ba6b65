"""/staff/: a club admin gives staff roles by login name and takes them away; the club keeps at least one admin."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils.html import escape

from club.models import Membership
from club.tests.factories import MembershipFactory, UserFactory

pytestmark = pytest.mark.django_db

DENIED = ["player", "judge", "head_judge", "outsider", "other_judge"]
Role = Membership.Role


def roles() -> list[tuple]:
    return sorted(Membership.objects.values_list("club_id", "user__username", "role"))


def as_user(client, cast, who: str):
    if who != "anonymous":
        client.force_login(cast[who])
    return client


def messages_of(response) -> str:
    return " ".join(str(m) for m in response.context["messages"])


# ---------------------------------------------------------------------------------------------- permissions
def test_only_a_club_admin_sees_the_staff_page(client, cast):
    url = reverse("staff")
    response = client.get(url)
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))
    for who in DENIED:
        client.logout()
        assert as_user(client, cast, who).get(url).status_code == 403, who
    client.logout()
    html = as_user(client, cast, "club_admin").get(url).content.decode()
    for role, name in [(Role.JUDGE, "judge"), (Role.HEAD_JUDGE, "head_judge"), (Role.ADMIN, "club_admin")]:
        section = html.split(f'data-testid="staff-{role}"', 1)[1].split("</section>", 1)[0]
        assert name in section
    assert "other_judge" not in html  # a judge of another club is not our staff
    assert f'href="{url}"' in html  # the admin's navigation links here


@pytest.mark.parametrize("who", ["anonymous", *DENIED])
def test_giving_or_removing_a_role_is_refused_to_a_non_admin_and_changes_nothing(client, cast, who):
    before = roles()
    client = as_user(client, cast, who)
    responses = [
        client.post(reverse("staff"), {"user": cast.outsider.pk, "role": Role.ADMIN}),
        client.post(reverse("staff_remove"), {"user": cast.club_admin.pk, "role": Role.ADMIN}),
        client.post(reverse("staff_remove"), {"user": cast.judge.pk, "role": Role.JUDGE}),
    ]
    for response in responses:
        if who == "anonymous":
            assert response.status_code == 302 and response["Location"].startswith(reverse("login"))
        else:
            assert response.status_code == 403
    assert roles() == before
    assert not cast.outsider.__class__.objects.get(pk=cast.outsider.pk).is_staff


def test_remove_answers_get_with_405(client, cast):
    assert as_user(client, cast, "club_admin").get(reverse("staff_remove")).status_code == 405


# ---------------------------------------------------------------------------------------------- writes
def test_an_admin_gives_a_role_to_a_login_picked_from_the_search(client, cast):
    admin = as_user(client, cast, "club_admin")
    found = admin.get(reverse("staff"), {"q": "outs"}).content.decode()
    assert f'name="user" value="{cast.outsider.pk}"' in found
    response = admin.post(reverse("staff"), {"user": cast.outsider.pk, "role": Role.JUDGE}, follow=True)
    assert response.redirect_chain[-1][0] == reverse("staff")
    assert Membership.objects.filter(club=cast.club, user=cast.outsider, role=Role.JUDGE).exists()
    assert not cast.outsider.__class__.objects.get(pk=cast.outsider.pk).is_staff  # a judge gets no /admin/
    assert "outsider" in messages_of(response)
    section = response.content.decode().split(f'data-testid="staff-{Role.JUDGE}"', 1)[1].split("</section>", 1)[0]
    assert "outsider" in section


def test_a_new_admin_gets_the_admin_site_and_loses_it_with_the_role(client, cast):
    admin = as_user(client, cast, "club_admin")
    admin.post(reverse("staff"), {"user": cast.head_judge.pk, "role": Role.ADMIN})
    user = cast.head_judge.__class__.objects.get(pk=cast.head_judge.pk)
    assert Membership.objects.filter(club=cast.club, user=user, role=Role.ADMIN).exists() and user.is_staff
    admin.post(reverse("staff_remove"), {"user": user.pk, "role": Role.ADMIN})
    user.refresh_from_db()
    assert not user.is_staff
    assert list(Membership.objects.filter(user=user).values_list("role", flat=True)) == [Role.HEAD_JUDGE]


def test_giving_a_role_twice_keeps_one(client, cast):
    admin = as_user(client, cast, "club_admin")
    admin.post(reverse("staff"), {"user": cast.judge.pk, "role": Role.JUDGE})
    assert Membership.objects.filter(club=cast.club, user=cast.judge).count() == 1


def test_an_admin_removes_a_judge(client, cast):
    admin = as_user(client, cast, "club_admin")
    response = admin.post(reverse("staff_remove"), {"user": cast.judge.pk, "role": Role.JUDGE}, follow=True)
    assert not Membership.objects.filter(user=cast.judge).exists()
    assert "judge" in messages_of(response) and response.redirect_chain[-1][0] == reverse("staff")


# ---------------------------------------------------------------------------------------------- the last admin
def test_the_last_admin_cannot_remove_his_own_admin_role(client, cast, english):
    admin = as_user(client, cast, "club_admin")
    before = roles()
    response = admin.post(reverse("staff_remove"), {"user": cast.club_admin.pk, "role": Role.ADMIN}, follow=True)
    assert roles() == before
    assert "You are the club's last admin" in messages_of(response)
    assert response.redirect_chain[-1][0] == reverse("staff")
    cast.club_admin.refresh_from_db()
    assert cast.club_admin.is_staff


def test_a_superuser_cannot_remove_the_clubs_last_admin_either(client, cast, english):
    root = UserFactory(username="root", is_superuser=True, is_staff=True)
    client.force_login(root)
    before = roles()
    response = client.post(reverse("staff_remove"), {"user": cast.club_admin.pk, "role": Role.ADMIN}, follow=True)
    assert roles() == before and "This is the club's last admin" in messages_of(response)


def test_an_admin_may_step_down_while_another_admin_remains(client, cast):
    MembershipFactory(club=cast.club, user=UserFactory(username="second_admin"), role=Role.ADMIN)
    admin = as_user(client, cast, "club_admin")
    response = admin.post(reverse("staff_remove"), {"user": cast.club_admin.pk, "role": Role.ADMIN})
    assert response.status_code == 302 and response["Location"] == reverse("home")  # /staff/ is no longer his
    assert not Membership.objects.filter(user=cast.club_admin).exists()
    assert list(Membership.objects.filter(club=cast.club, role=Role.ADMIN).values_list("user__username", flat=True)
                ) == ["second_admin"]


def test_an_admin_role_in_another_club_does_not_count_as_ours(client, cast, english):
    MembershipFactory(club=cast.other_club, user=UserFactory(username="elsewhere"), role=Role.ADMIN)
    admin = as_user(client, cast, "club_admin")
    admin.post(reverse("staff_remove"), {"user": cast.club_admin.pk, "role": Role.ADMIN})
    assert Membership.objects.filter(club=cast.club, user=cast.club_admin, role=Role.ADMIN).exists()


# ---------------------------------------------------------------------------------------------- bad input
@pytest.mark.parametrize("data,field,text", [
    ({"user": "999999", "role": Role.JUDGE}, "user", "Choose the person in the search's results."),
    ({"user": "", "role": Role.JUDGE}, "user", "Choose the person in the search's results."),
    ({"user": "OUTSIDER", "role": "king"}, "role", "Select a valid choice."),
    ({"user": "OUTSIDER"}, "role", "This field is required."),
])
def test_bad_role_input_names_the_field_and_changes_nothing(client, cast, english, data, field, text):
    data = {k: (str(cast.outsider.pk) if v == "OUTSIDER" else v) for k, v in data.items()}
    admin = as_user(client, cast, "club_admin")
    before = roles()
    response = admin.post(reverse("staff"), data)
    assert response.status_code == 400 and roles() == before
    errors = response.context["form"].errors
    assert list(errors) == [field] and text in errors[field][0], errors
    assert escape(text.split("“")[0]) in response.content.decode()


@pytest.mark.parametrize("data,text", [
    ({"user": "999999", "role": Role.JUDGE}, "Login: Select a valid choice."),
    ({"user": "x", "role": Role.JUDGE}, "Login: Select a valid choice."),
    ({"role": Role.JUDGE}, "Login: This field is required."),
    ({"user": "JUDGE_PK", "role": "king"}, "Role: Select a valid choice."),
])
def test_bad_remove_input_names_the_field_and_changes_nothing(client, cast, english, data, text):
    data = {k: (str(cast.judge.pk) if v == "JUDGE_PK" else v) for k, v in data.items()}
    admin = as_user(client, cast, "club_admin")
    before = roles()
    response = admin.post(reverse("staff_remove"), data, follow=True)
    assert roles() == before
    assert text in messages_of(response)


def test_the_page_speaks_russian_by_default(client, cast):
    admin = as_user(client, cast, "club_admin")
    html = admin.get(reverse("staff")).content.decode()
    assert "Выдать роль" in html
    response = admin.post(reverse("staff"), {"user": "999999", "role": Role.JUDGE})
    assert "Выберите человека в результатах поиска." in response.content.decode()
