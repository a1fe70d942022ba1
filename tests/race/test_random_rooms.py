"""Random sessions: players and spectators come and go, the clock runs, anything is sent.

Invariants checked all along: one answer per command, events in order with no gap on
every connection while it is open, racers' boards equal to an engine replaying their
acknowledged moves, and a restore from the records equal to the live room at the end.
"""

from __future__ import annotations

import json
import random

import pytest

from scorpion.engine import Game, apply_action
from scorpion.race import Player, Referee, record_from_dict
from scorpion.race.racer import Racer

from .harness import Client, Harness

PEOPLE = [Player(c, c.upper() + "name") for c in "abcdef"]


def session(seed: int) -> None:
    rng = random.Random(seed)
    h = Harness(grace=rng.choice([5.0, 30.0]))
    undo = rng.choice(["fair", "full"])
    h.room(PEOPLE[0], deal=seed, time_limit=rng.choice([0, 40, 90]), hints=True, undo=undo)
    open_clients: dict[str, Client] = {}
    seqs: dict[str, int] = {}
    shadows: dict[tuple[int, str], Game] = {}

    def mirror(round_: int, racer: Racer, answer: dict[str, object]) -> None:
        """Replay an acknowledged action on an engine of our own; boards must agree."""
        key = (round_, racer.player.id)
        shadow = shadows.setdefault(key, Game.new(racer.game.deal or 0, racer.game.rules))
        logged = answer.get("move", answer.get("auto", answer["command"]))
        if logged != "hint":
            apply_action(shadow, str(logged))
        assert shadow.text() == racer.game.text() and shadow.log == [
            (text, None) for text, _ in racer.game.log
        ]

    def client_of(p: Player) -> Client:
        if p.id not in open_clients:
            c = h.connect(p, room="room1")
            c.seq = seqs.get(p.id, 0)
            open_clients[p.id] = c
        return open_clients[p.id]

    for _ in range(400):
        p = rng.choice(PEOPLE)
        roll = rng.random()
        room = h.referee.rooms.get("room1")
        assert room is not None
        if roll < 0.05 and p.id in open_clients:
            c = open_clients.pop(p.id)
            seqs[p.id] = c.seq
            c.disconnect()
            continue
        if roll < 0.15:
            h.advance(rng.choice([0.5, 2, 10, 45]))
            continue
        c = client_of(p)
        racer = room.racers.get(p.id)
        if roll < 0.8 and racer is not None and racer.playing and room.phase == "racing":
            game = racer.game
            moves = game.legal_moves()
            if rng.random() < 0.15 and game.can_undo:
                answer = c.command("undo")
                if undo == "fair" and game.undo_reveals:  # refused: nothing changed
                    assert answer["code"] == "undo-reveals", answer
                    continue
            elif moves:
                answer = c.command("move", move=str(rng.choice(moves)))
            else:
                answer = c.command("give-up")
            assert answer["type"] == "applied", answer
            mirror(room.round, racer, answer)
            assert answer["view"] == racer.view()
            continue
        if room.phase == "lobby" and rng.random() < 0.7:
            # Get a race going most of the time: seats, ready, the creator starts.
            kind, fields = rng.choice([("join", {"as": "player"}), ("ready", {})])
            if rng.random() < 0.3:
                c = client_of(PEOPLE[0])
                kind, fields = "start", {}
        else:
            kind, fields = rng.choice(
                [
                    ("join", {"as": "player"}), ("join", {"as": "spectator"}), ("ready", {}),
                    ("start", {}), ("leave", {}), ("follow", {"player": rng.choice("abcdef")}),
                    ("rematch", {"round": room.round}), ("ping", {}), ("hint", {}),
                    ("move", {"move": "deal"}),
                ]
            )  # fmt: skip
        playing = racer is not None and racer.playing and room.phase in ("countdown", "racing")
        answer = c.command(kind, **fields)
        assert answer["type"] in ("applied", "refused")
        if answer["type"] == "applied" and racer is not None and c.player.id == p.id:
            if kind == "leave" and playing:
                mirror(room.round, racer, {"command": "give-up"})
            elif kind in ("move", "hint"):
                mirror(room.round, racer, answer)

    # Events: on every connection, versions without gaps from its welcome on.
    for c in h.clients.values():
        welcome = next(m for m in c.inbox if m["type"] == "welcome")
        versions = [m["v"] for m in c.inbox if m["type"] == "event"]
        expected = list(range(welcome["version"] + 1, welcome["version"] + 1 + len(versions)))
        assert versions == expected
    # Restore equals the live room.
    restarted = Referee(secret=b"test-secret")
    records = [record_from_dict(json.loads(json.dumps(r.to_dict()))) for r in h.records]
    restarted.restore(records, h.now)
    live, back = h.referee.rooms["room1"], restarted.rooms["room1"]
    assert (back.round, back.phase) == (live.round, live.phase)
    for pid, racer in live.racers.items():
        other = back.racers[pid]
        assert (other.game.text(), other.game.log, other.status, other.hints) == (
            racer.game.text(), racer.game.log, racer.status, racer.hints,
        )  # fmt: skip


@pytest.mark.parametrize("seed", range(12))
def test_random_sessions(seed: int) -> None:
    session(seed)
