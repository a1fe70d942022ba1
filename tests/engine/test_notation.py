"""Position text: both ways, and clear errors naming the bad line."""

from __future__ import annotations

import pytest

from scorpion.engine import Game, NotationError, parse_position

from .helpers import SEED_000


def test_seed_000_prints_back_exactly() -> None:
    assert Game.from_text(SEED_000).text() == SEED_000.lstrip()


def test_comments_blank_lines_and_ten_are_accepted() -> None:
    text = "# a comment\n\n" + SEED_000.replace("TS |", "10S |").replace(
        "runs: -", "runs: - # none"
    )
    assert Game.from_text(text).text() == SEED_000.lstrip()


def test_view_text_hides_face_down_cards_and_the_stock() -> None:
    view = Game.from_text(SEED_000).view_text()
    assert view.splitlines()[0] == "stock: ?? ?? ??"
    assert view.splitlines()[1] == "1: ?? ?? ?? | 3D JH TH 3S"
    position = parse_position(view)
    assert position.hidden
    with pytest.raises(ValueError, match="not a playable game"):
        Game.from_text(view)


def test_empty_column_and_runs_line() -> None:
    text = "stock: -\n1: |\n2: | KC QC JC TC 9C 8C 7C 6C 5C 4C 3C 2C AC\nruns: S H D\n"
    game = Game.from_text(text)
    assert game.text() == text and game.runs == [0, 1, 2]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (("3D JH", "3D XH"), r"line 3: unknown card 'XH'"),
        (("3D JH", "3D 3S"), r"line 3: duplicated card 3S"),
        (("4S 5D QS", "4S 5D"), r"52"),
        (("2S 8S TS | 3D", "2S 8S | TS ?? 3D"), r"line 3: a face-down card above a face-up one"),
        (("2S 8S TS | 3D", "2S 8S | TS | 3D"), r"line 3: more than one '\|'"),
        (("2: AH", "3: AH"), r"line 4: expected column 2, got 3"),
        (("runs: -", "runs: X"), r"line 10: a run is a suit letter"),
        (("runs: -", ""), r"missing the 'runs:' line"),
        (("6: |", "6 |"), r"line 8: expected 'stock:'"),
        (("7: | AD", "7: AD"), r"line 9: a column needs '\|'"),
    ],
)
def test_parse_errors_name_the_line(change: tuple[str, str], message: str) -> None:
    text = SEED_000.replace(*change)
    assert text != SEED_000
    with pytest.raises(NotationError, match=message):
        parse_position(text)


def test_a_removed_run_counts_its_13_cards() -> None:
    text = "stock: -\n1: | KS AS\nruns: S H D C\n"
    with pytest.raises(NotationError, match="run S was removed but AS is on line 2"):
        parse_position(text)


def test_face_down_cards_need_a_face_up_card_on_them() -> None:
    with pytest.raises(NotationError, match="line 3: face-down cards with no face-up card"):
        parse_position(SEED_000.replace("3D JH TH 3S", ""))


def test_reserve_cells_print_under_any_rules() -> None:
    text = Game.new(8, "three-blind-mice").text()
    assert Game.from_text(text, "classic").text() == text
