"""What others see of a racer's numbers (race/observed.py): nothing the masked board hides.

The issue's two reproductions (issue 21, item 6) are here as plain tests; the property over
random races is tests/race/test_observer_frames.py.
"""

from __future__ import annotations

from scorpion.engine import PRESETS, Game
from scorpion.engine.progress import ordered_cards
from scorpion.race.masking import MASK
from scorpion.race.observed import score_withheld, shown_ordered, shown_progress, shown_ranks

from .harness import INTERVAL, racing

ADA_COLUMN = 0  # deal 25: the ten of hearts ends column 1, and the deal puts the 9H on it


def test_a_masked_card_counts_for_nothing_nor_a_card_on_it() -> None:
    game = Game.from_text(
        "stock: -\n1: | KC QC JC TC 9C\n2: 8C 7C | 6C 5C\n3: | 4C 3C 2C AC\nruns: S H D"
    )
    assert shown_ordered(game, frozenset()) == 48  # the engine's count
    assert shown_ordered(game, frozenset({"JC"})) == 46  # JC on QC, TC on JC
    assert shown_ordered(game, frozenset({"KC"})) == 46  # a masked King counts not, nor QC
    assert shown_ordered(game, frozenset({"2C", "5C"})) == 45  # 2C, AC on it, 5C
    assert shown_ordered(game, frozenset({"7C", "8C"})) == 48  # face down: no difference


def test_the_score_is_withheld_only_where_it_could_name_a_card() -> None:
    withheld = {name for name, rules in PRESETS.items() if score_withheld(rules)}
    assert withheld == {"relaxed"}  # points scoring and any-suit building
    game = Game.new(1, "relaxed")
    shown = shown_progress({"player": "a", "score": 5, "ordered": 3}, game, frozenset())
    assert shown == {"player": "a", "score": None, "ordered": 3}  # nothing masked: as it is
    classic = Game.new(25, "classic")
    classic.play("deal")  # the 9H lands on the TH: masked while in a playing racer's stock
    entry = {"player": "a", "score": 0, "ordered": ordered_cards(classic)}
    assert entry["ordered"] == 1
    assert shown_progress(entry, classic, {"9H", "7D"}) == {**entry, "ordered": 0}


def test_live_ranks_stand_cards_in_order_in_for_a_withheld_score() -> None:
    entries = [
        {"player": "a", "status": "playing", "runs": 0, "score": None, "ordered": 5, "moves": 3},
        {"player": "b", "status": "playing", "runs": 1, "score": None, "ordered": 13, "moves": 9},
        {"player": "c", "status": "playing", "runs": 0, "score": None, "ordered": 7, "moves": 30},
    ]
    assert shown_ranks(entries) == {"b": 1, "c": 2, "a": 3}
    shown = [{**e, "score": 100 - int(str(e["moves"]))} for e in entries]
    assert shown_ranks(shown) == {"b": 1, "a": 2, "c": 3}  # a score shown ranks as always


def test_classic_deal_25_ordered_says_nothing_of_the_card_on_the_ten_of_hearts() -> None:
    # The issue: a spectator following Ada sees TH, ?? while her ordered went to 1, so ??
    # was the 9H, a card still in Bo's stock.
    h, a, b, c = racing(deal=25, preset="classic")
    c.command("follow", player="a")
    own = a.command("move", move="deal")
    assert own["view"]["columns"][ADA_COLUMN]["up"][-2:] == ["TH", "9H"]  # type: ignore[index]
    assert own["view"]["ordered"] == 1  # her own view: her exact count
    seen = c.last("view")["view"]
    assert seen["columns"][ADA_COLUMN]["up"][-2:] == ["TH", MASK]  # type: ignore[index]
    assert seen["ordered"] == 0  # was 1: the 9H given away
    assert c.progress("a")[-1]["ordered"] == 0 and b.progress("a")[-1]["ordered"] == 0
    snapshot = h.referee.rooms["room1"].state(h.now)
    ada = next(p for p in snapshot["players"] if p["id"] == "a")  # type: ignore[union-attr]
    assert ada["ordered"] == 0
    # Bo deals: the 9H is face up on every playing board, nothing masks it, and Ada's
    # numbers as others see them go out again with Bo's, her board to her follower.
    h.advance(INTERVAL)
    b.command("move", move="deal")
    last = c.events("progress")[-1]
    assert [(p["player"], p["ordered"]) for p in last["players"]] == [("b", 1), ("a", 1)]
    assert c.last("view")["view"]["columns"][ADA_COLUMN]["up"][-2:] == ["TH", "9H"]  # type: ignore[index]


def test_relaxed_deal_1_the_score_says_nothing_of_the_card_under_the_ace() -> None:
    # The issue: Ada plays AC (with the 5S and AD on it) onto a ?? and her score rises by
    # 5, so ?? is the 2C, still in Bo's stock.
    h, a, b, c = racing(deal=1, preset="relaxed")
    c.command("follow", player="a")
    a.command("move", move="deal")
    h.advance(INTERVAL)
    own = a.command("move", move="AC>1")
    assert own["view"]["columns"][0]["up"][-4:-2] == ["2C", "AC"]  # type: ignore[index]
    assert own["view"]["score"] == 5  # her own view: her exact score
    seen = c.last("view")["view"]
    assert seen["columns"][0]["up"][-4:-2] == [MASK, "AC"]  # type: ignore[index]
    assert seen["score"] is None
    assert [p["score"] for p in c.progress("a")] == [None, None, None]  # start, deal, AC>1
    snapshot = h.referee.rooms["room1"].state(h.now)
    assert {p["id"]: p["score"] for p in snapshot["players"]} == {"a": None, "b": None}  # type: ignore[union-attr]
    # Ranked on the cards in order others see (no score): the AC on the 2C counts for Ada
    # alone (2), others see the King at the bottom of column 6 (1) like Bo's, and Bo, with
    # fewer moves, ranks first.
    assert own["view"]["ordered"] == 2
    assert [(p["ordered"], p["ranks"]) for p in c.progress("a")][-1] == (1, {"b": 1, "a": 2})
    # The results give everyone the exact figures (nothing is masked then).
    a.command("give-up")
    b.command("give-up")
    ranking = c.events("results")[-1]["ranking"]
    assert {r["player"]: r["score"] for r in ranking} == {"a": 5, "b": 0}  # type: ignore[union-attr]
    assert c.progress("a")[-1]["score"] == 5
