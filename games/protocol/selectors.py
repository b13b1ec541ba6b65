"""Reads: protocols as engine dataclasses, stored scores, the game page's view, protests and the audit trail (the
mafclub/1 export: selectors_export.py)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass
from dataclasses import field as dc_field
from decimal import Decimal
from functools import cache
from typing import Any

from django.db import connection
from django.db.models import Exists, F, Max, OuterRef, Q, QuerySet
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext

from club.reads import CompiledRead
from club.selectors import person_name
from games.i18n import action_details, action_label, stored_reason_text
from games.models import ClubEvening, Game, GameAction, Protest, RuleSetVersion, ScoreItem, Seat, Tournament
from games.permissions import can_edit_protocol, can_review_protest
from games.rules.flow import Departure, departures
from games.rules.interchange_parts import summary_from_json, voters_from_json
from games.rules.protocol import (
    BLACK_ROLES,
    SHERIFF,
    Adjustment,
    Colour,
    Day,
    JudgeExtra,
    Night,
    Nomination,
    Protocol,
    Removal,
    SeatEntry,
    Tally,
)

GAME_PREFETCH = ("seats__player", "days", "nights", "removals", "colours", "judge_extras", "adjustments")


def with_protocol(games: QuerySet[Game], *, scores: bool = False) -> QuerySet[Game]:
    """The queryset with everything `protocol_of` reads (and the score items), in a fixed number of queries."""
    lookups = (*GAME_PREFETCH, "seats__score_items") if scores else GAME_PREFETCH
    return games.select_related("tournament", "ruleset", "judge").prefetch_related(*lookups)


# The rows most games have none of: `prefetch_protocol` asks first which of them the game has (one query) and reads
# only those. A query through the ORM costs the game page half a millisecond of Python however few its rows.
OPTIONAL_ROWS = ("removals", "colours", "judge_extras", "adjustments", "protests")
ASK_PRESENT_UP_TO = 20  # games: `protocol_rows` of more reads every table (their ids are a parameter per table)


def _rows_present(game_ids: list[int], names: tuple[str, ...]) -> set[str]:
    """Which of the related rows `names` the games have any of: one `SELECT EXISTS(…), …` over their tables."""
    tables = [connection.ops.quote_name(Game._meta.get_field(name).related_model._meta.db_table) for name in names]  # type: ignore[union-attr]
    among = ", ".join(["%s"] * len(game_ids))
    sql = "SELECT " + ", ".join(f"EXISTS (SELECT 1 FROM {table} WHERE game_id IN ({among}))" for table in tables)
    with connection.cursor() as cursor:
        cursor.execute(sql, list(game_ids) * len(names))
        found = cursor.fetchone()
    return {name for name, present in zip(names, found, strict=True) if present}


PROTEST_RELATED = ("player", "filed_by", "decided_by")  # what a protest's panel and sheet show of it


def _store_read(owner, name: str, rows: list) -> None:
    """Store `rows` as `owner`'s related rows `name`, read, as `prefetch_related_objects` stores what it read: the
    manager's `all()` then answers without a query (a filter on rows read asks the database, as after a prefetch;
    on none read, it answers none); each row's key to `owner` answers with `owner`."""
    manager = getattr(owner, name)
    queryset = manager.get_queryset() if rows else manager.model._default_manager.none()
    queryset._result_cache, queryset._prefetch_done = rows, True
    for row in rows:
        manager.field.set_cached_value(row, owner)
    owner.__dict__.setdefault("_prefetched_objects_cache", {})[manager.field.remote_field.cache_name] = queryset


def _protests_query() -> QuerySet:
    return Protest.objects.select_related(*PROTEST_RELATED).order_by("filed_at", "pk")


def _game_rows(model, *, related: tuple[str, ...] = (), query: Callable[[], QuerySet] | None = None) -> CompiledRead:
    """One game's rows of `model` (its ordering), read by the game's key and compiled once."""
    return CompiledRead(model, lambda game: (query() if query else model.objects.all()).filter(game_id=game),
                        related=related)


@cache
def _game_reads() -> dict[str, CompiledRead]:
    """The game page's reads of one game (`prefetch_protocol`), each compiled once (club.reads.CompiledRead); built
    on first use, when every app's models are loaded."""
    return {
        "seats": _game_rows(Seat, related=("player",)),
        **{name: _game_rows(Game._meta.get_field(name).related_model) for name in _PROTOCOL_ROWS},
        "protests": _game_rows(Protest, related=PROTEST_RELATED, query=_protests_query),
    }


_SCORE_ITEMS = CompiledRead(ScoreItem, lambda game: ScoreItem.objects.filter(seat__game_id=game))


_GAME_PAGE = CompiledRead(Game, lambda pk: Game.objects.filter(pk=pk),
                          related=("club", "tournament", "evening", "ruleset", "judge"))


def read_game_page(pk: int) -> Game | None:
    """The game the game page shows, with its club, tournament, evening, rule set and judge (None: no such game)."""
    found = _GAME_PAGE.instances(pk)
    return found[0] if found else None


def prefetch_protocol(game: Game, *, scores: bool = False, protests: bool = False) -> Game:
    """`with_protocol` for a game already read with its tournament, rule set and judge: its rows stored onto it as
    a prefetch stores them, without reading the game again; the seats with their players in one query, and with
    `protests` the game's protests as `game_protests` reads them (the game page's panel and its print sheet share
    them). The `OPTIONAL_ROWS` the game has none of are not read."""
    optional = tuple(name for name in OPTIONAL_ROWS if protests or name != "protests")
    present = _rows_present([game.pk], optional)
    for name, read in _game_reads().items():
        if name == "protests" and not protests:
            continue
        _store_read(game, name, read.instances(game.pk) if name in present or name not in optional else [])
    if scores:
        items: dict[int, list] = {}
        for item in _SCORE_ITEMS.instances(game.pk):
            items.setdefault(item.seat_id, []).append(item)
        for seat in game.seats.all():
            _store_read(seat, "score_items", items.get(seat.pk, []))
    return game


def _tallies(rows: list[dict[str, int]] | None) -> list[Tally] | None:
    if rows is None:
        return None
    return [Tally(seat=r["seat"], votes=r["votes"]) for r in rows]


def protocol_of(game: Game) -> Protocol:
    """The stored protocol as the engine's dataclass (use `with_protocol` to prefetch)."""
    return _protocol(
        game, seats=[(s.number, s.player.nickname, s.role, s.fouls) for s in game.seats.all()],
        days=game.days.all(), nights=game.nights.all(), removals=game.removals.all(), colours=game.colours.all(),
        judge_extras=game.judge_extras.all(), adjustments=game.adjustments.all(), judge=game.judge_display)


def _protocol(game: Game, *, seats, days, nights, removals, colours, judge_extras, adjustments,
              judge: str) -> Protocol:
    """The one place a stored game becomes the engine's Protocol: `seats` are (number, nickname, role, fouls); the
    other rows are model instances or named rows with the models' field names (`protocol_rows`)."""
    seat_entries = [SeatEntry(seat=number, player=nickname, role=role or None, fouls=fouls)
                    for number, nickname, role, fouls in sorted(seats, key=lambda s: s[0])]
    return Protocol(
        seats=seat_entries,
        summary=summary_from_json(game.summary, seat_entries),
        days=[_day(d) for d in sorted(days, key=lambda d: d.index)],
        nights=[Night(kill=n.kill, don_check=n.don_check, sheriff_check=n.sheriff_check)
                for n in sorted(nights, key=lambda n: n.index)],
        removals=[Removal(seat=r.seat, reason=r.reason, at=r.at, after_vote=r.after_vote, note=r.note)
                  for r in removals],
        best_move=list(game.best_move) if game.best_move is not None else None,
        colours=[Colour(by=c.by, target=c.target) for c in colours],
        judge_extras=[JudgeExtra(seat=e.seat, points=e.points, note=e.note, approved=e.approved)
                      for e in judge_extras],
        adjustments=[Adjustment(seat=a.seat, points=a.points, clause=a.clause, note=a.note)
                     for a in adjustments],
        result=game.result or None,
        number=game.number,
        table=game.table,
        stage=game.stage,
        date=game.date.isoformat(),
        judge=judge,
        ended_at=timezone.localtime(game.ended_at).isoformat() if game.ended_at else "",
    )


def _day(d) -> Day:
    """A stored day (a model instance or a named row) as the engine's Day, with its voters when known."""
    day = Day(
        nominations=None if d.nominations is None else [
            Nomination(by=n["by"], nominee=n["nominee"], withdrawn=bool(n.get("withdrawn"))) for n in d.nominations],
        votes=_tallies(d.votes), revotes=[_tallies(r) or [] for r in d.revotes], lift=d.lift_for, out=list(d.out))
    voters_from_json(d.voters, day)
    return day


# What `_protocol` reads of each related table, besides the seats (named rows, the models' own field names).
_PROTOCOL_ROWS = {
    "days": ("index", "nominations", "votes", "revotes", "lift_for", "out", "voters"),
    "nights": ("index", "kill", "don_check", "sheriff_check"),
    "removals": ("seat", "reason", "at", "after_vote", "note"),
    "colours": ("by", "target"),
    "judge_extras": ("seat", "points", "note", "approved"),
    "adjustments": ("seat", "points", "clause", "note", "source"),
}


@dataclass
class ProtocolRows:
    """A game's protocol read as plain rows: the engine's Protocol (no judge name: scoring does not read it), the
    seats (named rows with id, number and `seat_fields`) and the adjustments (with their source)."""

    protocol: Protocol
    seats: list
    adjustments: list


@cache
def _protocol_reads(seat_fields: tuple[str, ...]) -> dict[str, CompiledRead]:
    """The reads of `protocol_rows`, each compiled once per number of games (club.reads.CompiledRead)."""
    reads = {}
    for name, fields in _PROTOCOL_ROWS.items():
        model = Game._meta.get_field(name).related_model
        reads[name] = CompiledRead(model, lambda *ids, model=model: model.objects.filter(game_id__in=ids).order_by(
            *model._meta.ordering), fields=("game_id", *fields))
    reads["seats"] = CompiledRead(Seat, lambda *ids: Seat.objects.filter(game_id__in=ids).annotate(
        nickname=F("player__nickname")).order_by("game_id", "number"),
        fields=("game_id", "id", "number", "nickname", "role", "fouls", *seat_fields))
    return reads


def protocol_rows(games: list[Game], *, seat_fields: tuple[str, ...] = ()) -> dict[int, ProtocolRows]:
    """Each game's protocol from one query per related table, with no model instance per row: a rescoring reads
    the whole tournament on every write, and ~2,600 prefetched instances cost several times the scoring itself
    (bench/bench_ratings.py). The `OPTIONAL_ROWS` none of the games has are not read (one query asks which)."""
    ids = [g.pk for g in games]
    rows: dict[str, dict[int, list]] = {}
    optional = tuple(name for name in _PROTOCOL_ROWS if name in OPTIONAL_ROWS)
    # Asked only of a few games (a rescoring of one game and those its Ci moves): a whole scope has most rows.
    present = _rows_present(ids, optional) if 0 < len(ids) <= ASK_PRESENT_UP_TO else set(optional)
    reads = _protocol_reads(seat_fields)
    for name in _PROTOCOL_ROWS:
        grouped = rows[name] = {}
        if name in OPTIONAL_ROWS and name not in present:
            continue
        for row in reads[name].named_rows(*ids):
            grouped.setdefault(row.game_id, []).append(row)
    seats: dict[int, list] = {}
    for row in reads["seats"].named_rows(*ids):
        seats.setdefault(row.game_id, []).append(row)
    result = {}
    for game in games:
        game_seats = seats.get(game.pk, [])
        related = {name: grouped.get(game.pk, []) for name, grouped in rows.items()}
        protocol = _protocol(game, seats=[(s.number, s.nickname, s.role, s.fouls) for s in game_seats],
                             judge="", **related)
        result[game.pk] = ProtocolRows(protocol, game_seats, related["adjustments"])
    return result


def next_game_number(game_or_owner: Game | Tournament | ClubEvening) -> int:
    """The number of the next game beside `game_or_owner`: in its tournament, its club evening, or (a club game
    outside both) among the club's games of that date."""
    if isinstance(game_or_owner, Tournament):
        siblings = Game.objects.filter(tournament=game_or_owner)
    elif isinstance(game_or_owner, ClubEvening):
        siblings = Game.objects.filter(evening=game_or_owner)
    elif game_or_owner.tournament_id:
        siblings = Game.objects.filter(tournament_id=game_or_owner.tournament_id)
    elif game_or_owner.evening_id:
        siblings = Game.objects.filter(evening_id=game_or_owner.evening_id)
    else:
        siblings = Game.objects.filter(club_id=game_or_owner.club_id, tournament__isnull=True,
                                       date=game_or_owner.date)
    return (siblings.aggregate(m=Max("number"))["m"] or 0) + 1


def next_adjustment_order(game: Game) -> int:
    """The `order` of an adjustment added after the game's existing ones."""
    return (game.adjustments.aggregate(m=Max("order"))["m"] or 0) + 1


def ruleset_by_slug(slug: str, club=None) -> RuleSetVersion | None:
    """The newest version of a preset, or of the club's own copy with that code."""
    qs = RuleSetVersion.objects.filter(slug=slug)
    if club is not None:
        own = qs.filter(club=club).order_by("-version").first()
        if own:
            return own
    return qs.filter(club__isnull=True).order_by("-version").first()


# ------------------------------------------------------------------------------------------ display structure

@dataclass
class SeatView:
    number: int
    nickname: str
    player_id: int
    role: str | None  # None while secret
    fouls: int
    left: Departure | None  # how and when the seat left (None: at the table)
    main: Decimal | None  # None while secret / not scored
    extras: Decimal | None
    total: Decimal | None


@dataclass
class NightView:
    index: int
    kill: int | None
    announced: bool  # False while the night is being played and the viewer is not judge staff
    don_check: int | None
    don_found_sheriff: bool | None
    sheriff_check: int | None
    sheriff_found_black: bool | None


@dataclass
class ItemView:
    seat: int
    nickname: str
    kind: str
    points: Decimal
    clause: str
    note: str
    effective: bool


@dataclass
class ProtocolView:
    """The plain data every page, export and sheet of one protocol shows. Secrets are already removed."""

    game: Game
    show_secrets: bool
    seats: list[SeatView]
    days: list[Day]
    nights: list[NightView]
    best_move_victim: int | None
    best_move: list[int] | None
    result: str  # "red" | "black" | "draw" | ""
    items: list[ItemView]  # every non-main item (the sheet's back side)
    summary: bool = False  # a summary protocol: days and nights not recorded (docs/rules.md I46)


def protocol_view(game: Game, *, show_secrets: bool) -> ProtocolView:
    """Build the display structure of a game (prefetch with `with_protocol` and seats__score_items)."""
    protocol = protocol_of(game)
    night_open = _hide_open_night(protocol, game, show_secrets=show_secrets)
    left = departures(protocol)
    scored = show_secrets and game.counts
    seats = [
        SeatView(number=s.number, nickname=s.player.nickname, player_id=s.player_id,
                 role=(s.role or None) if show_secrets else None, fouls=s.fouls, left=left.get(s.number),
                 main=s.main if scored else None, extras=s.extras if scored else None,
                 total=s.total if scored else None)
        for s in sorted(game.seats.all(), key=lambda s: s.number)
    ]
    return ProtocolView(
        game=game, show_secrets=show_secrets, seats=seats, days=protocol.days,
        nights=_night_views(protocol, show_secrets=show_secrets, night_open=night_open),
        best_move_victim=protocol.first_night_victim() if protocol.best_move is not None else None,
        best_move=protocol.best_move, result=game.result if show_secrets else "",
        items=_item_views(game) if scored else [], summary=protocol.summary,
    )


def _hide_open_night(protocol, game: Game, *, show_secrets: bool) -> bool:
    """Blank the night being played in `protocol`; whether there is one. It is announced in the morning (000 4.5.4,
    002 I.7.3.1): until the next day starts, its kill and the best move made in it (002 I.7.8) are known only to
    the judge staff."""
    night_open = bool(not show_secrets and game.status not in (Game.Status.FINISHED, Game.Status.SIGNED)
                      and protocol.nights and len(protocol.nights) == len(protocol.days))
    if night_open:
        open_night = protocol.nights[-1]
        if len(protocol.nights) == 1:
            protocol.best_move = None
        protocol.nights[-1] = type(open_night)(kill=None, don_check=None, sheriff_check=None)
    return night_open


def _night_views(protocol, *, show_secrets: bool, night_open: bool) -> list[NightView]:
    """The nights as shown: the checks and what they found only with the secrets."""
    roles = {s.seat: s.role for s in protocol.seats}
    return [
        NightView(
            index=i, kill=n.kill, announced=not (night_open and i == len(protocol.nights)),
            don_check=n.don_check if show_secrets else None,
            don_found_sheriff=(roles.get(n.don_check) == SHERIFF) if show_secrets and n.don_check else None,
            sheriff_check=n.sheriff_check if show_secrets else None,
            sheriff_found_black=(roles.get(n.sheriff_check) in BLACK_ROLES)
            if show_secrets and n.sheriff_check else None,
        )
        for i, n in enumerate(protocol.nights, start=1)
    ]


def _item_views(game: Game) -> list[ItemView]:
    """Every non-main score item of the game, by seat (the sheet's back side)."""
    return [
        ItemView(seat=s.number, nickname=s.player.nickname, kind=item.kind, points=item.points, clause=item.clause,
                 note=item.note, effective=item.effective)
        for s in sorted(game.seats.all(), key=lambda s: s.number)
        for item in s.score_items.all() if item.kind != "main"
    ]


# ------------------------------------------------------------------------------------------ protests


def game_protests(game: Game) -> list[Protest]:
    """The game's protests with their decisions, oldest first (those `prefetch_protocol` read, if it did)."""
    if "protests" in getattr(game, "_prefetched_objects_cache", {}):
        return list(game.protests.all())
    return list(_protests_query().filter(game=game))


def with_protest_flag(games: QuerySet) -> QuerySet:
    """Games annotated with `pending_protest`, which `Game.under_protest` reads: a list's badges in its own query."""
    # A hidden game's protest is no one's business but the judge staff's (games.visibility): no badge at all.
    pending = Protest.objects.filter(game=OuterRef("pk"), game__results_hidden=False, status=Protest.Status.PENDING)
    return games.annotate(pending_protest=Exists(pending))


def protest_queue(user) -> list:
    """Pending protests of the games `user` may review (games.permissions.can_review_protest), oldest first."""
    if not getattr(user, "is_authenticated", False):
        return []
    pending = (Protest.objects.filter(status=Protest.Status.PENDING)
               .select_related("game__club", "game__tournament__head_judge", "game__judge", "game__ruleset",
                               "player", "filed_by")
               .order_by("filed_at", "pk"))
    return [p for p in pending if can_review_protest(user, p.game)]


def protests_of_user(user) -> QuerySet:
    """The protests a user filed, was the subject of (as the player), or that concern a table he judged."""
    if not getattr(user, "is_authenticated", False):
        return Protest.objects.none()
    return (Protest.objects.filter(Q(filed_by=user) | Q(player__user=user) | Q(game__judge=user))
            .select_related("game__tournament", "game__evening", "game__club", "player", "decided_by")
            .order_by("-filed_at", "-pk")
            .distinct())


def _field_label(model, name: str) -> str:
    try:
        return str(model._meta.get_field(name).verbose_name)
    except Exception:  # noqa: BLE001 — a field that no longer exists keeps its stored name
        return name


def _field_value(model, name: str, value) -> str:
    """A stored value as the reader says it: a choice by its label («Победа красных», not `red`), a date in the
    reader's format, nothing as «—»."""
    if value in (None, ""):
        return "—"
    try:
        field = model._meta.get_field(name)
    except Exception:  # noqa: BLE001
        return str(value)
    if field.choices:
        return str(dict(field.flatchoices).get(value, value))
    if isinstance(value, dt.datetime):
        return date_format(timezone.localtime(value) if timezone.is_aware(value) else value, "SHORT_DATETIME_FORMAT")
    if isinstance(value, dt.date):
        return date_format(value, "SHORT_DATE_FORMAT")
    if isinstance(value, bool):
        return gettext("yes") if value else gettext("no")
    return str(value)


@dataclass
class AuditEntry:
    at: Any  # an aware moment; pages show it in the club's time zone, in words ("1 декабря 2026, 21:28")
    who: str
    what: str
    detail: str
    outcomes: list = dc_field(default_factory=list)  # a decision's changes (templates/games/protests/_protest_outcomes.html)


def _who(user) -> str:
    return person_name(user) if user is not None else ""


def audit_trail(game: Game) -> list[AuditEntry]:
    """The protocol's audit trail, in words: the game's history rows, its live-entry actions and its protests'
    history (the stored codes stay in the rows; the reader sees labels and values)."""
    entries: list[AuditEntry] = []
    records = list(game.history.select_related("history_user").order_by("history_date", "history_id"))
    previous = None
    for record in records:
        if previous is None:
            detail = gettext("created")
        else:
            delta = record.diff_against(previous, excluded_fields=["version"])
            detail = "; ".join(f"{_field_label(Game, c.field)}: {_field_value(Game, c.field, c.old)} → "
                               f"{_field_value(Game, c.field, c.new)}" for c in delta.changes)
        if record.history_change_reason:
            reason = stored_reason_text(record.history_change_reason)
            detail = f"{reason} ({detail})" if detail else reason
        entries.append(AuditEntry(record.history_date, _who(record.history_user), gettext("protocol"), detail))
        previous = record
    for action in GameAction.objects.filter(game=game).select_related("by").order_by("seq"):
        detail = f"{action_label(action.kind)} {action_details(action.payload)}".strip()
        if action.undone:
            detail += f" ({gettext('undone')})"
        entries.append(AuditEntry(action.at, _who(action.by), gettext("live entry"), detail))
    statuses = dict(Protest.Status.choices)
    for record in (Protest.history.filter(game_id=game.pk).select_related("history_user")
                   .order_by("history_date", "history_id")):
        detail = f"№{record.id} {statuses.get(record.status, record.status)}" + (
            f": {stored_reason_text(record.history_change_reason)}" if record.history_change_reason else "")
        entries.append(AuditEntry(record.history_date, _who(record.history_user), gettext("protest"), detail))
    entries += _decision_entries(game)
    entries.sort(key=lambda e: e.at)
    return entries


def _decision_entries(game: Game) -> list[AuditEntry]:
    """The head judge's decisions with what each changed (a reversal, a penalty, a replay), in the same trail."""
    statuses = dict(Protest.Status.choices)
    decided = (Protest.objects.filter(game=game, decided_at__isnull=False).exclude(status=Protest.Status.PENDING)
               .select_related("decided_by").order_by("decided_at", "pk"))
    return [AuditEntry(p.decided_at, _who(p.decided_by), gettext("head judge's decision"),
                       gettext("protest No. %(n)s: %(status)s. %(explanation)s")
                       % {"n": p.pk, "status": statuses.get(p.status, p.status), "explanation": p.explanation},
                       outcomes=list(p.outcomes or []))
            for p in decided]


def action_log(user, game: Game) -> dict:
    """The game's whole audit trail for the judge staff only (`show`, `entries`): the live entry, the protocol's
    changes with their reasons (the schedule's notes among them) and the head judge's decisions, as
    `audit_trail` reads them, newest first."""
    if user is None or not can_edit_protocol(user, game):
        return {"show": False, "entries": []}
    return {"show": True, "entries": audit_trail(game)[::-1]}
