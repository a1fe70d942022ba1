"""The Starlette app: HTTP API, /ws, the static client; its lifespan starts and stops it all."""

from __future__ import annotations

import contextlib
import logging
from collections.abc import AsyncIterator, Awaitable
from typing import Any

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import WebSocketRoute
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from starlette.websockets import WebSocket

from scorpion.race import Referee
from scorpion.store import Store, StoreUnavailable, open_store

from .config import Database, Settings, find_client_dir
from .http_api import routes
from .http_metrics import RequestMetrics, known
from .http_share import replay_head
from .logs import AccessLog
from .responses import error
from .services import Services
from .static import CSP, SECURITY_HEADERS, static_routes
from .ws import ws_endpoint, ws_route

log = logging.getLogger("scorpion.web")


class SecurityHeaders:
    """Adds SECURITY_HEADERS to every HTTP response (pure ASGI: no buffering)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self.headers = [(k.lower().encode(), v.encode()) for k, v in SECURITY_HEADERS.items()]

    def __call__(self, scope: Scope, receive: Receive, send: Send) -> Awaitable[None]:
        # Not a coroutine itself: a websocket, held open for hours, keeps no frame of it.
        if scope["type"] != "http":
            return self.app(scope, receive, send)
        return self._http(scope, receive, send)

    async def _http(self, scope: Scope, receive: Receive, send: Send) -> None:
        headers = [*self.headers, csp(scope)]

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), *headers]
            await send(message)

        await self.app(scope, receive, send_with_headers)


class App(Starlette):
    """The app, with ``/ws`` taken straight to its endpoint (through the access log only).

    A socket held open for hours keeps a suspended coroutine for every layer it went
    through: Starlette's error middleware, exception middleware, router, route and
    session wrappers are 10 of its 17, none of which does anything for a websocket here
    (no route but /ws, no handler for websocket errors). Measured at 10,000 idle sockets:
    22.0-22.3 KB each instead of 26.6-26.8, and fewer objects for the garbage collector.
    """

    def __init__(self, *args: Any, direct_ws: bool = True, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.websocket = AccessLog(self._session)
        self.direct_ws = direct_ws  # False (shortcuts off): /ws is a plain Starlette route

    def __call__(self, scope: Scope, receive: Receive, send: Send) -> Awaitable[None]:  # type: ignore[override]
        if self.direct_ws and scope["type"] == "websocket" and scope["path"] == "/ws":
            scope["app"] = self  # as Starlette sets it (the endpoint finds the services)
            return self.websocket(scope, receive, send)
        return super().__call__(scope, receive, send)

    @staticmethod
    def _session(scope: Scope, receive: Receive, send: Send) -> Awaitable[None]:
        return ws_endpoint(WebSocket(scope, receive, send), receive, send)


def csp(scope: Scope) -> tuple[bytes, bytes]:
    """The Content-Security-Policy, naming this host's websocket URL explicitly (older
    browsers do not count ws: as 'self')."""
    host = dict(scope.get("headers", [])).get(b"host", b"").decode("latin-1")
    safe = host if host and all(c.isalnum() or c in ".-:[]" for c in host) else ""
    sockets = f" ws://{safe} wss://{safe}" if safe else ""
    return b"content-security-policy", (CSP + sockets + ";").encode()


async def store_unavailable(request: Request, exc: Exception) -> Response:
    """The database is away (starting, restarting): a retryable 503."""
    return error(503, "unavailable", "the database is unavailable: retry shortly")


async def server_error(request: Request, exc: Exception) -> Response:
    """Unexpected errors answer JSON like the rest of the API (details go to the log)."""
    return error(500, "server-error", "the server could not handle this request")


def create_store(db: Database) -> Store:
    """The store for the ``db`` setting (``open_store`` picks the implementation)."""
    return open_store(db.url if db.kind == "postgresql" else str(db.path))


def create_app(
    settings: Settings, store: Store | None = None, referee: Referee | None = None
) -> Starlette:
    services = Services(settings, store or create_store(settings.db), referee)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await services.start()
        try:
            yield
        finally:
            # uvicorn closes open sockets with 1012 before this runs; scorpion.web.server
            # closes them with 1001 first. Here: whatever is still open, then the store.
            await services.stop()

    client = find_client_dir(settings.client)
    if client is None:
        log.warning("no browser client found: / answers 404 (give --client FOLDER)")
    shortcuts = settings.shortcuts == "on"
    plain_ws = [] if shortcuts else [WebSocketRoute("/ws", ws_route)]
    app = App(
        direct_ws=shortcuts,
        routes=[*routes(), *plain_ws, *static_routes(client, replay_head)],
        middleware=[
            Middleware(AccessLog),
            Middleware(RequestMetrics, metrics=services.metrics),
            Middleware(SecurityHeaders),
        ],
        exception_handlers={StoreUnavailable: store_unavailable, Exception: server_error},
        lifespan=lifespan,
    )
    app.state.services = services
    known(services.metrics, app.routes)
    return app
