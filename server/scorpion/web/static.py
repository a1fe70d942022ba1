"""The browser client, served as static files at / (room links /r/<id> get index.html).

No build step: at start the server reads client/ once, gives every file a version (a hash of
its content and, for a module, of the modules it imports), rewrites relative imports and
index.html's links to carry those versions (``/js/store.js?v=1a2b...``), adds a
``<link rel=modulepreload>`` for every module the page imports statically (a view's module,
loaded by ``import()`` when its route opens, is not preloaded), and gzips what compresses.
A versioned URL is cached for a year (its content never changes under that URL); the page
and unversioned URLs are revalidated (ETag, Last-Modified, 304). Edits to client/ show after
a server restart.
"""

from __future__ import annotations

import email.utils
import gzip
import hashlib
import mimetypes
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.routing import BaseRoute, Route

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

IMMUTABLE = "public, max-age=31536000, immutable"
REVALIDATE = "no-cache"
COMPRESSIBLE = {".html", ".js", ".css", ".svg", ".json", ".txt", ".md", ".map"}
# `from "./x.js"`, `import "./x.js"` and `import("./x.js")`: the relative specifiers we version.
IMPORT = re.compile(r"""(\bfrom\s*|\bimport\s*\(?\s*)(["'])(\.{1,2}/[^"'?]+\.js)\2""")
LINK = re.compile(r"""\b(src|href)="(/[^"?#]+)\"""")


@dataclass(frozen=True, slots=True)
class Asset:
    body: bytes
    gzipped: bytes | None
    version: str
    media_type: str
    last_modified: str

    @property
    def etag(self) -> str:
        return f'"{self.version}"'


class ClientFiles:
    """Every file of the client directory, versioned and compressed once, by URL path."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.sources: dict[str, bytes] = {}
        mtimes: dict[str, float] = {}
        for path in sorted(root.rglob("*")):
            rel = path.relative_to(root).as_posix()
            if path.is_file() and not any(part.startswith(".") for part in rel.split("/")):
                self.sources["/" + rel] = path.read_bytes()
                mtimes["/" + rel] = path.stat().st_mtime
        newest = max(mtimes.values(), default=0.0)
        self.assets: dict[str, Asset] = {}
        self.imports: dict[str, list[str]] = {}
        for url in self.sources:
            if url.endswith(".js"):
                self._module(url, ())
        for url, source in self.sources.items():
            if url not in self.assets and url != "/index.html":
                self.assets[url] = make_asset(url, source, mtimes[url])
        if "/index.html" in self.sources:
            page = self._page(self.sources["/index.html"].decode())
            self.assets["/index.html"] = make_asset("/index.html", page.encode(), newest)

    def url(self, path: str) -> str:
        """The versioned URL of a file (the path itself when there is no such file)."""
        asset = self.assets.get(path)
        return f"{path}?v={asset.version}" if asset else path

    def _module(self, url: str, chain: tuple[str, ...]) -> Asset:
        """A module, its imports rewritten to versioned URLs (so its version covers theirs)."""
        if url in self.assets:
            return self.assets[url]
        if url in chain:
            raise ValueError(f"client modules import each other in a cycle: {' -> '.join(chain)}")
        deps: list[str] = []

        def versioned(match: re.Match[str]) -> str:
            lead, quote, spec = match.groups()
            target = str(PurePosixPath(url).parent / spec)
            target = "/" + "/".join(_normalise(target.lstrip("/").split("/")))
            if target not in self.sources:
                return match.group(0)
            # A dynamic import() loads when its route opens: versioned, never preloaded.
            if "(" not in lead:
                deps.append(target)
            version = self._module(target, (*chain, url)).version
            return f"{lead}{quote}{spec}?v={version}{quote}"

        text = IMPORT.sub(versioned, self.sources[url].decode())
        self.imports[url] = deps
        asset = make_asset(url, text.encode(), 0.0)
        self.assets[url] = asset
        return asset

    def graph(self, entry: str) -> list[str]:
        """Every module ``entry`` imports, directly or not, dependencies first."""
        order: list[str] = []

        def visit(url: str) -> None:
            for dep in self.imports.get(url, []):
                if dep not in order:
                    visit(dep)
                    order.append(dep)

        visit(entry)
        return order

    def _page(self, html: str) -> str:
        """index.html with versioned links and a modulepreload for each module it imports."""
        entries = re.findall(r'<script type="module" src="(/[^"?]+)"', html)
        preload = [url for entry in entries for url in self.graph(entry)]
        links = "".join(
            f'  <link rel="modulepreload" href="{self.url(u)}">\n' for u in dict.fromkeys(preload)
        )
        html = LINK.sub(lambda m: f'{m.group(1)}="{self.url(m.group(2))}"', html)
        return html.replace("</head>", links + "</head>", 1)


def _normalise(parts: list[str]) -> list[str]:
    out: list[str] = []
    for part in parts:
        if part == "..":
            if out:
                out.pop()
        elif part not in ("", "."):
            out.append(part)
    return out


def make_asset(url: str, body: bytes, mtime: float) -> Asset:
    media_type = mimetypes.guess_type(url)[0] or "application/octet-stream"
    if url.endswith(".js"):
        media_type = "text/javascript"
    if media_type.startswith("text/") or media_type.endswith("javascript"):
        media_type += "; charset=utf-8"
    gzipped = None
    if PurePosixPath(url).suffix in COMPRESSIBLE:
        packed = gzip.compress(body, compresslevel=9, mtime=0)
        gzipped = packed if len(packed) < len(body) else None
    return Asset(
        body=body,
        gzipped=gzipped,
        version=hashlib.sha256(body).hexdigest()[:16],
        media_type=media_type,
        last_modified=email.utils.formatdate(mtime or None, usegmt=True),
    )


def accepts_gzip(header: str) -> bool:
    for item in header.split(","):
        name, _, params = item.strip().partition(";")
        if name.strip().lower() in ("gzip", "*"):
            q = params.strip().removeprefix("q=")
            return not (params and q.replace(".", "", 1).isdigit() and float(q) == 0)
    return False


def not_modified(request: Request, asset: Asset) -> bool:
    tags = request.headers.get("if-none-match")
    if tags is not None:
        wanted = {t.strip().removeprefix("W/") for t in tags.split(",")}
        return "*" in wanted or asset.etag in wanted or asset.etag[:-1] + '-gz"' in wanted
    since = request.headers.get("if-modified-since")
    if since:
        try:
            when = email.utils.parsedate_to_datetime(since)
            modified = email.utils.parsedate_to_datetime(asset.last_modified)
        except (TypeError, ValueError):
            return False
        return modified <= when
    return False


def serve(request: Request, asset: Asset, cache: str) -> Response:
    """The asset, gzipped when the browser takes it, or 304 when the browser has it."""
    gz = asset.gzipped is not None and accepts_gzip(request.headers.get("accept-encoding", ""))
    headers = {
        "Cache-Control": cache,
        "ETag": asset.etag[:-1] + '-gz"' if gz else asset.etag,
        "Last-Modified": asset.last_modified,
        "Vary": "Accept-Encoding",
    }
    if not_modified(request, asset):
        return Response(status_code=304, headers=headers)
    body = asset.gzipped if gz and asset.gzipped is not None else asset.body
    if gz:
        headers["Content-Encoding"] = "gzip"
    if request.method == "HEAD":
        headers["Content-Length"] = str(len(body))
        return Response(status_code=200, headers=headers, media_type=asset.media_type)
    return Response(body, headers=headers, media_type=asset.media_type)


def static_routes(
    client_dir: Path | None, replay_head: Callable[[Request], Awaitable[str]] | None = None
) -> list[BaseRoute]:
    """The client's files; ``replay_head`` gives the extra ``<head>`` tags of a replay link
    (a shared result's Open Graph tags), "" for none."""
    if client_dir is None or not (client_dir / "index.html").is_file():

        async def no_client(request: Request) -> Response:
            return PlainTextResponse(
                "Scorpion Race server: the browser client (client/index.html) was not found.\n",
                status_code=404,
            )

        return [Route("/", no_client)]
    files = ClientFiles(client_dir)
    index = files.assets["/index.html"]

    async def app_page(request: Request) -> Response:
        return serve(request, index, REVALIDATE)

    async def replay_page(request: Request) -> Response:
        head = await replay_head(request) if replay_head is not None else ""
        if not head:
            return await app_page(request)
        page = index.body.decode().replace("</head>", head + "</head>", 1)
        if request.method == "HEAD":
            return Response(headers={"Cache-Control": REVALIDATE}, media_type=index.media_type)
        return Response(page, headers={"Cache-Control": REVALIDATE}, media_type=index.media_type)

    async def client_file(request: Request) -> Response:
        path = "/" + request.path_params["path"]
        asset = files.assets.get("/index.html" if path == "/" else path)
        if asset is None:
            return PlainTextResponse("Not Found", status_code=404)
        versioned = request.query_params.get("v") == asset.version
        return serve(request, asset, IMMUTABLE if versioned else REVALIDATE)

    return [
        Route("/r/{room_id}", app_page, methods=["GET", "HEAD"]),
        Route("/daily", app_page, methods=["GET", "HEAD"]),
        Route("/daily/{day}", app_page, methods=["GET", "HEAD"]),
        Route("/replay/{rest:path}", replay_page, methods=["GET", "HEAD"]),
        Route("/{path:path}", client_file, methods=["GET", "HEAD"]),
    ]
