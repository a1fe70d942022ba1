"""Depth-first search over :class:`State` with a transposition table and pruning.

Winnability is reachability of a won position, so one global table of every
position seen (by canonical key: interchangeable columns sorted) is exact, with
or without cycles (Wasp and any-suit building have them): a position seen before
is never expanded twice, and a search that runs out of positions has proved the
deal lost. Positions with a single way on are followed without branching.

Pruning, each argued in docs/solver.md and checked against a plain exhaustive
search in tests/solver/test_agreement.py:

- Forced moves (same-suit building, Kings-only empty columns, stock dealt): a
  card put on its suit's chain that runs from a King at a column's bottom can
  never be in the way again, so such a move is played at once as the only child.
  Under the ``placed`` rule a run completed while its Ace is covered would stay
  on the tableau, so while that Ace is covered the move splits the search:
  either it is not the last of its suit to be placed in some win (then it is
  safe now) or it is in every win (then it is deferred, and the suit's other
  home placements are safe).
- Dead positions (:mod:`.prune`): a card that must be picked up but never can be.
- Any card into an empty column (Wasp, easy, normal): a position none of whose columns
  can ever be emptied again is lost (:func:`.prune.never_emptied`), a pile lying on
  its suit's successor is not split off into an empty column (:func:`_splits_off`), and
  once the stock is dealt the home-chain move (no deferral: a covered Ace makes it an
  ordinary move) and a column's tail down to its Ace onto its successor
  (:func:`_split`) are forced, and a pile put into the last empty column must be of
  use to the next move (:func:`.parks.idle_park`) and must leave a column that can be
  emptied (:func:`.parks.dead_parks`) and that some link of the stubborn set after it
  needs (:func:`unused_park`); with no column empty, only a stubborn set's links are tried
  (:func:`.phase.stubborn_links`); with one column empty or none, a position from which
  two columns can never be empty at once is lost (:func:`.slot.no_second_empty`).

A first version also forced every move onto a successor; the agreement tests
found positions where that loses a win (the moving pile can cover a card that
must later go onto it), so only the home-chain case is kept.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Final, Literal

from scorpion.engine import Rules

from .cache import LostPositions
from .parks import dead_parks, idle_park
from .phase import (
    Reach,
    on_plateau,
    park_used,
    plateau_lost,
    plateau_view,
    stubborn_links,
)
from .prune import applies, doomed, emptying_cards, never_emptied, target_free
from .slot import no_second_empty
from .state import DEAL_SOURCE, KING0, RESERVE_SOURCE, RUNS, State, Step, is_won, moves, play

# The move to a node (None: a deferral), the position it is played from, the deferred cards.
# The position after the move is computed only when the node is reached (most never are).
Node = tuple[Step | None, State, bytes]

Verdict = Literal["won", "lost", "unknown"]
CHECK_EVERY: Final = 64  # nodes between clock readings
MAX_CHAIN: Final = 100  # forced moves followed in one go


class Budget(Exception):
    """The node or time budget ran out."""


def _ace_covered(state: State, suit: int) -> bool:
    """Whether the Ace of ``suit`` is face up with cards on it."""
    ace = suit * 13
    for col, d in zip(state.cols, state.down, strict=True):
        i = col.find(ace)
        if i >= 0:
            return d <= i < len(col) - 1
    return False


def _linked(state: State, card: int) -> bool:
    """Whether ``card`` lies face up, directly on its face-up successor."""
    for col, d in zip(state.cols, state.down, strict=True):
        i = col.find(card)
        if i >= 0:
            return i > d and col[i - 1] == card + 1
    return False


def _others_linked(state: State, card: int) -> bool:
    """Whether every card of ``card``'s suit but ``card`` (and the King) lies on its successor."""
    base = card - card % 13
    return all(_linked(state, x) for x in range(base, base + 12) if x != card)


def _split(state: State, rules: Rules, steps: list[Step], deferred: bytes) -> list[Node] | None:
    """The forced move, or the two-way split on a risky one, after the deal (same-suit only).

    A move onto a successor is forced unless the ``placed`` rule and a covered Ace
    make it risky; a risky move ``m`` splits the search: either some win does not
    place ``m`` last among its suit (then playing ``m`` now is safe) or every win
    does (then ``m`` is deferred, and the suit's other placements are safe). Under
    ``empty: any`` a tail down to the Ace is forced too, and a risky move is no deferral,
    just one move among the others.
    """
    if state.stock or rules.build != "same-suit":
        return None
    any_empty = rules.empty == "any"
    risky: Step | None = None
    cols, down = state.cols, state.down
    for step in steps:
        src, at, dest, card = step
        if src == DEAL_SOURCE:
            continue
        col = cols[dest]
        if not col:
            continue
        run = RUNS[card // 13]
        # Onto its suit's chain from a King at a column's bottom (that pile never moves
        # again), or a column's whole top, a chain down to its suit's Ace, onto its successor
        # (docs/solver.md, "Forced moves once the stock is dealt"). Inline: every position.
        if not (
            (not down[dest] and col == run[: len(col)])
            or (
                any_empty
                and src >= 0
                and not cols[src][-1] % 13
                and cols[src][at:] == run[KING0 - card % 13 :]
            )
        ):
            continue
        suit = card // 13
        if rules.runs == "placed" and _ace_covered(state, suit):
            if any_empty:
                continue  # no deferral under ``empty: any``: such a move just branches
            held = [d for d in deferred if d // 13 == suit]
            if not held:
                risky = risky or step
                continue
            if held[0] == step.card:
                continue
        return [(step, state, deferred)]
    if risky is None:
        return None
    return [
        (risky, state, deferred),
        (None, state, bytes(sorted(deferred + bytes((risky.card,))))),
    ]


def _scores(state: State, steps: list[Step]) -> list[int]:
    """Each move's priority (higher first): turn cards over, empty columns, build in suit.

    One loop over plain tuple fields, not a key function per move: this runs for every
    position expanded.
    """
    cols, down = state.cols, state.down
    out: list[int] = []
    append = out.append
    for src, at, dest, card in steps:
        if src == DEAL_SOURCE:
            append(1)
            continue
        score = 0
        if src != RESERVE_SOURCE:
            d = down[src]
            if at == d and d:
                score = 8
            elif at == 0:
                score = 4
        onto = cols[dest]
        if onto:
            score += 2 if onto[-1] // 13 == card // 13 else 1  # same suit first (any-suit)
        elif card % 13 == KING0 and src >= 0 and down[src] == at:
            score += 1
        append(score)
    return out


def _splits_off(state: State, step: Step) -> bool:
    """Whether the move takes a pile off its suit's successor into an empty column, when
    that can never help (``empty: any``; see docs/solver.md, "Split-offs").

    Kept: with a stock still to deal (a dealt card may land on the pile in its new
    column) or a reserve, and when the source column's top is a complete run the
    ``placed`` rule left on the tableau (splitting it off and back is how it leaves).
    """
    if step.src < 0 or state.cols[step.dest] or state.stock or state.reserve:
        return False
    col = state.cols[step.src]
    if not (step.at > state.down[step.src] and col[step.at - 1] == step.card + 1):
        return False
    top = col[-13:]
    return not (len(col) - state.down[step.src] >= 13 and top == RUNS[top[-1] // 13])


def children(
    state: State,
    rules: Rules,
    deferred: bytes = b"",
    reach: Reach | None = None,
    links: set[int] | None = None,
) -> list[Node]:
    """The moves worth trying from a node, best first, with the nodes they lead to.

    A node is a position and the cards whose placement is deferred (see :func:`_split`);
    a child with no move is the same position with one more deferred card. ``reach``: the
    position's plateau closure, when the emptiness test built it (:func:`.phase.plateau_lost`);
    ``links``: its stubborn links, when known already (:func:`unused_park`).
    """
    steps = moves(state, rules)
    split = _split(state, rules, steps, deferred)
    if split is not None:
        return split
    if deferred:
        steps = [s for s in steps if not (s.card in deferred and not _others_linked(state, s.card))]
    if rules.empty == "any" and rules.build == "same-suit":
        if links is None:
            links = stubborn_links(state, rules, reach)  # no column empty: a stubborn set
        if links is not None:
            # No column is empty: no split-off, no park (the filters below would keep all).
            steps = [s for s in steps if s.card in links]
        elif sum(not col for col in state.cols) != 1:
            # Idle and dead parks fill the last empty column only: none here.
            steps = [s for s in steps if not _splits_off(state, s)]
        else:
            steps = [s for s in steps if not (_splits_off(state, s) or idle_park(state, s, rules))]
            dead = dead_parks(state, rules)  # parks after which no column can be emptied
            if dead:
                steps = [
                    s for s in steps if s.src < 0 or state.cols[s.dest] or (s.src, s.at) not in dead
                ]
    if len(steps) < 2:
        return [(s, state, deferred) for s in steps]
    scores = _scores(state, steps)
    # A stable sort, highest first (reverse keeps equal moves in their order).
    order = sorted(range(len(steps)), key=scores.__getitem__, reverse=True)
    return [(steps[i], state, deferred) for i in order]


def unused_park(
    before: State, step: Step, after: State, rules: Rules
) -> tuple[bool, bool, set[int] | None] | None:
    """Whether ``step``, played from ``before`` to ``after``, is a park into the last empty
    column (stock dealt) that no link of the stubborn set after it needs (docs/solver.md,
    "Unused parks"): such a park is not tried. None when the rule does not apply (not such
    a park, ``after`` not on the plateau, no stubborn set); else (unused, lost, links):
    ``after`` lost (no column can ever be emptied), and its stubborn links when they were
    worked out (None: not needed), for the search to reuse."""
    if step.src < 0 or before.cols[step.dest] or before.stock or not all(after.cols):
        return None  # not a park, a stock left, or a column still empty (a run removed)
    if not on_plateau(after, rules):
        return None
    targets = emptying_cards(after.cols)
    if targets is None:
        return None  # a column empties with no pick-up: no stubborn set
    col = before.cols[step.src]
    y = col[step.at - 1]
    if not y % 13:
        # An Ace under the pile: a link that carries it (from its column) onto its successor
        # after the park may complete its run, which carrying the pile too would not.
        return None
    # The links that would need the park (:func:`.phase.park_used`).
    wanted = [y - 1] if y % 13 else []
    if step.at == before.down[step.src]:
        wanted.append(y)
    top = col[-1]
    if top % 13 and 0 <= col.find(top - 1) < step.at:
        wanted.append(top - 1)
    # One of them a column's bottom card that can move at once, emptying it: in every
    # stubborn set, and the position is not lost. No closure needed.
    if target_free(after.cols, after.down, [e for e in targets if e[0] in wanted]):
        return False, False, None
    view = plateau_view(after, rules)
    if view is None:
        return None
    lost, links = view
    if lost:
        return False, True, None
    return links is not None and not park_used(before, step.src, step.at, links), False, links


def _tightens(step: Step | None, after: State) -> bool:
    """Whether a move may have made a position dead (see :mod:`.prune`).

    Moves only loosen the needs that :func:`.prune.doomed` checks, except the deal
    (new cards on tops) and a pile put above a card whose successor it holds; a
    King into an empty column never tightens anything. Skipping a check only
    costs pruning, never correctness.
    """
    if step is None:
        return False
    if step.src == DEAL_SOURCE:
        return True
    col = after.cols[step.dest]
    k = col.find(step.card)
    if k <= 0:
        return False
    pile = col[k:]
    return any(x % 13 != KING0 and x + 1 in pile for x in col[:k])


class Search:
    """One search from one position; ``nodes`` counts distinct positions generated."""

    def __init__(
        self,
        rules: Rules,
        max_nodes: int | None = None,
        max_seconds: float | None = None,
        lost: LostPositions | None = None,
        *,
        one_slot: bool = True,
    ) -> None:
        self.rules = rules
        self.lost = lost  # positions proved lost by earlier searches of the same game
        self.max_nodes = max_nodes
        self.deadline = None if max_seconds is None else time.monotonic() + max_seconds
        self.nodes = 0
        self.seen: set[bytes] = set()
        self.prune = applies(rules)
        # Any card into an empty column (Wasp, easy, normal): the emptiness test instead.
        self.prune_empty = rules.empty == "any" and rules.build == "same-suit"
        # The one-slot bound (slot.py); off only to check it against the search without it.
        self.one_slot = one_slot

    def _tick(self) -> None:
        self.nodes += 1
        if self.max_nodes is not None and self.nodes > self.max_nodes:
            raise Budget
        if (
            self.deadline is not None
            and self.nodes % CHECK_EVERY == 0
            and time.monotonic() > self.deadline
        ):
            raise Budget

    def _settle(self, node: Node) -> tuple[list[Step | None], State, list[Node]] | None:
        """Follow a node's only child while there is just one (a forced move) or a win.

        Returns the moves followed (from ``node``'s own move on), the position reached and
        its children (none when it is won or dead), or None when the chain reaches a
        position seen before. Every position on the way is marked seen. Chains are
        capped: Wasp can cycle.
        """
        rules, seen, prune, prune_empty = self.rules, self.seen, self.prune, self.prune_empty
        step, state, deferred = node
        before = state
        if step is not None:
            state = play(state, step, rules)
        steps: list[Step | None] = [step]
        check = prune and (step is None or _tightens(step, state))
        kids: list[Node] = []
        for _ in range(MAX_CHAIN):
            plain = state.key()
            key = plain + b"\xfd" + deferred
            if key in seen:
                return None
            if self.lost is not None and plain in self.lost:
                return None  # a dead end, as if seen
            reach = None
            links = None
            park = (
                unused_park(before, step, state, rules)
                if prune_empty
                and step is not None
                and step.src >= 0
                and not before.cols[step.dest]
                and sum(not col for col in before.cols) == 1
                else None
            )
            if park is not None:
                unused, lost, links = park
                if unused:  # not tried (nor marked seen: another way here may need it)
                    if len(steps) == 1:
                        return None
                    return steps[:-1], before, []  # the only child was this park
                if lost:
                    seen.add(key)
                    self._tick()
                    return steps, state, []
            seen.add(key)
            self._tick()
            if is_won(state, rules):
                return steps, state, []
            if park is None and prune_empty:  # (a kept park: on the plateau, not lost)
                if on_plateau(state, rules):  # the closure built once, for both questions
                    lost, reach = plateau_lost(state)
                    lost = lost or (self.one_slot and no_second_empty(state, rules))
                else:  # no column empty, or one: the emptiness test, or the slot's
                    lost = never_emptied(state, rules) or (
                        self.one_slot and no_second_empty(state, rules)
                    )
                if lost:
                    return steps, state, []  # lost: no win empties every column from here
            kids = children(state, rules, deferred, reach, links)
            if len(kids) != 1:
                break
            step, before, deferred = kids[0]
            state = before if step is None else play(before, step, rules)
            steps.append(step)
            check = check or (prune and (step is None or _tightens(step, state)))
        if kids and check and doomed(state, rules):
            kids = []
        return steps, state, kids

    def run(self, root: State) -> tuple[Verdict, list[Step]]:
        """``('won', line)``, ``('lost', [])`` or ``('unknown', [])`` when the budget ran out."""
        rules = self.rules
        path: list[list[Step | None]] = []
        stack: list[Iterator[Node]] = [iter([(None, root, b"")])]
        try:
            while stack:
                for node in stack[-1]:
                    settled = self._settle(node)
                    if settled is None:
                        continue
                    steps, state, kids = settled
                    path.append(steps)
                    if not kids and is_won(state, rules):
                        return "won", [s for p in path for s in p if s is not None]
                    stack.append(iter(kids))
                    break
                else:
                    stack.pop()
                    if path:
                        path.pop()
        except Budget:
            return "unknown", []
        if self.lost is not None:  # every position met is lost (those with no deferral)
            self.lost.learn(key[:-1] for key in self.seen if key.endswith(b"\xfd"))
        return "lost", []
