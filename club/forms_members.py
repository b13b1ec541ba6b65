"""Forms of a player's memberships on his card (club.services_members): the club and the date he joined it."""

from __future__ import annotations

from django import forms
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from club.models import Club


def _club_field() -> forms.ModelChoiceField:
    return forms.ModelChoiceField(label=_("Club"), queryset=Club.objects.all(),
                                  error_messages={"required": _("Choose the club."),
                                                  "invalid_choice": _("Choose the club.")})


class MemberAddForm(forms.Form):
    club = _club_field()
    joined = forms.DateField(label=_("Date joined"), required=False, widget=forms.DateInput(attrs={"type": "date"}),
                             help_text=_("Today, if left empty."),
                             error_messages={"invalid": _("Enter the date joined as a date.")})

    def clean_joined(self):
        return self.cleaned_data.get("joined") or timezone.localdate()


class MemberEndForm(forms.Form):
    club = _club_field()
