"""Rule sets: the presets and the club's own copies ("our club's rules"), edited by club admins."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db.models import Max
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from club.permissions import is_club_admin
from club.selectors import get_site_club
from club.services import ServiceError
from games.models import RuleSetVersion
from games.permissions import require_site_club_admin, site_club_admin
from games.rulesets.forms import RuleSetForm
from games.rulesets.labels import tiebreaker_label
from games.rulesets.services import ruleset_copy, ruleset_set_default, ruleset_update

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise


def _latest_versions(club):
    latest = RuleSetVersion.objects.values("slug").annotate(v=Max("version"))
    pairs = {(row["slug"], row["v"]) for row in latest}
    qs = RuleSetVersion.objects.filter(club__isnull=True) | RuleSetVersion.objects.filter(club=club)
    return [r for r in qs.order_by("-is_preset", "name") if (r.slug, r.version) in pairs]


def ruleset_list(request):
    club, can_edit = site_club_admin(request.user)
    return render(request, "games/rulesets/ruleset_list.html", {
        "club": club, "rulesets": _latest_versions(club), "can_edit": can_edit,
    })


def _param_rows(form: RuleSetForm) -> list[tuple[StrOrPromise, object]]:
    """(label, value shown) per parameter: choices by their label, tie-breakers by their metric name, not codes."""
    rows: list[tuple[StrOrPromise, object]] = []
    for field in form:
        value = field.value()
        if isinstance(field.field, forms.MultipleChoiceField):
            labels = dict(field.field.choices)  # type: ignore[arg-type]
            value = ", ".join(str(labels.get(v, v)) for v in value or ()) or None
        elif isinstance(field.field, forms.ChoiceField):
            value = dict(field.field.choices).get(value, value)  # type: ignore[arg-type]
        elif field.name == "tiebreakers" and value:
            value = ", ".join(tiebreaker_label(n) for n in (part.strip() for part in str(value).split(",")) if n)
        elif field.name == "lift_bans":
            value = lift_bans_text(form.initial.get("lift_bans_list") or _json_list(value))
        rows.append((field.label, value))
    return rows


def _json_list(raw) -> list:
    try:
        value = json.loads(raw or "[]")
    except (TypeError, ValueError):
        return []
    return value if isinstance(value, list) else []


def lift_bans_text(bans) -> str:
    """The forbidden lift votes as a reader says them: «всех игроков за столом (000 S7.10); 3 в равенстве при 3
    живых (000 S7.5)» — never the stored JSON."""
    parts = []
    for ban in bans:
        if not isinstance(ban, dict):
            continue
        words = []
        if ban.get("tied_is_all"):
            words.append(_("all players at the table tied"))
        elif ban.get("tied"):
            words.append(_("%(n)s tied") % {"n": ban["tied"]})
        if ban.get("alive"):
            words.append(_("with %(n)s alive") % {"n": ban["alive"]})
        if ban.get("day"):
            words.append(_("on day %(n)s") % {"n": ban["day"]})
        if ban.get("first_tie"):
            words.append(_("at the first tie"))
        clause = str(ban.get("clause") or "").split(" (")[0].split(":")[0]
        parts.append(" ".join(str(w) for w in words) + (f" ({clause})" if clause else ""))
    return "; ".join(parts)


def ruleset_detail(request, pk: int):
    version = get_object_or_404(RuleSetVersion, pk=pk)
    ruleset = version.ruleset()
    form = RuleSetForm(initial=RuleSetForm.initial_from(version.name, ruleset))
    return render(request, "games/rulesets/ruleset_detail.html", {
        "version": version, "form": form, "rows": _param_rows(form),
        "versions": RuleSetVersion.objects.filter(slug=version.slug).order_by("-version"),
        "can_edit": site_club_admin(request.user)[1],
    })


@login_required
@require_POST
def ruleset_copy_view(request, pk: int):
    source = get_object_or_404(RuleSetVersion, pk=pk)
    club = require_site_club_admin(request.user, _("Only a club admin may copy a rule set."))
    name = (request.POST.get("name") or "").strip() or (_("%(club)s rules (based on %(source)s)") % {
        "club": club.name, "source": source.name})[:RuleSetVersion._meta.get_field("name").max_length]
    base = slugify(f"club-{club.pk}-{source.slug}")[:50]
    slug, n = base, 1
    while RuleSetVersion.objects.filter(slug=slug).exists():
        n += 1
        slug = f"{base}-{n}"
    try:
        copy = ruleset_copy(club=club, by=request.user, source=source, name=name, slug=slug)
    except ServiceError as exc:  # the name over its limit: the page again, with the message, nothing made
        messages.error(request, str(exc))
        response = ruleset_detail(request, source.pk)
        response.status_code = 400
        return response
    messages.success(request, _("The club's copy is made: edit it below."))
    return redirect("games:ruleset_edit", pk=copy.pk)


@login_required
@require_http_methods(["GET", "POST"])
def ruleset_edit(request, pk: int):
    version = get_object_or_404(RuleSetVersion, pk=pk)
    if version.club is None or not is_club_admin(request.user, version.club):
        raise PermissionDenied(_("Only a club admin may edit the club's copy of a rule set; presets are never edited."))
    form = RuleSetForm(request.POST or None, initial=RuleSetForm.initial_from(version.name, version.ruleset()))
    if request.method == "POST" and form.is_valid():
        try:
            saved = ruleset_update(ruleset=version, by=request.user, params=form.params())
        except ServiceError as exc:
            form.add_error(None, str(exc))
        else:
            if saved.pk != version.pk:
                messages.info(request, _("Games were already scored under version %(old)d, so the changes are "
                                         "saved as version %(new)d; those games keep their version.")
                              % {"old": version.version, "new": saved.version})
            else:
                messages.success(request, _("Saved."))
            return redirect("games:ruleset_detail", pk=saved.pk)
    return render(request, "games/rulesets/ruleset_edit.html", {"version": version, "form": form},
                  status=400 if request.method == "POST" else 200)


@login_required
@require_POST
def ruleset_make_default(request, pk: int):
    version = get_object_or_404(RuleSetVersion, pk=pk)
    club = get_site_club()
    try:
        ruleset_set_default(club=club, by=request.user, ruleset=version)
    except ServiceError as exc:  # another club's rule set: a message, not a server error
        messages.error(request, str(exc))
    else:
        messages.success(request, _("%(name)s is now the club's default rule set.") % {"name": version.name})
    return redirect("games:ruleset_list")
