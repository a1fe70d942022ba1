"""The daily under a crowd: aggregated ``playing`` events, leaderboard pages, rank frames."""

from __future__ import annotations

import itertools
import math
import random

from scorpion.engine import Game
from scorpion.race import Player
from scorpion.race.daily import utc_date
from scorpion.race.daily_feed import PLAYING_EVERY, TOP_LIVE, TOP_ROWS
from scorpion.race.leaderboard import Leaderboard
from scorpion.race.ranking import rank_entries

from .harness import T0, Harness

TODAY = utc_date(T0)


def quiet_move(h: Harness) -> str:
    """A first move of today's deal that shows no card: fair undo lets a ranked attempt undo it."""
    daily = h.referee.dailies[TODAY]
    game = Game.new(daily.deal, daily.preset)
    for move in game.legal_moves():
        game.play(move)
        if not game.undo_reveals:
            return str(move)
        game.undo()
    raise AssertionError("every first move of the deal shows a card")


def test_a_crowd_gets_a_bounded_number_of_events_with_gapless_versions() -> None:
    h = Harness()
    watcher = h.connect(Player("w", "Watcher"), daily=TODAY)
    players = [h.connect(Player(f"p{i}", f"P{i}"), daily=TODAY) for i in range(60)]
    for client in players:
        client.command("start")
    quiet = quiet_move(h)
    seconds, step = 30.0, 0.25
    for tick in range(int(seconds / step)):
        for i, client in enumerate(players):
            if (tick + i) % 4 == 0:  # every player plays once a second: a move, then undo
                answer = (
                    client.command("move", move=quiet) if client.seq % 2 else client.command("undo")
                )
                assert answer["type"] == "applied" or answer["code"] == "finished", answer
        if tick == 40:
            players[0].command("give-up")  # a ranked result: the leaderboard changes
        h.advance(step)
    events = watcher.events()
    # 60 players playing once a second for 30 s: at most one event per PLAYING_EVERY.
    assert 0 < len(events) <= math.ceil(seconds / PLAYING_EVERY) + 1
    assert {e["event"] for e in events} == {"playing"}
    versions = [e["v"] for e in events]
    assert versions == list(range(versions[0], versions[0] + len(versions)))
    times = [e["now"] for e in events]
    assert all(b - a >= PLAYING_EVERY for a, b in itertools.pairwise(times))
    last = events[-1]["playing"]
    assert last["count"] == 59 and len(last["top"]) == TOP_LIVE
    boards = [e["leaderboard"] for e in events if "leaderboard" in e]
    assert len(boards) == 1 and boards[0]["size"] == 1 and boards[0]["top"][0]["player"] == "p0"
    # Nobody plays any more: no more events.
    h.advance(10)
    assert len(watcher.events()) == len(events) + 1  # the last changes, then silence
    h.advance(10)
    assert len(watcher.events()) == len(events) + 1
    # A reconnect with its last version gets exactly what it missed.
    again = h.connect(Player("w", "Watcher"), daily=TODAY, last_version=versions[-3])
    assert [e["v"] for e in again.inbox[0]["events"]] == [*versions[-2:], versions[-1] + 1]


def test_finished_players_learn_their_rank_when_it_moves() -> None:
    h = Harness()
    ada, bo = h.connect(Player("a", "Ada"), daily=TODAY), h.connect(Player("b", "Bo"), daily=TODAY)
    ada.command("start")
    bo.command("start")
    h.advance(1)
    ada.command("deal")
    assert ada.command("give-up")["rank"]["rank"] == 1  # your row comes with the answer
    h.advance(PLAYING_EVERY)
    assert not [m for m in ada.inbox if m["type"] == "rank"]  # unchanged: nothing to say
    bo.command("give-up")  # the same score in fewer moves: ranks above Ada
    h.advance(PLAYING_EVERY)
    board = ada.events("playing")[-1]["leaderboard"]
    assert [(r["rank"], r["player"]) for r in board["top"]] == [(1, "b"), (2, "a")]
    rank = ada.last("rank")
    assert (rank["row"]["rank"], rank["row"]["player"], rank["size"]) == (2, "a", 2)
    assert not [m for m in bo.inbox if m["type"] == "rank"]
    # A welcome says your row (and the top of the board).
    back = h.connect(Player("a", "Ada"), daily=TODAY)
    leaderboard = back.inbox[0]["state"]["leaderboard"]
    assert leaderboard["you"]["rank"] == 2 and leaderboard["size"] == 2


def test_leaderboard_pages_match_a_full_ranking_with_ties() -> None:
    rng = random.Random(7)
    entries = []
    for i in range(300):
        won = rng.random() < 0.3
        entries.append(
            {
                "player": f"p{i:03}",
                "name": f"P{i}",
                "status": "won" if won else rng.choice(["lost", "gave-up"]),
                "elapsed": float(rng.choice([300, 310, 320])) if won else 100.0,
                "runs": 4 if won else rng.randint(0, 3),
                "score": rng.choice([100, 200]),
                "moves": rng.choice([90, 100]),
            }
        )
    board = Leaderboard()
    for entry in entries:
        board.put({**entry, "score": 0})  # replaced below: one entry per player
    for entry in entries:
        board.put(entry)
    full = rank_entries(entries)
    assert len(board) == 300 and board.page(0, 300) == full
    assert board.page(0, TOP_ROWS) == full[:TOP_ROWS]
    assert board.page(137, 25) == full[137:162]
    assert any(a["rank"] == b["rank"] for a, b in itertools.pairwise(full))  # ties
    for row in full[::17]:
        player = str(row["player"])
        assert board.rank_of(player) == row["rank"] and board.row(player) == row
        offset, rows = board.around(player, 9)
        assert rows == full[offset : offset + 9] and row in rows
    assert board.around("p000", 9)[1] == full[max(0, full.index(board.row("p000")) - 4) :][:9]
    assert board.around("nobody", 5) == (0, []) and board.page(300, 10) == []
