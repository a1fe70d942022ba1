"""A replay rebuilds every board exactly as a follower of the live round saw it.

Random races are driven through the harness with one spectator following each racer; every
``view`` frame a follower got is kept with the race clock it came at. The replay is then
built the way the server builds it (the persisted records made into store rows by the web
layer's RecordWriter, then ``http_replays.replay_json``), and at each frame's moment the
replay's board of that racer must be the frame's board, and its status the frame's.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import pytest

from scorpion.race import Player, RoundStarted
from scorpion.race.replay import ReplayError, ReplayGame, build_replay
from scorpion.store import SavedGame, SaveGame
from scorpion.web.http_replays import replay_json
from scorpion.web.records import RecordWriter

from .harness import Client, Harness

RACERS = ("a", "b", "d")
LIMIT = 40  # the race's time limit, seconds


def rows_from(h: Harness) -> list[SavedGame]:
    """The game rows the store would hold after the race (an update keeps ``started``)."""
    writer = RecordWriter(h.referee.room_settings)
    rows: dict[str, SavedGame] = {}
    for record in h.records:
        for write in writer.writes(record):
            if isinstance(write, SaveGame):
                row = write.record
                old = rows.get(row.id)
                rows[row.id] = replace(row, started=old.started) if old else row
    return list(rows.values())


def apply_step(views: list[dict[str, Any]], boards: list[list[Any]]) -> None:
    """One step's board deltas, applied as the client applies them."""
    for index, delta in boards:
        view = views[index] = dict(views[index])
        for key, value in delta.items():
            if key == "columns":
                pairs = zip(value, view[key], strict=True)
                view[key] = [old if new is None else new for new, old in pairs]
            else:
                view[key] = value


def boards_at(replay: dict[str, Any], t: float) -> list[tuple[list[dict[str, Any]], list[str]]]:
    """Every racer's masked board and status at race time ``t``: before the steps made at
    ``t`` itself, then after each of them (within one instant the server sends the boards
    of its steps one after another)."""
    views = [dict(v) for v in replay["start"]]
    status = ["playing"] * len(views)
    states = []
    for at, racer, _action, ended, boards in replay["steps"]:
        if at > t + 1e-9:
            break
        if at > t - 1e-9 and not states:
            states.append((list(views), list(status)))
        if ended is not None:
            status[racer] = ended
        apply_step(views, boards)
        if states:
            states.append((list(views), list(status)))
    return states or [(views, status)]


Frame = tuple[float, str, dict[str, Any], str]


def race(seed: int) -> tuple[Harness, list[Frame]]:
    """A random three-racer race on a 40 s clock; each follower's view frames with the race
    time they came at (the clock is never moved past the time limit: its timer fires then)."""
    rng = random.Random(seed)
    h = Harness()
    players = {pid: Player(pid, pid.upper()) for pid in RACERS}
    h.room(players["a"], deal=rng.choice([7, 25, 6, 1234]), time_limit=LIMIT)
    racers = {pid: h.connect(p, room="room1") for pid, p in players.items()}
    for client in racers.values():
        client.command("join", **{"as": "player"})
        client.command("ready")
    followers: dict[str, Client] = {}
    for pid in RACERS:
        followers[pid] = h.connect(Player("s" + pid, "Watcher " + pid), room="room1")
    racers["a"].command("start")
    h.advance(3)
    started = next(r for r in h.records if isinstance(r, RoundStarted)).started_at
    for pid, follower in followers.items():
        follower.command("follow", player=pid)
    frames: list[Frame] = []
    seen = {pid: 0 for pid in RACERS}

    def collect() -> None:
        for pid, follower in followers.items():
            for message in follower.inbox[seen[pid] :]:
                if message["type"] == "view" and message.get("view") is not None:
                    assert message["player"] == pid
                    t = round(h.now - started, 3)
                    frames.append((t, pid, message["view"], str(message["status"])))  # type: ignore[arg-type]
            seen[pid] = len(follower.inbox)

    room = h.referee.rooms["room1"]
    collect()
    while room.phase == "racing":
        playing = [pid for pid in RACERS if room.racers[pid].playing]
        pid = rng.choice(playing)
        game = room.racers[pid].game
        view = game.view()
        legal = [m for m in view["legal"] if m != "deal"]  # type: ignore[attr-defined]
        roll = rng.random()
        if roll < 0.01:
            racers[pid].command("give-up")
        elif roll < 0.15 and view["can_undo"]:
            racers[pid].command("undo")
        elif (roll < 0.25 or not legal) and game.stock:
            racers[pid].command("deal")
        elif legal:
            racers[pid].command("move", move=rng.choice(legal))
        collect()
        step = rng.choice([0.001, 0.004, 0.05, 0.13, 0.3, 0.9])
        left = started + LIMIT - h.now
        h.advance(step if step < left - 1e-6 else left + 1e-7)
        collect()
    return h, frames


@pytest.mark.parametrize("seed", range(8))
def test_the_replay_shows_what_each_follower_saw(seed: int) -> None:
    h, frames = race(seed)
    rows = rows_from(h)
    assert sorted(r.player_id for r in rows) == sorted(RACERS)
    replay = replay_json(rows, {r.player_id: r.player_id.upper() for r in rows})
    order = [r["player"] for r in replay["racers"]]
    assert len(frames) > 20
    masked_seen = 0
    for t, pid, view, status in frames:
        index = order.index(pid)
        seen = [(views[index], statuses[index]) for views, statuses in boards_at(replay, t)]
        assert (view, status) in seen, (t, pid)
        masked_seen += "??" in str(view)
    assert masked_seen > 0  # the followers did see masked cards, and so does the replay
    # At the end nothing is masked any more: every racer has finished.
    final, statuses = boards_at(replay, replay["end"])[-1]
    assert "??" not in str(final) and "playing" not in statuses
    # The results' ranking and chart come out of the same games.
    results = next(r for r in h.records if type(r).__name__ == "RoundFinished")
    ranks = {str(e["player"]): e["rank"] for e in results.ranking}  # type: ignore[attr-defined]
    assert {r["player"]: r["rank"] for r in replay["racers"]} == ranks
    live = {pid: h.referee.rooms["room1"].racers[pid].timeline for pid in RACERS}
    assert {p: [tuple(x) for x in v] for p, v in replay["timeline"].items()} == live


def test_actions_the_rules_refuse_are_a_replay_error() -> None:
    from scorpion.engine import get_rules

    bad = ReplayGame("a", "Ada", 7, get_rules("classic"), [("KS>1", 1.0)], "lost", 2.0)
    with pytest.raises(ReplayError, match="refused"):
        build_replay([bad])
    won = ReplayGame("a", "Ada", 7, get_rules("classic"), [], "won", 2.0)
    with pytest.raises(ReplayError, match="stored as 'won'"):
        build_replay([won])
    with pytest.raises(ReplayError):
        build_replay([])
