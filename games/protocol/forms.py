"""The protocol import's upload form (mafclub/1 JSON files, see docs/)."""

from django import forms
from django.utils.translation import gettext_lazy as _


class MultipleFileInput(forms.ClearableFileInput):
    allow_multiple_selected = True


class MultipleFileField(forms.FileField):
    """Django's documented recipe for a field taking several files."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("widget", MultipleFileInput(attrs={"accept": ".json,application/json"}))
        super().__init__(*args, **kwargs)

    def clean(self, data, initial=None):
        single = super().clean
        if isinstance(data, (list, tuple)):
            return [single(item, initial) for item in data]
        return [single(data, initial)]


class ImportForm(forms.Form):
    MAX_BYTES = 20 * 1024 * 1024

    # the metaclass moves a declared field into `base_fields`: the form's `files` (the upload dict) stays Django's
    files = MultipleFileField(  # type: ignore[assignment]
        label=_("mafclub/1 JSON files"),
        help_text=_("All files are imported in one transaction: on any error nothing is saved."),
    )

    def clean_files(self):
        uploads = self.cleaned_data["files"]
        for upload in uploads:
            if upload.size > self.MAX_BYTES:
                raise forms.ValidationError(_("%(name)s is larger than 20 MB.") % {"name": upload.name})
        return uploads
