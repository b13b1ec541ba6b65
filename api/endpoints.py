"""The read API /api/v1/ (django-ninja): thin operations over api.selectors. OpenAPI 3 at /api/v1/openapi.json,
the browsable docs at /api/v1/docs (served from ninja's own static files: no CDN, no inline script)."""

from __future__ import annotations

import datetime as dt
from typing import Annotated

from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.utils.translation import gettext as _
from ninja import NinjaAPI, Status
from ninja.errors import AuthenticationError, HttpError
from ninja.errors import ValidationError as NinjaValidationError
from pydantic import Field

from api import answers, selectors
from api import schemas as s
from api.auth import READ_AUTH, TokenAuth
from api.middleware import known_poll
from api.services import api_import, import_allowed

api = NinjaAPI(
    title="mafclub API", version="1", urls_namespace="api-v1", auth=READ_AUTH,
    description="Открытое API клуба спортивной мафии: клубы, игроки, сезоны, турниры, игры, протесты, Эло. "
                "Роли и ночные проверки идущей игры не показываются никому, кроме судейской бригады.",
)

# Every read answers 304 to an unchanged poll, 400 to a NUL character, 401 to a bad token, 404 to what the reader may
# not see, 422 to a bad parameter and 429 past the rate limit (api.middleware), besides its 200; and HEAD as its GET
# without the body (api.middleware).
READ = {304: None, 400: s.Error, 401: s.Error, 404: s.Error, 422: s.Error, 429: s.Error}
# A read takes a token or none (anonymous, or the site's session): ninja lists the token's requirement and adds
# this `{}`, "no credentials", as the other way to call it (`security: [{TokenAuth: []}, {}]`), so generated clients
# do not always send a token.
OPTIONAL_TOKEN: dict[str, list[dict[str, list[str]]]] = {"security": [{}]}
PER_PAGE = 50
# Ids and page numbers the databases can hold (a larger one is a 422, never an integer overflow in SQL).
Id = Annotated[int, Field(ge=1, le=2**63 - 1)]
PageNo = Annotated[int, Field(ge=1, le=10**9)]
PerPage = Annotated[int, Field(ge=1, le=selectors.MAX_PER_PAGE)]
# a part of a nickname; NUL is refused for the whole site (club.middleware.RejectNulMiddleware: 400)
Nickname = Annotated[str, Field(max_length=40, pattern=r"^[^\x00]*$")]


def _detail(request, message: str, status: int):
    return api.create_response(request, {"detail": message}, status=status)


@api.exception_handler(Http404)
def not_found(request, exc):
    return _detail(request, _("Not found, or not visible to you."), 404)


@api.exception_handler(PermissionDenied)
def forbidden(request, exc):
    return _detail(request, str(exc) or _("You are not allowed to do this."), 403)


@api.exception_handler(AuthenticationError)
def unauthorized(request, exc):
    message = str(exc) if str(exc) != "Unauthorized" else _("Authorization: a valid API token is required.")
    return _detail(request, message, 401)


# pydantic's error kinds as the reader's words (the rule the value broke); an unknown kind keeps pydantic's text
RULES = {
    "int_parsing": lambda ctx: _("a whole number is expected"),
    "int_type": lambda ctx: _("a whole number is expected"),
    "greater_than_equal": lambda ctx: _("at least %(limit)s") % {"limit": ctx.get("ge")},
    "less_than_equal": lambda ctx: _("at most %(limit)s") % {"limit": ctx.get("le")},
    "date_parsing": lambda ctx: _("a date as YYYY-MM-DD is expected"),
    "date_from_datetime_parsing": lambda ctx: _("a date as YYYY-MM-DD is expected"),
    "string_too_long": lambda ctx: _("at most %(limit)s characters") % {"limit": ctx.get("max_length")},
    "string_pattern_mismatch": lambda ctx: _("the NUL character is not allowed"),
    "missing": lambda ctx: _("required"),
}


def _problem(error: dict) -> str:
    field = ".".join(str(part) for part in error.get("loc", ())[1:]) or "?"
    rule = RULES.get(error.get("type", ""))
    text = rule(error.get("ctx") or {}) if rule else error.get("msg", "")
    return _("%(field)s: %(problem)s") % {"field": field, "problem": text}


@api.exception_handler(NinjaValidationError)
def invalid(request, exc):
    problems = [_problem(error) for error in exc.errors]
    return _detail(request, "; ".join(problems) or _("The request is not valid."), 422)


@api.exception_handler(HttpError)
def http_error(request, exc):
    return _detail(request, str(exc), exc.status_code)


# ---------------------------------------------------------------------------------------------- clubs, players
@api.get("/clubs/", response={200: s.Page[s.Club], **READ}, tags=["clubs"], openapi_extra=OPTIONAL_TOKEN)
def club_list(request, page: PageNo = 1, per_page: PerPage = PER_PAGE):
    return selectors.page_of(selectors.clubs(), page=page, per_page=per_page)


@api.get("/clubs/{club_id}/", response={200: s.Club, **READ}, tags=["clubs"], openapi_extra=OPTIONAL_TOKEN)
def club_detail(request, club_id: Id):
    return selectors.club(club_id)


@api.get("/clubs/{club_id}/elo/", response={200: s.EloTable, **READ}, tags=["ratings"], openapi_extra=OPTIONAL_TOKEN)
def club_elo(request, club_id: Id):
    return selectors.elo(club_id)


@api.get("/players/", response={200: s.Page[s.Player], **READ}, tags=["players"], openapi_extra=OPTIONAL_TOKEN)
def player_list(request, club: Id | None = None, nickname: Nickname = "", page: PageNo = 1, per_page: PerPage = PER_PAGE):
    found = selectors.page_of(selectors.players(club_id=club, query=nickname), page=page, per_page=per_page)
    return {**found, "items": [selectors.player_out(p) for p in found["items"]]}


@api.get("/players/{player_id}/", response={200: s.PlayerCard, **READ}, tags=["players"], openapi_extra=OPTIONAL_TOKEN)
def player_detail(request, player_id: Id, season: Id | None = None, club: Id | None = None):
    return selectors.player_card(player_id, season_id=season, club_id=club)


@api.get("/players/{player_id}/elo/", response={200: s.Page[s.EloPoint], **READ},
         tags=["players", "ratings"], openapi_extra=OPTIONAL_TOKEN)
def player_elo(request, player_id: Id, page: PageNo = 1, per_page: PerPage = PER_PAGE):
    return selectors.page_of(selectors.player_elo(player_id), page=page, per_page=per_page)


# ---------------------------------------------------------------------------------------------- seasons
@api.get("/seasons/", response={200: s.Page[s.Season], **READ}, tags=["seasons"], openapi_extra=OPTIONAL_TOKEN)
def season_list(request, club: Id | None = None, page: PageNo = 1, per_page: PerPage = PER_PAGE):
    return selectors.page_of(selectors.seasons(club_id=club), page=page, per_page=per_page)


@api.get("/seasons/{season_id}/", response={200: s.Season, **READ}, tags=["seasons"], openapi_extra=OPTIONAL_TOKEN)
def season_detail(request, season_id: Id):
    return selectors.season(season_id)


@api.get("/seasons/{season_id}/standings/", response={200: s.Standings, **READ},
         tags=["seasons", "ratings"], openapi_extra=OPTIONAL_TOKEN)
def season_standings(request, season_id: Id):
    return selectors.season_standings(season_id)


# ---------------------------------------------------------------------------------------------- series
@api.get("/series/{series_id}/standings/", response={200: s.SeriesStandings, **READ},
         tags=["series"], openapi_extra=OPTIONAL_TOKEN)
def series_standings(request, series_id: Id):
    """A league series' standings (docs/leagues.md): each player's points per tournament, which count, the total."""
    return selectors.series_standings(series_id)


# ---------------------------------------------------------------------------------------------- tournaments
@api.get("/tournaments/", response={200: s.Page[s.Tournament], **READ},
         tags=["tournaments"], openapi_extra=OPTIONAL_TOKEN)
def tournament_list(request, club: Id | None = None, season: Id | None = None, page: PageNo = 1,
                    per_page: PerPage = PER_PAGE):
    found = selectors.page_of(selectors.tournaments(club_id=club, season_id=season), page=page, per_page=per_page)
    return {**found, "items": [selectors.tournament_out(t) for t in found["items"]]}


@api.get("/tournaments/{tournament_id}/", response={200: s.TournamentDetail, **READ},
         tags=["tournaments"], openapi_extra=OPTIONAL_TOKEN)
def tournament_detail(request, tournament_id: Id):
    return selectors.tournament_detail(tournament_id)


@api.get("/tournaments/{tournament_id}/schedule/", response={200: s.Schedule, **READ},
         tags=["tournaments"], openapi_extra=OPTIONAL_TOKEN)
def tournament_schedule(request, tournament_id: Id):
    return selectors.tournament_schedule(tournament_id, request.auth)


@api.get("/tournaments/{tournament_id}/standings/", response={200: s.TournamentStandings, **READ},
         tags=["tournaments", "ratings"], openapi_extra=OPTIONAL_TOKEN)
def tournament_standings(request, tournament_id: Id):
    return selectors.tournament_standings(tournament_id, request.auth)


# ---------------------------------------------------------------------------------------------- sign-ups
@api.get("/signups/", response={200: s.Page[s.SignupCounts], **READ}, tags=["signups"], openapi_extra=OPTIONAL_TOKEN)
def signup_list(request, club: Id | None = None, tournament: Id | None = None, evening: Id | None = None,
                upcoming: bool = False, page: PageNo = 1, per_page: PerPage = PER_PAGE):
    """Sign-ups of club nights and tournaments with their counts (no names). `upcoming=1`: the events not begun yet
    (or begun less than six hours ago), soonest first; otherwise the latest first."""
    qs = selectors.public_sheets(club_id=club, tournament_id=tournament, evening_id=evening, upcoming=upcoming)
    found = selectors.page_of(qs, page=page, per_page=per_page)
    return {**found, "items": [selectors.signup_out(sheet) for sheet in found["items"]]}


# ---------------------------------------------------------------------------------------------- games, protests
@api.get("/games/", response={200: s.Page[s.GameSummary], **READ}, tags=["games"], openapi_extra=OPTIONAL_TOKEN)
def game_list(request, club: Id | None = None, tournament: Id | None = None, season: Id | None = None,
              date: dt.date | None = None,
              page: PageNo = 1, per_page: PerPage = PER_PAGE):
    """Filters: the club, the tournament, the season, `date` — the day the game was played (YYYY-MM-DD)."""
    qs = selectors.games(request.auth, club_id=club, tournament_id=tournament, season_id=season, date=date)
    found = selectors.page_of(qs, page=page, per_page=per_page)
    return {**found, "items": [selectors.game_out(g, request.auth) for g in found["items"]]}


@api.get("/games/{game_id}/", response={200: s.GameDetail, **READ}, tags=["games"], openapi_extra=OPTIONAL_TOKEN)
def game_detail(request, game_id: Id):
    """The game; a poll of an unchanged game is answered 304 from its stamp, without building the answer, and a
    public reader's answer is built once per stamp (api.answers)."""
    stamp = answers.with_generation(selectors.game_stamp(game_id))
    return known_poll(request, stamp) or answers.kept(request, stamp,
                                                      lambda: selectors.game_detail(game_id, request.auth))


@api.get("/protests/", response={200: s.Page[s.Protest], **READ}, tags=["protests"], openapi_extra=OPTIONAL_TOKEN)
def protest_list(request, game: Id | None = None, tournament: Id | None = None, page: PageNo = 1,
                 per_page: PerPage = PER_PAGE):
    rows = selectors.protests(request.auth, game_id=game, tournament_id=tournament)
    return selectors.page_of(rows, page=page, per_page=per_page)


# ---------------------------------------------------------------------------------------------- the one write
JSON = "application/json"
DOCUMENT = {"requestBody": {"required": True,
                            "description": "One mafclub/1 document (as `manage.py import_protocols` reads).",
                            "content": {JSON: {"schema": {"type": "object"}}}}}


@api.post("/imports/", auth=TokenAuth(), tags=["imports"], openapi_extra=DOCUMENT,
          response={201: s.ImportReport, 400: s.ImportErrors, 401: s.Error, 403: s.Error, 413: s.Error,
                    415: s.Error, 422: s.Error, 429: s.Error})
def import_document(request):
    """A mafclub/1 document as the request body (JSON), all-or-nothing, with the command line's messages; an admin's
    token only. Checked in this order: the token (401), its holder an admin of its club (403), the body JSON (415)."""
    import_allowed(request.api_token)
    if request.content_type != JSON:
        raise HttpError(415, _("Content-Type: the document is sent as %(type)s (a form or a file upload is not "
                               "read).") % {"type": JSON})
    # read(), not .body: the body may be as large as IMPORT_REQUEST_MAX_SIZE (club.middleware.RequestSizeMiddleware)
    status, answer = api_import(token=request.api_token, body=request.read())
    return Status(status, answer)


