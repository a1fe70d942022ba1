"""client/js/keyed.js: the panels that list people keep one element per player between store
notices, build again only the rows that changed, and move rows rather than rebuild them; the
lobby's players list and the racers panel use it, so a notice about one player leaves the
others' rows (and a focused button in them) alone."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from scorpion_dev.server import ServerProcess

from .conftest import PageFactory
from .helpers import create_room, name_player

pytestmark = pytest.mark.browser


def mark(page: Page, selector: str) -> None:
    """Tag the element (a JS property, not an attribute): a rebuilt row loses the tag."""
    page.locator(selector).evaluate("el => { el.__kept = true; }")


def kept(page: Page, selector: str) -> bool:
    return bool(page.locator(selector).evaluate("el => el.__kept === true"))


# Three rows; then c moves to the top, a changes, b stays; then only b is left.
SCRIPT = """async () => {
  const { keyedList } = await import("/js/keyed.js");
  const ul = document.createElement("ul");
  let built = 0;
  const render = keyedList(ul, { key: (x) => x.id, build: (x) => {
    built += 1;
    const li = document.createElement("li");
    li.textContent = `${x.id}:${x.n}`;
    return li;
  } });
  const texts = () => [...ul.children].map((li) => li.textContent);
  render([{ id: "a", n: 1 }, { id: "b", n: 1 }, { id: "c", n: 1 }]);
  const [a, b, c] = ul.children;
  render([{ id: "c", n: 1 }, { id: "a", n: 2 }, { id: "b", n: 1 }]);
  const second = { built, text: texts(), cKept: ul.children[0] === c,
    aRebuilt: ul.children[1] !== a, bKept: ul.children[2] === b };
  render([{ id: "b", n: 1 }]);
  return { ...second, last: texts(), bStill: ul.children[0] === b, builtAfter: built };
}"""


def test_keyed_list_keeps_moves_and_rebuilds_rows(
    server: ServerProcess, new_page: PageFactory
) -> None:
    page = new_page()
    page.goto(server.url + "/#/rules")
    result = page.evaluate(SCRIPT)
    assert result["text"] == ["c:1", "a:2", "b:1"]
    assert result["built"] == 4  # three at first, then only a again
    assert result["cKept"] and result["aRebuilt"] and result["bKept"]
    assert result["last"] == ["b:1"] and result["bStill"]
    assert result["builtAfter"] == 4


def test_lobby_rows_keyed_by_player(server: ServerProcess, new_page: PageFactory) -> None:
    ada = new_page(1366, 768)
    link = create_room(ada, server.url, "Ada")
    bo = new_page(390, 844, True)
    bo.goto(link)
    name_player(bo, "Bo")
    ada_row = "ul.players li[aria-label^='Ada (you)']"
    expect(ada.locator("ul.players li[aria-label^='Bo']")).to_contain_text("not ready")
    mark(ada, ada_row)
    mark(ada, "ul.players li[aria-label^='Bo']")
    # Bo is ready: on Ada's page Bo's row is drawn again, hers is the same element.
    bo.locator("[data-action=ready]").click()
    expect(ada.locator("ul.players li[aria-label^='Bo, ready']")).to_be_visible()
    assert kept(ada, ada_row)
    assert not kept(ada, "ul.players li[aria-label^='Bo']")
