"""The organiser's form that puts a player on the sign-up list."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy


class AddForm(forms.Form):
    nickname = forms.CharField(label=gettext_lazy("Nickname"), max_length=200)
    new_player = forms.BooleanField(label=gettext_lazy("a new player"), required=False)
    over_limit = forms.BooleanField(label=gettext_lazy("beyond the limit of places"), required=False)


class PasteForm(forms.Form):
    players = forms.CharField(label=gettext_lazy("Players, one per line"), max_length=20_000,
                              widget=forms.Textarea(attrs={"rows": 8}))
