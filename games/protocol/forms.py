"""The protocol import's upload form (mafclub/1 JSON files, see docs/)."""

from django import forms
from django.utils.translation import gettext_lazy as _

from club.forms_files import MultipleFileField


class ImportForm(forms.Form):
    MAX_BYTES = 20 * 1024 * 1024

    # the metaclass moves a declared field into `base_fields`: the form's `files` (the upload dict) stays Django's
    files = MultipleFileField(  # type: ignore[assignment]
        accept=".json,application/json",
        label=_("mafclub/1 JSON files"),
        help_text=_("All files are imported in one transaction: on any error nothing is saved."),
    )

    def clean_files(self):
        uploads = self.cleaned_data["files"]
        for upload in uploads:
            if upload.size > self.MAX_BYTES:
                raise forms.ValidationError(_("%(name)s is larger than 20 MB.") % {"name": upload.name})
        return uploads
