"""The Starlette app: HTTP API, /ws, the static client; its lifespan starts and stops it all."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.routing import WebSocketRoute
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from scorpion.race import Referee
from scorpion.store import SQLiteStore, Store

from .config import Settings, find_client_dir
from .http_api import routes
from .services import Services
from .static import SECURITY_HEADERS, static_routes
from .ws import ws_endpoint


class SecurityHeaders:
    """Adds SECURITY_HEADERS to every HTTP response (pure ASGI: no buffering)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self.headers = [(k.lower().encode(), v.encode()) for k, v in SECURITY_HEADERS.items()]

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), *self.headers]
            await send(message)

        await self.app(scope, receive, send_with_headers)


def create_app(
    settings: Settings, store: Store | None = None, referee: Referee | None = None
) -> Starlette:
    services = Services(settings, store or SQLiteStore(settings.db), referee)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await services.start()
        try:
            yield
        finally:
            # uvicorn closes open sockets with 1012 before this runs; scorpion.web.server
            # closes them with 1001 first. Here: whatever is still open, then the store.
            await services.stop()

    app = Starlette(
        routes=[
            *routes(),
            WebSocketRoute("/ws", ws_endpoint),
            *static_routes(find_client_dir(settings.client_dir)),
        ],
        middleware=[Middleware(SecurityHeaders)],
        lifespan=lifespan,
    )
    app.state.services = services
    return app
