"""The overlay pages for OBS (reached by token, no login, no session) and the organiser's token page."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse, HttpResponseNotModified
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.http import http_date
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods

from broadcast import selectors
from broadcast.models import OverlayToken
from broadcast.permissions import can_manage_overlays
from broadcast.services import token_create, token_revoke
from club.services import ServiceError
from club.stamps import body_etag, first_seen, not_modified
from games.models import ClubEvening, Tournament
from leagues import selectors as league_selectors

TABLE = "broadcast/table.html"
FRAGMENT_TTL = 120  # seconds a rendered board (and its ETag) is kept for the polls of the same game version
POLL_MS = 250  # docs/broadcast.md: a tap shows within the poll interval plus one request (under 1 s)


def _token(token: str) -> OverlayToken:
    tok = selectors.live_token(token)
    if tok is None:
        raise Http404("no such overlay")
    return tok


def _no_store(response: HttpResponse) -> HttpResponse:
    # OBS must never show a cached board; the ETag makes the revalidation cheap (a 304 without a body).
    response["Cache-Control"] = "no-cache, private"
    response["X-Robots-Tag"] = "noindex"
    return response


def board_answer(tok: OverlayToken, table: int) -> tuple[str, str, int]:
    """(HTML, ETag, Last-Modified) of the board at `table` for the token's kind.

    The ETag is the hash of the board's HTML and Last-Modified the time that HTML was first given (club.stamps), so
    both stay put while nothing shown changes: a secret tap (a night's check) moves the game's version but not the
    public board. The board is rendered once per kind, game version and language and kept with its ETag under that
    key, so an unchanged poll reads the token, the table's game rows and one small cache entry; the key carries the
    version, so an entry is never stale. The fragment is shared by every overlay of the same token kind: one render
    per change, not one per viewer."""
    head = selectors.table_head(tok, table)
    key = selectors.board_key(tok, head, table, get_language())
    stamp = cache.get(key)
    html = cache.get(key + ":html") if stamp is not None else None
    if stamp is None or html is None:
        html = render_to_string(f"{TABLE}#board", {"b": selectors.table_board(tok, head), "tok": tok,
                                                   "table": table})  # no request: nothing personal in it
        etag = body_etag(html.encode())
        stamp = (etag, first_seen(etag, scope="broadcast"))
        cache.set_many({key: stamp, key + ":html": html}, FRAGMENT_TTL)
    return html, *stamp


def _stamped(response: HttpResponse, etag: str, last_modified: int) -> HttpResponse:
    response["ETag"] = etag
    response["Last-Modified"] = http_date(last_modified)
    return _no_store(response)


@require_GET
def table(request, overlay: str, table: int):
    tok = _token(overlay)
    html, etag, _last_modified = board_answer(tok, table)
    response = render(request, TABLE, {"board": html, "tok": tok, "table": table, "poll_ms": POLL_MS,
                                       "state_url": reverse("broadcast:table_state", args=[overlay, table]),
                                       "etag": etag})
    return _no_store(response)


@require_GET
def table_state(request, overlay: str, table: int):
    """The board fragment for overlay.js; 304 while the board shows the same (two indexed queries and one cache
    read when the game has not moved)."""
    tok = _token(overlay)
    html, etag, last_modified = board_answer(tok, table)
    if not_modified(request, etag, last_modified):
        return _stamped(HttpResponseNotModified(), etag, last_modified)
    return _stamped(HttpResponse(html), etag, last_modified)


@require_GET
def standings(request, overlay: str):
    tok = _token(overlay)
    return _no_store(render(request, "broadcast/standings.html", {"s": selectors.standings(tok), "tok": tok}))


@require_GET
def result(request, overlay: str, table: int):
    tok = _token(overlay)
    board = selectors.result_board(tok, table)
    return _no_store(render(request, "broadcast/result.html", {"b": board, "tok": tok, "table": table}))


@require_GET
def player(request, overlay: str, pk: int):
    tok = _token(overlay)
    card = selectors.player_card(tok, pk)
    if card is None:
        raise Http404("no such player in this club")
    return _no_store(render(request, "broadcast/player.html", {"card": card, "tok": tok}))


@require_GET
def series(request, overlay: str, pk: int):
    """Lower third: the top ten of a league series holding the token's tournament (docs/leagues.md)."""
    tok = _token(overlay)
    found = league_selectors.series_of_tournament(tok.tournament_id, pk)
    if found is None:
        raise Http404("no such series for this overlay")
    data = league_selectors.series_standings(found)
    return _no_store(render(request, "broadcast/series.html",
                            {"series": found, "rows": data["rows"][:10], "data": data, "tok": tok}))


# ------------------------------------------------------------------------------------------------ the organiser
EVENTS = {"tournament": Tournament, "evening": ClubEvening}


def _event_for(user, kind: str, pk: int):
    model = EVENTS.get(kind)
    if model is None:
        raise Http404("no such event kind")
    event = get_object_or_404(model._default_manager.select_related("club"), pk=pk)
    if not can_manage_overlays(user, event):
        raise PermissionDenied(_("Only a club admin or the tournament's head judge may manage its overlays."))
    return event


@login_required
@require_http_methods(["GET", "POST"])
def manage(request, kind: str, pk: int):
    """The organiser's page: the event's overlays with their URLs; a POST creates one, or revokes one (`revoke`)."""
    event = _event_for(request.user, kind, pk)
    status = 200
    if request.method == "POST":
        try:
            if "revoke" in request.POST:
                token_revoke(token=_event_token(event, request.POST["revoke"]), by=request.user)
                messages.success(request, _("Overlay revoked: its URLs no longer open."))
            else:
                token_create(event=event, kind=request.POST.get("kind", ""), by=request.user)
                messages.success(request, _("Overlay created: paste its URLs into the streaming program."))
        except ServiceError as exc:
            messages.error(request, exc.message)
            status = 422
        else:
            return redirect(f"broadcast:manage_{kind}", pk=pk)
    context = {"event": event, "tokens": selectors.event_tokens(event),
               "tables": selectors.event_tables(event), "kinds": OverlayToken.Kind.choices,
               "players": event.club.players.filter(active=True).order_by("nickname")[:200],
               "series_list": league_selectors.series_of(event.pk) if kind == "tournament" else []}
    return render(request, "broadcast/manage.html", context, status=status)


def _event_token(event, raw: str) -> OverlayToken:
    """One of this event's tokens by its id; another event's or a malformed id is refused, naming the field."""
    token = event.overlay_tokens.filter(pk=int(raw)).first() if raw.isdigit() else None
    if token is None:
        raise ServiceError(_("Overlay: no such overlay of this event."), field="revoke")
    return token
