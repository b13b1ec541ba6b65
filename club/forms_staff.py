"""Forms of the staff page (/staff/): give a role by login name, take one away."""

from __future__ import annotations

from django import forms
from django.contrib.auth import get_user_model
from django.utils.translation import gettext_lazy as _

from club import selectors
from club.models import Membership


class StaffRoleForm(forms.Form):
    username = forms.CharField(label=_("Login name"), max_length=150)
    role = forms.ChoiceField(label=_("Role"), choices=Membership.Role.choices)

    def clean_username(self):
        username = self.cleaned_data["username"]
        user = selectors.user_by_username(username)
        if user is None:
            raise forms.ValidationError(
                _("No login is named “%(username)s”: the person signs up on the site first."),
                params={"username": username}, code="unknown")
        return user


class StaffRemoveForm(forms.Form):
    user = forms.ModelChoiceField(label=_("Login"), queryset=get_user_model().objects.all())
    role = forms.ChoiceField(label=_("Role"), choices=Membership.Role.choices)
