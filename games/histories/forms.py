"""The history upload form (docs/imports.md): the files, their format, the tournament and rule set to use."""

from django import forms
from django.utils.translation import gettext_lazy as _

from games.protocol.forms import ImportForm, MultipleFileInput


class HistoryImportForm(ImportForm):
    FORMATS = [("xlsx", _("Results sheet (XLSX)")), ("csv", _("Results sheet (CSV)")),
               ("protocol-xlsx", _("Protocol sheets (XLSX, a game per sheet)")),
               ("protocol-csv", _("Protocol sheet (CSV, a row per seat)")),
               ("mafiaratings", _("MafiaRatings games (JSON)"))]

    format = forms.ChoiceField(label=_("Format"), choices=FORMATS)
    tournament = forms.CharField(label=_("Tournament"), max_length=200, required=False,
                                 help_text=_("Every game goes into this tournament (made if absent). Empty: by the "
                                             "file's events, else by date."))
    ruleset = forms.CharField(label=_("Rule set code"), max_length=60, required=False,
                              help_text=_("Empty: the club's rule set."))

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["files"].label = _("Files")
        self.fields["files"].widget = MultipleFileInput(attrs={"accept": ".xlsx,.csv,.json"})
        self.order_fields(["format", "files", "tournament", "ruleset"])
