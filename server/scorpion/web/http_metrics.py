"""HTTP request counts and latency by route template, method and status class.

A label takes the route's template (``/api/rooms/{room_id}``), never the path a client
sent: a client choosing paths cannot make new series. A path no route matches counts as
:data:`UNMATCHED`; a method the app does not serve as ``OTHER``.

>>> status_class(204), status_class(404)
('2xx', '4xx')
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Iterable

from starlette.routing import BaseRoute, Route
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .metrics import Metrics

METHODS = frozenset({"GET", "HEAD", "POST", "PATCH", "PUT", "DELETE", "OPTIONS"})
UNMATCHED = "unmatched"
STATUS_CLASSES = ("2xx", "3xx", "4xx", "5xx")


def status_class(status: int) -> str:
    return f"{status // 100}xx"


def method_of(scope: Scope) -> str:
    method: str = scope.get("method", "")
    return method if method in METHODS else "OTHER"


def route_of(scope: Scope) -> str:
    """The template of the route the router matched (Starlette puts it in the scope)."""
    route = scope.get("route")
    path = getattr(route, "path", None)
    return path if isinstance(path, str) else UNMATCHED


def known(metrics: Metrics, routes: Iterable[BaseRoute]) -> None:
    """Export every route's request counters at 0 from the start (rate() and alerts see a
    route before its first request)."""
    for route in routes:
        if isinstance(route, Route):
            for method in route.methods or ():
                for status in STATUS_CLASSES:
                    metrics.http_requests.labels(route.path, method, status)


class RequestMetrics:
    """Pure ASGI middleware: counts and times every HTTP request (websockets pass)."""

    def __init__(self, app: ASGIApp, metrics: Metrics) -> None:
        self.app = app
        self.metrics = metrics

    def __call__(self, scope: Scope, receive: Receive, send: Send) -> Awaitable[None]:
        if scope["type"] != "http":
            return self.app(scope, receive, send)
        return self._http(scope, receive, send)

    async def _http(self, scope: Scope, receive: Receive, send: Send) -> None:
        started = time.perf_counter()
        status = 500  # an exception that escapes every handler is answered 500

        async def send_status(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            await send(message)

        try:
            await self.app(scope, receive, send_status)
        finally:
            route, method = route_of(scope), method_of(scope)
            self.metrics.http_requests.labels(route, method, status_class(status)).inc()
            self.metrics.http_seconds.labels(route, method).observe(time.perf_counter() - started)
            if status >= 400:
                self.metrics.http_errors.labels(str(status)).inc()
