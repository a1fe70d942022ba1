"""HTTP: the presets as data (docs/http-api.md, GET /api/presets), for the rules page.

The client shows these options and sentences; it never derives a rule of its own. The body
is the same until the server restarts, so it is encoded and gzipped once (9 KB, 2 KB packed).
"""

from __future__ import annotations

import gzip
from typing import Final

import orjson
from starlette.requests import Request
from starlette.responses import Response

from scorpion.engine.describe import describe_presets

from .static import accepts_gzip

PRESETS_JSON = {"presets": describe_presets()}
PRESETS_BODY: Final = orjson.dumps(PRESETS_JSON)
PRESETS_GZIP: Final = gzip.compress(PRESETS_BODY, mtime=0)


async def list_presets(request: Request) -> Response:
    """GET /api/presets -> {"presets": [{name, label, summary, options, rules}]}"""
    # The same for every request until the server restarts: cacheable, but revalidated.
    headers = {"Cache-Control": "no-cache", "Vary": "Accept-Encoding"}
    if accepts_gzip(request.headers.get("accept-encoding", "")):
        headers["Content-Encoding"] = "gzip"
        return Response(PRESETS_GZIP, media_type="application/json", headers=headers)
    return Response(PRESETS_BODY, media_type="application/json", headers=headers)
