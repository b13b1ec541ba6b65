"""Seed the four rule-set presets (docs/rules.md, Decisions) as version 1 of their slugs."""

from django.db import migrations


def seed_presets(apps, schema_editor):
    from games.rules.ruleset import PRESETS

    RuleSetVersion = apps.get_model("games", "RuleSetVersion")
    for preset in PRESETS.values():
        RuleSetVersion.objects.update_or_create(
            slug=preset.slug, version=1,
            defaults={"name": preset.name, "is_preset": True, "params": preset.to_dict(), "club": None},
        )


def unseed_presets(apps, schema_editor):
    apps.get_model("games", "RuleSetVersion").objects.filter(is_preset=True).delete()


class Migration(migrations.Migration):
    dependencies = [("games", "0001_initial")]
    operations = [migrations.RunPython(seed_presets, unseed_presets)]
