"""Steps the browser tests share: naming a player, opening a room, reading the board."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Page, expect


def window_width(page: Page) -> int:
    """The window's width as set (a phone's page may lay out wider than its screen, so the
    page's own innerWidth is no measure of overflow)."""
    size = page.viewport_size
    assert size
    return size["width"]


def nothing_sideways(page: Page) -> None:
    """Nothing sticks out of the window sideways."""
    assert page.evaluate("document.documentElement.scrollWidth") <= window_width(page)


def name_player(page: Page, name: str) -> None:
    """Answer the name prompt that a room or daily link shows to a new browser, taking the
    first choice offered (a seat when there is one free, else watching)."""
    page.locator(".overlay input").fill(name)
    page.locator(".overlay form button.primary").click()


def create_room(page: Page, base: str, name: str, deal: int | None = None, **fields: Any) -> str:
    """Create a room from the home page; return its share link."""
    page.goto(base + "/")
    page.locator("input[name=name]").fill(name)
    if deal is not None:
        page.locator("select[name=deal]").select_option("number")
        page.locator("input[name=deal_number]").fill(str(deal))
    if fields.get("hints"):
        page.locator("input[name=hints]").check()
    if fields.get("auto"):
        page.locator("input[name=auto]").check()
    if fields.get("rated"):
        page.locator("input[name=rated]").check()
    if fields.get("league"):
        page.locator("input[name=league]").check()
    if fields.get("undo"):
        page.locator("select[name=undo]").select_option(str(fields["undo"]))
    if fields.get("preset"):
        page.locator("select[name=preset]").select_option(fields["preset"])
    page.get_by_role("button", name="Create the room").click()
    expect(page.locator("#share-link")).to_be_visible()
    return page.locator("#share-link").input_value()


def start_race(host: Page, *others: str) -> None:
    """The host presses Start once its page shows each named player ready (a Start pressed
    before the host's page hears of a ready asks whether to race without that player)."""
    for name in others:
        expect(host.locator(f"ul.players li[aria-label^='{name}, ready']")).to_be_visible()
    host.locator("[data-action=start]").click()


def column_cards(page: Page, column: int) -> list[str]:
    """Face-up cards of a column (1-based) on the page's own board, bottom to top."""
    cards = page.locator(f".race-main .column[data-col='{column - 1}'] .card.up")
    return [c.get_attribute("data-card") or "" for c in cards.all()]


def card(page: Page, text: str, scope: str = ".race-main") -> Any:
    return page.locator(f"{scope} .card.up[data-card='{text}']")


def drag(page: Page, text: str, column: int) -> None:
    """Drag a card with the mouse onto a column (1-based)."""
    src = card(page, text).bounding_box()
    dst = page.locator(f".race-main .column[data-col='{column - 1}']").bounding_box()
    assert src and dst
    page.mouse.move(src["x"] + src["width"] / 2, src["y"] + 12)
    page.mouse.down()
    for step in range(1, 9):
        x = (
            src["x"]
            + src["width"] / 2
            + (dst["x"] + dst["width"] / 2 - src["x"] - src["width"] / 2) * step / 8
        )
        y = src["y"] + 12 + (dst["y"] + dst["height"] - 20 - src["y"] - 12) * step / 8
        page.mouse.move(x, y)
    page.mouse.up()


def tap(page: Page, text: str, scope: str = ".race-main") -> None:
    """Click a card on its visible top strip (cards overlap in a column)."""
    card(page, text, scope).click(position={"x": 12, "y": 8})


ONE_SEAT_RACE = """async (settings) => {
  const api = await import('/js/api.js');
  await api.ensurePlayer(settings.name);
  delete settings.name;
  const r = await api.createRoom({max_players: 1, ...settings});
  sessionStorage.setItem('scorpion.autostart.' + r.room, '1');
  location.hash = '#/r/' + r.room;
}"""


def one_seat_race(page: Page, base: str, name: str = "Kay", **settings: Any) -> None:
    """A race room of one seat with these room settings, started at once (practice is not a
    race: it has no racers list, race clock or results)."""
    page.goto(base + "/")
    page.evaluate(ONE_SEAT_RACE, {"name": name, **settings})
    expect(page.locator(".race-main .card.up").first).to_be_visible(timeout=15_000)


def play_by_keys(page: Page, moves: list[str]) -> None:
    """Play moves ("9D>1", "deal") with the keyboard: focus the card, press the column's number."""
    for move in moves:
        before = page.locator(".race-main [data-stat='moves'] b").inner_text()
        if move == "deal":
            page.keyboard.press("d")
        else:
            text, column = move.split(">")
            card(page, text).focus()
            page.keyboard.press(column[-1])
        expect(page.locator(".race-main [data-stat='moves'] b")).not_to_have_text(before)
