"""Running the app under uvicorn, with a shutdown that tells clients (close code 1001).

uvicorn closes open websockets with 1012 as soon as it starts shutting down, before
the app's lifespan shutdown runs (uvicorn #1344 and later versions). This server
first stops listening, hands its places over (with several processes), closes every
socket itself with 1001 "going away" after flushing what was queued for it, writes what
is pending, then lets uvicorn finish.
"""

from __future__ import annotations

import logging
import socket
from typing import Any

import uvicorn
from starlette.applications import Starlette

from scorpion.tasks import bounded

from .app import create_app
from .config import Settings
from .http_protocol import bounded_http
from .services import Services
from .ws_protocol import ClosingWebSockets

log = logging.getLogger("scorpion.web")


class ScorpionServer(uvicorn.Server):
    def __init__(self, config: uvicorn.Config, services: Services) -> None:
        super().__init__(config)
        self.services = services

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        for server in self.servers:
            server.close()
        self.services.closing = True
        self.services.ready = False
        log.info("shutting down: closing %d websockets with 1001", self.services.connections.count)
        if self.services.cluster is not None:
            leaving = self.services.cluster.leave()
            await bounded(
                "handing places over", leaving, self.services.settings.shutdown_timeout, log
            )
        await self.services.close_all()
        await self.services.bridge.drain()
        await super().shutdown(sockets)
        log.info("scorpion stopped")


def uvicorn_config(
    app: Starlette, settings: Settings, log_config: dict[str, Any] | None = None
) -> uvicorn.Config:
    trusted = ",".join(settings.trusted_proxies)
    return uvicorn.Config(
        app,
        host=settings.host,
        port=settings.port,
        interface="asgi3",  # App.__call__ returns a coroutine without being one
        # httptools, with bounded heads and deadlines (a subclass of uvicorn's protocol: a
        # shortcut, so "off" runs uvicorn's own, unbounded: keep nginx in front then)
        http=bounded_http(settings.limits) if settings.shortcuts == "on" else "httptools",
        ws=ClosingWebSockets if settings.shortcuts == "on" else "websockets-sansio",
        ws_per_message_deflate=False,  # small frames: compression costs memory, not bandwidth
        ws_max_size=settings.limits.hard_frame,
        ws_ping_interval=20.0,  # browsers answer pings: this finds dead TCP connections
        ws_ping_timeout=20.0,
        timeout_graceful_shutdown=int(settings.shutdown_timeout) + 5,
        lifespan="on",
        log_config=log_config,
        log_level=settings.log_level,
        access_log=False,  # scorpion.web.logs.AccessLog logs requests, with their ids
        server_header=False,
        # X-Forwarded-For is believed only from the trusted proxies (none by default: not
        # even 127.0.0.1, which uvicorn would trust by default).
        proxy_headers=bool(trusted),
        forwarded_allow_ips=trusted,
    )


def run(settings: Settings, log_config: dict[str, Any] | None = None) -> None:
    app = create_app(settings)
    services: Services = app.state.services
    ScorpionServer(uvicorn_config(app, settings, log_config), services).run()
