from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import PasswordResetView
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.templatetags.static import static
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from club import permissions, photos, selectors, services, throttle
from club.axes_handler import client_ip, is_trusted_address
from club.context_processors import HOME_SIDE_TEMPLATES, HOME_TEMPLATES, plugin_templates
from club.forms import ClaimDecisionForm, PhotoForm, PlayerForm, PlayerLoginForm, SignupForm
from club.models import Club, Player, PlayerClaim
from club.page_cache import minute_stamp, public_page

PLAYERS_PER_PAGE = 50


def _site_club() -> Club:
    club = selectors.get_site_club()
    if club is None:
        raise Http404(_("No club has been set up yet."))
    return club


def _club_for_admin(request) -> Club:
    club = _site_club()
    if not permissions.is_club_admin(request.user, club):
        raise PermissionDenied
    return club


def _player_for_admin(request, pk: int) -> Player:
    player = get_object_or_404(Player.objects.select_related("club", "user"), pk=pk)
    if not permissions.can_edit_player(request.user, player):
        raise PermissionDenied
    return player


def _form_error(form, exc: services.ServiceError) -> None:
    form.add_error(exc.field if exc.field in form.fields else None, exc.message)


def _status(request) -> int:
    """A form page shown again after a POST shows its errors: 400."""
    return 400 if request.method == "POST" else 200


@public_page(minute_stamp)
def home(request):
    club = selectors.get_site_club()
    players = selectors.player_search(club=club, active_only=True) if club else Player.objects.none()
    context = {
        "club": club,
        "site_is_empty": club is None and selectors.site_is_empty(),
        "player_count": players.count(),
        # the apps above fill the page: the next events with their sign-up, the games, the ratings
        "home_extra_templates": plugin_templates(HOME_TEMPLATES),
        "home_side_templates": plugin_templates(HOME_SIDE_TEMPLATES),
    }
    return render(request, "club/home.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def player_photo(request, pk: int):
    """The player's own photo page: upload (checked and resized, club.photos) or remove."""
    player = get_object_or_404(Player.objects.select_related("club", "user"), pk=pk)
    if not permissions.can_change_photo(request.user, player):
        raise PermissionDenied
    form = PhotoForm(request.POST or None, request.FILES or None)
    status = 200
    if request.method == "POST":
        if form.is_valid():
            try:
                photos.player_photo_set(player=player, by=request.user, upload=form.cleaned_data["photo"] or None)
            except services.ServiceError as exc:
                _form_error(form, exc)
            else:
                messages.success(request, _("Photo saved.") if form.cleaned_data["photo"] else _("Photo removed."))
                return redirect("player_detail", pk=player.pk)
        status = 400
    return render(request, "club/player_photo.html", {"form": form, "player": player}, status=status)


@login_required
@require_POST
def player_claim(request, pk: int):
    player = get_object_or_404(Player, pk=pk)
    try:
        services.claim_create(user=request.user, player=player)
    except services.ServiceError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, _("Your claim is sent. A club admin will check it soon."))
    return redirect("player_detail", pk=player.pk)


@login_required
@require_http_methods(["GET", "POST"])
def player_create(request):
    club = _club_for_admin(request)
    form = PlayerForm(request.POST or None, request.FILES or None, club=club)
    if request.method == "POST" and form.is_valid():
        try:
            player = services.player_create(club=club, by=request.user, **form.service_kwargs())
        except services.ServiceError as exc:
            _form_error(form, exc)
        else:
            messages.success(request, _("Player %(nickname)s added.") % {"nickname": player.nickname})
            return redirect("player_detail", pk=player.pk)
    return render(request, "club/player_form.html", {"form": form, "club": club}, status=_status(request))


@login_required
@require_http_methods(["GET", "POST"])
def player_edit(request, pk: int):
    player = _player_for_admin(request, pk)
    form = PlayerForm(request.POST or None, request.FILES or None, instance=player, club=player.club)
    if request.method == "POST" and form.is_valid():
        try:
            services.player_update(player=player, by=request.user, **form.service_kwargs())
        except services.ServiceError as exc:
            _form_error(form, exc)
        else:
            messages.success(request, _("Player saved."))
            return redirect("player_detail", pk=player.pk)
    player.refresh_from_db()  # the form may have changed the instance in memory
    return render(request, "club/player_form.html", {"form": form, "player": player, "club": player.club},
                  status=_status(request))


@login_required
@require_http_methods(["GET", "POST"])
def player_login_create(request, pk: int):
    player = _player_for_admin(request, pk)
    form = PlayerLoginForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            user = services.player_create_login(
                player=player,
                by=request.user,
                username=form.cleaned_data["username"],
                password=form.cleaned_data["password1"],
            )
        except services.ServiceError as exc:
            _form_error(form, exc if exc.field != "password" else services.ServiceError(exc.message, field="password1"))
        else:
            messages.success(request, _("Login %(username)s created for the player.") % {"username": user.username})
            return redirect("player_detail", pk=player.pk)
    return render(request, "club/player_login_form.html", {"form": form, "player": player})


@login_required
def claim_list(request):
    club = _club_for_admin(request)
    return render(request, "club/claims.html", {"club": club, "claims": selectors.pending_claims(club=club)})


@login_required
@require_POST
def claim_decide(request, pk: int):
    claim = get_object_or_404(PlayerClaim.objects.select_related("player__club"), pk=pk)
    if not permissions.can_edit_player(request.user, claim.player):
        raise PermissionDenied
    form = ClaimDecisionForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Choose to approve or to refuse."))
        return redirect("claim_list")
    approve = form.cleaned_data["decision"] == "approve"
    try:
        services.claim_decide(claim=claim, by=request.user, approve=approve, note=form.cleaned_data["note"])
    except services.ServiceError as exc:
        messages.error(request, exc.message)
    else:
        text = _("Claim approved: %(user)s is %(nickname)s.") if approve else _("Claim of %(user)s refused.")
        messages.success(request, text % {"user": claim.user.username, "nickname": claim.player.nickname})
    return redirect("claim_list")


@require_http_methods(["GET", "POST"])
def signup(request):
    if request.user.is_authenticated:
        return redirect("home")
    if selectors.get_site_club() is None:
        # No club yet: nothing to sign up to. On an empty site the first login is the administrator's (/setup/).
        return redirect("first_run" if selectors.site_is_empty() else "home")
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(request, _("Welcome! If you have played in the club, find your nickname and press “This is "
                                    "me”."))
        return redirect("claim_suggest")
    return render(request, "registration/signup.html", {"form": form}, status=400 if form.errors else 200)


def favicon(request):  # noqa: ARG001 — request: Django's view signature
    """Browsers ask for /favicon.ico by themselves (a PDF tab, an old browser): send them to the static icon."""
    return redirect(static("favicon.svg"), permanent=True)


class ThrottledPasswordResetView(PasswordResetView):
    """Django's password reset by e-mail, at most PASSWORD_RESET_LIMIT_PER_ADDRESS requests an hour from one
    address (a trusted venue address excepted, as for the login limit) and PASSWORD_RESET_LIMIT_PER_EMAIL for one
    e-mail: over either the form says so with a 429 and no e-mail is sent. Every request counts, whether or not
    the e-mail belongs to somebody (the answer must not tell)."""

    email_template_name = "registration/password_reset_email.txt"
    subject_template_name = "registration/password_reset_subject.txt"
    PERIOD_SECONDS = 3600

    def form_valid(self, form):
        address = client_ip(self.request) or ""
        email = form.cleaned_data["email"]
        checks = [("reset-email", email, settings.PASSWORD_RESET_LIMIT_PER_EMAIL)]
        if not is_trusted_address(address):
            checks.append(("reset-address", address, settings.PASSWORD_RESET_LIMIT_PER_ADDRESS))
        if any(throttle.over_limit(scope, value, limit=limit) for scope, value, limit in checks):
            form.add_error(None, _("Too many password reset requests from this network or for this e-mail. No "
                                   "e-mail was sent; try again in an hour."))
            return self.render_to_response(self.get_context_data(form=form), status=429)
        for scope, value, _limit in checks:
            throttle.count(scope, value, period_seconds=self.PERIOD_SECONDS)
        return super().form_valid(form)
