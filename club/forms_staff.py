"""Forms of the staff page (/staff/): give a role to a login picked by name, take one away."""

from __future__ import annotations

from django import forms
from django.contrib.auth import get_user_model
from django.utils.translation import gettext_lazy as _

from club.models import Membership


def role_field(label=None) -> forms.ChoiceField:
    """The role to give, the least power first: a judge unless the admin chooses more."""
    return forms.ChoiceField(label=label or _("Role"), choices=Membership.Role.choices, initial=Membership.Role.JUDGE)


class StaffRoleForm(forms.Form):
    """The login is picked from the search's results (its player's nickname and club shown), never typed."""

    user = forms.ModelChoiceField(label=_("Login"), queryset=get_user_model().objects.filter(is_active=True),
                                  widget=forms.HiddenInput,
                                  error_messages={"required": _("Choose the person in the search's results."),
                                                  "invalid_choice": _("Choose the person in the search's results.")})
    role = role_field()


class LoginSearchForm(forms.Form):
    q = forms.CharField(label=_("Find a login by nickname, name or login"), max_length=150, required=False)


class StaffRemoveForm(forms.Form):
    user = forms.ModelChoiceField(label=_("Login"), queryset=get_user_model().objects.all())
    role = forms.ChoiceField(label=_("Role"), choices=Membership.Role.choices)
