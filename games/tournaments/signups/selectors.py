"""Reads of the sign-ups: the next events on the home page, one sheet as a player and as the organiser sees it."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

from django.db.models import Count, Q, QuerySet
from django.utils import timezone

from club.permissions import player_of
from games.tournaments.signups.models import OFF_THE_LIST, Signup, SignupSheet
from games.tournaments.signups.permissions import can_organise, own_player

CONFIRMED, WAITING, CANCELLED, REMOVED = (Signup.Status.CONFIRMED, Signup.Status.WAITING, Signup.Status.CANCELLED,
                                          Signup.Status.REMOVED)


def with_counts(sheets: QuerySet[SignupSheet]) -> QuerySet[SignupSheet]:
    return sheets.annotate(confirmed_count=Count("signups", filter=Q(signups__status=CONFIRMED)),
                           waiting_count=Count("signups", filter=Q(signups__status=WAITING)))


# an event stays "upcoming" until six hours after its start, so tonight's evening is listed while it is played
STILL_ON = dt.timedelta(hours=6)


def upcoming_sheets(club, *, limit: int = 5, now: dt.datetime | None = None) -> list[SignupSheet]:
    """The club's next events with a sign-up, soonest first: those not yet begun (or begun less than `STILL_ON`
    ago)."""
    if club is None:
        return []
    now = now or timezone.now()
    sheets = (SignupSheet.objects.filter(club=club, starts_at__gte=now - STILL_ON)
              .select_related("evening", "tournament").order_by("starts_at", "id"))
    return list(with_counts(sheets)[:limit])


def public_sheets(*, club_id: int | None = None, tournament_id: int | None = None, evening_id: int | None = None,
                  upcoming: bool = False, now: dt.datetime | None = None) -> QuerySet[SignupSheet]:
    """Sheets with their counts, the figures every visitor sees on the sign-up page (no names, no notes): the
    upcoming ones soonest first, otherwise the latest first."""
    sheets = SignupSheet.objects.select_related("evening", "tournament")
    if club_id is not None:
        sheets = sheets.filter(club_id=club_id)
    if tournament_id is not None:
        sheets = sheets.filter(tournament_id=tournament_id)
    if evening_id is not None:
        sheets = sheets.filter(evening_id=evening_id)
    if upcoming:
        sheets = sheets.filter(starts_at__gte=(now or timezone.now()) - STILL_ON).order_by("starts_at", "id")
    else:
        sheets = sheets.order_by("-starts_at", "-id")
    return with_counts(sheets)


def sheet_state(sheet: SignupSheet, now: dt.datetime | None = None) -> str:
    """"soon" (not open yet), "open" or "closed" (past its closing time, or turned into tables)."""
    return _state(sheet, now or timezone.now())


@dataclass
class SheetCard:
    """One event's sign-up as the reader sees it: the counts, the state, his own place and what he may do."""

    sheet: SignupSheet
    confirmed: int
    waiting: int
    state: str  # "soon" (not open yet), "open", "closed"
    mine: Signup | None
    can_sign_up: bool  # a logged-in player of the club
    may_cancel: bool
    can_organise: bool

    @property
    def full(self) -> bool:
        return self.sheet.limit is not None and self.confirmed >= self.sheet.limit

    @property
    def free(self) -> int | None:
        return None if self.sheet.limit is None else max(self.sheet.limit - self.confirmed, 0)

    @property
    def waiting_position(self) -> int | None:
        if self.mine is None or self.mine.status != WAITING:
            return None
        return self.sheet.signups.filter(status=WAITING, queued_at__lt=self.mine.queued_at).count() + 1


def _state(sheet: SignupSheet, now: dt.datetime) -> str:
    if sheet.converted_at is not None or now >= sheet.closes_at:
        return "closed"
    return "soon" if now < sheet.opens_at else "open"


_UNKNOWN = object()


def sheet_card(sheet: SignupSheet, user, *, now: dt.datetime | None = None, player=_UNKNOWN,
               organiser: bool | None = None) -> SheetCard:
    """`player` and `organiser` may be passed when the caller already knows them (the home page, for every card)."""
    now = now or timezone.now()
    confirmed = getattr(sheet, "confirmed_count", None)  # annotated by `with_counts` for a list of sheets
    waiting = getattr(sheet, "waiting_count", 0)
    if confirmed is None:
        confirmed = sheet.signups.filter(status=CONFIRMED).count()
        waiting = sheet.signups.filter(status=WAITING).count()
    if player is _UNKNOWN:
        player = own_player(user, sheet)
    mine = (Signup.objects.filter(sheet=sheet, player=player).exclude(status__in=OFF_THE_LIST).first()
            if player is not None else None)
    return SheetCard(
        sheet=sheet, confirmed=confirmed, waiting=waiting, state=_state(sheet, now), mine=mine,
        can_sign_up=player is not None,
        may_cancel=mine is not None and sheet.converted_at is None and (
            mine.status == WAITING or now < sheet.cancel_deadline),
        can_organise=can_organise(user, sheet) if organiser is None else organiser)


def home_cards(club, user) -> list[SheetCard]:
    """The next events' cards; the reader's player is looked up once (the home page lists no organiser tools)."""
    now = timezone.now()
    player = player_of(user, club)
    return [sheet_card(s, user, now=now, player=player, organiser=False) for s in upcoming_sheets(club, now=now)]


@dataclass
class SheetLists:
    """The organiser's view: who is signed up, who waits (in order), who cancelled, whom he took off the list."""

    confirmed: list[Signup] = field(default_factory=list)
    waiting: list[Signup] = field(default_factory=list)
    cancelled: list[Signup] = field(default_factory=list)
    removed: list[Signup] = field(default_factory=list)


def sheet_lists(sheet: SignupSheet) -> SheetLists:
    lists = SheetLists()
    by_status: dict[str, list[Signup]] = {CONFIRMED: lists.confirmed, WAITING: lists.waiting, CANCELLED: lists.cancelled,
                 REMOVED: lists.removed}
    for signup in sheet.signups.select_related("player").order_by("queued_at", "id"):
        by_status[signup.status].append(signup)
    return lists


def sheet_of(event) -> SignupSheet | None:
    """The sign-up of a club evening or a tournament, if it has one."""
    try:
        return event.signup_sheet
    except SignupSheet.DoesNotExist:
        return None


def sheet_initial(event, now: dt.datetime | None = None) -> dict:
    """What a new sign-up's form starts with: the event's day at its start time and its place, where the event
    leaves them out the club's last sign-up's (its time of day, place and places); the sign-up open from now until
    the start."""
    now = now or timezone.now()
    last = SignupSheet.objects.filter(club_id=event.club_id).order_by("-created", "-id").first()
    day = event.date if hasattr(event, "date") else event.start_date
    start = event.start_time or (timezone.localtime(last.starts_at).time() if last else None)
    initial: dict = {"place": event.place or (last.place if last else ""), "limit": last.limit if last else None,
                     "opens_at": now.replace(second=0, microsecond=0)}
    if day is not None and start is not None:
        starts_at = timezone.make_aware(dt.datetime.combine(day, start))
        initial["starts_at"] = starts_at
        if starts_at > now:
            initial["closes_at"] = starts_at
    return initial


def my_place(sheet: SignupSheet, user) -> str | None:
    """The reader's place on the sheet (signed up or waiting), None when he is not on the list."""
    player = own_player(user, sheet)
    if player is None:
        return None
    return (Signup.objects.filter(sheet=sheet, player=player).exclude(status__in=OFF_THE_LIST)
            .values_list("status", flat=True).first())
