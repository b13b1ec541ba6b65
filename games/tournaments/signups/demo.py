"""The sign-ups of the demo club: tonight's club evening and next month's tournament, sign-up open, and next week's
club evening without a sign-up (called by
`manage.py seed_demo`; idempotent: an event already there is kept as it is)."""

from __future__ import annotations

import datetime as dt

from django.utils import timezone

from club.models import Club
from games.models import ClubEvening, RuleSetVersion, Tournament
from games.tournaments.signups.models import Signup, SignupSheet

DEMO_EVENING = "Клубный вечер «Полночь»"
DEMO_CUP = "Кубок «Полночь» — весна"
DEMO_PLACE = "Клуб «Полночь», Тверская, 7"
DEMO_NEXT_EVENING = "Клубный вечер «Полночь»: рейтинговые игры"  # next week's, no sign-up: the home page lists it


def _at(day: dt.date, hour: int) -> dt.datetime:
    return timezone.make_aware(dt.datetime.combine(day, dt.time(hour)))


def _sign_up(sheet: SignupSheet, players, start: dt.datetime) -> None:
    for index, player in enumerate(players):
        Signup.objects.get_or_create(sheet=sheet, player=player, defaults={
            "status": Signup.Status.CONFIRMED, "queued_at": start + dt.timedelta(minutes=7 * index)})


def seed_signups(club: Club, *, stdout=None) -> list[SignupSheet]:
    ruleset = club.default_ruleset or RuleSetVersion.objects.filter(is_preset=True).order_by("slug").first()
    today = timezone.localdate()
    # the players without a demo login sign up; the demo logins (e.g. "player" — Лиса) are left to tap themselves
    players = list(club.players.filter(active=True, user__isnull=True).order_by("id"))
    sheets = []
    evening, _ = ClubEvening.objects.get_or_create(club=club, name=DEMO_EVENING,  # type: ignore[misc]
                                                   defaults={"date": today, "ruleset": ruleset})
    if not hasattr(evening, "signup_sheet"):
        sheet = SignupSheet.objects.create(
            club=club, evening=evening, starts_at=_at(evening.date, 19), place=DEMO_PLACE,
            opens_at=_at(evening.date - dt.timedelta(days=3), 12), closes_at=_at(evening.date, 19),
            cancel_until=_at(evening.date, 17), limit=20)
        _sign_up(sheet, players[:8], sheet.opens_at)
    sheets.append(evening.signup_sheet)
    cup_day = today + dt.timedelta(days=24)
    cup, _ = Tournament.objects.get_or_create(club=club, name=DEMO_CUP, defaults={  # type: ignore[misc]
        "ruleset": ruleset, "start_date": cup_day, "end_date": cup_day + dt.timedelta(days=1)})
    if not hasattr(cup, "signup_sheet"):
        sheet = SignupSheet.objects.create(
            club=club, tournament=cup, starts_at=_at(cup.start_date or cup_day, 12), place=DEMO_PLACE,
            opens_at=_at(today - dt.timedelta(days=1), 10), closes_at=_at((cup.start_date or cup_day), 10),
            cancel_until=_at((cup.start_date or cup_day) - dt.timedelta(days=2), 23), limit=30)
        _sign_up(sheet, players[8:20], sheet.opens_at)
    sheets.append(cup.signup_sheet)
    ClubEvening.objects.get_or_create(club=club, name=DEMO_NEXT_EVENING, defaults={  # type: ignore[misc]
        "date": today + dt.timedelta(days=7), "ruleset": ruleset, "start_time": dt.time(19), "place": DEMO_PLACE})
    if stdout is not None:
        stdout.write(f"Demo sign-ups: /games/signups/{sheets[0].pk}/ and /games/signups/{sheets[1].pk}/")
    return sheets
