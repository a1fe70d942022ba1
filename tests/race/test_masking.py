"""Masking: a followed board never names a card still face down on a playing racer's board."""

from __future__ import annotations

import random

from scorpion.engine import Game, card_text
from scorpion.engine.cards import CARD_TEXTS
from scorpion.race import Player
from scorpion.race.masking import MASK, Board, HiddenCards, face_down, face_up_any, mask_view
from scorpion.race.observed import shown_numbers, shown_ordered

from .harness import INTERVAL, racing

DEAL = 7  # the racing() deal: no opening move turns a card, dealing the stock shows three


def stock_texts(deal: int = DEAL) -> list[str]:
    return [card_text(c) for c in Game.new(deal, "classic").stock]


# ------------------------------------------------------------------ HiddenCards
def test_a_card_stays_hidden_while_one_playing_board_hides_it() -> None:
    a, b, c = (Game.new(DEAL, "classic") for _ in range(3))
    hidden = HiddenCards()
    assert not hidden.sync({"a": Board(a, True), "b": Board(b, True), "c": Board(c, True)})
    assert hidden.cards == face_down(a)
    a.play("deal")
    b.play("deal")
    # Still in c's stock: hidden although two boards show them.
    assert not hidden.sync({"a": Board(a, True), "b": Board(b, True), "c": Board(c, True)})
    assert set(stock_texts()) <= hidden.cards
    c.play("deal")
    released = hidden.sync({"a": Board(a, True), "b": Board(b, True), "c": Board(c, True)})
    assert released == set(stock_texts())
    assert hidden.cards == face_down(a)


def test_undo_hides_again_and_a_finished_racer_hides_nothing() -> None:
    a, b = Game.new(DEAL, "classic"), Game.new(DEAL, "classic")
    hidden = HiddenCards()
    a.play("deal")
    hidden.sync({"a": Board(a, True), "b": Board(b, True)})
    b.play("deal")
    assert hidden.sync({"a": Board(a, True), "b": Board(b, True)}) == set(stock_texts())
    b.undo()  # the stock is back, face down, on b's board
    assert not hidden.sync({"a": Board(a, True), "b": Board(b, True)})
    assert set(stock_texts()) <= hidden.cards
    # b finishes: only a's face-down cards stay hidden (the stock is dealt on a's board).
    assert hidden.sync({"a": Board(a, True), "b": Board(b, False)}) == set(stock_texts())
    assert hidden.cards == face_down(a)
    # The round is over (nobody playing, or a new round's racers): nothing is hidden.
    assert hidden.sync({}) == face_down(a)
    assert hidden.cards == frozenset() and MASK not in hidden


def test_a_new_game_object_for_the_same_racer_is_read_again() -> None:
    a = Game.new(DEAL, "classic")
    hidden = HiddenCards()
    hidden.sync({"a": Board(a, True)})
    dealt = Game.new(DEAL, "classic")
    dealt.play("deal")
    assert hidden.sync({"a": Board(dealt, True)}) == set(stock_texts())


def test_the_table_by_card_follows_the_hidden_texts_through_random_races() -> None:
    """HiddenCards.by_card (what observed.py reads per card) says what ``cards`` says, and
    the numbers counted on it are those counted on the texts, after every sync."""
    rng = random.Random(28)
    for deal in range(1, 13):
        games = {str(i): Game.new(deal, "classic") for i in range(3)}
        playing = dict.fromkeys(games, True)
        hidden = HiddenCards()
        for _ in range(120):  # bounded: a few moves, undos and finishes per racer
            racer = rng.choice(sorted(games))
            game = games[racer]
            legal = game.legal_moves()
            if rng.random() < 0.2 and game.can_undo:
                game.undo()
            elif legal and not game.over:
                game.play(rng.choice(legal))
            elif rng.random() < 0.3:
                playing[racer] = False
            hidden.sync_one(racer, game if playing[racer] else None)
            texts = hidden.cards
            assert hidden.by_card == [text in texts for text in CARD_TEXTS]
            for other in games.values():
                assert shown_ordered(other, hidden) == shown_ordered(other, texts)
                assert shown_numbers(7, 3, other, hidden) == shown_numbers(7, 3, other, texts)


def test_mask_view_masks_only_hidden_face_up_cards_and_copies() -> None:
    game = Game.new(DEAL, "classic")
    game.play("deal")
    view = game.view()
    original = repr(view)
    secret = set(stock_texts())
    masked = mask_view(view, secret)
    assert repr(view) == original  # the engine's view is not changed
    ups = [card for column in masked["columns"] for card in column["up"]]  # type: ignore[attr-defined, index]
    assert ups.count(MASK) == 3 and not secret & set(ups)
    unmasked = [c for col in view["columns"] for c in col["up"]]  # type: ignore[attr-defined, index]
    assert [u for u, m in zip(unmasked, ups, strict=True) if u != m] == [
        c for c in unmasked if c in secret
    ]
    assert {k: v for k, v in masked.items() if k != "columns"} == {
        k: v for k, v in view.items() if k not in ("columns", "legal")
    }
    # Never the legal moves: a move onto a masked card would name it.
    assert "legal" in view and mask_view(view, set()) == {
        k: v for k, v in view.items() if k != "legal"
    }
    # face_up_any finds exactly the face-up cards (none in the stock or face down).
    assert [t for t in CARD_TEXTS if face_up_any(game, [t])] == sorted(
        unmasked, key=CARD_TEXTS.index
    )
    assert not face_up_any(game, face_down(game)) and face_up_any(game, [*secret, unmasked[0]])


# ------------------------------------------------------------------ the room's paths
def test_follow_answer_views_and_welcome_are_masked_until_every_racer_dealt() -> None:
    h, a, b, c = racing()
    stock = set(stock_texts())
    assert a.command("deal")["type"] == "applied"
    followed = c.command("follow", player="a")
    ups = [card for col in followed["view"]["columns"] for card in col["up"]]  # type: ignore[index]
    assert ups.count(MASK) == 3 and not stock & set(ups)
    # Ada's own second tab sees her board unmasked.
    tab = h.connect(Player("a", "Ada"), room="room1")
    own = tab.last("welcome")["view"]
    assert stock <= {card for col in own["columns"] for card in col["up"]}  # type: ignore[index]
    # A move of Ada's: her follower's view is masked, her other tab's is not.
    replica = Game.new(DEAL, "classic")
    replica.play("deal")
    before = len(c.inbox)
    assert a.command("move", move=str(replica.legal_moves()[0]))["type"] == "applied"
    h.advance(INTERVAL)  # a follower gets the board with the room's next progress event
    views = [m for m in c.inbox[before:] if m["type"] == "view"]
    assert len(views) == 1 and str(views[0]["view"]).count(repr(MASK)) == 3
    assert tab.last("view")["view"] == a.last("applied")["view"]
    # A reconnecting follower's welcome is masked too.
    c.disconnect()
    c = h.connect(Player("c", "Cy"), room="room1", last_version=0)
    welcome = c.last("welcome")["view"]
    assert MASK in [card for col in welcome["columns"] for card in col["up"]]  # type: ignore[index]
    # Bo deals too: nobody playing hides the stock any more; Cy is shown Ada's board at once.
    before = len(c.inbox)
    assert b.command("deal")["type"] == "applied"
    views = [m for m in c.inbox[before:] if m["type"] == "view"]
    assert [v["player"] for v in views] == ["a"]
    shown = [card for col in views[0]["view"]["columns"] for card in col["up"]]  # type: ignore[index]
    assert MASK not in shown and stock <= set(shown)


def test_a_finished_racer_reveals_nothing_more_and_the_results_unmask_all() -> None:
    _, a, b, c = racing()
    a.command("deal")
    c.command("follow", player="a")
    # Bo gives up: his stock no longer counts, so Ada's dealt cards are shown to Cy.
    before = len(c.inbox)
    assert b.command("give-up")["type"] == "applied"
    views = [m for m in c.inbox[before:] if m["type"] == "view"]
    assert views and views[-1]["player"] == "a"
    assert MASK not in str(views[-1]["view"])
    assert a.command("give-up")["type"] == "applied"
    assert c.events("results")
    assert MASK not in str(c.command("follow", player="b")["view"])


def test_a_spectator_following_nobody_gets_no_view() -> None:
    _, a, _, c = racing()
    a.command("deal")
    assert not [m for m in c.inbox if m["type"] == "view"]
