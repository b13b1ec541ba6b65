"""The series the leagues' tests play: two clubs in a league, three tournaments from mafclub/1 imports, and the
standings worked out by hand from the table (docs/leagues.md)."""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth.models import User

from club.models import Club, Membership
from leagues import services
from leagues.models import League, Series
from leagues.tests.builders import played

TABLE = {"name": "Лига 2027", "best_of": 1,
         "stars": {"1": [10, 8, 6, 5, 4, 3, 2, 1], "2": [20, 16, 13, 11, 9, 7, 5, 4, 3, 2, 1],
                   "3": [30, 24, 19, 16, 13, 10, 8, 6, 4, 2], "4": [40, 32, 26, 21, 17, 13, 10, 7, 4, 2],
                   "5": [50, 40, 32, 26, 20, 15, 11, 8, 5, 2]},
         "field": [[10, 0.5], [20, 1.0], [40, 1.25], [80, 1.5]]}

A = [f"a{i}" for i in range(1, 11)]
B = [f"b{i}" for i in range(1, 11)]
JUDGE = {1: "0.5", 3: "0.3"}  # places: seat 1, seat 3, seat 4 (sheriff), seats 5 7 9 10 share 4–7, 2 6 8 share 8–10

# By hand, 10 participants everywhere: the field multiplier is 0.5.
# T1 (club A, 2.5 stars: the mean of rows 2 and 3) → 12.5 10 8 6.75 5.5 4.25 3.25 2.5 1.75 1.0;
#    a1 1st 12.5, a3 10, a4 8, a5 a7 a9 a10 share 4–7: (6.75+5.5+4.25+3.25)/4 = 4.94, a2 a6 a8 share 8–10: 1.75
# T2 (club B, 1 star) → 5 4 3 2.5 2 1.5 1 0.5 0 0; b1 5, b3 4, b4 3, b5 b7 b9 b10 1.75, b2 b6 b8 0.17
# T3 (club A, the finals, 3 stars, seats reversed: a10 on seat 1) → 15 12 9.5 8 6.5 5 4 3 2 1;
#    a10 15, a8 12, a7 9.5, a6 a4 a2 a1 share 4–7: 5.88, a9 a5 a3 share 8–10: 2
# Best of 1, the finals always counts: a1 12.5 + 5.88 (the finals outside his best one); a2's T1 cut off; …
EXPECTED = [  # (rank, player, total, {tournament: (place, points, counted)}, decided_by)
    (1, "a1", "18.38", {"T1": (1, "12.5", True), "T3": (4, "5.88", True)}, ""),
    (2, "a10", "15", {"T1": (4, "4.94", False), "T3": (1, "15", True)}, ""),
    (3, "a4", "13.88", {"T1": (3, "8", True), "T3": (4, "5.88", True)}, ""),
    (4, "a3", "12", {"T1": (2, "10", True), "T3": (8, "2", True)}, ""),
    (5, "a8", "12", {"T1": (8, "1.75", False), "T3": (2, "12", True)}, "counted"),
    (6, "a7", "9.5", {"T1": (4, "4.94", False), "T3": (3, "9.5", True)}, ""),
    (7, "a5", "6.94", {"T1": (4, "4.94", True), "T3": (8, "2", True)}, ""),
    (7, "a9", "6.94", {"T1": (4, "4.94", True), "T3": (8, "2", True)}, ""),
    (9, "a2", "5.88", {"T1": (8, "1.75", False), "T3": (4, "5.88", True)}, ""),
    (9, "a6", "5.88", {"T1": (8, "1.75", False), "T3": (4, "5.88", True)}, ""),
    (11, "b1", "5", {"T2": (1, "5", True)}, ""),
    (12, "b3", "4", {"T2": (2, "4", True)}, ""),
    (13, "b4", "3", {"T2": (3, "3", True)}, ""),
    (14, "b10", "1.75", {"T2": (4, "1.75", True)}, ""),
    (14, "b5", "1.75", {"T2": (4, "1.75", True)}, ""),
    (14, "b7", "1.75", {"T2": (4, "1.75", True)}, ""),
    (14, "b9", "1.75", {"T2": (4, "1.75", True)}, ""),
    (18, "b2", "0.17", {"T2": (8, "0.17", True)}, ""),
    (18, "b6", "0.17", {"T2": (8, "0.17", True)}, ""),
    (18, "b8", "0.17", {"T2": (8, "0.17", True)}, ""),
]


@dataclass
class Season:
    league: League
    series: Series
    club_a: Club
    club_b: Club
    manager: User
    admin_a: User
    admin_b: User
    tournaments: dict


def admin_of(club: Club, username: str) -> User:
    user = User.objects.create_user(username, password="pw-12345678")
    Membership.objects.create(club=club, user=user, role=Membership.Role.ADMIN)
    return user


def league_with_two_clubs() -> tuple[League, Club, Club, User, User, User]:
    club_a, club_b = Club.objects.create(name="Клуб А", city="Москва"), Club.objects.create(name="Клуб Б", city="Казань")
    manager = User.objects.create_user("manager", password="pw-12345678")
    admin_a, admin_b = admin_of(club_a, "admin_a"), admin_of(club_b, "admin_b")
    league = services.league_create(name="Лига", managers=[manager])
    services.membership_request(league=league, club=club_a, by=admin_a)  # the club asks, the manager accepts
    services.membership_invite(league=league, club=club_a, by=manager)
    invited = services.membership_invite(league=league, club=club_b, by=manager)  # the league invites, the club accepts
    services.membership_accept(membership=invited, by=admin_b)
    return league, club_a, club_b, manager, admin_a, admin_b


def season() -> Season:
    league, club_a, club_b, manager, admin_a, admin_b = league_with_two_clubs()
    version = services.table_create(league=league, data=TABLE, by=manager)
    series = services.series_create(league=league, name="Сезон 2027", version=version, by=manager)
    t1 = played(club_a, "T1", A, date="2027-01-10", judge=JUDGE)
    t2 = played(club_b, "T2", B, date="2027-01-17", judge=JUDGE)
    t3 = played(club_a, "T3", A[::-1], date="2027-01-24", judge=JUDGE)
    for t, day in ((t1, 10), (t2, 17), (t3, 24)):
        t.start_date = t.end_date = f"2027-01-{day}"
        t.save()
    services.series_add_tournament(series=series, tournament=t1, stars="2.5", by=manager)
    entry = services.series_add_tournament(series=series, tournament=t2, stars="2", by=admin_b)  # waits for stars
    services.entry_update(entry=entry, stars="1", finals=False, by=manager)  # the manager confirms them as 1
    services.series_add_tournament(series=series, tournament=t3, stars="3", finals=True, by=manager)
    series.refresh_from_db()
    return Season(league, series, club_a, club_b, manager, admin_a, admin_b, {"T1": t1, "T2": t2, "T3": t3})


def as_expected(rows: list[dict]) -> list[tuple]:
    """The standings' rows in EXPECTED's shape (points as text without trailing zeros)."""
    def text(value) -> str:
        return f"{value:.2f}".rstrip("0").rstrip(".")

    return [(r["rank"], r["player"], text(r["total"]),
             {t["tournament"]: (t["place"], text(t["points"]), t["counted"]) for t in r["tournaments"]},
             r.get("decided_by", ""))
            for r in rows]
