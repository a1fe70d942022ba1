"""HTTP: the presets as data (docs/http-api.md, GET /api/presets), for the rules page.

The client shows these options and sentences; it never derives a rule of its own.
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response

from scorpion.engine.describe import describe_presets

from .responses import ORJSONResponse

PRESETS_JSON = {"presets": describe_presets()}


async def list_presets(request: Request) -> Response:
    """GET /api/presets -> {"presets": [{name, label, summary, options, rules}]}"""
    # The same for every request until the server restarts: cacheable, but revalidated.
    return ORJSONResponse(PRESETS_JSON, headers={"Cache-Control": "no-cache"})
