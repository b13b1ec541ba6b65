"""Reads of the API: every answer is built from the site's own selectors and visibility rules (games.visibility,
games.permissions, ratings.standings.selectors), never from a rule of its own about what is secret. Each rule is
asked for the reader in the object's club (api.readers.reader_in): a token reads secrets of its own club only."""

from __future__ import annotations

import datetime as dt
from dataclasses import asdict
from decimal import Decimal
from typing import Any

from django.db.models import Count, Max, Q, QuerySet
from django.http import Http404

from api.keys import key_hash
from api.models import ApiToken
from api.readers import reader_in
from club.models import Club, Player
from club.permissions import is_judge
from club.selectors import clubs_of, member_players
from games.live.selectors import spectator_days
from games.models import Game, Protest, Tournament
from games.permissions import can_see_secrets, game_access
from games.protocol.selectors import (
    game_protests,
    protocol_of,
    protocol_view,
    with_protest_flag,
    with_protocol,
)
from games.protocol.selectors_export import game_to_dict, protest_to_dict
from games.tournaments.selectors import schedule_rounds, staff_standings
from games.tournaments.signups.selectors import public_sheets, sheet_state
from games.visibility import can_see_hidden, can_see_hidden_in
from leagues import selectors as league_selectors
from leagues.models import Series
from ratings.elo.selectors import elo_table, recomputing
from ratings.models import EloChange, EloRating, PlayerGame, PlayerStats, Season
from ratings.standings.selectors import (
    club_seasons,
    default_season,
    provisional_players,
    role_lines,
    scope_rows,
    season_scope,
    tournament_scope,
)
from ratings.statistics.registry import card_figures

ROLE_NAMES = {"К": "citizen", "Ч": "mafia", "Ш": "sheriff", "Д": "don"}
MAX_PER_PAGE = 100


def token_by_key(key: str) -> ApiToken | None:
    return (ApiToken.objects.select_related("holder", "club")
            .filter(key_hash=key_hash(key), revoked_at__isnull=True, holder__is_active=True).first())


def page_of(items, *, page: int, per_page: int) -> dict[str, Any]:
    per_page = min(max(1, per_page), MAX_PER_PAGE)
    page = max(1, page)
    count = items.count() if isinstance(items, QuerySet) else len(items)
    start = (page - 1) * per_page
    return {"count": count, "page": page, "per_page": per_page, "items": list(items[start:start + per_page])}


def _num(value: Decimal | None) -> float | None:
    return None if value is None else float(value)


# ---------------------------------------------------------------------------------------------- clubs, players
def clubs() -> QuerySet[Club]:
    return Club.objects.order_by("name", "id")


def club(pk: int) -> Club:
    found = Club.objects.filter(pk=pk).first()
    if found is None:
        raise Http404
    return found


def player_out(player: Player) -> dict[str, Any]:
    return {"id": player.pk, "club_id": player.club_id, "nickname": player.nickname, "city": player.city,
            "active": player.active, "photo": player.photo.url if player.photo else None}


def home_clubs(player_ids) -> dict[int, str | None]:
    """Each player's home club's name (None for a guest without one), in one query."""
    return dict(Player.objects.filter(pk__in=set(player_ids)).values_list("pk", "club__name"))


def players(*, club_id: int | None, query: str) -> QuerySet[Player]:
    """The site's players; `club_id`: that club's members (club.selectors.member_players)."""
    qs = Player.objects.order_by("nickname_key", "id")
    if club_id is not None:
        qs = member_players(club_id).order_by("nickname_key", "id")
    if query:
        qs = qs.filter(nickname__icontains=query.strip())
    return qs


def _player(pk: int) -> Player:
    found = Player.objects.select_related("club").filter(pk=pk).first()
    if found is None:
        raise Http404
    return found


def _season_of(player: Player, season_id: int | None) -> Season | None:
    seasons = club_seasons(player.club)
    if season_id is None:
        return default_season(seasons)
    season = next((s for s in seasons if s.pk == season_id), None)
    if season is None:
        raise Http404
    return season


def _number(value, display: str) -> int | float | None:
    if value is None:
        return None
    return int(value) if display == "integer" else float(value)


def _all_games(player: Player, club_id: int | None) -> dict[str, Any]:
    games = PlayerGame.objects.filter(player=player)
    if club_id is not None:
        games = games.filter(club_id=club_id)
    count, wins = games.count(), games.filter(won=True).count()
    return {"club_id": club_id, "games": count, "wins": wins, "win_rate": 100 * wins / count if count else None}


def player_card(pk: int, *, season_id: int | None, club_id: int | None = None) -> dict[str, Any]:
    """The figures of the player's card (the season's line, its statistics per role), his clubs, his games at
    every club (or at `club_id`) and his one Elo."""
    player = _player(pk)
    memberships = [{"club_id": m.club_id, "club": m.club.name, "joined": m.joined, "home": m.club_id == player.club_id}
                   for m in clubs_of(player)]
    season = _season_of(player, season_id)
    stats = PlayerStats.objects.filter(scope__season=season, player=player).first() if season else None
    elo = EloRating.objects.filter(player=player).first()
    games, wins = (stats.games, stats.wins) if stats else (0, 0)
    roles = [{"role": ROLE_NAMES[line.letter], "letter": line.letter, "games": line.games, "wins": line.wins,
              "win_rate": line.win_rate} for line in role_lines(stats)]
    return {**player_out(player), "clubs": memberships, "all_games": _all_games(player, club_id),
            "season": {"id": season.pk, "name": season.name} if season else None,
            "games": games, "wins": wins, "win_rate": 100 * wins / games if games else None,
            "points": float(stats.total) if stats else 0.0,
            "average": float(stats.total / stats.games) if stats and stats.games else None,
            "rank": stats.rank if stats else None,
            "elo": round(elo.elo, 2) if elo else None, "elo_games": elo.games if elo else 0, "roles": roles,
            "statistics": [{"key": f.key, "label": str(f.label), "display": f.display,
                            "value": _number(f.value, f.display)} for f in card_figures(stats)]}


def player_elo(pk: int) -> QuerySet:
    """The player's Elo after each counted game, oldest first (a hidden game has no Elo change: docs/elo.md)."""
    player = _player(pk)
    return (EloChange.objects.filter(player=player).order_by("date", "game_id")
            .values("game_id", "date", "before", "delta", "after", "games"))


# ---------------------------------------------------------------------------------------------- standings
def _rows(scope) -> dict[str, Any]:
    if scope is None:
        return {"rows": [], "provisional": False}
    provisional = provisional_players(scope)
    rows = [{"rank": r.rank, "player_id": r.player_id, "player": r.player, "games": r.record.games,
             "wins": r.record.wins, "main": float(r.record.main), "extras": float(r.record.extras),
             "total": float(r.record.total), "average": float(r.average), "decided_by": r.decided_by_label or None,  # type: ignore[attr-defined]
             "provisional": r.provisional} for r in scope_rows(scope, provisional)]
    homes = home_clubs(r["player_id"] for r in rows)
    for row in rows:
        row["club"] = homes.get(row["player_id"])
    return {"rows": rows, "provisional": any(r["provisional"] for r in rows)}


def seasons(*, club_id: int | None) -> QuerySet[Season]:
    qs = Season.objects.order_by("-start", "-id")
    return qs.filter(club_id=club_id) if club_id is not None else qs


def season(pk: int) -> Season:
    found = Season.objects.filter(pk=pk).first()
    if found is None:
        raise Http404
    return found


def season_standings(pk: int) -> dict[str, Any]:
    return _rows(season_scope(season(pk)))


# ---------------------------------------------------------------------------------------------- series
def series_standings(pk: int) -> dict[str, Any]:
    found = Series.objects.select_related("league", "gaining__table").filter(pk=pk).first()
    if found is None:
        raise Http404
    return league_selectors.series_standings(found)


# ---------------------------------------------------------------------------------------------- tournaments
def tournament_out(t: Tournament) -> dict[str, Any]:
    return {"id": t.pk, "club_id": t.club_id, "name": t.name, "ruleset": t.ruleset.slug, "start_date": t.start_date,
            "end_date": t.end_date, "rounds": t.rounds, "seating_published": t.seating_published,
            "hidden_from_round": t.hidden_from_round}


def tournaments(*, club_id: int | None, season_id: int | None) -> QuerySet[Tournament]:
    qs = Tournament.objects.select_related("ruleset").order_by("-start_date", "-created", "-id")
    if club_id is not None:
        qs = qs.filter(club_id=club_id)
    if season_id is not None:
        s = season(season_id)
        qs = qs.filter(club_id=s.club_id, games__date__gte=s.start, games__date__lte=s.end).distinct()
    return qs


def _tournament(pk: int) -> Tournament:
    found = Tournament.objects.select_related("club", "ruleset").filter(pk=pk).first()
    if found is None:
        raise Http404
    return found


def tournament_detail(pk: int) -> dict[str, Any]:
    t = _tournament(pk)
    participants = [{"number": p.number, "player_id": p.player_id, "nickname": p.player.nickname, "team": p.team,
                     "from_round": p.from_round, "withdrawn_after": p.withdrawn_after}
                    for p in t.participants.select_related("player").order_by("number")]
    sheet = public_sheets(tournament_id=t.pk).first()
    return {**tournament_out(t), "participants": participants, "signup": None if sheet is None else signup_out(sheet)}


def signup_out(sheet, now: dt.datetime | None = None) -> dict[str, Any]:
    """A sheet from `public_sheets` (its counts annotated): the figures of its public page."""
    free = None if sheet.limit is None else max(sheet.limit - sheet.confirmed_count, 0)
    return {"id": sheet.pk, "club_id": sheet.club_id, "event": sheet.event.name, "evening_id": sheet.evening_id,
            "tournament_id": sheet.tournament_id, "starts_at": sheet.starts_at, "place": sheet.place,
            "opens_at": sheet.opens_at, "closes_at": sheet.closes_at, "cancel_until": sheet.cancel_deadline,
            "state": sheet_state(sheet, now), "places": sheet.limit, "signed_up": sheet.confirmed_count,
            "waiting": sheet.waiting_count, "free": free}


def tournament_schedule(pk: int, user) -> dict[str, Any]:
    """The seating once published (the judge staff sees it before); the same rule as the schedule page."""
    t = _tournament(pk)
    if not (t.seating_published or can_see_hidden_in(reader_in(user, t.club_id), t)):
        return {"published": False, "rounds": []}
    rounds = []
    for row in schedule_rounds(t):
        tables = [{"table": table.table, "game_id": table.game.pk, "game_number": table.game.number,
                   "judge": table.judge,
                   "seats": [{"seat": s.seat, "number": s.number, "player_id": s.player_id, "nickname": s.nickname}
                             for s in table.seats]} for table in row.tables]
        rounds.append({"number": row.number, "final": row.final, "tables": tables,
                       "sitting_out": [p.number for p in row.sitting_out]})
    return {"published": t.seating_published, "rounds": rounds}


def tournament_standings(pk: int, user) -> dict[str, Any]:
    """The public table (hidden rounds count nowhere public: games.visibility), provisional rows marked; the judge
    staff also gets the table over every round while rounds are hidden."""
    t = _tournament(pk)
    data = _rows(tournament_scope(t))
    with_hidden = None
    if t.hidden_from_round and can_see_hidden_in(reader_in(user, t.club_id), t):
        with_hidden = [{"rank": r.rank, "nickname": r.nickname, "games": r.games, "total": float(r.total)}
                       for r in staff_standings(t)]
    return {**data, "hidden_from_round": t.hidden_from_round, "with_hidden": with_hidden}


# ---------------------------------------------------------------------------------------------- games
def _result(game: Game, user) -> str | None:
    user = reader_in(user, game.club_id)
    if not game.result or not can_see_secrets(user, game) or not can_see_hidden(user, game):
        return None
    return game.result


def game_out(game: Game, user) -> dict[str, Any]:
    return {"id": game.pk, "club_id": game.club_id, "tournament_id": game.tournament_id,
            "evening_id": game.evening_id, "number": game.number, "table": game.table, "round": game.round,
            "stage": game.stage, "date": game.date, "status": game.status, "result": _result(game, user),
            "under_protest": game.under_protest, "judge": game.judge_display}


def _judged_clubs(user) -> list[int] | None:
    """The clubs whose hidden games the reader sees (games.visibility, asked for `reader_in(user, club)`): only a
    club where he holds a staff role can be one, or, for the site's superuser (never a token's reader), any club:
    None when every club is. The predicate is the one `games.visibility.visible_games` asks (`is_judge`),
    once per club he holds a role in, never once per club of the site."""
    if not getattr(user, "is_authenticated", False):
        return []
    every = getattr(user, "is_superuser", False) and getattr(user, "token_club_id", None) is None
    candidates = Club.objects.all() if every else Club.objects.filter(memberships__user=user).distinct()
    clubs = list(candidates)
    judged = [c.pk for c in clubs if is_judge(reader_in(user, c.pk), c)]
    return None if every and len(judged) == len(clubs) else judged


def games(user, *, club_id: int | None, tournament_id: int | None, season_id: int | None,
          date: dt.date | None) -> QuerySet[Game]:
    """Games the reader may see (hidden ones only for the judge staff of their club), newest first. One condition
    for every club (the hidden games only of the clubs he judges), so the databases read the page backwards from
    `game_api_latest` (results_hidden, date, id) or `(club, date)` and stop at its end, without sorting every game
    (games/migrations/0019_game_api_latest.py)."""
    # the clubs fetched for the page's rows apart (prefetch): joined, SQLite drove the read from them and sorted
    qs = with_protest_flag(Game.objects.select_related("judge").prefetch_related("club")).order_by("-date", "-id")
    if club_id is not None:
        qs = qs.filter(club_id=club_id)
    if tournament_id is not None:
        qs = qs.filter(tournament_id=tournament_id)
    if season_id is not None:
        s = season(season_id)
        qs = qs.filter(club_id=s.club_id, date__gte=s.start, date__lte=s.end)
    if date is not None:
        qs = qs.filter(date=date)
    judged = _judged_clubs(user)
    if judged is None:
        return qs
    shown = Q(results_hidden__in=[False])  # IN, not `NOT results_hidden`: SQLite searches the index for it
    return qs.filter(shown | Q(club_id__in=judged) if judged else shown)


def game_stamp(pk: int) -> str | None:
    """What a game's answer is made of, in one query: its version (bumped by every write of the protocol and the
    live entry), status, phase and result, its protests, and its club (api.answers adds the club's generation).
    None for a game of hidden rounds or none at all (those take the full path, with its permission check)."""
    row = (Game.objects.filter(pk=pk, results_hidden=False)
           .annotate(protests_n=Count("protests"), pending=Count("protests", filter=Q(protests__status="pending")),
                     decided=Max("protests__decided_at"))
           .values_list("version", "status", "phase", "result", "protests_n", "pending", "decided", "club_id").first())
    return None if row is None else f"game:{pk}:" + ":".join(str(part) for part in row)


def _readable_game(user, pk: int) -> tuple[Any, Game]:
    """The game and its reader in the game's club (api.readers.reader_in); Http404 for none or a hidden one he may
    not see."""
    game = Game.objects.select_related("club", "tournament", "ruleset", "judge").filter(pk=pk).first()
    if game is None:
        raise Http404
    user = reader_in(user, game.club_id)
    game_access(user, game)
    return user, game


def game_detail(pk: int, user) -> dict[str, Any]:
    """The game as its spectator page shows it (games.live.views.live): during play no role, no check and no open
    night; after the end the whole protocol. A hidden game is the judge staff's (404 to anyone else)."""
    user, game = _readable_game(user, pk)
    game = with_protest_flag(with_protocol(Game.objects.filter(pk=game.pk), scores=True)
                             .select_related("club", "judge", "replay_of").prefetch_related("protests__player")).get()
    secrets = can_see_secrets(user, game)
    view = protocol_view(game, show_secrets=secrets)
    homes = home_clubs(s.player_id for s in view.seats)
    seats = [{"seat": s.number, "player_id": s.player_id, "nickname": s.nickname, "club": homes.get(s.player_id),
              "fouls": s.fouls, "role": s.role,
              "left": {"how": s.left.how, "at": s.left.at} if s.left else None, "main": _num(s.main),
              "extras": _num(s.extras), "total": _num(s.total)} for s in view.seats]
    nights = [{"index": n.index, "kill": n.kill if n.announced else None, "announced": n.announced,
               "don_check": n.don_check, "don_found_sheriff": n.don_found_sheriff, "sheriff_check": n.sheriff_check,
               "sheriff_found_black": n.sheriff_found_black} for n in view.nights]
    days = [asdict(d) for d in spectator_days(game, protocol_of(game))]
    finished = game.is_finished or game.status == Game.Status.ANNULLED
    return {**game_out(game, user), "phase": game.phase, "secrets_shown": secrets, "seats": seats, "days": days,
            "nights": nights, "best_move": view.best_move, "best_move_victim": view.best_move_victim,
            "protocol": game_to_dict(game) if finished and secrets else None}


# ---------------------------------------------------------------------------------------------- protests, Elo
def protests(user, *, game_id: int | None, tournament_id: int | None) -> list[dict[str, Any]]:
    """Protests and their decisions as the game page shows them; a hidden game's protests stay hidden."""
    if game_id is not None:
        _reader, game = _readable_game(user, game_id)
        found = list(game_protests(game))
    else:
        qs = Protest.objects.select_related("player", "game__club").order_by("-filed_at", "-pk")
        if tournament_id is not None:
            qs = qs.filter(game__tournament_id=tournament_id)
        found = [p for p in qs if can_see_hidden(reader_in(user, p.game.club_id), p.game)]
    rows = []
    for p in found:
        data = protest_to_dict(p)
        rows.append({"id": p.pk, "game_id": p.game_id, "category": p.category, "status": p.status, "seat": p.seat,
                     "player": data.get("player"), "text": p.text, "filed_at": p.filed_at,
                     "decided_at": p.decided_at, "explanation": p.explanation if p.decided_at else "",
                     "outcomes": data.get("outcomes", [])})
    return rows


def elo(club_id: int) -> dict[str, Any]:
    c = club(club_id)
    return {"recomputing": recomputing(c),
            "rows": [{"rank": r.rank, "player_id": r.player_id, "player": r.player, "elo": round(r.elo, 2),
                      "games": r.games} for r in elo_table(c)]}
