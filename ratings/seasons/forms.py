from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from ratings.seasons.services import NAME_MAX_LENGTH


class SeasonForm(forms.Form):
    """Name and dates of a season. The rules (start ≤ end, …) live in ratings.seasons.services; the form only parses."""

    name = forms.CharField(label=_("Name"), max_length=NAME_MAX_LENGTH)
    start = forms.DateField(label=_("Start date"), widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"))
    end = forms.DateField(label=_("End date"), widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"))

    @classmethod
    def of(cls, season, data=None) -> SeasonForm:
        return cls(data, initial={"name": season.name, "start": season.start, "end": season.end},
                   prefix=f"season-{season.pk}")
