"""What every HTTP handler shares: the services, the error wrapper, the bearer player."""

from __future__ import annotations

import datetime as dt
from collections.abc import Awaitable, Callable

from starlette.requests import Request
from starlette.responses import Response

from scorpion.store import Account

from .auth import bearer
from .responses import ApiError, error
from .services import Services

Handler = Callable[[Request], Awaitable[Response]]


def services(request: Request) -> Services:
    svc: Services = request.app.state.services
    return svc


def today() -> str:
    return dt.datetime.now(dt.UTC).date().isoformat()


def api(handler: Handler) -> Handler:
    """Turn ApiError (and stray ValueErrors of bad input) into JSON errors."""

    async def wrapped(request: Request) -> Response:
        try:
            return await handler(request)
        except ApiError as exc:  # counted in scorpion_http_errors_total by RequestMetrics
            return error(exc.status, exc.code, exc.message, exc.extra)

    wrapped.__name__ = handler.__name__
    wrapped.__doc__ = handler.__doc__
    return wrapped


async def me(request: Request) -> tuple[Account, str]:
    token = bearer(request.headers)
    if token is None:
        raise ApiError(401, "not-authenticated", "send 'Authorization: Bearer <token>'")
    player = await services(request).tokens.player(token)
    if player is None:
        raise ApiError(401, "bad-token", "unknown token: create a player with POST /api/players")
    return player, token


def page_params(request: Request, default: int, most: int) -> tuple[int, float | None]:
    """``limit`` (1 to ``most``, ``default`` when absent) and ``before`` (a start time) of a
    paged list of games; 400 ``bad-field`` for anything else."""
    try:
        limit = int(request.query_params.get("limit", str(default)))
        before_text = request.query_params.get("before")
        before = float(before_text) if before_text is not None else None
    except ValueError:
        raise ApiError(400, "bad-field", "limit is a whole number, before a time") from None
    return max(1, min(limit, most)), before
