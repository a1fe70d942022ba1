"""What anyone but a racer herself is told of her numbers while the round goes on.

Others see her board masked (:mod:`.masking`): a card still face down on a playing board is
``??``. Her numbers must add nothing to that masked board (docs/protocol.md, "What an
observer sees of a racer, and why"), so while the round goes on others get:

- ``ordered`` counted on the masked board: a masked card never counts, nor a card lying on
  a masked card (the exact count would say that a ``??`` under the ten of hearts is the nine);
- ``score`` as it is, except where the rules make it name a masked card: under ``points``
  scoring a card put on its own suit earns 5, and with any-suit building that says the suit
  of a ``??`` below or moved. There it is withheld (``None``) until the results;
- her other numbers as they are (runs, moves, turned, status, time, help used: they count
  what she did, they name no card);
- the live ranks computed from these numbers alone (cards in order stand in for a withheld
  score).

The racer herself gets her exact numbers in her own view; the results give everyone the exact
figures and the true ranking (nothing is masked then).

>>> from scorpion.engine import Game
>>> game = Game.new(25, "classic")
>>> _ = game.play("deal")  # the nine of hearts lands on the ten of hearts
>>> shown_ordered(game, frozenset()), shown_ordered(game, frozenset({"9H"}))
(1, 0)
>>> score_withheld(Game.new(1, "relaxed").rules), score_withheld(game.rules)
(True, False)
"""

from __future__ import annotations

from collections.abc import Iterable
from collections.abc import Set as AbstractSet
from typing import TypeAlias

from scorpion.engine import Rules
from scorpion.engine.cards import CARD_TEXTS
from scorpion.engine.game import Game
from scorpion.engine.progress import KING_INDEX, ordered_cards

from .masking import HiddenCards, mask_view
from .messages import ProgressRow
from .ranking import rank_key, ranks_of


def score_withheld(rules: Rules) -> bool:
    """Whether a racer's score could name a masked card (then others get None while she
    plays): only a same-suit bonus that any-suit building does not imply does."""
    return rules.scoring == "points" and rules.build == "any-suit"


Hidden: TypeAlias = HiddenCards | AbstractSet[str]
"""The cards others may not see: a room's :class:`~.masking.HiddenCards`, or their texts."""


def masked_by_card(hidden: Hidden) -> list[bool]:
    """Whether each card (0-51) is hidden.

    >>> [i for i, masked in enumerate(masked_by_card({"AS", "KC"})) if masked]
    [0, 51]
    """
    if isinstance(hidden, HiddenCards):
        return hidden.by_card
    return [text in hidden for text in CARD_TEXTS]


def shown_ordered(game: Game, hidden: Hidden) -> int:
    """:func:`~scorpion.engine.progress.ordered_cards` counted on the board as others see it:
    a masked card (one of ``hidden``) counts for nothing, nor does a card on it."""
    return _shown_ordered(game, masked_by_card(hidden))


def _shown_ordered(game: Game, masked: list[bool]) -> int:
    if True not in masked:
        return ordered_cards(game)
    count = 13 * len(game.runs)
    columns, downs = game.columns, game.down
    for j in range(len(columns)):  # by index: see ordered_cards
        column, down = columns[j], downs[j]
        size = len(column)
        if size > down == 0 and column[0] % 13 == KING_INDEX and not masked[column[0]]:
            count += 1
        if size - down > 1:
            below = column[down]
            below_shown = not masked[below]
            for card in column[down + 1 :]:
                shown = not masked[card]
                if below_shown and shown and below - card == 1 and card % 13 != KING_INDEX:
                    count += 1
                below, below_shown = card, shown
    return count


def shown_progress(progress: ProgressRow, game: Game, hidden: Hidden) -> ProgressRow:
    """A racer's ``progress`` entry (``Racer.progress()``) as others may see it."""
    shown = progress.copy()
    shown["score"], shown["ordered"] = shown_numbers(
        progress["score"], progress["ordered"], game, hidden
    )
    return shown


def shown_numbers(
    score: int | None, ordered: int, game: Game, hidden: Hidden
) -> tuple[int | None, int]:
    """A racer's score and cards in order as others may see them."""
    masked = masked_by_card(hidden)
    if _shows_any(game, masked):
        ordered = _shown_ordered(game, masked)  # else nothing masked: as it is
    return (None if score_withheld(game.rules) else score), ordered


def _shows_any(game: Game, masked: list[bool]) -> bool:
    """Whether the game's columns show a masked card (by index: see ordered_cards)."""
    columns, downs = game.columns, game.down
    for j in range(len(columns)):
        column = columns[j]
        for i in range(downs[j], len(column)):
            if masked[column[i]]:
                return True
    return False


def shown_board(game: Game, hidden: HiddenCards, racing: bool) -> dict[str, object]:
    """A racer's board as everyone but her may see it: masked (:func:`.masking.mask_view`),
    with the numbers others may see while the round goes on (``racing``), exact after."""
    view = mask_view(game.view(legal=False), hidden.cards)
    if racing:
        score, ordered = view["score"], view["ordered"]
        assert (score is None or isinstance(score, int)) and isinstance(ordered, int)
        view["score"], view["ordered"] = shown_numbers(score, ordered, game, hidden)
    return view


def shown_ranks(entries: Iterable[ProgressRow]) -> dict[str, int]:
    """Live ranks from entries as others see them (as ``ranking.live_ranks``; where the
    score is withheld, cards in order stand in for it).

    >>> shown_ranks([{"player": "a", "status": "playing", "runs": 0, "score": None,
    ...               "ordered": 9, "moves": 4},
    ...              {"player": "b", "status": "playing", "runs": 0, "score": None,
    ...               "ordered": 12, "moves": 8}])
    {'b': 1, 'a': 2}
    """
    keyed: list[tuple[tuple[float, ...], str]] = []
    for e in entries:
        key = rank_key(e, "ordered" if e["score"] is None else "score")
        keyed.append((key, e["player"]))
    return ranks_of(keyed)
