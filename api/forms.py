"""The token staff page's forms: issue a token for a member of the club's staff, revoke one."""

from __future__ import annotations

from typing import Any, cast

from django import forms
from django.contrib.auth import get_user_model
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from api.models import ApiToken
from club.selectors import person_name


class HolderChoice(forms.ModelChoiceField):
    def label_from_instance(self, obj) -> str:
        name = person_name(obj)
        return f"{name} ({obj.get_username()})" if name and name != obj.get_username() else obj.get_username()


class TokenIssueForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=120, help_text=_("What the token is for, e.g. a Telegram bot."))
    holder = HolderChoice(label=_("Holder"), queryset=get_user_model().objects.none(), empty_label=None,
                          help_text=_("The token reads this club only, with its holder's roles here; an admin's "
                                      "token may also import protocols. A holder with powers you lack (the site's "
                                      "superuser) is refused."))

    def __init__(self, *args, club, by, **kwargs):
        super().__init__(*args, **kwargs)
        users = get_user_model().objects.filter(Q(memberships__club=club) | Q(pk=by.pk)).distinct()
        holder = cast("forms.ModelChoiceField[Any]", self.fields["holder"])
        holder.queryset = users.order_by("username")
        holder.initial = by.pk


class TokenRevokeForm(forms.Form):
    token = forms.ModelChoiceField(label=_("Token"), queryset=ApiToken.objects.none())

    def __init__(self, *args, club, **kwargs):
        super().__init__(*args, **kwargs)
        cast("forms.ModelChoiceField[Any]", self.fields["token"]).queryset = ApiToken.objects.filter(club=club)
