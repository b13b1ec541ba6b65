import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from club import permissions
from club.models import Club, Membership, Player, PlayerClaim

pytestmark = pytest.mark.django_db


def _counts():
    return {
        model.__name__: model.objects.count()
        for model in (Club, Player, Membership, PlayerClaim, get_user_model(), Player.history.model)
    }


def test_seed_demo_builds_the_club_and_prints_the_logins(capsys):
    call_command("seed_demo")
    out = capsys.readouterr().out
    club = Club.objects.get()
    assert club.name == "Мафия-клуб «Полночь»" and club.city == "Москва"
    assert 25 <= club.players.count() <= 40
    for login, password in [
        ("admin", "demo-admin-2026"),
        ("judge1", "demo-judge1-2026"),
        ("headjudge", "demo-headjudge-2026"),
    ]:
        assert login in out and password in out
        assert get_user_model().objects.get(username=login).check_password(password)
    User = get_user_model()
    assert permissions.is_club_admin(User.objects.get(username="admin"), club)
    assert permissions.is_judge(User.objects.get(username="judge2"), club)
    assert permissions.is_head_judge(User.objects.get(username="headjudge"), club)
    assert permissions.player_of(User.objects.get(username="player"), club) is not None


def test_seed_demo_twice_changes_nothing(capsys):
    call_command("seed_demo")
    first = _counts()
    admin = get_user_model().objects.get(username="admin")
    admin.set_password("changed-by-the-admin-1")
    admin.save()
    call_command("seed_demo")
    assert _counts() == first
    admin.refresh_from_db()
    assert admin.check_password("changed-by-the-admin-1")  # never reset


def test_seed_club_alone_twice_changes_nothing():
    # The club part by itself, so that its idempotence is checked apart from what games.demo adds.
    from club.demo import seed_club

    seed_club()
    first = _counts()
    seed_club()
    assert _counts() == first
