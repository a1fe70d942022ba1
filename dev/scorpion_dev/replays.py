"""A finished race round written straight into a server's SQLite file, for the replay page's
browser test and benchmark: random legal play (moves, deals, undos), each game given up at
its end, every row revealed (the round has its results)."""

from __future__ import annotations

import random
import sqlite3
from contextlib import closing
from pathlib import Path

import orjson

from scorpion.engine import Game, apply_action


def random_actions(deal: int, count: int, rng: random.Random) -> list[tuple[str, float]]:
    """``count`` actions of random legal play on ``deal`` (classic), the last a give-up, at
    growing race times."""
    game = Game.new(deal, "classic")
    actions: list[tuple[str, float]] = []
    t = 0.0
    while len(actions) < count - 1:
        t = round(t + rng.uniform(0.2, 1.2), 3)
        legal = [str(m) for m in game.legal_moves()]
        if game.can_undo and (not legal or rng.random() < 0.1):
            action = "undo"
        elif legal:
            action = rng.choice(legal)
        else:
            break
        actions.append((apply_action(game, action, t), t))
    t = round(t + 1.0, 3)
    actions.append(("give-up", t))
    return actions


def write_round(
    db: Path, room: str, players: list[tuple[str, str]], moves: int, deal: int = 7, seed: int = 1
) -> None:
    """Round 1 of ``room`` with ``players`` ((id, name), created if missing), each playing
    ``moves`` actions of random play."""
    rng = random.Random(seed)
    with closing(sqlite3.connect(db)) as conn, conn:
        for pid, name in players:
            conn.execute(
                "INSERT OR IGNORE INTO players (id, token_hash, name, created) VALUES (?, ?, ?, 0)",
                (pid, f"hash-{pid}".encode(), name),
            )
            actions = random_actions(deal, moves, rng)
            elapsed = actions[-1][1]
            settings = {"preset": "classic", "max_players": 10, "time_limit": 0, "undo": True,
                        "hints": False}  # fmt: skip
            conn.execute(
                "INSERT INTO games (id, player_id, room_id, preset, rules, deal, started, "
                "finished, result, elapsed, moves, actions, revealed) "
                "VALUES (?, ?, ?, 'classic', ?, ?, 1000.0, ?, 'gave-up', ?, ?, ?, 1)",
                (f"{room}:1:{pid}", pid, room, orjson.dumps(settings).decode(), str(deal),
                 1000.0 + elapsed, elapsed, len(actions), orjson.dumps(actions).decode()),
            )  # fmt: skip


def write_daily(
    db: Path, day: str, players: list[tuple[str, str]], moves: int, deal: int = 7
) -> None:
    """Ranked attempts of a past day's daily by ``players`` (created if missing), ranked in
    their order (fewer moves first), each ``moves`` actions of random play."""
    rng = random.Random(2)
    with closing(sqlite3.connect(db)) as conn, conn:
        for n, (pid, name) in enumerate(players):
            conn.execute(
                "INSERT OR IGNORE INTO players (id, token_hash, name, created) VALUES (?, ?, ?, 0)",
                (pid, f"hash-{pid}".encode(), name),
            )
            actions = random_actions(deal, moves, rng)
            elapsed = actions[-1][1]
            gid = f"daily:{day}:1:{pid}"
            conn.execute(
                "INSERT INTO games (id, player_id, daily, ranked, preset, rules, deal, started, "
                "finished, result, elapsed, moves, actions) "
                "VALUES (?, ?, ?, 1, 'classic', '{\"preset\": \"classic\"}', ?, 1000.0, ?, "
                "'gave-up', ?, ?, ?)",
                (gid, pid, day, str(deal), 1000.0 + elapsed, elapsed, n,
                 orjson.dumps(actions).decode()),
            )  # fmt: skip
            conn.execute(
                "INSERT INTO daily_attempts (day, player_id, game_id) VALUES (?, ?, ?)",
                (day, pid, gid),
            )
