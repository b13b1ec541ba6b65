"""Staff invitations: the club's admin invites and revokes on the staff page; /staff/join/<link>/ gives the role
to whoever accepts it — logged in, or after registering on that very page."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from club import selectors_invitations, services_invitations
from club.forms import SignupForm
from club.forms_invitations import InvitationForm
from club.models import Membership, StaffInvitation
from club.services import ServiceError
from club.views import _club_for_admin
from club.views_staff import staff_context


@login_required
@require_POST
def invite(request):
    club = _club_for_admin(request)
    form = InvitationForm(request.POST)
    if not form.is_valid():
        return render(request, "club/staff.html", staff_context(request, club, invite=form), status=400)
    email = form.cleaned_data["email"] if form.cleaned_data["send"] == "email" else ""
    invitation = services_invitations.invitation_create(
        club=club, by=request.user, role=form.cleaned_data["role"], email=email,
        base_url=request.build_absolute_uri("/"))
    if email:
        messages.success(request, _("The invitation is sent to %(email)s; the link works once, for %(days)d days.")
                         % {"email": email, "days": services_invitations.INVITATION_DAYS})
    else:
        messages.success(request, _("The link is made: copy it below and send it; it works once, for %(days)d "
                                    "days.") % {"days": services_invitations.INVITATION_DAYS})
    return redirect(f"{reverse('staff')}#invitation-{invitation.pk}")


@login_required
@require_POST
def revoke(request):
    club = _club_for_admin(request)
    pk = request.POST.get("invitation", "")
    invitation = get_object_or_404(StaffInvitation, pk=int(pk) if pk.isdigit() else 0, club=club)
    try:
        services_invitations.invitation_revoke(invitation=invitation, by=request.user)
    except ServiceError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, _("The invitation is revoked: its link gives nothing now."))
    return redirect("staff")


def _gone(request, message: str):
    return render(request, "club/invitations/gone.html", {"message": message}, status=410)


def _welcome(request, membership: Membership):
    messages.success(request, _("Welcome: you are now %(role)s of %(club)s.")
                     % {"role": membership.get_role_display(), "club": membership.club.name})
    return redirect("home")


@require_http_methods(["GET", "POST"])
def join(request, link: str):
    """GET shows the invitation (a link opened by a mail scanner spends nothing); POST accepts it as the
    logged-in user, or registers a login (name, e-mail, password) and accepts it with that."""
    invitation = selectors_invitations.invitation_by_token(link)
    if invitation is None:
        return _gone(request, _("This invitation link is not valid."))
    state = selectors_invitations.invitation_state(invitation)
    if state != selectors_invitations.OPEN:
        return _gone(request, services_invitations.gone_message(state))
    form = SignupForm(request.POST or None) if not request.user.is_authenticated else None
    if request.method == "POST":
        try:
            if form is None:
                return _welcome(request, services_invitations.invitation_accept(invitation=invitation,
                                                                                user=request.user))
            if form.is_valid():
                user = services_invitations.invitation_register(
                    invitation=invitation, username=form.cleaned_data["username"],
                    email=form.cleaned_data.get("email") or "", password=form.cleaned_data["password1"])
                login(request, user, backend="django.contrib.auth.backends.ModelBackend")
                return _welcome(request, Membership.objects.get(club=invitation.club, user=user,
                                                                role=invitation.role))
        except services_invitations.InvitationGone as exc:
            return _gone(request, exc.message)
    return render(request, "club/invitations/join.html", {"invitation": invitation, "form": form},
                  status=400 if form is not None and form.errors else 200)
