"""The roster paste's form: the pasted list (checked and matched by club.selectors_roster)."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy


class RosterPasteForm(forms.Form):
    players = forms.CharField(
        label=gettext_lazy("Players, one per line"), max_length=40_000,
        widget=forms.Textarea(attrs={"rows": 12, "placeholder": gettext_lazy("Fox; Alice Fox\nRaven")}),
        help_text=gettext_lazy("A nickname, and after a semicolon, a comma or a tab the real name if you know it "
                               "(two columns of a spreadsheet paste as they are)."))
