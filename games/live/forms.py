"""Live entry's forms: a new tournament, a club evening, a game at a table."""

from typing import Any, cast

from django import forms
from django.contrib.auth import get_user_model
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from club.selectors import person_name
from games.models import RuleSetVersion


def _rulesets_for(club):
    return RuleSetVersion.objects.filter(Q(club__isnull=True) | Q(club=club)).order_by("slug", "-version")


class TournamentForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=200)
    start_date = forms.DateField(label=_("Start date"), required=False, widget=forms.DateInput(attrs={"type": "date"}))
    end_date = forms.DateField(label=_("End date"), required=False, widget=forms.DateInput(attrs={"type": "date"}))
    start_time = forms.TimeField(label=_("Start time"), required=False, widget=forms.TimeInput(attrs={"type": "time"}))
    place = forms.CharField(label=_("Place"), max_length=200, required=False)
    ruleset: "forms.ModelChoiceField[Any]" = forms.ModelChoiceField(label=_("Rule set"), queryset=None,
                                     help_text=_("A preset or the club's own copy."))
    head_judge: "forms.ModelChoiceField[Any]" = forms.ModelChoiceField(label=_("Head judge"), queryset=None, required=False)
    stages = forms.CharField(label=_("Stages"), required=False, help_text=_("Comma-separated, e.g. Qualifying, Final"))

    def __init__(self, *args, club, **kwargs):
        super().__init__(*args, **kwargs)
        ruleset = cast("forms.ModelChoiceField[Any]", self.fields["ruleset"])
        ruleset.queryset = _rulesets_for(club)
        ruleset.initial = club.default_ruleset_id  # the club's own rules unless chosen otherwise
        head_judge = cast("forms.ModelChoiceField[Any]", self.fields["head_judge"])
        head_judge.queryset = get_user_model().objects.filter(memberships__club=club).distinct().order_by("username")
        head_judge.label_from_instance = person_name  # type: ignore[method-assign, assignment]

    def clean_stages(self):
        return [s.strip() for s in self.cleaned_data["stages"].split(",") if s.strip()]


class EveningForm(forms.Form):
    date = forms.DateField(label=_("Date"), widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"))
    name = forms.CharField(label=_("Name"), max_length=200, required=False)
    start_time = forms.TimeField(label=_("Start time"), required=False, widget=forms.TimeInput(attrs={"type": "time"}))
    place = forms.CharField(label=_("Place"), max_length=200, required=False)
    ruleset: "forms.ModelChoiceField[Any]" = forms.ModelChoiceField(label=_("Rule set"), queryset=None)

    def __init__(self, *args, club, **kwargs):
        super().__init__(*args, **kwargs)
        cast("forms.ModelChoiceField[Any]", self.fields["ruleset"]).queryset = _rulesets_for(club)
        # a new evening is tonight's, under the club's rule set
        self.fields["date"].initial = timezone.localdate()
        last = club.evenings.order_by("-date", "-id").values_list("ruleset_id", flat=True).first()
        self.fields["ruleset"].initial = club.default_ruleset_id or last


class NewGameForm(forms.Form):
    tournament = forms.IntegerField(required=False, widget=forms.HiddenInput)
    evening = forms.IntegerField(required=False, widget=forms.HiddenInput)
    table = forms.IntegerField(label=_("Table"), min_value=1, max_value=99, required=False)
