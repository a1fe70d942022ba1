"""The load benchmark's baseline: a bare Starlette + uvicorn websocket echo.

    python benchmarks/echo_server.py --port 8765

Every text frame received on ``/ws`` is sent back as it is, under the same uvicorn
settings as ``scorpion serve`` (websockets-sansio, no compression): the ceiling a
server of the same stack could reach on this machine for the same frames.
"""

from __future__ import annotations

import argparse

import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import PlainTextResponse
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect


async def echo(websocket: WebSocket) -> None:
    await websocket.accept()
    try:
        while True:
            await websocket.send_text(await websocket.receive_text())
    except WebSocketDisconnect:
        pass


async def ready(request: Request) -> PlainTextResponse:
    return PlainTextResponse("ready")


app = Starlette(routes=[WebSocketRoute("/ws", echo), Route("/readyz", ready)])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, required=True)
    args = parser.parse_args()
    uvicorn.run(
        app,
        host="127.0.0.1",
        port=args.port,
        ws="websockets-sansio",
        ws_per_message_deflate=False,
        log_level="warning",
        access_log=False,
    )


if __name__ == "__main__":
    main()
