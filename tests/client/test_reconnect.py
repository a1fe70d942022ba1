"""Solo practice starts at once; the client survives the server going away: a visible banner,
commands made meanwhile are kept and sent after the reconnect, and the game resumes."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import expect

from scorpion_dev.server import ServerProcess

from .conftest import PageFactory
from .helpers import name_player

pytestmark = pytest.mark.browser


def test_practice_survives_a_server_restart(
    server: ServerProcess, new_page: PageFactory, screenshots: Path
) -> None:
    page = new_page(390, 844, mobile=True)  # a phone in portrait
    page.goto(server.url + "/#/practice/classic")
    name_player(page, "Solo")
    expect(page.locator(".race-main .card.up").first).to_be_visible(timeout=15_000)
    page.wait_for_timeout(300)
    page.screenshot(path=str(screenshots / "phone.png"))
    stock = page.locator(".race-main .stock-slot .card.down")
    expect(stock).to_have_count(3)
    before = page.locator(".race-main .column .card.up").evaluate_all(
        "cards => cards.map(c => c.dataset.card)"
    )

    page.get_by_role("button", name="Deal", exact=True).click()
    expect(stock).to_have_count(0)
    expect(page.locator(".race-main [data-stat='moves'] b")).to_have_text("1")

    server.kill()
    banner = page.locator("#banner")
    expect(banner).to_be_visible(timeout=15_000)
    expect(banner).to_contain_text("Connection lost")

    # Undo while the server is down: kept, and sent once the socket is back.
    page.get_by_role("button", name="Undo").click()
    server.start()
    expect(stock).to_have_count(3, timeout=20_000)
    expect(banner).to_be_hidden(timeout=10_000)
    after = page.locator(".race-main .column .card.up").evaluate_all(
        "cards => cards.map(c => c.dataset.card)"
    )
    assert after == before

    # Practice goes on: give up, then a new deal starts at once.
    page.get_by_role("button", name="Give up").click()
    page.locator(".overlay").get_by_role("button", name="Give up").click()
    page.get_by_role("button", name="New deal").click()
    expect(stock).to_have_count(3, timeout=15_000)
    expect(page.locator(".race-main [data-stat='moves'] b")).to_have_text("0")
    expect(page.get_by_role("button", name="Give up")).to_be_enabled()


def test_the_socket_keeps_at_most_16_commands_unanswered(
    server: ServerProcess, new_page: PageFactory
) -> None:
    # The server keeps the last 16 answers for resends (docs/protocol.md section 3): a
    # client with more in flight could not have them all answered again after a reconnect.
    page = new_page(1366, 768)
    page.goto(server.url + "/#/practice/classic")
    name_player(page, "Burst")
    expect(page.locator(".race-main .card.up").first).to_be_visible(timeout=15_000)
    most = page.evaluate(
        """async () => {
          const { Connection } = await import("/js/socket.js");
          const { token } = await import("/js/api.js");
          let welcomed;
          const ready = new Promise((resolve) => { welcomed = resolve; });
          const conn = new Connection({ hello: () => ({ token: token(), practice: true }),
                                        onWelcome: () => welcomed() }).start();
          await ready;
          let inFlight = 0, most = 0;
          const send = conn.ws.send.bind(conn.ws);
          conn.ws.send = (text) => { inFlight += 1; most = Math.max(most, inFlight); send(text); };
          const receive = conn._receive.bind(conn);
          conn._receive = (frame) => {
            if (frame.type === "applied" || frame.type === "refused") inFlight -= 1;
            receive(frame);
          };
          await Promise.all(Array.from({ length: 30 }, () => conn.send("ping")));
          conn.close();
          return most;
        }"""
    )
    assert most == 16
