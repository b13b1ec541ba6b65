"""A round's documents: which games a printed round holds, how many sheets a reader may ask for at once, and the
sheets themselves (the stored games' sheets, blank ones for the tables not yet played, each with its last judge)."""

from __future__ import annotations

import re

from django.db.models import Count, Max
from django.utils.translation import gettext as _

from club.permissions import is_club_staff
from games.models import Game, Tournament
from games.permissions import can_see_secrets
from games.protocol.selectors import with_protocol
from games.sheets.render import Sheet, SheetHeader, _header_of, blank_sheet, game_sheet
from games.visibility import can_see_hidden

# ------------------------------------------------------------------------------------------------------ rounds


class RoundQueryError(ValueError):
    """A round document was asked for with parameters that name no round (the message is for the reader)."""


class RoundTooLarge(RoundQueryError):
    """A round document larger than this reader may print."""


# The most sheets one document holds for the club's judge staff (each sheet is two A4 pages and about a second of a
# worker's time on a busy machine): the round of a big tournament. Anyone else prints at most one round of the
# tournament (its tables), see `round_sheet_limit`.
STAFF_MAX_SHEETS = 24
MAX_GAME_NUMBERS = 1000  # `?games=` asks for at most this many numbers (the matching games are then counted)
MAX_TABLES = 100  # `?tables=` above this names no real tournament


def parse_numbers(spec: str) -> list[int]:
    """"1-20", "3,5,7-9" → sorted game numbers."""
    numbers: set[int] = set()
    if len(spec) > 2000:
        raise RoundQueryError(_("The list of game numbers is too long."))
    for part in spec.split(","):
        part = part.strip()
        if not part:
            continue
        match = re.fullmatch(r"(\d{1,9})\s*[-–]\s*(\d{1,9})|(\d{1,9})", part)
        if not match:
            raise RoundQueryError(_("Not a list of game numbers: “%(value)s” (write e.g. 1-20 or 3,5,7-9).")
                                  % {"value": spec})
        low, high = (int(match.group(1)), int(match.group(2))) if match.group(3) is None else (int(match.group(3)),) * 2
        if high < low or len(numbers) + high - low + 1 > MAX_GAME_NUMBERS:
            raise RoundQueryError(_("Not a usable range of game numbers: “%(value)s” (at most %(limit)s numbers).")
                                  % {"value": part, "limit": MAX_GAME_NUMBERS})
        numbers.update(range(low, high + 1))
    if not numbers:
        raise RoundQueryError(_("No game numbers given."))
    return sorted(numbers)


def tournament_tables(tournament: Tournament) -> int:
    """How many tables the tournament plays at: the highest table number of its games (or their count of tables)."""
    tables = tournament.games.exclude(table=None).aggregate(high=Max("table"), count=Count("table", distinct=True))
    return max(tables["high"] or 0, tables["count"] or 0)


def round_sheet_limit(tournament: Tournament, user) -> int:
    """The most sheets `user` may print in one round document of `tournament`: one round (a sheet per table of the
    tournament, at least one) for everyone, `STAFF_MAX_SHEETS` for the club's judges and admins."""
    if is_club_staff(user, tournament.club):
        return STAFF_MAX_SHEETS
    return max(1, min(tournament_tables(tournament), STAFF_MAX_SHEETS))


def too_large_message(size: int, limit: int) -> str:
    if limit >= STAFF_MAX_SHEETS:
        return _("This document would have %(size)s sheets; at most %(limit)s fit in one document. Print it "
                 "round by round or in smaller ranges of games.") % {"size": size, "limit": limit}
    return _("This document would have %(size)s sheets, but a round of this tournament has at most %(limit)s "
             "tables. Larger documents are printed by the club's judges and admins.") % {"size": size, "limit": limit}


def round_games(tournament: Tournament, *, stage: str | None = None, round_no: int | None = None,
                numbers: list[int] | None = None) -> list[Game]:
    """The games of one round, one per table, in table order.

    A round is not stored, so it is derived from the games: within a stage (all games when `stage` is None),
    each table's games are ordered by date and number, and round N is the N-th game at every table — the games
    played at the same time. `numbers` instead picks games by their numbers (`?games=1-20`).
    """
    games = tournament.games.all()
    if numbers is not None:
        return list(games.filter(number__in=numbers).order_by("number"))
    if round_no is None or round_no < 1:
        raise RoundQueryError(_("Name the round or the games (e.g. 1-20)."))
    if stage is not None:
        games = games.filter(stage=stage)
    per_table: dict[int | None, list[Game]] = {}
    for game in games.order_by("date", "number"):
        per_table.setdefault(game.table, []).append(game)
    picked = [table_games[round_no - 1] for table_games in per_table.values() if len(table_games) >= round_no]
    return sorted(picked, key=lambda g: (g.table is None, g.table or 0, g.number))


def round_sheets(tournament: Tournament, user, *, stage: str | None = None, round_no: int | None = None,
                 numbers: list[int] | None = None, tables: int = 0, blank: bool = False,
                 max_sheets: int | None = None) -> list[Sheet]:
    """One sheet per table of a round: each stored game as far as `user` may see it (secrets only for the judge
    staff of an unfinished game); `blank` prints only the header and the seating. Tables 1..`tables` with no
    stored game get an empty sheet with the tournament, stage and table (and the judge that table had last).
    More than `max_sheets` sheets: RoundTooLarge, before any protocol is loaded."""
    picked = round_games(tournament, stage=stage, round_no=round_no, numbers=numbers)
    if max_sheets is not None:
        present = {g.table for g in picked}
        size = len(picked) + sum(1 for table in range(1, tables + 1) if table not in present)
        if size > max_sheets:
            raise RoundTooLarge(too_large_message(size, max_sheets))
    sheets = _stored_games_sheets(picked, user, round_no=round_no, blank=blank)
    present = {s.header.table for s in sheets}
    last_judge = _last_judges(tournament, stage=stage, tables=tables) if numbers is None else {}
    for table in range(1, tables + 1):
        if table not in present:
            sheets.append(blank_sheet(SheetHeader(tournament=tournament.name, stage=stage or "", table=table,
                                                  judge=last_judge.get(table, ""), round=round_no)))
    return sorted(sheets, key=lambda s: (s.header.table is None, s.header.table or 0, s.header.number or 0))


def _stored_games_sheets(picked: list[Game], user, *, round_no: int | None, blank: bool) -> list[Sheet]:
    """The sheets of the round's stored games, each as far as `user` may see it (a hidden round's game blank)."""
    ids = [g.pk for g in picked]
    loaded = {g.pk: g for g in with_protocol(Game.objects.filter(pk__in=ids)).select_related("judge")
              .prefetch_related("seats__score_items")}
    sheets: list[Sheet] = []
    for game in (loaded[pk] for pk in ids):
        if blank or (game.results_hidden and not can_see_hidden(user, game)):
            header = _header_of(game)
            sheet = blank_sheet(header, {s.number: s.player.nickname for s in game.seats.all()})
        else:
            sheet = game_sheet(game, show_secrets=can_see_secrets(user, game))
        sheet.header.round = round_no
        sheets.append(sheet)
    return sheets


def _last_judges(tournament: Tournament, *, stage: str | None, tables: int) -> dict:
    """Table -> the judge of its latest game (of the stage), for the empty tables' sheets."""
    last_judge = {}
    if tables:
        earlier = tournament.games.filter(table__in=range(1, tables + 1))
        if stage is not None:
            earlier = earlier.filter(stage=stage)
        for game in earlier.select_related("judge").order_by("date", "number"):
            last_judge[game.table] = _header_of(game).judge
    return last_judge


