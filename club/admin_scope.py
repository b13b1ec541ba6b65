"""/admin/ scoped per club: a club admin sees, chooses and saves only the objects of the clubs he administers.

The "Club admins" group carries model permissions (view/change a player, …), and model permissions in Django are
global: without this scoping an admin of one club could rename another club, give himself its admin role or relink
its players. Every ModelAdmin of the site mixes `ClubScopedAdmin` in and names the path from its model to the club
(`club_path`); then, for a user who is not a superuser:

- the changelist, the change/delete/history pages and the bulk actions only reach objects of his clubs (another
  club's object answers 403, a missing one what Django answers anyway);
- every foreign-key choice that leads to a club-level model (club, player, tournament, game, rule set, season…)
  offers only his clubs' rows (plus the shared presets where the admin says so), so a POST naming another club's
  id is a form error and nothing is saved;
- a save is refused (403) unless the object, before and after the change, belongs to one of his clubs.

Superusers see everything. Models that have no club (logins, groups, the login-throttle records, task results)
are for superusers only, whatever model permissions a user holds (`restrict_unscoped`, run once the admin
modules are loaded): a club admin can never edit a login or make anyone superuser or staff.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.contrib import admin
from django.contrib.admin import widgets
from django.contrib.admin.utils import unquote
from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied, ValidationError
from django.db.models import Q, QuerySet
from django.http import Http404

from club.models import Club, Membership


def administered_club_ids(user) -> set[int] | None:
    """The ids of the clubs the user administers; None for a superuser (every club)."""
    if not getattr(user, "is_authenticated", False) or not user.is_active:
        return set()
    if user.is_superuser:
        return None
    if "_administered_club_ids" not in user.__dict__:  # once per request (request.user is fresh each time)
        user.__dict__["_administered_club_ids"] = set(
            Membership.objects.filter(user=user, role=Membership.Role.ADMIN).values_list("club_id", flat=True))
    return user.__dict__["_administered_club_ids"]


def _club_lookup(club_path: str) -> str:
    return club_path or "pk"


def club_id_of(obj, club_path: str) -> int | None:
    """The id of the club an unsaved or saved object belongs to, following `club_path` ("game__club", …)."""
    if not club_path:
        return obj.pk
    *hops, last = club_path.split("__")
    current = obj
    for hop in hops:
        current = getattr(current, hop, None)
        if current is None:
            return None
    return getattr(current, f"{last}_id", None)


if TYPE_CHECKING:
    # the mixins are typed as the admins they are mixed into (django-simple-history's SimpleHistoryAdmin among them,
    # which has no types): their super() calls and `self.model` / `self.admin_site` reach the ModelAdmin
    _AdminMixin: Any = admin.ModelAdmin
else:
    _AdminMixin = object


class HistoryIdsAdmin(_AdminMixin):
    """Mixed into every admin with django-simple-history's pages: a malformed id in their URLs is "no such
    object", never a 500."""

    def history_view(self, request, object_id, extra_context=None):
        """django-simple-history's page: a malformed id (`…/<text>/history/`) is "no such object", as in Django's
        own change view, not a 500."""
        try:
            self.model._meta.pk.to_python(unquote(object_id))
        except ValidationError:
            return self._get_obj_does_not_exist_redirect(request, self.model._meta, object_id)
        return super().history_view(request, object_id, extra_context)

    def history_form_view(self, request, object_id, version_id, extra_context=None):
        """django-simple-history's page of one version (`…/<id>/history/<version>/`): it looks both up with the raw
        URL text, so a malformed one is "no such version" (404) here rather than a 500 there."""
        history = getattr(self.model, self.model._meta.simple_history_manager_attribute).model
        try:
            self.model._meta.pk.to_python(unquote(object_id))
            history._meta.pk.to_python(version_id)
        except ValidationError:
            raise Http404 from None
        return super().history_form_view(request, object_id, version_id, extra_context)


class ClubScopedAdmin(HistoryIdsAdmin):
    """Mix into a ModelAdmin before admin.ModelAdmin. `club_path`: the lookup from the model to its Club ("" for
    the Club itself). `shared_q`: rows every club may see and choose but only a superuser may change (the rule-set
    presets)."""

    club_path: str = "club"
    shared_q: Q | None = None

    # --- which rows ---------------------------------------------------------------------------------------------
    def scope(self, queryset: QuerySet, user, *, with_shared: bool = True) -> QuerySet:
        ids = administered_club_ids(user)
        if ids is None:
            return queryset
        condition = Q(**{f"{_club_lookup(self.club_path)}__in": ids})
        if with_shared and self.shared_q is not None:
            condition |= self.shared_q
        return queryset.filter(condition)  # forward foreign keys only: no duplicate rows

    def get_queryset(self, request):
        return self.scope(super().get_queryset(request), request.user)

    def in_scope(self, request, obj) -> bool:
        """The object (and, when it is already stored, its stored row) belongs to a club the user administers."""
        ids = administered_club_ids(request.user)
        if ids is None:
            return True
        if club_id_of(obj, self.club_path) not in ids:
            return False
        if obj.pk is not None:
            stored = (self.model._default_manager.filter(pk=obj.pk)
                      .values_list(_club_lookup(self.club_path), flat=True).first())
            if stored is not None and stored not in ids:
                return False
        return True

    def _shared(self, obj) -> bool:
        if self.shared_q is None or obj.pk is None:
            return False
        return self.model._default_manager.filter(self.shared_q, pk=obj.pk).exists()

    def get_object(self, request, object_id, from_field=None):
        obj = super().get_object(request, object_id, from_field)
        if obj is None and administered_club_ids(request.user) is not None:
            # Another club's object: refuse outright rather than pretend it does not exist.
            field = self.model._meta.pk if from_field is None else self.model._meta.get_field(from_field)
            try:
                value = field.to_python(object_id)
                exists = self.model._default_manager.filter(**{field.attname: value}).exists()
            except (ValidationError, ValueError, TypeError):
                exists = False
            if exists:
                raise PermissionDenied
        return obj

    # --- object-level permissions ------------------------------------------------------------------------------
    def has_view_permission(self, request, obj=None):
        allowed = super().has_view_permission(request, obj)
        return allowed and (obj is None or self.in_scope(request, obj) or self._shared(obj))

    def has_change_permission(self, request, obj=None):
        allowed = super().has_change_permission(request, obj)
        return allowed and (obj is None or self.in_scope(request, obj))

    def has_delete_permission(self, request, obj=None):
        allowed = super().has_delete_permission(request, obj)
        return allowed and (obj is None or self.in_scope(request, obj))

    # --- choices ------------------------------------------------------------------------------------------------
    def formfield_for_foreignkey(self, db_field, request, **kwargs):
        if db_field.related_model is get_user_model() and administered_club_ids(request.user) is not None:
            # Logins belong to no club: a club admin types a login's id instead of choosing from every login of
            # the site (which would list the other clubs' people).
            kwargs["widget"] = widgets.ForeignKeyRawIdWidget(db_field.remote_field, self.admin_site,
                                                             using=kwargs.get("using"))
        formfield = super().formfield_for_foreignkey(db_field, request, **kwargs)
        related_admin = self.admin_site._registry.get(db_field.related_model)
        if formfield is not None and isinstance(related_admin, ClubScopedAdmin):
            formfield.queryset = related_admin.scope(formfield.queryset, request.user)
        elif formfield is not None and db_field.related_model is Club:
            formfield.queryset = ClubAdminScope.scope(formfield.queryset, request.user)
        return formfield

    def formfield_for_manytomany(self, db_field, request, **kwargs):
        formfield = super().formfield_for_manytomany(db_field, request, **kwargs)
        related_admin = self.admin_site._registry.get(db_field.related_model)
        if formfield is not None and isinstance(related_admin, ClubScopedAdmin):
            formfield.queryset = related_admin.scope(formfield.queryset, request.user)
        return formfield

    # --- writes -------------------------------------------------------------------------------------------------
    def save_model(self, request, obj, form, change):
        if not self.in_scope(request, obj):
            raise PermissionDenied
        super().save_model(request, obj, form, change)

    def delete_model(self, request, obj):
        if not self.in_scope(request, obj):
            raise PermissionDenied
        super().delete_model(request, obj)

    def delete_queryset(self, request, queryset):
        super().delete_queryset(request, self.scope(queryset, request.user, with_shared=False))


class _ClubScope(ClubScopedAdmin):
    club_path = ""


ClubAdminScope = _ClubScope()  # scoping for foreign keys to Club when the Club admin is not registered


class SuperuserOnlyAdmin(HistoryIdsAdmin):
    """Mixed into the admin of every model that has no club: only a superuser reaches it."""

    @staticmethod
    def _superuser(request) -> bool:
        return bool(request.user.is_active and request.user.is_superuser)

    def has_module_permission(self, request):
        return self._superuser(request) and super().has_module_permission(request)

    def has_view_permission(self, request, obj=None):
        return self._superuser(request) and super().has_view_permission(request, obj)

    def has_add_permission(self, request, *args):
        return self._superuser(request) and super().has_add_permission(request, *args)

    def has_change_permission(self, request, obj=None):
        return self._superuser(request) and super().has_change_permission(request, obj)

    def has_delete_permission(self, request, obj=None):
        return self._superuser(request) and super().has_delete_permission(request, obj)


def restrict_unscoped(site: admin.AdminSite | None = None) -> None:
    """Make every registered admin that is not club-scoped superuser-only (auth, axes, django-tasks…)."""
    site = site or admin.site
    for model, model_admin in list(site._registry.items()):
        if isinstance(model_admin, (ClubScopedAdmin, SuperuserOnlyAdmin)):
            continue
        cls = type(model_admin)
        site.unregister(model)
        site.register(model, type(f"SuperuserOnly{cls.__name__}", (SuperuserOnlyAdmin, cls), {"__module__": cls.__module__}))


def unscoped_model_admins(site: admin.AdminSite | None = None) -> list[str]:
    """Registered admins of club-level models that do not mix ClubScopedAdmin in (the tests require none)."""
    site = site or admin.site
    missing = []
    for model, model_admin in site._registry.items():
        if isinstance(model_admin, ClubScopedAdmin):
            continue
        if model._meta.app_label in {"club", "games", "ratings"}:
            missing.append(model._meta.label)
    return missing
