"""/admin/ speaks Russian where it stays: every app's and model's name on its index page (ours through their
verbose names, third-party ones through our catalogue or a small AppConfig subclass: club/apps_vendor.py)."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

CYRILLIC = re.compile(r"[а-яё]", re.IGNORECASE)
PROPER_NAMES = {"API"}  # names no language translates


@pytest.mark.django_db
def test_the_admin_index_names_every_app_and_model_in_russian(client):
    client.force_login(get_user_model().objects.create_superuser("root", "root@example.org", "x-Pass-2026"))
    html = client.get(reverse("admin:index")).content.decode()
    labels = [re.sub(r"<[^>]+>", "", label).strip()
              for label in re.findall(r"<caption>.*?</caption>|<th scope=\"row\"[^>]*>.*?</th>", html, re.S)]
    assert len(labels) > 20  # the page was read: the apps and their models
    english = [label for label in labels if not CYRILLIC.search(label) and label not in PROPER_NAMES]
    assert english == []
