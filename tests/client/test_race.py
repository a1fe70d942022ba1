"""Two players race in two browsers while a third watches; moves by drag and by tap, a refused
move with its message, a reload mid-race, the results, a rematch and the statistics.

Deal 1 under classic rules (from the engine):
    1: 3 down | 8D 8H 5C JH        5: QS 4C 6S 7S AC 5S AD
    2: 3 down | 5H KH 3S 2H        6: KC 6D QC QD QH 9H 3H
    3: 3 down | 4D 2S AH 6C        7: 3C AS 4S 2D 8S TS 3D
    4: 3 down | TC JC TH 8C
"""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from scorpion.engine import Game
from scorpion_dev.server import ServerProcess

from .conftest import PageFactory
from .helpers import card, column_cards, create_room, drag, name_player, start_race, tap

pytestmark = pytest.mark.browser


def stat(page: Page, name: str) -> str:
    return page.locator(f".race-main [data-stat='{name}'] b").inner_text()


def test_deal_one_is_what_the_tests_assume() -> None:
    view = Game.new(1, "classic").view()
    assert view["columns"][0]["up"] == ["8D", "8H", "5C", "JH"]
    assert view["columns"][6]["up"][-2:] == ["TS", "3D"]


def test_two_players_race_and_a_spectator_follows(
    server: ServerProcess, new_page: PageFactory
) -> None:
    ada = new_page()
    bo = new_page()
    link = create_room(ada, server.url, "Ada", deal=1)
    assert "/r/" in link and "token" not in link

    bo.goto(link)
    name_player(bo, "Bo <b>bold</b>")
    expect(ada.locator(".players")).to_contain_text("Bo <b>bold</b>")  # a name is text
    assert ada.locator(".players b").count() == 0

    ada.locator("[data-action=ready]").click()
    bo.locator("[data-action=ready]").click()
    start_race(ada, "Bo <b>bold</b>")
    for page in (ada, bo):
        expect(card(page, "JH")).to_be_visible(timeout=15_000)
    assert column_cards(ada, 1) == ["8D", "8H", "5C", "JH"]

    # A refused move shakes back and shows the rule's message.
    drag(ada, "TS", 1)
    expect(ada.locator("#toast")).to_contain_text("Rule: cards must be of the same suit")
    assert column_cards(ada, 7)[-2:] == ["TS", "3D"]
    assert stat(ada, "moves") == "0"

    # A drag move: the 5C carries the JH onto the 6C.
    drag(ada, "5C", 3)
    expect(ada.locator(".race-main .column[data-col='2'] .card[data-card='JH']")).to_be_visible()
    assert column_cards(ada, 3) == ["4D", "2S", "AH", "6C", "5C", "JH"]
    assert column_cards(ada, 1) == ["8D", "8H"]

    # A tap move: the 2H goes where it fits, onto the 3H of column 6 (the server resolves it).
    tap(ada, "2H")
    expect(ada.locator(".race-main .column[data-col='5'] .card[data-card='2H']")).to_be_visible()
    expect(ada.locator(".race-main [data-stat='moves'] b")).to_have_text("2")
    assert column_cards(ada, 2) == ["5H", "KH", "3S"]

    # Bo plays too.
    tap(bo, "TH")  # TH (with the 8C) fits only on the JH of column 1
    expect(bo.locator(".race-main .column[data-col='0'] .card[data-card='TH']")).to_be_visible()

    # Bo sees Ada's progress in the racers panel.
    expect(bo.locator(".racers")).to_contain_text("2 moves")

    # A spectator arrives mid-race, sees both racers, follows Ada's board live.
    cy = new_page()
    cy.goto(link)
    name_player(cy, "Cy")
    expect(cy.locator(".racers")).to_contain_text("Ada")
    expect(cy.locator(".racers")).to_contain_text("Bo <b>bold</b>")
    cy.locator("button.racer", has_text="Ada").click()
    expect(cy.locator(".race-main .column[data-col='2'] .card[data-card='JH']")).to_be_visible()
    assert cy.locator(".race-main .card.down").count() > 0

    # Ada moves again; the spectator's board follows.
    drag(ada, "AH", 6)  # onto the 2H, carrying the 6C 5C JH
    expect(cy.locator(".race-main .column[data-col='5'] .card[data-card='AH']")).to_be_visible()

    # Reloading mid-race resumes the same game.
    ada.reload()
    expect(card(ada, "AH")).to_be_visible(timeout=15_000)
    assert column_cards(ada, 3) == ["4D", "2S"]
    assert column_cards(ada, 6)[-5:] == ["2H", "AH", "6C", "5C", "JH"]
    expect(ada.locator(".race-main [data-stat='moves'] b")).to_have_text("3")

    # Ada deals the stock; Bo has not: Cy sees those three cards masked on Ada's board.
    ada.keyboard.press("d")
    expect(ada.locator(".race-main [data-stat='moves'] b")).to_have_text("4")
    expect(cy.locator(".race-main .card.masked")).to_have_count(3)
    assert ada.locator(".race-main .card.masked").count() == 0

    # Ada gives up; while Bo races on she follows Bo's board, in place of her own.
    ada.get_by_role("button", name="Give up").click()
    ada.locator(".overlay").get_by_role("button", name="Give up").click()
    expect(ada.get_by_text("Your game is over: gave up")).to_be_visible()
    ada.locator("button.racer", has_text="Bo").click()
    followed = ada.locator(".race-main section.game:has(.board.readonly)")
    expect(followed.locator(".column[data-col='0'] .card[data-card='TH']")).to_be_visible()
    expect(ada.get_by_role("heading", name="Following Bo <b>bold</b>")).to_be_visible()

    # Bo gives up too: the results show the ranking and the chart.
    bo.get_by_role("button", name="Give up").click()
    bo.locator(".overlay").get_by_role("button", name="Give up").click()
    for page in (ada, bo, cy):
        expect(page.get_by_role("dialog", name="Results")).to_be_visible(timeout=15_000)
        expect(page.locator(".results-table")).to_contain_text("Ada")
        assert page.locator("svg.chart path").count() >= 2  # a score line per racer
    expect(ada.get_by_role("button", name="Rematch on a new deal")).to_be_visible()

    # A rematch: Ada, who asked, is back in the lobby and ready (asking is being ready); Bo
    # keeps his results with a notice until he joins, ready in one click.
    ada.get_by_role("button", name="Rematch on a new deal").click()
    expect(ada.locator("[data-action=ready]")).to_have_text("Not ready")
    expect(bo.locator("[data-note=rematch]")).to_contain_text("asked for a rematch")
    bo.locator("[data-action=join-rematch]").click()
    expect(bo.locator("[data-action=ready]")).to_have_text("Not ready")

    # Statistics count the race.
    ada.goto(server.url + "/#/stats")
    classic = ada.locator("[data-preset=classic]")
    expect(classic).to_contain_text("Started")
    expect(classic.locator(".stat-card").nth(2)).to_contain_text("1")  # lost: gave up


def test_others_see_no_score_that_names_a_masked_card(
    server: ServerProcess, new_page: PageFactory, screenshots: Path
) -> None:
    """Relaxed deal 1 (the issue's reproduction): Ada deals (the 2C lands on column 1, still
    in Bo's stock) and puts the AC on it. Her own row and board say score 5; Bo's racers
    panel and Cy, who follows her, see "–" until the results, which give the exact 5."""
    ada, bo, cy = new_page(), new_page(390, 844, mobile=True), new_page(1366, 768)
    link = create_room(ada, server.url, "Ada", deal=1, preset="relaxed")
    bo.goto(link)
    name_player(bo, "Bo")
    for page in (ada, bo):
        page.locator("[data-action=ready]").click()
    start_race(ada, "Bo")
    cy.goto(link)
    name_player(cy, "Cy")
    expect(card(ada, "JH")).to_be_visible(timeout=15_000)
    cy.locator("button.racer", has_text="Ada").click()
    ada.keyboard.press("d")
    expect(cy.locator(".race-main .card.masked")).to_have_count(3)
    drag(ada, "AC", 1)
    expect(ada.locator(".race-main [data-stat='score'] b")).to_have_text("5")
    expect(ada.locator(".racers .racer.me .score")).to_have_text("5")  # her own view's
    for page in (bo, cy):
        expect(page.locator(".racers .racer", has_text="Ada")).to_contain_text("2 moves")
        expect(page.locator(".racers .racer", has_text="Ada").locator(".score")).to_have_text("–")
    expect(cy.locator(".race-main [data-stat='score'] b")).to_have_text("–")
    cy.screenshot(path=str(screenshots / "observer-desktop.png"))
    bo.screenshot(path=str(screenshots / "observer-phone.png"))
    for page in (ada, bo):
        page.get_by_role("button", name="Give up").click()
        page.locator(".overlay").get_by_role("button", name="Give up").click()
    expect(cy.get_by_role("dialog", name="Results")).to_be_visible(timeout=15_000)
    row = cy.locator(".results-table tr", has_text="Ada")
    expect(row).to_contain_text("5")
