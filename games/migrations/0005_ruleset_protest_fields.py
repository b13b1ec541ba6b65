"""Rule-set parameters that replace branches on the rule book's number (docs/rules.md, "Parameters").

Every stored version gets `protest_needs_sk_agreement`, `team_vote_annulment` and `conditional_items` with the
values its behaviour had before they existed: the СК agreement and the conditional items of 002 for versions of
the 002 book, the team vote for 003 versions and any version with the "3 misses → red win" stalemate rule.
"""

from django.db import migrations

CML_CONDITIONAL_ITEMS = [
    {"pattern": r"III\.6\s*/\s*-0\.3", "holds_if": "team_lost_or_drew", "clause": "002 III.6 l.345", "checked": True,
     "lapses": True},
    {"pattern": r"III\.5\s*l\.317", "holds_if": "red_lost", "clause": "002 III.5 l.317", "checked": False,
     "lapses": True},
]
NEW_KEYS = ("protest_needs_sk_agreement", "team_vote_annulment", "conditional_items")


def fill(apps, schema_editor):
    RuleSetVersion = apps.get_model("games", "RuleSetVersion")
    for version in RuleSetVersion.objects.all():
        params = dict(version.params)
        book = params.get("source")
        params.setdefault("protest_needs_sk_agreement", book == "002")
        params.setdefault("team_vote_annulment", book == "003" or params.get("draw_rule") == "three_misses_red_win")
        params.setdefault("conditional_items", CML_CONDITIONAL_ITEMS if book == "002" else [])
        if params != version.params:
            version.params = params
            version.save(update_fields=["params"])


def unfill(apps, schema_editor):
    RuleSetVersion = apps.get_model("games", "RuleSetVersion")
    for version in RuleSetVersion.objects.all():
        params = {k: v for k, v in version.params.items() if k not in NEW_KEYS}
        if params != version.params:
            version.params = params
            version.save(update_fields=["params"])


class Migration(migrations.Migration):
    dependencies = [("games", "0004_points_six_decimals")]
    operations = [migrations.RunPython(fill, unfill)]
