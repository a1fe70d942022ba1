"""Logging: one format for uvicorn and the app, request and connection ids, an access log.

Lines are readable text by default and JSON objects with ``log_format="json"``::

    2026-12-01T00:00:00.123Z INFO  scorpion.web [r7 c3]: websocket closed by server: 4001 ...
    {"time": "...", "level": "INFO", "logger": "scorpion.web", "request": "r7", "conn": 3, ...}

Nothing secret is logged: request lines carry no query string and no header, frames are
never logged (the websockets library's wire log is dropped, even in debug), and as a
last guard every line is scrubbed of bearer tokens and ``"token": ...`` values:

>>> scrub('hello {"type": "hello", "token": "abc"} and Bearer xyz')
'hello {"type": "hello", "token": "***"} and Bearer ***'
"""

from __future__ import annotations

import itertools
import logging
import logging.config
import re
import time
from collections.abc import Awaitable
from contextvars import ContextVar
from typing import Any

import orjson
from starlette.types import ASGIApp, Message, Receive, Scope, Send

REQUEST_ID: ContextVar[str | None] = ContextVar("scorpion_request", default=None)
CONN_ID: ContextVar[int | None] = ContextVar("scorpion_conn", default=None)

_SECRETS = re.compile(
    r"""(?ix)
    (bearer\s+)[^\s"',]+                                    # Authorization: Bearer ...
    | (["']?token["']?\s*[:=]\s*["']?)[^"'\s,}]+            # "token": "...", token=...
    """
)

log = logging.getLogger("scorpion.web")
access = logging.getLogger("scorpion.access")


def scrub(text: str) -> str:
    return _SECRETS.sub(lambda m: (m.group(1) or m.group(2)) + "***", text)


# uvicorn's own lines for each websocket (two more per socket, with the query string):
# AccessLog writes one line when a socket is accepted or refused, and one when it closes.
_UVICORN_WEBSOCKET_LINES = frozenset(
    {
        '%s - "WebSocket %s" [accepted]',
        '%s - "WebSocket %s" %d',
        "connection open",
        "connection rejected (%d %s)",
    }
)


class _Context(logging.Filter):
    """Adds the request and connection ids of the running task to each record, puts a
    warning on one line, drops uvicorn's websocket lines and the websockets library's
    wire log (``< TEXT '{"type": "hello", ...'``, ``< Header:
    value``): uvicorn hands it its own logger, so its debug level would log every frame."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str) and record.msg[:2] in ("< ", "> "):
            return False
        if record.msg in _UVICORN_WEBSOCKET_LINES and record.name.startswith("uvicorn"):
            return False
        if record.name == "py.warnings":  # "file:line: Category: text\n  source line\n"
            record.msg, record.args = " ".join(record.getMessage().split()), ()
        record.request = REQUEST_ID.get()
        record.conn = CONN_ID.get()
        return True


def _utc(record: logging.LogRecord) -> str:
    stamp = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created))
    return f"{stamp}.{int(record.msecs):03d}Z"


class TextFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        ids = " ".join(
            part
            for part in (
                getattr(record, "request", None) or "",
                f"c{getattr(record, 'conn', None)}" if getattr(record, "conn", None) else "",
            )
            if part
        )
        head = f"{_utc(record)} {record.levelname:<5} {record.name}{f' [{ids}]' if ids else ''}"
        text = f"{head}: {record.getMessage()}"
        if record.exc_info:
            text += "\n" + self.formatException(record.exc_info)
        return scrub(text)


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "time": _utc(record),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        for key in ("request", "conn"):
            if getattr(record, key, None):
                line[key] = getattr(record, key)
        if record.exc_info:
            line["error"] = self.formatException(record.exc_info)
        return scrub(orjson.dumps(line).decode())


def log_config(level: str = "info", log_format: str = "text") -> dict[str, Any]:
    """A :func:`logging.config.dictConfig` for the app and uvicorn (``uvicorn.Config``'s
    ``log_config``): every logger writes through one handler in one format."""
    formatter = JsonFormatter if log_format == "json" else TextFormatter
    level = level.upper()
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "filters": {"context": {"()": _Context}},
        "formatters": {"line": {"()": formatter}},
        "handlers": {
            "stderr": {
                "class": "logging.StreamHandler",
                "formatter": "line",
                "filters": ["context"],
                "stream": "ext://sys.stderr",
            }
        },
        "root": {"handlers": ["stderr"], "level": level},
        "loggers": {
            "uvicorn": {"handlers": [], "level": level, "propagate": True},
            "uvicorn.error": {"handlers": [], "level": level, "propagate": True},
            "uvicorn.access": {"handlers": [], "level": "WARNING", "propagate": True},
            # Its debug log holds whole frames (a hello holds a token): never below INFO.
            "websockets": {"handlers": [], "level": "INFO" if level == "DEBUG" else level},
        },
    }


_chosen = ["warning", "text"]  # what setup() was given: the worker processes log alike


def setup(level: str = "info", log_format: str = "text") -> dict[str, Any]:
    """Configure logging; warnings (``warnings.warn``) become log lines of the logger
    ``py.warnings``, in the same format (never a raw line, even in JSON mode)."""
    config = log_config(level, log_format)
    logging.config.dictConfig(config)
    logging.captureWarnings(True)
    _chosen[:] = [level, log_format]
    return config


def worker_args() -> list[str]:
    """The arguments a worker process passes to :func:`setup`: the server's choice."""
    return list(_chosen)


_request_ids = itertools.count(1)  # one sequence for every AccessLog (the app's, /ws's)


class AccessLog:
    """Pure ASGI middleware: a request id for every HTTP request and websocket, one access
    line per request, and a line for every websocket refused, accepted or closed."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    def __call__(self, scope: Scope, receive: Receive, send: Send) -> Awaitable[None]:
        # Not a coroutine itself (it sets the request id in the caller's context, as one
        # would): a websocket, held open for hours, keeps one frame of this less.
        if scope["type"] not in ("http", "websocket"):
            return self.app(scope, receive, send)
        REQUEST_ID.set(f"r{next(_request_ids)}")
        client = scope.get("client")
        address = client[0] if client else "?"
        path = scope.get("path", "")  # never the query string
        if scope["type"] == "http":
            return self._http(scope, receive, send, address, path)
        return self._websocket(scope, receive, send, address, path)

    async def _http(
        self, scope: Scope, receive: Receive, send: Send, address: str, path: str
    ) -> None:
        started = time.perf_counter()
        status = 500

        async def send_status(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            await send(message)

        try:
            await self.app(scope, receive, send_status)
        finally:
            ms = 1000 * (time.perf_counter() - started)
            level = logging.WARNING if status >= 500 else logging.INFO
            access.log(level, '%s "%s %s" %d %.1f ms', address, scope["method"], path, status, ms)

    async def _websocket(
        self, scope: Scope, receive: Receive, send: Send, address: str, path: str
    ) -> None:
        watch = WebsocketWatch(receive, send, address, path)
        try:
            await self.app(scope, watch.receive, watch.send)
        except Exception:
            access.exception("%s websocket %s failed", address, path)
            raise


class WebsocketWatch:
    """One websocket's access line, when it is refused or ends: by whom, its close code and
    how long it was open (its acceptance is a debug line: one info line per socket). A
    small object rather than two closures: one per open socket."""

    __slots__ = ("_receive", "_send", "accepted", "address", "ended", "path")

    def __init__(self, receive: Receive, send: Send, address: str, path: str) -> None:
        self._receive, self._send = receive, send
        self.address, self.path = address, path
        self.accepted: float | None = None  # when (time.monotonic())
        self.ended = False  # its line is written (a close by the server, then the disconnect)

    def send(self, message: Message) -> Awaitable[None]:
        # Not a coroutine: a data frame (the common case) goes straight to the server's send.
        if message["type"] == "websocket.accept":
            self.accepted = time.monotonic()
            access.debug("%s websocket %s accepted", self.address, self.path)
        elif message["type"] == "websocket.close":
            code, reason = message.get("code", 1000), message.get("reason") or ""
            self._ended("closed by server" if self.accepted else "refused", f"{code} {reason}")
        return self._send(message)

    async def receive(self) -> Message:
        message = await self._receive()
        if message["type"] == "websocket.disconnect":
            self._ended("closed by client", str(message.get("code")))
        return message

    def _ended(self, how: str, code: str) -> None:
        if self.ended:
            return
        self.ended = True
        opened = "" if self.accepted is None else f" after {time.monotonic() - self.accepted:.1f} s"
        access.info("%s websocket %s %s: %s%s", self.address, self.path, how, code.strip(), opened)
