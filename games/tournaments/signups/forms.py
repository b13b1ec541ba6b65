"""Forms of the sign-ups: the player's note, the organiser's sheet."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from games.tournaments.signups.services import NOTE_MAX


class JoinForm(forms.Form):
    note = forms.CharField(label=_("Note to the organiser"), max_length=NOTE_MAX, required=False)


class _Local(forms.DateTimeInput):
    input_type = "datetime-local"

    def __init__(self):
        super().__init__(format="%Y-%m-%dT%H:%M")


class SheetForm(forms.Form):
    starts_at = forms.DateTimeField(label=_("Starts at"), widget=_Local())
    place = forms.CharField(label=_("Place"), max_length=200, required=False)
    opens_at = forms.DateTimeField(label=_("Sign-up opens"), widget=_Local())
    closes_at = forms.DateTimeField(label=_("Sign-up closes"), widget=_Local())
    cancel_until = forms.DateTimeField(label=_("Cancel until"), widget=_Local(), required=False,
                                       help_text=_("Empty: until the sign-up closes."))
    limit = forms.IntegerField(label=_("Places"), min_value=1, max_value=500, required=False,
                               help_text=_("Empty: no limit, nobody waits."))
