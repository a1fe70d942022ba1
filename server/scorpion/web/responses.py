"""JSON responses (orjson) and the API's error shape: {"error": {"code", "message"}}."""

from __future__ import annotations

from typing import Any

import orjson
from starlette.requests import ClientDisconnect, Request
from starlette.responses import JSONResponse

from .config import Limits


class ORJSONResponse(JSONResponse):
    def render(self, content: Any) -> bytes:
        return orjson.dumps(content)


class ApiError(ValueError):
    """An HTTP error with a stable code (see docs/http-api.md)."""

    def __init__(
        self, status: int, code: str, message: str, extra: dict[str, Any] | None = None
    ) -> None:
        super().__init__(message)
        self.status, self.code, self.message = status, code, message
        self.extra = extra  # more fields of the error object (a replay's ``opens_at``)


def ok(content: Any, status: int = 200) -> ORJSONResponse:
    return ORJSONResponse(content, status_code=status, headers={"Cache-Control": "no-store"})


def error(
    status: int, code: str, message: str, extra: dict[str, Any] | None = None
) -> ORJSONResponse:
    return ORJSONResponse(
        {"error": {"code": code, "message": message, **(extra or {})}},
        status_code=status,
        headers={"Cache-Control": "no-store"},  # like every API answer (docs/http-api.md)
    )


def require_json(request: Request) -> None:
    """415 ``not-json`` unless ``Content-Type`` is ``application/json``. A page on any site
    may make a visitor's browser POST a form or ``text/plain`` without asking (no CORS
    preflight), but not ``application/json``: so no other site spends this address's
    budgets (new players, codes tried). Checked before anything is counted."""
    media = request.headers.get("content-type", "").split(";", 1)[0].strip().lower()
    if media != "application/json":
        raise ApiError(
            415, "not-json", "send the body as JSON with 'Content-Type: application/json'"
        )


async def json_body(request: Request, limits: Limits, required: bool = True) -> dict[str, Any]:
    """The request's JSON object body, or ApiError (415 not said to be JSON, 413 too large,
    400 not a JSON object)."""
    require_json(request)
    length = request.headers.get("content-length")
    if length is not None and (not length.isdigit() or int(length) > limits.max_body):
        raise ApiError(413, "too-large", f"the body is over {limits.max_body} bytes")
    body = b""
    try:
        async for chunk in request.stream():
            body += chunk
            if len(body) > limits.max_body:
                raise ApiError(413, "too-large", f"the body is over {limits.max_body} bytes")
    except ClientDisconnect:  # gone, or its body too slow (closed by http_protocol)
        raise ApiError(408, "timeout", "the body did not arrive in time") from None
    if not body.strip():
        if required:
            raise ApiError(400, "bad-json", "the body must be a JSON object")
        return {}
    try:
        data = orjson.loads(body)
    except orjson.JSONDecodeError as exc:
        raise ApiError(400, "bad-json", f"the body is not JSON: {exc}") from None
    if not isinstance(data, dict):
        raise ApiError(400, "bad-json", "the body must be a JSON object")
    return data
