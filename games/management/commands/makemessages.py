"""`makemessages` that also extracts the rules engine's message templates, marked with `N_` (games/rules/i18n.py).

games/rules cannot import Django, so its messages are marked with a gettext_noop-style `N_` and translated by
games/i18n.py when shown; `NC_(context, word)` marks a small word with a context (pgettext_noop style).
"""

from django.core.management.commands.makemessages import Command as MakeMessagesCommand


class Command(MakeMessagesCommand):
    xgettext_options = MakeMessagesCommand.xgettext_options + ["--keyword=N_", "--keyword=NC_:1c,2"]
