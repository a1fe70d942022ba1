"""The rules in words, for players: one sentence per rule option, a name and a line per preset.

docs/rules.md and the client's rules page (through GET /api/presets) both show these
sentences, so the page a player reads and the referee's options cannot drift apart.

>>> describe_preset("wasp")["options"]["empty"]
'any'
>>> describe_preset("wasp")["rules"]["empty"]
'Any face-up card, with whatever lies on it, may go into an empty column.'
>>> [p["name"] for p in describe_presets()][:3]
['classic', 'relaxed', 'easy']
"""

from __future__ import annotations

from typing import Final

from .rules import PRESETS, Rules, get_rules

# Which option each sentence explains, in the order a player needs them.
OPTION_ORDER: Final = ("layout", "build", "empty", "runs", "loss", "undo", "scoring", "deals")

OPTION_TEXT: Final[dict[str, dict[str, str]]] = {
    "layout": {
        "scorpion": "Seven columns of seven cards: in columns 1 to 4 the bottom three cards lie "
        "face down; the last three cards of the deck are the stock.",
        "three-blind-mice": "Ten columns of five cards: in columns 8 to 10 the bottom three "
        "cards lie face down; the last two cards lie face up in two reserve cells, and there "
        "is no stock.",
    },
    "build": {
        "same-suit": "A card goes onto the card one rank higher of the same suit.",
        "any-suit": "A card goes onto the card one rank higher, of any suit.",
    },
    "empty": {
        "kings": "Only a King, with whatever lies on it, may go into an empty column.",
        "any": "Any face-up card, with whatever lies on it, may go into an empty column.",
    },
    "runs": {
        "placed": "A finished run (King down to Ace of one suit, on top of its column) leaves "
        "the table when the move that placed its last cards finishes it; a run that was "
        "covered then stays until its King is moved into an empty column.",
        "any": "A finished run (King down to Ace of one suit, on top of its column) leaves the "
        "table as soon as it is on top, after any move.",
        "keep": "Finished runs stay on the table; you win when every column holds only "
        "complete runs and no card is face down or left to deal.",
    },
    "loss": {
        "never": "When no move is left the game waits: undo, or give up.",
        "detect": "Once the stock is dealt, the game is lost the moment no move is left.",
    },
    "undo": {
        "unlimited": "You may undo every move.",
        "off": "There is no undo.",
        "count": "You may undo up to the last {count} moves.",
    },
    "scoring": {
        "points": "Score: 5 for a card placed on its own suit, 5 for each card turned face "
        "up, 100 for each run that leaves.",
        "timed": "Score: 10 for each move and 10 more for each run; every 30 seconds of play "
        "costs 30 (never below zero); a win adds 600,000 divided by the seconds taken.",
        "cards": "Score: the number of cards on the foundations, 13 for each run that left.",
    },
    "deals": {
        "random": "Any deal may come up, winnable or not.",
        "winnable": "Every deal is one the solver has proved winnable.",
    },
}

PRESET_TEXT: Final[dict[str, tuple[str, str]]] = {
    "classic": ("Classic", "The standard game: build in suit, only Kings fill empty columns."),
    "relaxed": ("Relaxed", "Classic, but a card may go onto any suit."),
    "easy": ("Easy", "Any card fills an empty column, every deal is winnable, timed score."),
    "normal": ("Normal", "Any card fills an empty column; timed score."),
    "hard": ("Hard", "Only Kings fill empty columns; timed score."),
    "strict": ("Strict", "Lost the moment no move is left; scored by the cards home."),
    "wasp": ("Wasp", "Classic, but any card may fill an empty column."),
    "traditional": ("Traditional", "Runs stay on the table: win with four complete runs."),
    "three-blind-mice": ("Three Blind Mice", "Ten columns of five, two reserve cards, no stock."),
}


def option_sentence(rules: Rules, option: str) -> str:
    """The sentence that explains one option of these rules."""
    if option == "undo":
        key = rules.undo_text if rules.undo in (None, 0) else "count"
        return OPTION_TEXT["undo"][key].format(count=rules.undo)
    return OPTION_TEXT[option][str(getattr(rules, option))]


def describe_preset(name: str) -> dict[str, object]:
    """A preset as data: its name, label, one-line summary, options and their sentences."""
    rules = get_rules(name)
    label, summary = PRESET_TEXT[name]
    options: dict[str, object] = {
        option: rules.undo_text if option == "undo" else getattr(rules, option)
        for option in OPTION_ORDER
    }
    return {
        "name": name,
        "label": label,
        "summary": summary,
        "options": options,
        "rules": {option: option_sentence(rules, option) for option in OPTION_ORDER},
    }


def describe_presets() -> list[dict[str, object]]:
    return [describe_preset(name) for name in PRESETS]


def presets_markdown() -> str:
    """The presets section of docs/rules.md (a test checks the file holds exactly this)."""
    lines: list[str] = []
    for preset in describe_presets():
        lines.append(f"### {preset['label']} (`{preset['name']}`)")
        lines.append("")
        lines.append(str(preset["summary"]))
        lines.append("")
        rules = preset["rules"]
        assert isinstance(rules, dict)
        lines.extend(f"- {sentence}" for sentence in rules.values())
        lines.append("")
    return "\n".join(lines)
