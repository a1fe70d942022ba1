"""Accessibility: axe-core finds no serious or critical violation on home, lobby, race,
results, daily, practice and rules; the deal and undo are announced; a followed board is
pictures, not buttons; one region per board; card names say their column; forced colours keep
the cards.

axe-core comes from npm (tests/client/axe: `npm ci --prefix tests/client/axe`, which .ci/run
does) and is injected into the page only in these tests, never served.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from scorpion_dev.server import ServerProcess

from .conftest import PageFactory
from .helpers import create_room, name_player, one_seat_race

AXE = Path(__file__).parent / "axe" / "node_modules" / "axe-core" / "axe.min.js"


@pytest.fixture
def pages(new_page: PageFactory) -> PageFactory:
    """Pages whose CSP lets the test inject axe (the app's CSP forbids inline scripts)."""
    if not AXE.is_file():
        raise RuntimeError(f"{AXE} is missing: npm ci --prefix tests/client/axe")

    def make(width: int = 1366, height: int = 800, mobile: bool = False) -> Page:
        return new_page(width, height, mobile, bypass_csp=True)

    return make


def serious(page: Page, where: str) -> None:
    """Run axe on the page as it is; fail on any serious or critical violation."""
    if not page.evaluate("typeof window.axe === 'object'"):
        page.add_script_tag(path=str(AXE))
    # label-content-name-mismatch is off in axe by default (experimental): issue 23 turns it on.
    result = page.evaluate(
        "axe.run(document, {resultTypes: ['violations'],"
        " rules: {'label-content-name-mismatch': {enabled: true}}})"
    )
    assert result["passes"], "axe checked nothing"
    bad = [
        f"{v['id']} ({v['impact']}): {v['help']} at {[n['target'] for n in v['nodes']][:4]}"
        for v in result["violations"]
        if v["impact"] in ("serious", "critical")
    ]
    assert not bad, f"{where}: {bad}"


def test_axe_on_every_view(server: ServerProcess, pages: PageFactory) -> None:
    page = pages()
    page.goto(server.url + "/")
    expect(page.get_by_role("heading", name="Race your friends at Scorpion")).to_be_visible()
    serious(page, "home")

    create_room(page, server.url, "Ada")
    expect(page.locator(".players")).to_contain_text("Ada (you)")
    serious(page, "lobby")

    page.goto(server.url + "/#/rules/three-blind-mice")
    expect(page.locator(".rules-example")).to_have_count(4)
    serious(page, "rules")

    page.goto(server.url + "/#/daily")
    expect(page.get_by_role("heading", name="Leaderboard")).to_be_visible()
    serious(page, "daily")

    practice = pages(390, 844, mobile=True)
    practice.goto(server.url + "/#/practice/classic")
    name_player(practice, "Pat")
    expect(practice.locator(".race-main .card.up").first).to_be_visible(timeout=15_000)
    serious(practice, "practice")

    solo = pages(390, 844, mobile=True)
    one_seat_race(solo, server.url, "Solo", preset="classic", time_limit=0, hints=True)
    serious(solo, "race")
    solo.get_by_role("button", name="Rules").click()
    expect(solo.locator(".rules-overlay .rules-example")).to_have_count(4)
    serious(solo, "rules over the race")
    solo.keyboard.press("Escape")
    solo.get_by_role("button", name="Give up").click()
    solo.locator(".overlay").get_by_role("button", name="Give up").click()
    expect(solo.get_by_role("dialog").first).to_be_visible(timeout=15_000)
    serious(solo, "results")


def test_the_deal_and_undo_are_announced(server: ServerProcess, pages: PageFactory) -> None:
    page = pages()
    page.goto(server.url + "/#/practice/classic")
    name_player(page, "Sam")
    expect(page.locator(".race-main .card.up").first).to_be_visible(timeout=15_000)
    # One region per board, named once; the board inside it is a group.
    expect(page.get_by_role("region", name="Your board")).to_have_count(1)
    expect(page.locator("[aria-label='Your board']")).to_have_count(1)
    top = page.locator(".race-main .column[data-col='4'] .card.up").last
    text = top.get_attribute("data-card")
    assert (top.get_attribute("aria-label") or "").endswith(", column 5"), text

    live = page.locator("#live-polite")
    page.get_by_role("button", name="Deal", exact=True).click()
    expect(live).to_contain_text("Stock dealt:")
    expect(live).to_contain_text("on column 3")
    page.get_by_role("button", name="Undo").click()
    expect(live).to_have_text("Move undone, the stock is back, score 0")


def test_a_followed_board_is_not_buttons(server: ServerProcess, pages: PageFactory) -> None:
    ada = pages()
    link = create_room(ada, server.url, "Ada")
    ada.locator("[data-action=ready]").click()
    ada.locator("[data-action=start]").click()
    expect(ada.locator(".race-main .card.up").first).to_be_visible(timeout=15_000)

    bo = pages(390, 844, mobile=True)
    bo.goto(link)
    name_player(bo, "Bo")  # the race has begun: the invite offers watching
    bo.locator("button.racer", has_text="Ada").click()
    board = bo.locator(".race-main .board")
    expect(board.locator(".card.up").first).to_be_visible()
    assert board.locator("[role=button]").count() == 0
    assert board.locator("[tabindex]").count() == 0
    expect(board.locator(".stock-slot")).to_have_attribute("role", "img")
    expect(board.locator(".stock-slot")).to_have_attribute("aria-label", "Stock, 3 cards face down")
    first = board.locator(".card.up").first
    expect(first).to_have_attribute("role", "img")
    serious(bo, "a spectator's view")


def test_forced_colours_keep_the_cards_readable(server: ServerProcess, pages: PageFactory) -> None:
    page = pages()
    page.emulate_media(forced_colors="active")
    page.goto(server.url + "/#/practice/classic")
    name_player(page, "Fay")
    up = page.locator(".race-main .card.up").first
    expect(up).to_be_visible(timeout=15_000)
    style = up.evaluate(
        "c => { const s = getComputedStyle(c);"
        " const suit = getComputedStyle(c.querySelector('.suit'));"
        " return [s.forcedColorAdjust, s.backgroundImage, suit.fill]; }"
    )
    assert style[0] == "none" and "gradient" in style[1], style  # the white face stays
    assert style[2] not in ("", "none"), style
    down = page.locator(".race-main .card.down").first
    assert "gradient" in down.evaluate("c => getComputedStyle(c).backgroundImage")  # the back stays


# axe leaves text over the felt's gradients "to review", so the contrast of the small text on
# the felt is measured here: the colours the browser computed, each translucent background
# blended down to the felt, which the page's top gradient lightens by up to 10 % white.
CONTRAST_JS = """el => {
  const rgba = (t) => (t.match(/[\\d.]+/g) || []).map(Number).concat([1]).slice(0, 4);
  const layers = [];
  for (let n = el; n; n = n.parentElement) {
    const c = rgba(getComputedStyle(n).backgroundColor);
    if (c[3] > 0) layers.push(c);
  }
  return { color: rgba(getComputedStyle(el).color), layers };
}"""


def luminance(rgb: list[float]) -> float:
    def channel(v: float) -> float:
        v /= 255
        return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(v) for v in rgb[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast_on_felt(page: Page, selector: str) -> float:
    found = page.locator(selector).first.evaluate(CONTRAST_JS)
    felt = [15.0, 74.0, 57.0]
    worst = 99.0
    for lighten in (0.0, 0.1):  # the felt, and the felt under the top gradient
        bg = [c + (255 - c) * lighten for c in felt]
        for layer in reversed(found["layers"]):  # from the outermost inwards
            a = layer[3]
            bg = [layer[i] * a + bg[i] * (1 - a) for i in range(3)]
        a = found["color"][3]
        fg = [found["color"][i] * a + bg[i] * (1 - a) for i in range(3)]
        hi, lo = sorted((luminance(fg), luminance(bg)), reverse=True)
        worst = min(worst, (hi + 0.05) / (lo + 0.05))
    return worst


def test_give_up_and_status_tags_meet_aa_contrast(
    server: ServerProcess, pages: PageFactory
) -> None:
    page = pages()
    one_seat_race(page, server.url, "Gil", preset="classic", time_limit=0, hints=True)
    page.locator(".racers").evaluate(
        "r => r.insertAdjacentHTML('beforeend', '<span class=\"tag won\">finished</span>"
        '<span class="tag out">gave up</span><span class="tag away">away</span>'
        '<span class="tag">host</span>\')'
    )
    tags = [".racers .tag.won", ".racers .tag.out", ".racers .tag.away", ".racers .tag:last-child"]
    for selector in ["button.danger", *tags]:
        assert contrast_on_felt(page, selector) >= 4.5, selector


def test_axe_on_the_table_views_of_issue_23(server: ServerProcess, pages: PageFactory) -> None:
    """Stats, devices, a lobby with a player not ready, the host's start question, a two-racer
    race (35 card buttons), a followed board with masked cards, the results, the results kept
    after someone else's rematch, the celebration and the light table."""
    ada = pages()
    ada.goto(server.url + "/#/stats")
    ada.goto(server.url + "/")
    link = create_room(ada, server.url, "Ada", deal=1)
    ada.goto(server.url + "/#/stats")
    expect(ada.locator("h1")).to_be_visible()
    serious(ada, "stats")
    ada.goto(server.url + "/#/devices")
    expect(ada.get_by_role("button", name="Use this code")).to_be_visible()
    serious(ada, "devices")
    ada.goto(link)
    bo = pages(390, 844, mobile=True)
    bo.goto(link)
    name_player(bo, "Bo")
    expect(bo.locator("[data-note=not-ready]")).to_be_visible()
    serious(bo, "lobby, not ready")
    ada.locator("[data-action=start]").click()
    expect(ada.get_by_role("dialog")).to_contain_text("Bo is not ready")
    serious(ada, "the start question")
    ada.get_by_role("button", name="Wait for them").click()
    bo.locator("[data-action=ready]").click()
    expect(ada.locator(".players li", has_text="Bo")).not_to_contain_text("not ready")
    ada.locator("[data-action=start]").click()
    expect(ada.locator(".race-main .card.up").first).to_be_visible(timeout=15_000)
    expect(bo.locator(".race-main .card.up").first).to_be_visible(timeout=15_000)
    serious(ada, "a two-racer race")
    ada.keyboard.press("d")
    expect(ada.locator(".race-main [data-stat='moves'] b")).to_have_text("1")
    cy = pages()
    cy.goto(link)
    name_player(cy, "Cy")
    cy.locator("button.racer", has_text="Ada").click()
    expect(cy.locator("[data-note=masked]")).to_be_visible()
    serious(cy, "a followed board with masked cards")
    for page in (ada, bo):
        page.get_by_role("button", name="Give up").click()
        page.locator(".overlay").get_by_role("button", name="Give up").click()
    for page in (ada, bo):
        expect(page.get_by_role("dialog", name="Results")).to_be_visible(timeout=15_000)
    serious(ada, "the results of two racers")
    ada.locator(".overlay [data-action=rematch]").click()
    expect(bo.locator("[data-note=rematch]")).to_be_visible()
    serious(bo, "results kept after a rematch")
    ada.evaluate("async () => { const m = await import('/js/celebrate.js'); m.celebrate({}); }")
    expect(ada.locator(".celebration")).to_be_visible()
    serious(ada, "the celebration")
    ada.keyboard.press("Escape")
    ada.evaluate("localStorage.setItem('scorpion.mode', 'light')")
    ada.goto(server.url + "/#/practice/classic")
    expect(ada.locator(".race-main .card.up").first).to_be_visible(timeout=15_000)
    serious(ada, "practice on the light table")
