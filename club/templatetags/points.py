"""`{{ value|points }}`: a score as judges write it — at most 3 decimals, no trailing zeros, the locale's comma."""

from decimal import ROUND_HALF_UP, Decimal, InvalidOperation

from django import template
from django.utils.formats import number_format

register = template.Library()


@register.filter
def points(value, places: int = 3):
    """1.600 → "1,6" (ru) / "1.6" (en); 0.333333 → "0,333"; 1.0000 → "1"; None → ""."""
    if value is None or value == "":
        return ""
    try:
        number = Decimal(str(value)).quantize(Decimal(1).scaleb(-int(places)), rounding=ROUND_HALF_UP)
    except (InvalidOperation, ValueError):
        return value
    number = number.normalize()
    if number == 0:
        number = Decimal(0)
    exponent = number.as_tuple().exponent  # an int: a finite number after quantize
    decimals = max(0, -exponent) if isinstance(exponent, int) else 0
    return number_format(number, decimal_pos=decimals)
