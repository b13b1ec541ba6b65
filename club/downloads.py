"""Files the site hands out: a JSON document as a download, readable (UTF-8, indented)."""

from django.http import HttpResponse, JsonResponse


def json_download(data, filename: str) -> HttpResponse:
    response = JsonResponse(data, json_dumps_params={"ensure_ascii": False, "indent": 2})
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response
