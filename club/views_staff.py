"""The staff page (/staff/): who holds which role; a club admin gives roles to a login picked by name (or invites:
club/views_invitations.py) and takes them away, through club.services."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from club import permissions, selectors_invitations, selectors_staff, services, task_queue
from club.forms_invitations import InvitationForm
from club.forms_staff import LoginSearchForm, StaffRemoveForm, StaffRoleForm
from club.models import Membership
from club.views import _club_for_admin, _form_error


def staff_context(request, club, **forms) -> dict:
    search = LoginSearchForm(request.GET or None)
    query = search.data.get("q", "") if search.is_bound and search.is_valid() else ""
    return {"club": club, "staff": selectors_staff.staff_by_role(club=club), "tasks": task_queue.summary(),
            "search": search, "query": query, "found": selectors_staff.login_search(query),
            "search_min": selectors_staff.LOGIN_SEARCH_MIN,
            "form": forms.get("form") or StaffRoleForm(), "invite": forms.get("invite") or InvitationForm(),
            "invitations": [(i, selectors_invitations.invitation_path(i))
                            for i in selectors_invitations.open_invitations(club=club)]}


@login_required
@require_http_methods(["GET", "POST"])
def staff(request):
    """GET: the staff by role, the login search (?q=), the invitations; POST: give the role to the picked login."""
    club = _club_for_admin(request)
    form = StaffRoleForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user, role = form.cleaned_data["user"], form.cleaned_data["role"]
        try:
            services.membership_set(club=club, by=request.user, user=user, role=role)
        except services.ServiceError as exc:
            _form_error(form, exc)
        else:
            messages.success(request, _("%(user)s is now %(role)s.")
                             % {"user": selectors_staff.name_with_login(user, club),
                                "role": Membership.Role(role).label})
            return redirect("staff")
    context = staff_context(request, club, form=form)
    if request.htmx and request.method == "GET":
        return render(request, "club/staff.html#login-results", context)
    return render(request, "club/staff.html", context, status=400 if form.errors else 200)


@login_required
@require_POST
def staff_remove(request):
    club = _club_for_admin(request)
    form = StaffRemoveForm(request.POST)
    if not form.is_valid():
        field = next(iter(form.errors))
        messages.error(request, _("%(field)s: %(error)s")
                       % {"field": form.fields[field].label, "error": form.errors[field][0]})
        return redirect("staff")
    user, role = form.cleaned_data["user"], form.cleaned_data["role"]
    try:
        services.membership_remove(club=club, by=request.user, user=user, role=role)
    except services.ServiceError as exc:
        messages.error(request, exc.message)
        return redirect("staff")
    messages.success(request, _("%(user)s is no longer %(role)s.")
                     % {"user": user.get_username(), "role": Membership.Role(role).label})
    # An admin who stepped down may not see the staff page any more.
    return redirect("staff" if permissions.is_club_admin(request.user, club) else "home")
