"""What a judge's tap carries, read in one place.

* `Action`: an entry of the handler table — the handler, the dataclass of its payload and the game statuses in
  which it may be done. Each handler module declares its entries (`ACTIONS`) beside its handlers;
* the payload's fields declare how they are read (`number`, `text`, `points`, …): `read_payload` turns the POSTed
  strings into the dataclass or refuses, naming the field and the rule, before the handler runs;
* the moment a tap names (`DayMoment`, `NightMoment`, …: the day, the night, the vote round, the action undone) is
  a field of its payload too, read with the rest, so the POST is read once, typed, and `games.live.targets` checks
  the typed value;
* `answer`: which HTTP status and message level each refusal gets (one table: `REFUSALS`): a value that breaks its
  field's rule is a 400 (`BadInput`), a rule or the game's state refusing the action a 422.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable
from decimal import Decimal, InvalidOperation
from typing import Any

from django.utils.translation import gettext as _

from club.services import ServiceError
from games.live.base import ActionRefused, ActionResult, AlreadyDone, Busy, Ctx, StaleVersion


class BadInput(ActionRefused):
    """A POSTed value breaks its field's rule (not a number, out of its range): nothing was written."""


MAX_ID = 2**63 - 1  # a primary key (BigAutoField) fits a signed 64-bit integer on every database
_VOTE_KEY = re.compile(r"v\d+")  # a vote round sends one count per candidate: v3=4, v7=5
_HAND_KEY = re.compile(r"h\d+")  # ... or, recording who votes, each raised hand: h5=3 (seat 5 against seat 3)


# ------------------------------------------------------------------------------------------------ field readers
# Each reader takes the raw payload and the field's key and returns the typed value (or raises ActionRefused).


def in_range(key: str, number: int, low: int, high: int) -> int:
    """A number the rule bounds (a seat 1–10, a show of hands up to the living players)."""
    if not low <= number <= high:
        raise ActionRefused(_("%(field)s: a number from %(low)d to %(high)d.") % {"field": key, "low": low,
                                                                                 "high": high})
    return number


def _number(low: int = 1, high: int | None = 10, optional: bool = False):
    """An integer; `high=None` when the bound depends on the game (the handler checks it with `in_range`)."""
    def read(payload: dict, key: str) -> int | None:
        value = payload.get(key)
        if value in (None, "") and optional:
            return None
        try:
            number = int(value)  # type: ignore[arg-type]
        except (TypeError, ValueError):
            raise ActionRefused(_("%(field)s: enter a number.") % {"field": key}) from None
        return number if high is None else in_range(key, number, low, high)
    return read


def _text(limit: int | None = None, strip: bool = True, upper: bool = False):
    def read(payload: dict, key: str) -> str:
        value = str(payload.get(key, ""))
        value = value.strip() if strip else value
        return (value.upper() if upper else value)[:limit]
    return read


def _points(optional: bool = False):
    """Points like 0.3 (a comma and the typographic minus are accepted), at most 10 either way."""
    def read(payload: dict, key: str) -> Decimal | None:
        raw = str(payload.get(key, "")).strip()
        if optional and not raw:
            return None
        try:
            value = Decimal(raw.replace(",", ".").replace("−", "-").strip())
        except InvalidOperation:
            raise ActionRefused(_("Points are a number like 0.3.")) from None
        if not value.is_finite() or abs(value) > 10:
            raise ActionRefused(_("Points are a number like 0.3."))
        return value
    return read


def _flag(payload: dict, key: str) -> bool:
    return bool(payload.get(key))


def _sign(payload: dict, key: str) -> int:
    """+1, or −1 when the screen takes a foul back."""
    return -1 if str(payload.get(key, "1")) in ("-1", "−1") else 1


def _seat_numbers(payload: dict, key: str) -> list[int]:
    """Seats tapped one by one (a list) or typed ("2 5, 9")."""
    raw = payload.get(key, "")
    parts = raw if isinstance(raw, list) else str(raw).replace(",", " ").split()
    try:
        return [int(x) for x in parts]
    except ValueError:
        raise ActionRefused(_("Name up to three seat numbers.")) from None


def _vote_counts(payload: dict, key: str) -> dict[int, Any]:  # noqa: ARG001 — key: every payload reader is called as reader(payload, key)
    """The counts a vote round sends (`v<seat>`), as typed; the handler reads the candidates' ones."""
    return {int(k[1:]): v for k, v in payload.items() if _VOTE_KEY.fullmatch(k)}


def _hands(payload: dict, key: str) -> dict[int, int]:  # noqa: ARG001 — key: every payload reader is called as reader(payload, key)
    """The raised hands a round sends when the club records who votes (`h<voter>=<candidate>`, or `h<voter>=1` in
    the lift vote); a blank one is no hand."""
    hands = {}
    for k, v in payload.items():
        if _HAND_KEY.fullmatch(k) and str(v).strip():
            try:
                hands[int(k[1:])] = int(v)
            except (TypeError, ValueError):
                raise ActionRefused(_("A raised hand names a seat.")) from None
    return hands


def _declare(reader: Callable[[dict, str], Any], key: str = "", pattern: re.Pattern | None = None):
    return dataclasses.field(metadata={"read": reader, "key": key, "pattern": pattern})


def seat_number(*, optional: bool = False):
    """A seat number, 1–10."""
    return _declare(_number(optional=optional))


def number(*, low: int = 1, high: int | None = 10, optional: bool = False, key: str = ""):
    return _declare(_number(low, high, optional), key)


def row_id(*, optional: bool = False):
    """A database id (a player, an adjustment)."""
    return _declare(_number(high=MAX_ID, optional=optional))


def text(*, limit: int | None = None, strip: bool = True, upper: bool = False):
    return _declare(_text(limit, strip, upper))


def points(*, optional: bool = False):
    return _declare(_points(optional))


def flag():
    return _declare(_flag)


def sign():
    return _declare(_sign)


def seat_numbers():
    return _declare(_seat_numbers)


def vote_counts():
    return _declare(_vote_counts, pattern=_VOTE_KEY)


def hands():
    return _declare(_hands, pattern=_HAND_KEY)


def moment(*, key: str = ""):
    """The moment a tap names (`games.live.targets`): a number, or nothing (scripts, older screens name none)."""
    return _declare(_number(high=None, optional=True), key)


@dataclasses.dataclass(frozen=True, kw_only=True)
class DayMoment:
    """A tap for Day `day` (the speech, the nomination, the lift vote, the nightfall)."""

    day: int | None = moment()


@dataclasses.dataclass(frozen=True, kw_only=True)
class NightMoment:
    """A tap for Night `night` (the shot, the checks, the morning)."""

    night: int | None = moment()


@dataclasses.dataclass(frozen=True, kw_only=True)
class SpeechMoment(DayMoment):
    """The end of the speech of seat `seat` on Day `day`."""

    seat: int | None = moment()


@dataclasses.dataclass(frozen=True, kw_only=True)
class UndoMoment:
    """The action (`seq`) the screen showed as the last one."""

    seq: int | None = moment()


@dataclasses.dataclass(frozen=True)
class NoInput:
    """An action that carries nothing but its moment (the target keys, read by `games.live.targets`)."""


@dataclasses.dataclass(frozen=True)
class SeatNumber:
    """An action on one seat."""

    seat: int = seat_number()


# ------------------------------------------------------------------------------------------------ the table entry


@dataclasses.dataclass(frozen=True)
class Action:
    handler: Callable[[Ctx, Any], ActionResult]
    payload: type = NoInput
    statuses: tuple[str, ...] = ()  # when it may be done (checked before the payload is read); () = always

    def keys(self) -> tuple[str, ...]:
        return tuple(f.metadata.get("key") or f.name for f in dataclasses.fields(self.payload)
                     if not f.metadata.get("pattern"))

    def patterns(self) -> tuple[re.Pattern, ...]:
        return tuple(f.metadata["pattern"] for f in dataclasses.fields(self.payload) if f.metadata.get("pattern"))


def read_payload(action: Action, payload: dict) -> Any:
    """The payload as the action's dataclass, the moment it names included; the first field that breaks its rule
    refuses the action (`BadInput`, naming the field)."""
    try:
        return action.payload(**{f.name: f.metadata["read"](payload, f.metadata.get("key") or f.name)
                                 for f in dataclasses.fields(action.payload)})
    except BadInput:
        raise
    except ActionRefused as error:
        raise BadInput(str(error)) from None


def payload_filter(actions: dict[str, Action]) -> Callable[[str], bool]:
    """Which keys of a POST are kept (and logged): a field some action declares (the moment a tap names
    included); everything else is ignored."""
    keys = frozenset().union(*(a.keys() for a in actions.values()))
    patterns = {p for a in actions.values() for p in a.patterns()}
    return lambda key: key in keys or any(p.fullmatch(key) for p in patterns)


# ------------------------------------------------------------------------------------------------ the answers

# (refusal, HTTP status, message level): the first row the error is an instance of answers it.
REFUSALS: tuple[tuple[type[Exception], int, str], ...] = (
    (AlreadyDone, 200, "info"),  # a repeated tap: already done, nothing written; the current state
    (BadInput, 400, "danger"),  # a value that breaks its field's rule
    (StaleVersion, 409, "warning"),  # a conflict: the current state, never a 500
    (Busy, 409, "warning"),
    (ServiceError, 422, "danger"),  # a rule or the game's state refuses it (ActionRefused, ReadOnly, …)
)


def answer(error: ServiceError) -> tuple[int, str]:
    """The HTTP status and the message level of a refused action."""
    return next((status, level) for cls, status, level in REFUSALS if isinstance(error, cls))
