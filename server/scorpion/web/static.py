"""The browser client, served as static files at / (room links /r/<id> get index.html)."""

from __future__ import annotations

from pathlib import Path

from starlette.requests import Request
from starlette.responses import FileResponse, PlainTextResponse, Response
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles

# The client has no inline scripts; names are inserted as text, and this says so to the browser.
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data:; frame-ancestors 'none'; base-uri 'none'; form-action 'self'; "
    "connect-src 'self'"
)  # app.csp() appends this host's ws:// and wss:// URLs
SECURITY_HEADERS = {
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}


def static_routes(client_dir: Path | None) -> list[BaseRoute]:
    if client_dir is None or not (client_dir / "index.html").is_file():

        async def no_client(request: Request) -> Response:
            return PlainTextResponse(
                "Scorpion Race server: the browser client (client/index.html) was not found.\n",
                status_code=404,
            )

        return [Route("/", no_client)]
    index = client_dir / "index.html"

    async def app_page(request: Request) -> Response:
        return FileResponse(index, headers={"Cache-Control": "no-cache"})

    return [
        Route("/r/{room_id}", app_page, methods=["GET", "HEAD"]),
        Route("/daily", app_page, methods=["GET", "HEAD"]),
        Route("/daily/{day}", app_page, methods=["GET", "HEAD"]),
        Mount("/", app=StaticFiles(directory=client_dir, html=True), name="client"),
    ]
