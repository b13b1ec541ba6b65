from decimal import Decimal

import pytest
from django.utils import translation

from club.templatetags.points import points


@pytest.mark.parametrize(("value", "ru", "en"), [
    (Decimal("1.600000"), "1,6", "1.6"),
    (Decimal("0.333333"), "0,333", "0.333"),
    (Decimal("0.8333335"), "0,833", "0.833"),
    (Decimal("1.000000"), "1", "1"),
    (Decimal("-0.500000"), "-0,5", "-0.5"),
    (Decimal("0.125"), "0,125", "0.125"),
    (Decimal("0.0000"), "0", "0"),
    (None, "", ""),
])
def test_points_are_written_as_judges_write_them(value, ru, en):
    with translation.override("ru"):
        assert points(value) == ru
    with translation.override("en"):
        assert points(value) == en
