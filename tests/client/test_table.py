"""Issue 23, the table feels right: the twelve items a newcomer met, each at 1366x768 and on a
390x844 phone; sound and theme settings survive a reload; the celebration respects reduced
motion. Deal 1 (classic) is drawn in tests/client/test_race.py."""

from __future__ import annotations

import gzip
import urllib.request

import pytest
from playwright.sync_api import Browser, Page, expect

from scorpion.engine import Game
from scorpion_dev.server import ServerProcess

from .conftest import CHROMIUM_ARGS, PageFactory
from .helpers import card, create_room, name_player, one_seat_race, play_by_keys, start_race

pytestmark = pytest.mark.browser

SIZES = [pytest.param((1366, 768, False), id="laptop"), pytest.param((390, 844, True), id="phone")]
Size = tuple[int, int, bool]


def open_page(new_page: PageFactory, size: Size) -> Page:
    return new_page(*size)


def two_in_lobby(new_page: PageFactory, base: str, size: Size) -> tuple[Page, Page]:
    ada, bo = open_page(new_page, size), open_page(new_page, size)
    link = create_room(ada, base, "Ada", deal=1)
    bo.goto(link)
    name_player(bo, "Bo")
    expect(ada.locator(".players")).to_contain_text("Bo")
    return ada, bo


def race_two(new_page: PageFactory, base: str, size: Size) -> tuple[Page, Page]:
    ada, bo = two_in_lobby(new_page, base, size)
    bo.locator("[data-action=ready]").click()
    start_race(ada, "Bo")
    for page in (ada, bo):
        expect(card(page, "JH")).to_be_visible(timeout=15_000)
    return ada, bo


def settled(page: Page) -> None:
    """Wait until the cards have landed (their FLIP animations are over)."""
    page.wait_for_function("() => document.getAnimations().length === 0")


def in_window(page: Page, selector: str) -> None:
    box = page.locator(selector).first.bounding_box()
    size = page.viewport_size
    assert box and size
    assert box["y"] >= 0 and box["y"] + min(box["height"], 40) <= size["height"], (selector, box)


# 1 -------------------------------------------------------------------------------------------
@pytest.mark.parametrize("size", SIZES)
def test_1_the_host_who_presses_start_races_and_is_told_who_watches(
    server: ServerProcess, new_page: PageFactory, size: Size
) -> None:
    ada, bo = two_in_lobby(new_page, server.url, size)
    # Bo, seated and not ready, is told before any countdown that he would watch.
    expect(bo.locator("[data-note=not-ready]")).to_contain_text("you will watch")
    # Ada presses Start with nobody ready: she is asked first, naming Bo.
    ada.locator("[data-action=start]").click()
    dialog = ada.get_by_role("dialog")
    expect(dialog).to_contain_text("Bo is not ready and will watch")
    ada.get_by_role("button", name="Start anyway").click()
    expect(card(ada, "JH")).to_be_visible(timeout=15_000)  # Ada races
    expect(ada.get_by_text("Watching the race")).to_have_count(0)


def test_1_a_player_ready_while_the_host_is_asked_races(
    server: ServerProcess, new_page: PageFactory
) -> None:
    """The question's reason gone, the start the host pressed goes ahead, with Bo racing."""
    ada, bo = two_in_lobby(new_page, server.url, (1366, 768, False))
    ada.locator("[data-action=start]").click()
    expect(ada.get_by_role("dialog")).to_contain_text("Bo is not ready and will watch")
    bo.locator("[data-action=ready]").click()
    expect(ada.get_by_role("dialog")).to_have_count(0)
    for page in (ada, bo):
        expect(card(page, "JH")).to_be_visible(timeout=15_000)  # both race
    expect(bo.get_by_text("Watching the race")).to_have_count(0)


# 2 -------------------------------------------------------------------------------------------
@pytest.mark.parametrize("size", SIZES)
def test_2_the_followed_board_opens_in_view_in_place_of_yours(
    server: ServerProcess, new_page: PageFactory, size: Size
) -> None:
    ada, _bo = race_two(new_page, server.url, size)
    ada.get_by_role("button", name="Give up").click()
    ada.locator(".overlay .btn.primary").click()
    ada.locator("button.racer", has_text="Bo").click()
    heading = ada.get_by_role("heading", name="Following Bo")
    expect(heading).to_be_visible()
    in_window(ada, "h2:has-text('Following Bo')")
    in_window(ada, ".race-main .readonly .card.up")
    expect(ada.locator(".race-main .game:not(.readonly) .board:not(.readonly)")).to_be_hidden()
    ada.get_by_role("button", name="Back to my board").click()
    expect(ada.locator(".race-main .board:not(.readonly)")).to_be_visible()


# 3 -------------------------------------------------------------------------------------------
def moves_that_keep_columns_short(count: int) -> list[str]:
    """Deal 1's first ``count`` moves, each making the longest column as long as it can
    (the engine's legal moves), never past 13 face-up cards (a whole run) and never back to
    a board already seen: after 11 moves a column holds 13 face-up cards."""
    game, line, seen = Game.new(1, "classic"), [], set()
    while len(line) < count:
        best: tuple[int, str, Game, str] | None = None
        for move in game.legal_moves():
            trial = Game.new(1, "classic")
            for m in [*line, str(move)]:
                trial.play(m)
            columns = trial.view()["columns"]
            longest, key = max(len(c["up"]) for c in columns), repr(columns)
            if key not in seen and longest <= 13 and (best is None or longest > best[0]):
                best = (longest, str(move), trial, key)
        if best is None:
            break
        seen.add(best[3])
        line.append(best[1])
        game = best[2]
    return line


def open_help_and_move(page: Page, move: str) -> None:
    page.locator("details.help-keys summary").click()
    page.wait_for_function("() => document.querySelector('details.help-keys').open")
    play_by_keys(page, [move])
    settled(page)


CARD_WIDTH = """() => Math.max(...[...document.querySelectorAll('.race-main .card.up')]
  .map((c) => Math.round(c.getBoundingClientRect().width)))"""


@pytest.mark.parametrize("size", SIZES)
def test_3_the_cards_keep_their_size_while_you_play_and_read_the_help(
    server: ServerProcess, new_page: PageFactory, size: Size
) -> None:
    page = open_page(new_page, size)
    one_seat_race(page, server.url, deal=1, time_limit=0)
    at_deal = page.evaluate(CARD_WIDTH)
    line = moves_that_keep_columns_short(11)
    assert len(line) == 11
    play_by_keys(page, line[:10])
    settled(page)
    assert page.evaluate(CARD_WIDTH) == at_deal
    # With the help open, the next move draws the board again (fitted then, synchronously).
    open_help_and_move(page, line[10])
    assert page.evaluate(CARD_WIDTH) == at_deal
    if not size[2]:
        assert at_deal >= 70  # the laptop's cards are large, not 40 px
    # Every column's last card is in the window (help closed).
    page.locator("details.help-keys summary").click()
    bottom = page.evaluate(
        "Math.max(...[...document.querySelectorAll('.race-main .column')]"
        ".map(c => c.getBoundingClientRect().bottom))"
    )
    assert bottom <= size[1]
    # In practice, a game given up still fits: its result does not push the board down.
    practice = open_page(new_page, size)
    practice.goto(server.url + "/#/practice/classic")
    name_player(practice, "Pia")
    expect(practice.locator(".race-main .card.up").first).to_be_visible()
    practice_at_deal = practice.evaluate(CARD_WIDTH)
    practice.get_by_role("button", name="Give up").click()
    practice.locator(".overlay .btn.primary").click()
    expect(practice.get_by_role("button", name="Deal again")).to_be_visible()
    settled(practice)
    bottom = practice.evaluate(
        "Math.max(...[...document.querySelectorAll('.race-main .column')]"
        ".map(c => c.getBoundingClientRect().bottom))"
    )
    assert bottom <= size[1]
    assert practice.evaluate(CARD_WIDTH) == practice_at_deal  # and its cards did not shrink


# 4 -------------------------------------------------------------------------------------------
LIT = ".race-main .hint-src, .race-main .hint-dst, .race-main .drop-hint, .race-main .card.selected"


@pytest.mark.parametrize("size", SIZES)
def test_4_nothing_stale_stays_lit(
    server: ServerProcess, new_page: PageFactory, size: Size
) -> None:
    page = open_page(new_page, size)
    one_seat_race(page, server.url, deal=1, time_limit=0, hints=True)
    page.keyboard.press("h")
    expect(page.locator(".race-main .hint-src, .race-main .hint-dst").first).to_be_visible()
    page.get_by_role("button", name="Deal", exact=True).click()
    expect(page.locator(".race-main [data-stat='moves'] b")).to_have_text("1")
    expect(page.locator(LIT)).to_have_count(0)
    # A refused, picked-up card is put down by Undo and by Hint.
    card(page, "JH").focus()
    page.keyboard.press("Space")
    expect(page.locator(".race-main .card.selected").first).to_be_visible()
    page.keyboard.press("h")
    expect(page.locator(".race-main .card.selected")).to_have_count(0)
    card(page, "JH").focus()
    page.keyboard.press("Space")
    page.keyboard.press("u")
    expect(page.locator(".race-main .card.selected")).to_have_count(0)


# 5 -------------------------------------------------------------------------------------------
@pytest.mark.parametrize("size", SIZES)
def test_5_a_toast_never_covers_the_board(
    server: ServerProcess, new_page: PageFactory, size: Size
) -> None:
    page = open_page(new_page, size)
    one_seat_race(page, server.url, deal=1, time_limit=0)
    card(page, "TS").focus()
    page.keyboard.press("1")  # refused: not the same suit
    toast = page.locator("#toast.show")
    expect(toast).to_be_visible()
    t = toast.bounding_box()
    b = page.locator(".race-main .board").bounding_box()
    assert t and b
    assert t["y"] + t["height"] <= b["y"], (t, b)


# 6 -------------------------------------------------------------------------------------------
@pytest.mark.parametrize("size", SIZES)
def test_6_a_rematch_keeps_the_others_results_with_a_notice(
    server: ServerProcess, new_page: PageFactory, size: Size
) -> None:
    ada, bo = race_two(new_page, server.url, size)
    for page in (ada, bo):
        page.get_by_role("button", name="Give up").click()
        page.locator(".overlay .btn.primary").click()
    for page in (ada, bo):
        expect(page.get_by_role("dialog", name="Results")).to_be_visible()
    ada.locator(".overlay [data-action=rematch]").click()
    expect(ada.locator("#share-link")).to_be_visible()
    # Bo still reads his results, told that Ada asked for a rematch.
    expect(bo.get_by_role("dialog", name="Results")).to_be_visible()
    expect(bo.locator("[data-note=rematch]")).to_contain_text("Ada asked for a rematch")
    bo.locator("[data-action=join-rematch]").click()
    expect(bo.locator("#share-link")).to_be_visible()
    # One click: Bo is ready, and so is Ada, who asked.
    expect(ada.locator(".players li", has_text="Bo")).to_contain_text("ready")
    expect(ada.locator(".players li", has_text="Bo")).not_to_contain_text("not ready")
    expect(ada.locator(".players li", has_text="Ada")).not_to_contain_text("not ready")


# 7 -------------------------------------------------------------------------------------------
@pytest.mark.parametrize("size", SIZES)
def test_7_a_recovery_code_works_without_the_tick(
    server: ServerProcess, new_page: PageFactory, size: Size
) -> None:
    first = open_page(new_page, size)
    first.goto(server.url + "/")
    first.evaluate(
        "async () => { const api = await import('/js/api.js'); await api.ensurePlayer('Rae'); }"
    )
    first.goto(server.url + "/#/devices")
    first.get_by_role("button", name="Make a recovery code").click()
    first.get_by_role("button", name="Make it").click()
    code = first.locator("[data-recovery]").get_attribute("data-recovery")
    assert code
    other = open_page(new_page, size)
    other.goto(server.url + "/#/devices")
    other.locator("#device-code").fill(code)
    expect(other.locator("#is-recovery")).to_be_checked()
    other.locator("#is-recovery").uncheck()  # even unticked by hand, the code's kind decides
    other.get_by_role("button", name="Use this code").click()
    expect(other.locator("#who")).to_have_text("Rae")
    other.goto(server.url + "/#/devices")
    other.locator("#device-code").fill("abc")
    other.get_by_role("button", name="Use this code").click()
    expect(other.get_by_role("button", name="Switch")).to_be_visible()
    other.get_by_role("button", name="Switch").click()
    expect(other.locator("form .error-text")).to_contain_text("a recovery code 20")


# 8 -------------------------------------------------------------------------------------------
STRIPS = """() => { let m = 1e9;
  for (const col of document.querySelectorAll('.race-main .column')) {
  const top = (c) => c.getBoundingClientRect().top;
  const cs = [...col.querySelectorAll('.card.up')].sort((a, b) => top(a) - top(b));
  for (let i = 0; i + 1 < cs.length; i++)
    m = Math.min(m, top(cs[i + 1]) - top(cs[i])); }
  return m; }"""


@pytest.mark.parametrize("size", SIZES)
def test_8_a_covered_card_is_a_24_px_target(
    server: ServerProcess, new_page: PageFactory, size: Size
) -> None:
    page = open_page(new_page, size)
    one_seat_race(page, server.url, deal=1, time_limit=0)
    assert page.evaluate(STRIPS) >= 24
    line = moves_that_keep_columns_short(11)
    play_by_keys(page, line[:10])  # and while the columns grow, and with the help open
    open_help_and_move(page, line[10])
    assert page.evaluate(STRIPS) >= 24


# 9 -------------------------------------------------------------------------------------------
@pytest.mark.parametrize("size", SIZES)
def test_9_a_masked_card_is_explained(
    server: ServerProcess, new_page: PageFactory, size: Size
) -> None:
    ada, bo = two_in_lobby(new_page, server.url, size)
    link = ada.locator("#share-link").input_value()
    bo.locator("[data-action=ready]").click()
    start_race(ada, "Bo")
    expect(card(ada, "JH")).to_be_visible(timeout=15_000)
    ada.keyboard.press("d")  # the stock shows Ada three cards Bo, still racing, has not seen
    expect(ada.locator(".race-main [data-stat='moves'] b")).to_have_text("1")
    eve = open_page(new_page, size)
    eve.goto(link)
    name_player(eve, "Eve")
    eve.locator("button.racer", has_text="Ada").click()
    expect(eve.locator(".race-main .card.masked").first).to_be_attached()
    expect(eve.locator("[data-note=masked]")).to_be_visible()
    expect(eve.locator("[data-note=masked]")).to_contain_text("hidden from you")


# 10 ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("size", SIZES)
def test_10_the_rules_say_how_a_race_is_ranked(
    server: ServerProcess, new_page: PageFactory, size: Size
) -> None:
    page = open_page(new_page, size)
    page.goto(server.url + "/#/rules")
    section = page.locator("[data-rules=ranking]")
    expect(section).to_contain_text("Whoever clears the table first wins")
    expect(section).to_contain_text("When time runs out")


# 11 ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("size", SIZES)
def test_11_a_cards_name_starts_with_what_it_shows(
    server: ServerProcess, new_page: PageFactory, size: Size
) -> None:
    page = open_page(new_page, size)
    one_seat_race(page, server.url, deal=1, time_limit=0)
    assert card(page, "QS").get_attribute("aria-label") == "Q♠, queen of spades, column 5"
    assert card(page, "TS").get_attribute("aria-label") == "10♠, ten of spades, column 7"
    # The visible text of a card is its corner: the face and foot glyphs are drawn by CSS.
    assert card(page, "QS").inner_text().strip() == "Q"


# 12 ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("size", SIZES)
def test_12_the_home_page_loads_only_its_own_view_and_nothing_scrolls(
    server: ServerProcess, new_page: PageFactory, size: Size
) -> None:
    page = open_page(new_page, size)
    scripts: list[str] = []
    page.on("request", lambda r: scripts.append(r.url) if r.resource_type == "script" else None)
    page.goto(server.url + "/")
    expect(page.get_by_role("heading", name="Race your friends at Scorpion")).to_be_visible()
    views = sorted(u.rsplit("/", 1)[-1].split("?")[0] for u in scripts if "/js/views/" in u)
    assert views == ["home.js"], views
    assert not any(u.split("?")[0].endswith(("/board.js", "/game.js")) for u in scripts)
    request = urllib.request.Request(
        server.url + "/api/presets", headers={"Accept-Encoding": "gzip"}
    )
    with urllib.request.urlopen(request) as answer:
        assert answer.headers.get("Content-Encoding") == "gzip"
        assert gzip.decompress(answer.read()).lstrip().startswith((b"{", b"["))
    if not size[2]:
        page.goto(server.url + "/#/practice/classic")
        name_player(page, "Pia")
        expect(page.locator(".race-main .card.up").first).to_be_visible()
        page.wait_for_timeout(0)
        assert page.evaluate("document.documentElement.scrollHeight") <= size[1]
        page.goto(server.url + "/#/daily")
        page.get_by_role("button", name="Play", exact=True).click()
        expect(page.locator(".card.up").first).to_be_visible()
        assert page.evaluate("document.documentElement.scrollHeight") <= size[1]


# Sound, themes, celebration --------------------------------------------------------------------
@pytest.mark.parametrize("size", SIZES)
def test_sound_and_theme_settings_survive_a_reload(
    server: ServerProcess, new_page: PageFactory, size: Size
) -> None:
    page = open_page(new_page, size)
    one_seat_race(page, server.url, deal=1, time_limit=0)
    played = (
        "window.__played = [];"
        " document.addEventListener('scorpion:sound', (e) => __played.push(e.detail))"
    )
    page.evaluate(played)
    play_by_keys(page, ["deal"])
    assert page.evaluate("window.__played") == ["deal"]
    mute = page.locator("[data-action=mute]")
    expect(mute).to_have_attribute("aria-pressed", "false")  # on by default
    mute.click()
    page.locator("details.help-keys summary").click()
    page.locator("select[data-theme=table]").select_option("blue")
    page.locator("select[data-theme=back]").select_option("red")
    page.locator("input[data-theme=large]").check()
    page.reload()
    expect(page.locator(".race-main .card.up").first).to_be_visible(timeout=15_000)
    expect(page.locator("[data-action=mute]")).to_have_attribute("aria-pressed", "true")
    html = page.locator("html")
    expect(html).to_have_attribute("data-table", "blue")
    expect(html).to_have_attribute("data-back", "red")
    expect(html).to_have_class("large-cards")
    page.evaluate(played)
    play_by_keys(page, ["2H>6"])  # muted: the move makes no sound
    assert page.evaluate("window.__played") == []


CELEBRATE = "async () => { const m = await import('/js/celebrate.js'); m.celebrate({}); }"


def test_the_celebration_is_skippable_and_still_under_reduced_motion(
    server: ServerProcess, browser: Browser
) -> None:
    for motion in ("no-preference", "reduce"):
        ctx = browser.new_context(viewport={"width": 1366, "height": 768}, reduced_motion=motion)
        page = ctx.new_page()
        page.goto(server.url + "/")
        page.evaluate(CELEBRATE)
        expect(page.locator(".celebration")).to_contain_text("You won!")
        if motion == "reduce":
            assert page.locator("canvas.cascade").count() == 0
            expect(page.locator(".celebration.reduced")).to_be_visible()
        else:
            expect(page.locator("canvas.cascade")).to_be_attached()
            page.keyboard.press("Escape")  # any key skips it
            expect(page.locator(".celebration")).to_have_count(0)
        ctx.close()
    assert CHROMIUM_ARGS
