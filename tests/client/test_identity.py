"""Identity in the browser: the token stays out of URLs, and a token the server no longer
knows (a fresh database) leads back to the name prompt instead of a dead page."""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest
from playwright.sync_api import expect

from scorpion_dev.server import ServerProcess

from .conftest import PageFactory
from .helpers import create_room, name_player

pytestmark = pytest.mark.browser


def test_token_in_headers_only_and_a_stale_token_is_replaced(
    server: ServerProcess, new_page: PageFactory
) -> None:
    page = new_page()
    urls: list[str] = []
    page.on("request", lambda r: urls.append(r.url))
    page.on("websocket", lambda ws: urls.append(ws.url))
    link = create_room(page, server.url, "Ada")
    token = page.evaluate("localStorage.getItem('scorpion.token')")
    assert token and len(token) > 20
    assert all(token not in url for url in urls)
    # The socket's URL names its place (a routing hint for the proxy), never the token.
    assert any(urlsplit(url).path == "/ws" and "room=" in url for url in urls)

    with page.expect_request(lambda r: "/api/players/" in r.url) as info:
        page.goto(server.url + "/#/stats")
    assert info.value.headers.get("authorization") == f"Bearer {token}"

    # Another browser whose token the server has never seen.
    stale = new_page()
    stale.goto(server.url + "/")
    stale.evaluate(
        "localStorage.setItem('scorpion.token', 'not-a-token-the-server-knows-xxxxxxxxxxxxxx');"
        "localStorage.setItem('scorpion.player', JSON.stringify({id: 'p_gone', name: 'Gone'}))"
    )
    stale.goto(link)
    name_player(stale, "Bo")
    expect(stale.locator(".players")).to_contain_text("Bo (you)")
    expect(stale.locator(".players")).to_contain_text("Ada")
    assert stale.evaluate("localStorage.getItem('scorpion.token')") != (
        "not-a-token-the-server-knows-xxxxxxxxxxxxxx"
    )


def test_an_unknown_room_says_so(server: ServerProcess, new_page: PageFactory) -> None:
    page = new_page()
    page.goto(server.url + "/r/nosuchroom")
    expect(page.get_by_role("heading", name="Room not found")).to_be_visible()
    expect(page.get_by_role("link", name="Start a new race")).to_be_visible()
    # Reported before any player was made: no name asked, no token stored.
    expect(page.locator(".overlay")).to_have_count(0)
    assert page.evaluate("localStorage.getItem('scorpion.token')") is None
