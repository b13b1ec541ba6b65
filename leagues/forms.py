"""Forms of the league pages; writes go through leagues.services."""

from __future__ import annotations

import json

from django import forms
from django.contrib.auth import get_user_model
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from games.models import RuleSetVersion

MAX_TABLE_BYTES = 256 * 1024


class TableForm(forms.Form):
    """A gaining table's JSON, pasted or uploaded (the file wins)."""

    text = forms.CharField(label=_("Table (JSON)"), widget=forms.Textarea(attrs={"rows": 14}), required=False)
    file = forms.FileField(label=_("or a JSON file"), required=False)

    def clean(self):
        cleaned = super().clean() or {}
        upload = cleaned.get("file")
        text = cleaned.get("text") or ""
        if upload is not None:
            if upload.size > MAX_TABLE_BYTES:
                raise forms.ValidationError(_("file: at most 256 KB."))
            text = upload.read().decode("utf-8", errors="replace")
        if not text.strip():
            raise forms.ValidationError(_("Table: paste the JSON or choose a file."))
        try:
            cleaned["table"] = json.loads(text)
        except (ValueError, RecursionError) as exc:
            raise forms.ValidationError(_("Table: not JSON (%(error)s).") % {"error": exc}) from exc
        return cleaned


class SeriesForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=120)
    version = forms.IntegerField(label=_("Gaining table version"), widget=forms.Select)
    best_of = forms.IntegerField(label=_("Best tournaments counted"), min_value=1, max_value=1000, required=False)
    start = forms.DateField(label=_("From"), required=False, widget=forms.DateInput(attrs={"type": "date"}))
    end = forms.DateField(label=_("To"), required=False, widget=forms.DateInput(attrs={"type": "date"}))

    def __init__(self, *args, versions=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["version"].widget.choices = [
            (v.pk, gettext("%(name)s, version %(n)s") % {"name": v.table.name, "n": v.number}) for v in versions]


class EntryForm(forms.Form):
    tournament = forms.IntegerField(label=_("Tournament"), widget=forms.Select)
    stars = forms.DecimalField(label=_("Stars"), min_value=1, max_value=5, decimal_places=1,
                               widget=forms.NumberInput(attrs={"step": "0.5"}))
    finals = forms.BooleanField(label=_("Finals"), required=False)

    def __init__(self, *args, tournaments=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["tournament"].widget.choices = [(t.pk, f"{t.club.name} · {t.name}") for t in tournaments]


def _preset_choices() -> list[tuple[str, str]]:
    """The preset rule sets by code (the newest version's name), as a league's allowed rule sets are stored."""
    names: dict[str, str] = {}
    for slug, name in RuleSetVersion.objects.filter(is_preset=True).order_by("slug", "-version").values_list(
            "slug", "name"):
        names.setdefault(slug, name)
    return sorted(names.items(), key=lambda item: item[1])


class LeagueForm(forms.Form):
    """A new league (the superuser's): its name, its managers by username, the rule sets its series may use."""

    name = forms.CharField(label=_("Name"), max_length=120)
    managers = forms.CharField(label=_("Managers"), required=False,
                               help_text=_("Usernames, separated by spaces or commas."))
    rulesets = forms.MultipleChoiceField(label=_("Allowed rule sets"), required=False,
                                         widget=forms.CheckboxSelectMultiple,
                                         help_text=_("Leave all unticked for every rule set."))

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        rulesets = self.fields["rulesets"]
        assert isinstance(rulesets, forms.MultipleChoiceField)
        rulesets.choices = _preset_choices()

    def clean_managers(self) -> list:
        names = [n for n in (self.cleaned_data.get("managers") or "").replace(",", " ").split() if n]
        users = {u.username: u for u in get_user_model().objects.filter(username__in=names, is_active=True)}
        missing = [n for n in dict.fromkeys(names) if n not in users]
        if missing:
            raise forms.ValidationError(gettext("Managers: no user named %(names)s.")
                                        % {"names": ", ".join(missing)})
        return [users[n] for n in dict.fromkeys(names)]
