"""Dead positions recognised without search: a cycle of cards each waiting for the next.

With same-suit building and Kings-only empty columns, a card ``z`` that is not
on its successor must one day be picked up and put on ``z+1``; that needs
``z+1`` to be a top card, so the card ``u`` lying directly on ``z+1`` must
leave first, and ``u`` cannot be carried off without ``z+1`` itself, so ``u``
must be picked up too (onto ``u+1``, or into an empty column if it is a King).
Nothing but ``z`` can ever be put on ``z+1``, so ``u`` stays there until it is
picked. If ``z+1`` lies directly on ``z`` instead, ``z+1`` must be picked up first
(it cannot be carried off without ``z``).
"``z`` waits for ``u``" is therefore a lasting fact, each card waits for
at most one other, and a cycle of non-King cards waiting for each other can never
be broken: the position is lost. The stock changes nothing here (dealt cards
only add waits), and neither do runs (a card in a removable run lies on its
successor).

>>> from scorpion.engine import Game, get_rules
>>> from scorpion.solver.state import State
>>> game = Game.from_text('''
... stock: -
... 1: | 7H 5H 6H
... 2: | KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S AS
... 3: | KH QH JH TH 9H 8H 4H 3H 2H AH
... runs: D C
... ''')
>>> doomed(State.of(game), get_rules("classic"))
True
"""

from __future__ import annotations

from typing import TypeAlias

from scorpion.engine import Rules

from .state import KING0, State

Cards: TypeAlias = list[bool]
"""A flag per card (52, by card number): picked up, linked, a goal... A list, not a
``bytearray``: compiled, a list of bools is indexed in place, a bytearray through CPython's
generic item calls (docs/compiled.md)."""


def no_cards() -> Cards:
    """Every card's flag down."""
    return [False] * 52


def applies(rules: Rules) -> bool:
    """Whether the argument holds under these rules."""
    return rules.build == "same-suit" and rules.empty == "kings"


def doomed(state: State, rules: Rules) -> bool:
    """Whether some card can never be picked up again though it must be (``applies`` rules).

    Every card not yet on its successor (and every King not yet at a column's
    bottom) must be picked up again. That needs, each a card that must be picked
    up first: the card directly on it when it is face down; for a non-King, the
    card directly on its successor (it can only leave by being picked up: carrying
    it off takes the successor along); and when the successor lies above it in its
    own column, also any one of the cards from just above it up to the successor.
    Cards that lie on their successor are never picked up again. The cards that
    can be picked up are the least set closed under these needs; any other card
    that must be picked up dooms the position.
    """
    cols, down = state.cols, state.down
    col_of = [-1] * 52  # the column of each card on the tableau, -1 elsewhere
    at = [0] * 52  # its index there
    for j, col in enumerate(cols):
        for i, card in enumerate(col):
            col_of[card] = j
            at[card] = i
    needed = 0  # cards that must be picked up
    free: list[int] = []  # of those, the ones whose needs are met already
    # For the others: needs[z] = [target, top, turn] met; waiting[u] = needs u would meet.
    needs: dict[int, list[bool]] = {}
    waiting: dict[int, list[tuple[int, int]]] = {}
    for j, col in enumerate(cols):
        d = down[j]
        for i, z in enumerate(col):
            options: bytes = b""
            covering = -1  # a card that lies on the successor and must be picked up first
            if z % 13 == KING0:
                if i == 0 and d == 0:
                    continue
            elif i > d and col[i - 1] == z + 1:
                continue
            else:
                j2 = col_of[z + 1]
                if j2 >= 0:  # else in the stock or a reserve cell: it will come to a top
                    i2 = at[z + 1]
                    col2 = cols[j2]
                    if j2 == j and i2 > i:
                        options = col[i + 1 : i2 + 1]
                    if i2 < len(col2) - 1:
                        covering = col2[i2 + 1]
            met = [not options, covering < 0, i >= d]
            needed += 1
            if all(met):
                free.append(z)
                continue
            needs[z] = met
            for u in options:
                waiting.setdefault(u, []).append((z, 0))
            if covering >= 0:
                waiting.setdefault(covering, []).append((z, 1))
            if i < d:
                waiting.setdefault(col[i + 1], []).append((z, 2))
    done = len(free)
    while free:
        for z, kind in waiting.get(free.pop(), ()):
            met = needs[z]
            if not met[kind]:
                met[kind] = True
                if all(met):
                    done += 1
                    free.append(z)
    return done < needed


def doomed_any(state: State, rules: Rules) -> bool:
    """Whether some card can never be put on its successor, under any rules (the weaker test).

    ``picked`` over-approximates the cards that can ever be picked up (lead a moved
    pile): the least set closed under what a card's first pick-up needs. When it is
    face down, the card directly on it must have been picked (nothing else takes it
    off); and it must land somewhere: an empty column (a King, or any card under
    ``empty: any``), or a card ``w`` one rank higher (of its suit, or of any suit
    under ``any-suit``) that is a top by then. ``w`` is a top only once the card now
    directly on it has been picked (carrying piles keeps that card on ``w``; a run
    that leaves from ``w`` has a King there, always pickable here); if ``w`` lies
    above the card in its column, one of the cards from just above it up to ``w``
    must have been picked (carrying keeps the order); if below, the card on ``w``
    must be another than the card itself. Then every card not face up on its suit's
    successor must one day be put there: it must be in ``picked``, the card now on
    its successor too, and if the successor lies above it in its column, one of the
    cards from just above it up to the successor. The stock and reserve cells only
    add needs (ignored: that costs pruning, never correctness).
    """
    cols, down = state.cols, state.down
    any_suit = rules.build == "any-suit"
    free_landing = rules.empty == "any"
    col_of, at, cover = tableau_index(cols)
    # Per card still to settle: the card whose pick turns it over (-1: none), and its
    # landings, each (card that must be picked or -1, cards one of which must be; None: no need).
    pending: list[tuple[int, int, list[tuple[int, bytes | None]]]] = []
    picked = no_cards()
    for j, col in enumerate(cols):
        d = down[j]
        for i, x in enumerate(col):
            turn = col[i + 1] if i < d else -1
            rank0 = x % 13
            landings: list[tuple[int, bytes | None]] = []
            if rank0 != KING0 and not free_landing:
                for suit in range(4) if any_suit else (x // 13,):
                    w = suit * 13 + rank0 + 1
                    j2 = col_of[w]
                    if j2 < 0:  # in the stock or a reserve cell: it will be a top
                        landings = []
                        break
                    i2, c = at[w], cover[w]
                    if j2 != j:
                        landings.append((c, None))
                    elif i2 > i:
                        landings.append((c, col[i + 1 : i2 + 1]))
                    elif c != x:
                        landings.append((c, None))
                else:
                    pending.append((x, turn, landings))
                    continue
            if turn < 0:
                picked[x] = True
            else:
                pending.append((x, turn, [(-1, None)]))
    changed = True
    while changed and pending:
        changed = False
        waiting = []
        for entry in pending:
            x, turn, landings = entry
            if (turn < 0 or picked[turn]) and any(
                (c < 0 or picked[c]) and (options is None or any(picked[u] for u in options))
                for c, options in landings
            ):
                picked[x] = True
                changed = True
            else:
                waiting.append(entry)
        pending = waiting
    for j, col in enumerate(cols):
        d = down[j]
        for i, z in enumerate(col):
            if z % 13 == KING0:
                if (i or d) and not picked[z]:
                    return True
                continue
            if i > d and col[i - 1] == z + 1:
                continue
            if not picked[z]:
                return True
            j2 = col_of[z + 1]
            if j2 >= 0:
                c = cover[z + 1]
                if c >= 0 and not picked[c]:
                    return True
                if (
                    j2 == j
                    and at[z + 1] > i
                    and not any(picked[u] for u in col[i + 1 : at[z + 1] + 1])
                ):
                    return True
    return False


def never_emptied(state: State, rules: Rules) -> bool:
    """Whether no column can ever be emptied again (any card into an empty column).

    A win removes every run, so it empties every column: a position with no empty column
    where none can ever be emptied is lost. Until the first column is emptied, no move
    goes to an empty column, so every card picked up lands on its suit's successor and
    no King moves (a King leaves only with its run, completed in place and removed): the
    cards that can be picked up before then are the least set closed under those needs (a
    face-down card needs the card on it picked; a landing on ``w`` needs the card on ``w``
    picked and, if ``w`` lies above the card in its column, one of the cards from just above
    it up to ``w``; a ``w`` in the stock is taken as free; a King's removal, which uncovers
    the card under it, needs every card of its suit not on its successor picked). A column
    empties only when its bottom card leaves: a non-King only by being picked up, a King
    only with its run, which needs the first card that breaks the chain from the King picked
    up (or, if the whole column is that chain, its next card) and every card of its suit
    not on its successor (:func:`goals`). Same-suit building and runs that leave the
    tableau (``runs`` not ``keep``) only; anything else: False.
    """
    if rules.build != "same-suit" or rules.runs == "keep" or state.reserve:
        return False
    cols, down = state.cols, state.down
    if not all(cols):
        return False
    targets = emptying_cards(cols)
    if targets is None or target_free(cols, down, targets):
        return False
    target = goals(cols)
    missing, waiting, free = pick_needs(cols, down, None, True)
    return not spread(free, missing, waiting, no_cards(), no_cards(), target)


def target_free(
    cols: tuple[bytes, ...], down: tuple[int, ...], targets: list[tuple[int, int, int]]
) -> bool:
    """Whether some column's bottom card (not a King) can be picked up at once (face up, its
    successor a top elsewhere), which empties it: most positions have one, and this is much
    cheaper than the closure. (A King's column also needs every card of the King's suit put
    on its successor: the closure's question, see :func:`goals`.)"""
    tops = {col[-1]: j for j, col in enumerate(cols)}
    return any(
        not (i or down[j]) and tops.get(t + 1, j) != j and t % 13 != KING0 for t, j, i in targets
    )


def goals(cols: tuple[bytes, ...]) -> Cards:
    """The cards whose pick-up in the closure means a column can empty: each column's bottom
    card. A King there is picked up in the closure of :func:`pick_needs` (with ``bottoms``)
    once its run can be complete and removed (:func:`king_waits`: its emptying card, the
    breaker of the chain from it, and every card of its suit not on its successor)."""
    mark = no_cards()
    for col in cols:
        if col:
            mark[col[0]] = True
    return mark


def emptying_cards(cols: tuple[bytes, ...]) -> list[tuple[int, int, int]] | None:
    """For each column (empty ones skipped), the card whose pick-up would let it empty,
    with its column and index; None when a column needs none (its run is complete, or the
    card it waits for is in the stock: it comes to a top).

    A non-King bottom card empties its column when picked up. A King's column empties only
    with its run: the first card that breaks the chain from the King must leave, and only
    its own pick-up takes it off (every card under it lies on its successor, or is the King:
    none of them is picked before); if the whole column is that chain, its next card. A
    King on the chain starts a chain of its own (its run may be completed in place and
    removed, no pick-up needed): the first card that is no King and breaks a chain, or the
    next card of the last chain (a position the plain search wins was called lost when a
    King counted as the card that breaks the chain).
    """
    targets: list[tuple[int, int, int]] = []
    for j, col in enumerate(cols):
        if not col:
            continue
        bottom = col[0]
        if bottom % 13 != KING0:
            targets.append((bottom, j, 0))
            continue
        i = 1
        # A King on the chain (dealt there: a King goes onto no card) starts a chain of its
        # own, whose run may be completed in place and removed with no pick-up: read on.
        while i < len(col) and (col[i] == col[i - 1] - 1 or col[i] % 13 == KING0):
            i += 1
        if i < len(col):
            targets.append((col[i], j, i))
            continue
        last = col[-1]
        if last % 13 == 0:
            return None
        for j2, col2 in enumerate(cols):
            i2 = col2.find(last - 1)
            if i2 >= 0:
                targets.append((last - 1, j2, i2))
                break
        else:
            return None
    return targets


def pick_needs(
    cols: tuple[bytes, ...],
    down: tuple[int, ...],
    index: tuple[list[int], list[int], list[int]] | None = None,
    bottoms: bool = False,
    parks: bool = False,
) -> tuple[list[int], list[list[int]], list[int]]:
    """What each card needs before it can be picked up with no empty column: ``missing[x]``
    the count of its unmet needs, ``waiting[u]`` the needs that ``u``'s pick-up meets (each
    ``4 * card + kind``: kind 0 turn it over, 1 the card on its successor, 2 one of the cards
    up to its successor, 3 a card a King's run waits for), and the cards free at once. Cards
    on their successor are never free (no empty column: such a card has nowhere to land).

    A King is never picked up, but one that is not a column's bottom card leaves with its
    run, completed in place and removed, uncovering the card under it: it counts as picked
    up once that can happen (:func:`king_waits`; turned over first if face down). Without
    that, a card under a King was taken to wait for good, and a won position was called
    lost (``KING_ON_CARD`` in tests/solver/helpers.py). ``bottoms``: a column's bottom King
    too, whose leaving empties its column (the mark of that in :func:`goals`).
    ``index``: the columns' :func:`tableau_index`, when the caller has it already.
    ``parks``: for a closure in which piles may also be parked (:mod:`.slot`): a King dealt
    on a King's chain can then leave by a park, carrying the cards on it (:func:`king_waits`
    with ``next_king``)."""
    col_of, at, cover = tableau_index(cols) if index is None else index
    missing = [0] * 52
    waiting: list[list[int]] = [[] for _ in range(52)]
    free: list[int] = []
    kings: list[tuple[int, int]] = []
    linked = no_cards()  # on its successor
    for j, col in enumerate(cols):
        d = down[j]
        under = -1  # the card under x
        for i in range(len(col)):  # by index, as in tableau_index
            x = col[i]
            if under == x + 1 and x % 13 != KING0:
                linked[x] = True
                under = x
                continue
            under = x
            if x % 13 == KING0:
                if i or bottoms:
                    kings.append((j, i))
                continue
            needs = 0
            if i < d:
                needs = 1
                waiting[col[i + 1]].append(4 * x)
            j2 = col_of[x + 1]
            if j2 >= 0:  # else in the stock: it will be a top
                c = cover[x + 1]
                if c >= 0:
                    needs += 1
                    waiting[c].append(4 * x + 1)
                if j2 == j and at[x + 1] > i:
                    needs += 1
                    for k in range(i + 1, at[x + 1] + 1):
                        waiting[col[k]].append(4 * x + 2)
            if needs:
                missing[x] = needs
            else:
                free.append(x)
    for j, i in kings:
        col = cols[j]
        k = col[i]
        needs = 0
        if i < down[j]:
            needs = 1
            waiting[col[i + 1]].append(4 * k)
        for c in king_waits(col, i, linked, col_of, parks):
            needs += 1
            waiting[c].append(4 * k + 3)
        if needs:
            missing[k] = needs
        else:
            free.append(k)
    return missing, waiting, free


def king_waits(
    col: bytes, i: int, linked: Cards, col_of: list[int], next_king: bool = False
) -> set[int]:
    """The cards that must be picked up before the King ``col[i]`` leaves, with no column
    empty: it leaves only with its run, complete on top of it and removed, so every card
    above it must have left and every card of its suit must lie on its successor. Above it
    lie chains (each card on its successor) and Kings dealt on them, up to the first card
    that is neither (the *breaker*, as in :func:`emptying_cards`): the breaker leaves only
    by its own pick-up (the cards under it down to the King are never picked up: on their
    successor, or Kings), and each of those Kings leaves only with its own run first. So:
    the breaker (or, when the chains reach the top, the next card of the last, if on the
    tableau), and for the King and each of those Kings every card of its suit not on its
    successor and on the tableau (one in the stock may be dealt onto its successor; none
    of them can reach it by being carried: a card leaves the card it lies on only by its
    own pick-up).

    ``next_king``: where piles may also be parked, a King dealt on the chain can leave by a
    park, carrying the cards on it, so the King waits for the first such King above it
    (picked up: parked, or gone with its run) in place of the breaker, and for its own suit."""
    out: set[int] = set()
    n = len(col)
    e = i + 1
    while e < n and (col[e] == col[e - 1] - 1 or col[e] % 13 == KING0):
        if next_king and col[e] % 13 == KING0:
            break
        e += 1
    if e < n:
        out.add(col[e])  # the breaker, or with next_king the first King dealt on the chain
    elif col[-1] % 13 and col_of[col[-1] - 1] >= 0:
        out.add(col[-1] - 1)
    for m in range(i, e):
        k = col[m]
        if k % 13 == KING0:
            # A loop: compiled, a generator is an object and a call per card.
            for c in range(k - 12, k):
                if not linked[c] and col_of[c] >= 0:
                    out.add(c)
    return out


def spread(
    free: list[int],
    missing: list[int],
    waiting: list[list[int]],
    options_met: Cards,
    picked: Cards,
    target: Cards,
) -> bool:
    """Pick up the free cards and those they free in turn (marking ``picked``, updating
    ``missing`` and ``options_met``); True as soon as a ``target`` card is picked up (left
    in ``free``: a second call, with other targets, goes on where this one stopped)."""
    while free:
        u = free.pop()
        if target[u]:
            free.append(u)
            return True
        picked[u] = True
        meet(u, waiting, missing, options_met, free)
    return False


def meet(
    u: int, waiting: list[list[int]], missing: list[int], options_met: Cards, free: list[int]
) -> None:
    """Count ``u``'s pick-up against the needs it meets (an option need once); a card left
    with none is appended to ``free``."""
    for entry in waiting[u]:
        x, kind = entry >> 2, entry & 3
        if kind == 2:
            if options_met[x]:
                continue
            options_met[x] = True
        missing[x] -= 1
        if not missing[x]:
            free.append(x)


def tableau_index(cols: tuple[bytes, ...]) -> tuple[list[int], list[int], list[int]]:
    """Per card: its column (-1 off the tableau), its index there, the card directly on it
    (-1 for none)."""
    col_of, at, cover = [-1] * 52, [0] * 52, [-1] * 52
    for j, col in enumerate(cols):
        previous = -1
        for i in range(len(col)):  # by index: compiled, a loop over bytes calls __getitem__
            card = col[i]
            col_of[card] = j
            at[card] = i
            if previous >= 0:
                cover[previous] = card
            previous = card
    return col_of, at, cover
