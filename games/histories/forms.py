"""The history upload form (docs/imports.md): the files, their format, the tournament and rule set to use."""

from django import forms
from django.utils.translation import gettext_lazy as _

from club.forms_files import MultipleFileField

MAX_BYTES = 20 * 1024 * 1024


class HistoryImportForm(forms.Form):
    FORMATS = [("xlsx", _("Results sheet (XLSX)")), ("csv", _("Results sheet (CSV)")),
               ("protocol-xlsx", _("Protocol sheets (XLSX, a game per sheet)")),
               ("protocol-csv", _("Protocol sheet (CSV, a row per seat)")),
               ("mafiaratings", _("MafiaRatings games (JSON)"))]

    format = forms.ChoiceField(label=_("Format"), choices=FORMATS)
    # the metaclass moves a declared field into `base_fields`: the form's `files` (the upload dict) stays Django's
    files = MultipleFileField(  # type: ignore[assignment]
        accept=".xlsx,.csv,.json",
        label=_("Files"),
        help_text=_("All files are imported in one transaction: on any error nothing is saved."))
    tournament = forms.CharField(label=_("Tournament"), max_length=200, required=False,
                                 help_text=_("Every game goes into this tournament (made if absent). Empty: by the "
                                             "file's events, else by date."))
    ruleset = forms.CharField(label=_("Rule set code"), max_length=60, required=False,
                              help_text=_("Empty: the club's rule set."))

    def clean_files(self):
        uploads = self.cleaned_data["files"]
        for upload in uploads:
            if upload.size > MAX_BYTES:
                raise forms.ValidationError(_("%(name)s is larger than 20 MB.") % {"name": upload.name})
        return uploads
