import pytest

from games.models import RuleSetVersion

pytestmark = [pytest.mark.django_db(transaction=True)]

def test_b(request, live_server):
    from django.db import connection
    print("B:", request.node.get_closest_marker("django_db"), RuleSetVersion.objects.count(), bool(getattr(connection, "_test_serialized_contents", None)), connection.settings_dict["NAME"])
