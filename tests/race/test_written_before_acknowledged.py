"""Every applied game command comes in the same batch as its record, and after it."""

from __future__ import annotations

import random

from scorpion.engine import Game
from scorpion.race import ActionRecord, Output, Persist, Player, RoundFinished, Send

from .harness import Harness

PLAYERS = [Player("a", "Ada"), Player("b", "Bo")]
GAME_COMMANDS = {"move", "deal", "undo", "hint", "give-up"}


class CheckingHarness(Harness):
    def __init__(self) -> None:
        super().__init__()
        self.acks = 0

    def feed(self, outputs: list[Output]) -> None:
        written: list[object] = []
        for output in outputs:
            if isinstance(output, Persist):
                written.append(output.record)
                continue
            if not isinstance(output, Send):
                continue
            message = output.message
            if message.get("type") == "applied" and message.get("command") in GAME_COMMANDS:
                (conn,) = output.conns
                player = self.clients[conn].player.id
                assert any(
                    isinstance(r, ActionRecord) and r.seq == message["seq"] and r.player == player
                    for r in written
                ), message
                self.acks += 1
            if message.get("event") == "results":
                assert any(isinstance(r, RoundFinished) for r in written)
        super().feed(outputs)


def test_every_acknowledged_action_is_in_its_batch_before_the_answer() -> None:
    h = CheckingHarness()
    h.room(PLAYERS[0], deal=3, hints=True, time_limit=100, undo="full")
    clients = [h.connect(p, room="room1") for p in PLAYERS]
    for client in clients:
        client.command("join", **{"as": "player"})
        client.command("ready")
    clients[0].command("start")
    h.advance(3)
    rng = random.Random(3)
    games = [Game.new(3, "classic") for _ in clients]
    for step in range(60):
        h.advance(0.5)
        i = step % 2
        if rng.random() < 0.2 and games[i].can_undo:
            clients[i].command("undo")
            games[i].undo()
        elif rng.random() < 0.1:
            clients[i].command("hint")
        elif games[i].legal_moves():
            move = rng.choice(games[i].legal_moves())
            clients[i].command("move", move=str(move))
            games[i].play(move)
    clients[0].command("give-up")
    h.advance(100)
    assert h.acks >= 30
    assert clients[1].events("results")
