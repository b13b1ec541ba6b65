"""The merge page's form: the two players by their ids (the numbers in their cards' addresses)."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from club.models import Player


class MergeForm(forms.Form):
    keep = forms.ModelChoiceField(label=_("Keep the player (id)"), queryset=Player.objects.all(),
                                  widget=forms.NumberInput, help_text=_("The number in his card's address."))
    other = forms.ModelChoiceField(label=_("Merge into him the player (id)"), queryset=Player.objects.all(),
                                   widget=forms.NumberInput,
                                   help_text=_("This player is removed; his card's address leads to the kept one."))
    confirm = forms.BooleanField(required=False, widget=forms.HiddenInput)
