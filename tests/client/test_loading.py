"""Loading: the page runs from versioned, preloaded modules, each fetched once; a page older
than the server's protocol is told to reload."""

from __future__ import annotations

import json
import re

from playwright.sync_api import Response, WebSocketRoute, expect

from scorpion_dev.server import ServerProcess

from .conftest import PageFactory
from .helpers import create_room


def test_the_page_loads_every_module_once_and_runs(
    server: ServerProcess, new_page: PageFactory
) -> None:
    page = new_page()
    responses: list[Response] = []
    page.on("response", lambda r: responses.append(r))
    page.goto(server.url + "/")
    expect(page.get_by_role("heading", name="Race your friends at Scorpion")).to_be_visible()
    page.wait_for_load_state("networkidle")
    scripts = [r for r in responses if "/js/" in r.url]
    urls = [r.url for r in scripts]
    assert len(urls) >= 6 and len(urls) == len(set(urls)), urls  # no module fetched twice
    # Issue 23: only the home view's module, not every view's (they load with their route).
    assert [u.split("?")[0].rsplit("/", 1)[-1] for u in urls if "/views/" in u] == ["home.js"]
    assert all("?v=" in u and r.status == 200 for u, r in zip(urls, scripts, strict=True))
    preloaded = page.eval_on_selector_all("link[rel=modulepreload]", "ls => ls.map(l => l.href)")
    assert set(preloaded) <= set(urls)
    assert all(r.headers.get("content-encoding") == "gzip" for r in scripts)
    page.reload()  # from the cache now: the page still runs
    expect(page.get_by_role("heading", name="Race your friends at Scorpion")).to_be_visible()


def test_an_old_page_is_told_to_reload(server: ServerProcess, new_page: PageFactory) -> None:
    page = new_page(390, 844, mobile=True)

    def newer_server(ws: WebSocketRoute) -> None:
        server_ws = ws.connect_to_server()

        def to_page(message: str | bytes) -> None:
            frame = json.loads(message)
            if frame.get("type") == "welcome":
                frame["protocol"] += 1  # the server speaks a newer protocol than this page
            ws.send(json.dumps(frame))

        server_ws.on_message(to_page)

    page.route_web_socket(re.compile(r"/ws(\?|$)"), newer_server)
    create_room(page, server.url, "Old")
    banner = page.locator("#banner")
    expect(banner).to_contain_text("Scorpion Race was updated")
    with page.expect_navigation():
        banner.get_by_role("button", name="Reload the page").click()
