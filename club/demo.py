"""The demo club: players with Russian nicknames and the staff logins, built idempotently.

Running it again changes nothing: every row is fetched or created, and existing passwords are left alone.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.db import transaction

from club.models import Club, Membership, Player, nickname_key

CLUB_NAME = "Мафия-клуб «Полночь»"
CLUB_CITY = "Москва"

NICKNAMES = [
    "Бендер", "Шерлок", "Ворон", "Лиса", "Маэстро", "Доцент", "Кардинал", "Сова", "Граф", "Пантера",
    "Бархат", "Гроссмейстер", "Тень", "Комиссар", "Стрела", "Нотариус", "Янтарь", "Ирбис", "Мираж", "Сфинкс",
    "Барон", "Фея", "Пилигрим", "Штурман", "Снежана", "Бумеранг", "Алхимик", "Корсар", "Мята", "Полковник",
]  # fmt: skip

REAL_NAMES = [
    "Андрей Смирнов", "Ольга Кузнецова", "Игорь Волков", "Алиса Лисицына", "Дмитрий Орлов", "Сергей Попов",
    "Николай Соколов", "Мария Совина", "Павел Графов", "Екатерина Лебедева",
]  # fmt: skip


@dataclass(frozen=True)
class DemoLogin:
    username: str
    password: str
    roles: tuple[str, ...]
    nickname: str | None = None  # the player this login is linked to
    superuser: bool = False


DEMO_LOGINS = [
    DemoLogin("admin", "demo-admin-2026", (Membership.Role.ADMIN,), nickname="Бендер", superuser=True),
    DemoLogin("headjudge", "demo-headjudge-2026", (Membership.Role.HEAD_JUDGE,), nickname="Кардинал"),
    DemoLogin("judge1", "demo-judge1-2026", (Membership.Role.JUDGE,), nickname="Шерлок"),
    DemoLogin("judge2", "demo-judge2-2026", (Membership.Role.JUDGE,), nickname="Комиссар"),
    DemoLogin("player", "demo-player-2026", (), nickname="Лиса"),
]


def _user(login: DemoLogin):
    User = get_user_model()
    user, created = User.objects.get_or_create(
        username=login.username, defaults={"is_superuser": login.superuser, "is_staff": login.superuser}
    )
    if created:
        user.set_password(login.password)
        user.save(update_fields=["password"])
    return user


@transaction.atomic
def seed_club() -> Club:
    club, _ = Club.objects.get_or_create(name=CLUB_NAME, defaults={"city": CLUB_CITY})
    base_day = datetime.date(2024, 9, 1)
    for index, nickname in enumerate(NICKNAMES):
        Player.objects.get_or_create(
            club=club,
            nickname_key=nickname_key(nickname),
            defaults={
                "nickname": nickname,
                "real_name": REAL_NAMES[index] if index < len(REAL_NAMES) else "",
                "city": CLUB_CITY,
                "joined": base_day + datetime.timedelta(days=9 * index),
                "active": index % 11 != 10,  # a couple of retired players, so the list shows both
            },
        )
    for login in DEMO_LOGINS:
        user = _user(login)
        for role in login.roles:
            Membership.objects.get_or_create(club=club, user=user, role=role)
        if login.nickname:
            player = Player.objects.get(club=club, nickname_key=nickname_key(login.nickname))
            # Link only a free player to a login without a player; never steal an existing link.
            if player.user_id is None and not Player.objects.filter(user=user).exists():
                player.user = user
                player.save(update_fields=["user"])
    return club
