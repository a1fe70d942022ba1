"""No frame ever names a face-down or stock card before it turns face up, nor the deal."""

from __future__ import annotations

import itertools
import random
import re

from scorpion.engine import Game, card_name, card_text
from scorpion.race import Output, Player

from .harness import Harness

DEAL = 8_123_456_789_012  # big enough that no other number in a frame can equal it
PLAYERS = [Player(x, n) for x, n in (("a", "Ada"), ("b", "Bo"), ("c", "Cy"))]
WATCHERS = [Player("d", "Di"), Player("e", "Eve")]
CARD = re.compile(r"\b[2-9TJQKA][SHDC]\b")


def visible(game: Game) -> set[str]:
    """Card texts the player of ``game`` can see now (face-up, reserve, removed runs)."""
    cards = {card_text(c) for col, d in zip(game.columns, game.down, strict=True) for c in col[d:]}
    cards |= {card_text(c) for c in game.reserve}
    cards |= {card_text(s * 13 + r) for s in game.runs for r in range(13)}
    return cards


def strings_and_numbers(value: object) -> tuple[list[str], list[int]]:
    texts: list[str] = []
    numbers: list[int] = []

    def walk(v: object) -> None:
        if isinstance(v, str):
            texts.append(v)
        elif isinstance(v, bool):
            pass
        elif isinstance(v, int):
            numbers.append(v)
        elif isinstance(v, dict):
            for key, item in v.items():
                texts.append(str(key))
                walk(item)
        elif isinstance(v, list | tuple):
            for item in v:
                walk(item)

    walk(value)
    return texts, numbers


class ScanningHarness(Harness):
    """Checks every frame against what its recipient may see at the moment it is sent."""

    def __init__(self) -> None:
        super().__init__(deals=itertools.repeat(DEAL))
        self.frames = 0
        self.revealed = False  # the results were sent: the deal is public from then on

    def feed(self, outputs: list[Output]) -> None:
        from scorpion.race import Send

        room = self.referee.rooms.get("room1")
        for output in outputs:
            if not isinstance(output, Send) or room is None:
                continue
            message = output.message
            if message.get("event") == "results":
                self.revealed = True
            if self.revealed:
                continue
            texts, numbers = strings_and_numbers(message)
            assert DEAL not in numbers, message
            assert not any(str(DEAL) in text for text in texts), message
            for conn in output.conns:
                self.frames += 1
                member = room.members.by_conn[conn]
                allowed: set[str] = set()
                for pid in {member.id, member.following}:
                    racer = room.racers.get(pid) if pid else None
                    if racer is not None:
                        allowed |= visible(racer.game)
                shown = {card for text in texts for card in CARD.findall(text)}
                assert shown <= allowed, (conn, shown - allowed, message)
                hidden = {c for c in range(52) if card_text(c) not in allowed}
                joined = " ".join(texts).lower()
                named = [card_name(c) for c in hidden if card_name(c) in joined]
                assert not named, (conn, named, message)
        super().feed(outputs)


def test_no_hidden_card_in_any_frame_of_a_whole_race() -> None:
    h = ScanningHarness()
    h.room(PLAYERS[0], preset="classic", time_limit=120, undo=True, hints=True)
    racers = [h.connect(p, room="room1") for p in PLAYERS]
    watchers = [h.connect(p, room="room1") for p in WATCHERS]
    for client in racers:
        client.command("join", **{"as": "player"})
        client.command("ready")
    racers[0].command("start")
    watchers[0].command("follow", player="a")
    h.advance(3)
    watchers[1].command("follow", player="b")
    rng = random.Random(4)
    games = {p.id: Game.new(DEAL, "classic") for p in PLAYERS}
    for step in range(400):
        h.advance(0.25)
        client = racers[step % 3]
        game = games[client.player.id]
        if game.over:
            continue
        roll = rng.random()
        if roll < 0.1 and game.can_undo:
            assert client.command("undo")["type"] == "applied"
            game.undo()
        elif roll < 0.15:
            assert client.command("hint")["type"] == "applied"
        elif roll < 0.3:
            # Probe a card this player cannot see: refused, and the answer says no more.
            unseen = sorted({card_text(c) for c in range(52)} - visible(game))
            if unseen:
                answer = client.command("move", move=rng.choice(unseen))
                assert (answer["code"], answer["message"]) in {
                    ("face-down", "That card is face down"),
                }
        else:
            moves = game.legal_moves()
            if moves:
                move = rng.choice(moves)
                assert client.command("move", move=str(move))["type"] == "applied"
                game.play(move)
        if step == 200:  # a watcher and a racer reconnect mid-race
            watchers[1].disconnect()
            watchers[1] = h.connect(WATCHERS[1], room="room1", last_version=3)
            racers[2].disconnect()
            seq = racers[2].seq
            racers[2] = h.connect(PLAYERS[2], room="room1", last_version=10**6)
            racers[2].seq = seq
    h.advance(120)
    assert h.revealed
    assert h.frames > 1000
    results = watchers[0].events("results")[-1]
    assert results["deal"] == str(DEAL)
