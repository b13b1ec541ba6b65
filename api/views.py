"""The staff page of API tokens (/staff/api-tokens/): a club admin issues a token (its key shown once, on the
answer to the POST, never stored) and revokes one."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST

from api import services
from api.forms import TokenIssueForm, TokenRevokeForm
from api.models import ApiToken
from club.services import ServiceError
from games.permissions import require_site_club_admin

ADMIN_ONLY = gettext_lazy("Only a club admin may manage API tokens.")  # lazy: read in the request's language


def _page(request, club, form, *, key: str = "", issued=None, status: int = 200):
    tokens = ApiToken.objects.filter(club=club).select_related("holder", "created_by")
    return render(request, "api/tokens.html", {"club": club, "form": form, "tokens": tokens, "key": key,
                                               "issued": issued}, status=status)


@never_cache  # the answer to the POST shows a key: no cache, shared or the browser's, may keep it
@login_required
@require_http_methods(["GET", "POST"])
def tokens(request):
    """GET: the club's tokens and the form; POST: issue one and show its key this once."""
    club = require_site_club_admin(request.user, ADMIN_ONLY)
    form = TokenIssueForm(request.POST or None, club=club, by=request.user)
    if request.method == "POST":
        if form.is_valid():
            try:
                token, key = services.token_issue(club=club, by=request.user, name=form.cleaned_data["name"],
                                                  holder=form.cleaned_data["holder"])
            except ServiceError as exc:
                form.add_error(exc.field if exc.field in form.fields else None, exc.message)
            else:
                return _page(request, club, TokenIssueForm(club=club, by=request.user), key=key, issued=token)
        return _page(request, club, form, status=400)
    return _page(request, club, form)


@login_required
@require_POST
def token_revoke(request):
    club = require_site_club_admin(request.user, ADMIN_ONLY)
    form = TokenRevokeForm(request.POST, club=club)
    if not form.is_valid():
        messages.error(request, _("Token: no such token of the club."))
        return redirect("api_tokens")
    token = services.token_revoke(token=form.cleaned_data["token"], by=request.user)
    messages.success(request, _("The token “%(name)s” is revoked: it reads nothing any more.") % {"name": token.name})
    return redirect("api_tokens")
