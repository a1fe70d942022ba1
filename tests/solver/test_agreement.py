"""The solver agrees with a plain exhaustive search over the engine on small positions.

The plain search knows nothing of forced moves, deferrals, dead-position cycles or
canonical keys: it tries every legal move through ``Game.play`` and remembers
position texts. Positions are drawn by hypothesis: one or two suits in play, the
rest removed, cards spread over a few columns, some face down, maybe a stock
(or Three Blind Mice reserve cells).
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorpion.engine import Game, Rules, card_text
from scorpion.solver import solve
from scorpion.solver.best_first import GUIDES, BestFirst, unpack
from scorpion.solver.parks import dead_parks, idle_park
from scorpion.solver.phase import (
    Reach,
    on_plateau,
    plateau_lost,
    stubborn_links,
)
from scorpion.solver.prune import (
    doomed_any,
    emptying_cards,
    never_emptied,
    no_cards,
    pick_needs,
    spread,
)
from scorpion.solver.search import children, unused_park
from scorpion.solver.state import State, Step, is_won, moves, play

from .helpers import (
    BLOCKED,
    IDLE_PARKS,
    KING_ON_CARD,
    KING_ON_CHAIN,
    KING_PARK,
    KINGS_RUN_STUCK,
    RUN_LEFT_BEHIND,
    TAIL_TO_ACE,
    WON_IN_TWO,
    plain_search,
    replay,
)

PRESETS = (
    "classic", "wasp", "relaxed", "hard", "strict", "normal", "traditional", "three-blind-mice",
)  # fmt: skip


def assert_agrees_with_plain_search(preset: str, text: str) -> None:
    """The solver (200,000 nodes) says what the plain search says where both decide, and
    its winning line replays to a won game."""
    game = Game.from_text(text, preset)
    expected = plain_search(game)
    solution = solve(game, max_nodes=200_000)
    assert solution.note == ""
    if expected is not None and solution.verdict != "unknown":
        assert solution.verdict == ("won" if expected else "lost"), (preset, text)
    if solution.verdict == "won":
        assert replay(game, solution.line).won


@st.composite
def small_positions(
    draw: st.DrawFn, presets: tuple[str, ...] = PRESETS, empty_columns: int = 0, full: bool = False
) -> tuple[str, str]:
    """``empty_columns``: that many columns left empty and no stock (0: as drawn); ``full``:
    no stock and no empty column (the plateau of docs/solver.md's stubborn sets)."""
    preset = draw(st.sampled_from(presets))
    suits = draw(st.lists(st.integers(0, 3), min_size=1, max_size=2, unique=True))
    cards = draw(st.permutations([s * 13 + r for s in suits for r in range(13)]))
    ncols = draw(st.integers(3, 6))
    mice = preset == "three-blind-mice"
    dealt = full or empty_columns or mice
    stock = cards[:3] if not dealt and draw(st.booleans()) else []
    reserve = cards[: draw(st.integers(0, 2))] if mice else []
    rest = cards[len(stock) + len(reserve) :]
    filled = ncols - empty_columns
    low = 1 if empty_columns or full else 0  # the columns to fill: not empty
    high = len(rest) - 1 if full else len(rest)
    cuts = draw(
        st.lists(st.integers(low, high), min_size=filled - 1, max_size=filled - 1, unique=full)
    )
    bounds = [0, *sorted(cuts), *[len(rest)] * (empty_columns + 1)]
    lines = [f"stock: {' '.join(map(card_text, stock)) or '-'}"]
    if mice:
        lines.append(f"reserve: {' '.join(map(card_text, reserve)) or '-'}")
    for j in range(ncols):
        col = rest[bounds[j] : bounds[j + 1]]
        down = draw(st.integers(0, max(0, len(col) - 1)))
        face_down = " ".join(map(card_text, col[:down]))
        face_up = " ".join(map(card_text, col[down:]))
        lines.append(f"{j + 1}: {face_down} | {face_up}")
    removed = " ".join("SHDC"[s] for s in range(4) if s not in suits) or "-"
    lines.append(f"runs: {removed}")
    return preset, "\n".join(lines) + "\n"


@pytest.mark.slow  # 200 searches, two ways each: make test only
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_positions())
def test_solver_agrees_with_plain_search(case: tuple[str, str]) -> None:
    assert_agrees_with_plain_search(*case)


@pytest.mark.slow  # the plain search under any-suit building is costly: make test only
@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_positions(("relaxed",)))
def test_best_first_agrees_with_plain_search_under_any_suit_building(
    case: tuple[str, str],
) -> None:
    """Relaxed only (the preset the best-first search serves), its own 120 cases."""
    assert_agrees_with_plain_search(*case)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_positions())
def test_a_position_called_dead_cannot_be_won(case: tuple[str, str]) -> None:
    """The dead-position test for every rule set never throws a win away, on every preset."""
    preset, text = case
    game = Game.from_text(text, preset)
    if doomed_any(State.of(game), game.rules):
        assert plain_search(game) is not True, (preset, text)


@pytest.mark.slow  # as above
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_positions(("relaxed",)))
def test_best_first_without_the_dead_position_test_agrees_too(case: tuple[str, str]) -> None:
    """The table of keys and positions rebuilt from them alone, with no pruning at all."""
    preset, text = case
    game = Game.from_text(text, preset)
    expected = plain_search(game)
    verdict, steps = BestFirst(game.rules, 200_000, prune=False).run(State.of(game))
    if expected is not None and verdict != "unknown":
        assert verdict == ("won" if expected else "lost"), (preset, text)
    if verdict == "won":
        assert replay(game, [step.text() for step in steps]).won


def test_plain_search_itself_on_known_positions() -> None:
    assert plain_search(Game.from_text(WON_IN_TWO)) is True
    assert plain_search(Game.from_text(BLOCKED)) is False


@pytest.mark.slow  # 150 closure checks of whole searched sets: make test only
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_positions(("relaxed",)))
def test_a_loss_proved_by_the_searches_together_is_closed_under_moves(
    case: tuple[str, str],
) -> None:
    """The four searches share what they met and expanded: a loss they prove together must
    rest on a set of positions that no move leaves (but from dead ones) and holds no win."""
    preset, text = case
    game = Game.from_text(text, preset)
    search = BestFirst(game.rules, 50_000)
    verdict, _ = search.run(State.of(game))
    if verdict != "lost":
        return
    rules = game.rules
    assert search.expanded == search.generated
    for key in search.generated:
        state = unpack(key)
        assert not is_won(state, rules)
        if not doomed_any(state, rules):
            assert all(play(state, s, rules).key() in search.generated for s in moves(state, rules))


@pytest.mark.slow  # the plain search under any-suit building is costly: make test only
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_positions(("relaxed",)))
def test_each_turn_alone_agrees_with_plain_search(case: tuple[str, str]) -> None:
    """Each of the four (guide, order) searches alone, with its own table, is exhaustive."""
    preset, text = case
    game = Game.from_text(text, preset)
    expected = plain_search(game)
    for turn in GUIDES:
        verdict, steps = BestFirst(game.rules, 100_000, guides=(turn,)).run(State.of(game))
        if expected is not None and verdict != "unknown":
            assert verdict == ("won" if expected else "lost"), (preset, text, turn)
        if verdict == "won":
            assert replay(game, [step.text() for step in steps]).won


# Empty columns that take any card, same-suit building: the depth-first search with the
# emptiness test and the split-off rule (docs/solver.md, "Wasp").
ANY_EMPTY = ("wasp", "easy", "normal")


@pytest.mark.slow  # 200 searches and 200 plain searches: make test only
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_positions(ANY_EMPTY))
def test_any_card_into_an_empty_column_agrees_with_plain_search(case: tuple[str, str]) -> None:
    """Wasp, easy and normal, their own 200 cases (the shared test draws them too)."""
    assert_agrees_with_plain_search(*case)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_positions())
def test_a_position_whose_columns_can_never_empty_cannot_be_won(case: tuple[str, str]) -> None:
    """The emptiness test never throws a win away, on every preset."""
    preset, text = case
    game = Game.from_text(text, preset)
    if never_emptied(State.of(game), game.rules):
        assert plain_search(game) is not True, (preset, text)


def test_a_complete_run_left_behind_is_split_off_and_back() -> None:
    """Under ``placed`` a run uncovered after its completion stays; the one way on is to split
    it and put the piece back, a split-off the rule must keep (the plain search agrees)."""
    game = Game.from_text(RUN_LEFT_BEHIND, "wasp")
    assert plain_search(game) is True
    solution = solve(game)
    assert solution.verdict == "won"
    assert replay(game, solution.line).won


# The forced moves under ``empty: any`` (a tail down to the Ace, or any pile onto its suit's
# chain from a King) apply only once the stock is dealt: half the cases above have a stock.
@pytest.mark.slow  # 200 searches and 200 plain searches: make test only
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_positions(ANY_EMPTY).filter(lambda case: case[1].startswith("stock: -")))
def test_forced_moves_with_any_card_into_an_empty_column_agree_with_plain_search(
    case: tuple[str, str],
) -> None:
    assert_agrees_with_plain_search(*case)


def test_a_tail_down_to_the_ace_goes_onto_its_successor_at_once() -> None:
    """The 3S 2S AS can go into the empty column or onto the 4S: only the latter is tried,
    then the 9S onto the TS (a King's chain), and the plain search agrees it wins."""
    game = Game.from_text(TAIL_TO_ACE, "wasp")
    kids = children(State.of(game), game.rules)
    assert [step.text() for step, _, _ in kids] == ["3S>1"]
    assert plain_search(game) is True
    solution = solve(game)
    assert solution.verdict == "won"
    assert solution.line == ["3S>1", "9S>2"]
    assert replay(game, solution.line).won


def test_a_tail_to_the_ace_is_not_forced_while_a_stock_is_left() -> None:
    """A dealt card lands on a column's top: the pile's place still matters then."""
    hearts = "4: | KH QH JH TH 9H 8H 7H 6H 5H 4H\nruns: D C"
    text = TAIL_TO_ACE.replace("stock: -", "stock: 2H AH 3H").replace("runs: H D C", hearts)
    game = Game.from_text(text, "wasp")
    kids = children(State.of(game), game.rules)
    assert len(kids) > 1


# A pile put into the last empty column must be of use to the very next move (docs/solver.md,
# "Idle parks"): positions with no stock and one empty column, where the rule applies most.
@pytest.mark.slow  # 200 searches and 200 plain searches: make test only
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_positions(ANY_EMPTY, empty_columns=1))
def test_parks_into_the_last_empty_column_agree_with_plain_search(case: tuple[str, str]) -> None:
    assert_agrees_with_plain_search(*case)


def assert_a_kept_move_wins(game: Game, kept: set[str], case: tuple[str, str]) -> None:
    """Some move the search keeps still wins a position the plain search wins (or one the
    plain search cannot decide within its budget is left)."""
    wins = []
    for text in kept:
        after = game.copy()
        after.play(text)
        wins.append(after.won or plain_search(after))
    assert any(win is True for win in wins) or None in wins, case


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_positions(ANY_EMPTY, empty_columns=1))
def test_an_idle_park_is_never_the_only_way_to_a_win(case: tuple[str, str]) -> None:
    """Where the plain search wins, it still wins from some move the search keeps (without
    the idle parks), unless the search takes a forced move instead."""
    preset, text = case
    game = Game.from_text(text, preset)
    state, rules = State.of(game), game.rules
    kept = {step.text() for step, _, _ in children(state, rules)}
    idle = [s for s in moves(state, rules) if idle_park(state, s, rules)]
    if not idle or len(kept) == 1 or plain_search(game) is not True:
        return
    assert_a_kept_move_wins(game, kept, case)


def test_idle_parks_are_not_tried() -> None:
    game = Game.from_text(IDLE_PARKS, "wasp")
    kids = children(State.of(game), game.rules)
    assert sorted(step.text() for step, _, _ in kids) == ["2H>3", "3H>1", "3H>3", "6H>3"]
    assert plain_search(game) is True
    solution = solve(game)
    assert solution.verdict == "won"
    assert replay(game, solution.line).won


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_positions(ANY_EMPTY, empty_columns=1))
def test_a_park_called_dead_leaves_no_column_to_empty(case: tuple[str, str]) -> None:
    """``dead_parks`` (found without playing the parks) names only parks after which the
    emptiness test says no column can be emptied, and that position is not won either."""
    preset, text = case
    game = Game.from_text(text, preset)
    state, rules = State.of(game), game.rules
    dead = dead_parks(state, rules)
    for step in moves(state, rules):
        if step.src >= 0 and not state.cols[step.dest] and (step.src, step.at) in dead:
            after = play(state, step, rules)
            assert never_emptied(after, rules), (preset, text, step.text())
            assert plain_search(replay(game, [step.text()])) is not True, (preset, text)


def test_a_kings_park_can_be_dead() -> None:
    """A King's pile parked: its column's emptying card is the first that breaks the chain
    from the King, and ``dead_parks`` names the park when that card can never be picked up."""
    game = Game.from_text(KING_PARK, "wasp")
    state, rules = State.of(game), game.rules
    king = next(s for s in moves(state, rules) if s.text() == "KD>5")
    assert (king.src, king.at) in dead_parks(state, rules)
    assert never_emptied(play(state, king, rules), rules)
    assert plain_search(replay(game, ["KD>5"])) is False


def test_dead_parks_on_real_play() -> None:
    """On positions with one empty column from random games of Wasp deals 1-40 (the stock
    dealt), every park ``dead_parks`` names, Kings' piles among them, leaves a position
    where no column can be emptied; and it does name some."""
    named = kings = 0
    for deal in range(1, 41):
        game = Game.new(deal, "wasp")
        state, rules, draw = State.of(game), game.rules, random.Random(deal)
        for _ in range(300):
            if not state.stock and sum(not col for col in state.cols) == 1:
                dead = dead_parks(state, rules)
                for step in moves(state, rules):
                    if step.src >= 0 and not state.cols[step.dest] and (step.src, step.at) in dead:
                        assert never_emptied(play(state, step, rules), rules), (deal, step.text())
                        named += 1
                        kings += step.card % 13 == 12
            steps = moves(state, rules)
            if not steps:
                break
            state = play(state, draw.choice(steps), rules)
    assert named and kings  # the rule fires, on Kings' piles too


WASP = ("wasp",)


def first_empty_columns(game: Game, reduced: bool) -> set[State]:
    """The positions with an empty column first reached from ``game`` (no column empty, no
    stock) by links, every link or (``reduced``) only the stubborn set's at each step."""
    rules = game.rules
    todo, seen, exits = [State.of(game)], set(), set()
    while todo:
        state = todo.pop()
        if not all(state.cols):
            exits.add(state)
            continue
        if state.key() in seen:
            continue
        seen.add(state.key())
        links = stubborn_links(state, rules) if reduced else None
        for step in moves(state, rules):
            if links is None or step.card in links:
                todo.append(play(state, step, rules))
    return exits


def linked_from(starts: set[State], rules: Rules) -> set[bytes]:
    """Every position reached from ``starts`` by links (moves onto a card), as keys."""
    todo, seen = list(starts), set()
    while todo:
        state = todo.pop()
        if state.key() in seen:
            continue
        seen.add(state.key())
        todo.extend(play(state, s, rules) for s in moves(state, rules) if state.cols[s.dest])
    return seen


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_positions(WASP, full=True))
def test_stubborn_links_lead_to_every_first_empty_column(case: tuple[str, str]) -> None:
    """The lemma itself: every position with an empty column that links first reach from a
    plateau position is reached by first playing only stubborn sets' links to an empty
    column, then links (docs/solver.md, "Stubborn sets on the plateau")."""
    preset, text = case
    game = Game.from_text(text, preset)
    everything = {state.key() for state in first_empty_columns(game, False)}
    assert everything <= linked_from(first_empty_columns(game, True), game.rules), text


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_positions(WASP, full=True))
def test_a_stubborn_link_keeps_every_win(case: tuple[str, str]) -> None:
    """Where the plain search wins a plateau position, it wins after some link of the stubborn
    set; an empty stubborn set is a loss."""
    preset, text = case
    game = Game.from_text(text, preset)
    state, rules = State.of(game), game.rules
    links = stubborn_links(state, rules)
    if links is None or plain_search(game) is not True:
        return
    kept = [step for step in moves(state, rules) if step.card in links]
    assert any(plain_search(replay(game, [step.text()])) is True for step in kept), text


@pytest.mark.slow  # 200 searches, two ways each: make test only
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_positions(WASP, full=True))
def test_plateau_positions_agree_with_plain_search(case: tuple[str, str]) -> None:
    """Wasp with no stock and no empty column, where the stubborn sets apply at the start."""
    assert_agrees_with_plain_search(*case)


def assert_one_closure_answers_both(state: State, rules: Rules) -> None:
    """On a plateau position, the closure built once (:class:`.phase.Reach`, stopped at the
    first emptying card, then finished) answers as the emptiness test and the stubborn set
    each built alone do, and its cards are the whole closure built in one go."""
    lost, reach = plateau_lost(state)
    assert lost == never_emptied(state, rules)
    alone = stubborn_links(state, rules)
    if reach is not None:
        assert stubborn_links(state, rules, reach) == alone
    targets = emptying_cards(state.cols)
    if targets is None:
        assert alone is None
        return
    missing, waiting, free = pick_needs(state.cols, state.down, None, True)
    whole = no_cards()
    spread(free, missing, waiting, no_cards(), whole, no_cards())
    assert Reach(state, targets).pickable() == whole


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_positions(WASP, full=True))
def test_the_shared_plateau_closure_answers_as_each_alone(case: tuple[str, str]) -> None:
    preset, text = case
    game = Game.from_text(text, preset)
    assert_one_closure_answers_both(State.of(game), game.rules)


def test_the_shared_plateau_closure_on_real_play() -> None:
    """The same on the plateau positions of random games of Wasp deals 1-20 (300 random
    moves each, seeded by the deal), where the search meets them."""
    checked = 0
    for deal in range(1, 21):
        game = Game.new(deal, "wasp")
        state, rules, draw = State.of(game), game.rules, random.Random(deal)
        for _ in range(300):
            if on_plateau(state, rules):
                assert_one_closure_answers_both(state, rules)
                checked += 1
            steps = moves(state, rules)
            if not steps:
                break
            state = play(state, draw.choice(steps), rules)
    assert checked >= 100  # the plateau is met, not skipped


# Unused parks (docs/solver.md): a park into the last empty column (stock dealt) is tried
# only if a link of the stubborn set of the position it leads to needs it.
def unused_parks(state: State, rules: Rules) -> list[Step]:
    """The parks into the last empty column that the search drops (:func:`unused_park`)."""
    if sum(not col for col in state.cols) != 1:
        return []
    out = []
    for step in moves(state, rules):
        judged = unused_park(state, step, play(state, step, rules), rules)
        if judged is not None and judged[0]:
            out.append(step)
    return out


def assert_unused_parks_commute(state: State, rules: Rules) -> int:
    """For each park the search drops and each link ``t`` of the stubborn set after it, ``t``
    is legal before the park, and ``t`` then a park of the pile from the same card (or no
    park, when ``t`` completed a run with it) reaches the position the park then ``t``
    reaches. Returns the parks checked."""
    checked = 0
    for park in unused_parks(state, rules):
        after = play(state, park, rules)
        links = stubborn_links(after, rules)
        assert links is not None
        for step in moves(after, rules):
            if step.card not in links:
                continue
            goal = play(after, step, rules).key()
            onto = after.cols[step.dest][-1]
            first = [
                s
                for s in moves(state, rules)
                if s.card == step.card and state.cols[s.dest] and state.cols[s.dest][-1] == onto
            ]
            assert len(first) == 1, (state, park, step)
            mid = play(state, first[0], rules)
            reached = {mid.key()}
            for s in moves(mid, rules):
                if s.src >= 0 and not mid.cols[s.dest] and s.card == park.card:
                    reached.add(play(mid, s, rules).key())  # the pile from the same card
            assert goal in reached, (state, park, step)
        checked += 1
    return checked


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_positions(WASP, empty_columns=1))
def test_an_unused_park_commutes_with_every_stubborn_link(case: tuple[str, str]) -> None:
    preset, text = case
    game = Game.from_text(text, preset)
    assert_unused_parks_commute(State.of(game), game.rules)


def test_unused_parks_commute_on_real_play() -> None:
    """The same on positions with one empty column from random games of Wasp deals 1-40,
    where the search drops parks (it does drop some)."""
    checked = 0
    for deal in range(1, 41):
        game = Game.new(deal, "wasp")
        state, rules, draw = State.of(game), game.rules, random.Random(deal)
        for _ in range(300):
            if not state.stock:
                checked += assert_unused_parks_commute(state, rules)
            steps = moves(state, rules)
            if not steps:
                break
            state = play(state, draw.choice(steps), rules)
    assert checked >= 20  # the rule fires on real play


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_positions(WASP, empty_columns=1))
def test_an_unused_park_is_never_the_only_way_to_a_win(case: tuple[str, str]) -> None:
    """Where the plain search wins, it still wins from some move the search keeps (without
    the unused parks), unless the search takes a forced move instead."""
    preset, text = case
    game = Game.from_text(text, preset)
    state, rules = State.of(game), game.rules
    unused = {step.text() for step in unused_parks(state, rules)}
    if not unused or plain_search(game) is not True:
        return
    kept = {step.text() for step, _, _ in children(state, rules)} - unused
    assert_a_kept_move_wins(game, kept, case)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_positions(WASP, empty_columns=1))
def test_wasp_with_one_empty_column_agrees_with_plain_search(case: tuple[str, str]) -> None:
    """Wasp, no stock, one empty column: the unused parks are dropped from the start."""
    assert_agrees_with_plain_search(*case)


def test_a_king_on_a_kings_chain_is_not_the_card_to_pick_up() -> None:
    """The KH dealt on column 1's chain leaves with its run, completed in place: the card
    that column waits for is the next card of the last chain (the 8H onto the 9H), and the
    position, which the plain search wins, is not called lost."""
    game = Game.from_text(KING_ON_CHAIN, "wasp")
    state, rules = State.of(game), game.rules
    assert plain_search(game) is True
    assert (card_text(emptying_cards(state.cols)[0][0])) == "8H"
    assert not never_emptied(state, rules)
    solution = solve(game)
    assert solution.verdict == "won"
    assert replay(game, solution.line).won


def test_a_king_on_a_card_leaves_with_its_run() -> None:
    """The KH, dealt on the face-down 6D, leaves with its run completed in place (6H>1): the
    emptiness test and the stubborn set count that (the card under a King is not stuck for
    good), and the position, which the plain search wins, is won."""
    game = Game.from_text(KING_ON_CARD, "wasp")
    state, rules = State.of(game), game.rules
    assert plain_search(game) is True
    assert not never_emptied(state, rules)
    assert not plateau_lost(state)[0]
    assert stubborn_links(state, rules) == {card for card in range(52) if card_text(card) == "6H"}
    solution = solve(game)
    assert solution.verdict == "won"
    assert replay(game, solution.line).won


def test_a_bottom_kings_column_waits_for_its_whole_suit() -> None:
    """Column 1's emptying card (6S) is free, but the KS leaves only with its run, and the QS
    can never be picked up while no column is empty: lost, as the plain search says."""
    game = Game.from_text(KINGS_RUN_STUCK, "wasp")
    state, rules = State.of(game), game.rules
    assert plain_search(game) is False
    assert never_emptied(state, rules)
    assert plateau_lost(state)[0]
    assert solve(game).verdict == "lost"


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_positions(WASP, full=True))
def test_a_plateau_position_whose_columns_can_never_empty_cannot_be_won(
    case: tuple[str, str],
) -> None:
    """The emptiness test on the plateau (Kings dealt on cards, Kings' columns waiting for
    their suits), where the search asks it most: it never throws a win away."""
    preset, text = case
    game = Game.from_text(text, preset)
    if never_emptied(State.of(game), game.rules):
        assert plain_search(game) is not True, (preset, text)
