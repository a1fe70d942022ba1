"""A whole race over real sockets: three players, two spectators, and no hidden card leaked."""

from __future__ import annotations

import re
from typing import Any

import pytest

from scorpion.engine import Game, card_text
from scorpion.web.testing import Api, Client, Racer, ServerProcess

pytestmark = pytest.mark.backends  # the store under the server: SQLite and PostgreSQL

DEAL = 20261129
CARD = re.compile(r"^(?:10|[A2-9TJQK])[SHDC](?:>\d+)?$", re.IGNORECASE)


def cards_in(value: Any) -> set[str]:
    """Every card named anywhere in a frame: card texts, move texts, hint moves."""
    found: set[str] = set()
    if isinstance(value, str):
        if CARD.match(value):
            found.add(value.split(">")[0].upper().replace("10", "T"))
    elif isinstance(value, dict):
        for item in value.values():
            found |= cards_in(item)
    elif isinstance(value, list):
        for item in value:
            found |= cards_in(item)
    return found


def hidden_at_start(deal: int) -> set[str]:
    game = Game.new(deal, "classic")
    down = {card_text(c) for col, d in zip(game.columns, game.down, strict=True) for c in col[:d]}
    return down | {card_text(c) for c in game.stock}


def check_player_frames(racer: Racer, hidden: set[str]) -> None:
    """Replay the player's frames in order: a hidden card may appear only once the player's
    own game (rebuilt from the applied answers) has turned it face up."""
    replica = Racer(racer.client, racer.id, DEAL)
    for frame in racer.client.frames:
        if frame.get("type") == "applied" and frame.get("command") in ("move", "undo", "give-up"):
            replica.apply(frame["move"] if frame["command"] == "move" else frame["command"])
        if frame.get("type") == "view":
            assert frame["player"] == racer.id, "a player was sent someone else's board"
        leaked = (cards_in(frame) & hidden) - replica.seen
        assert not leaked, f"{racer.client.name} saw hidden {leaked} in {frame}"


def check_spectator_frames(
    client: Client, racers: dict[str, Racer], hidden: set[str], following: str | None
) -> None:
    """A spectator sees cards only in the boards of the player it follows, and only boards
    that player had: never a card before that player turned it."""
    for frame in client.frames:
        cards = cards_in(frame) & hidden
        if frame.get("type") == "view":
            racer = racers[frame["player"]]
            assert frame["player"] == following
            assert frame["view"] in racer.views, "a followed board the player never had"
            assert cards <= racer.seen
        elif frame.get("type") == "applied" and frame.get("view"):
            assert following is not None and frame["view"] in racers[following].views
        else:
            assert not cards, f"spectator {client.name} saw cards {cards} in {frame}"


async def test_full_race_three_players_two_spectators(server: ServerProcess, api: Api) -> None:
    ids, tokens = {}, {}
    for name in ("Ann", "Bob", "Cy", "Sam", "Sue"):
        ids[name], tokens[name] = await api.new_player(name)
    room = await api.new_room(tokens["Ann"], deal=DEAL, max_players=3, time_limit=600)
    clients = {n: await Client.connect(server.ws_url, n) for n in ids}
    for name, client in clients.items():
        welcome = await client.hello(tokens[name], room=room)
        assert welcome["type"] == "welcome" and welcome["room"] == room
    players, spectators = ("Ann", "Bob", "Cy"), ("Sam", "Sue")
    for name in players:
        assert (await clients[name].call("join", **{"as": "player"}))["type"] == "applied"
    for name in spectators:
        assert (await clients[name].call("join", **{"as": "spectator"}))["type"] == "applied"
    for name in players:
        assert (await clients[name].call("ready"))["type"] == "applied"
    assert (await clients["Ann"].call("start"))["type"] == "applied"
    for client in clients.values():
        start = await client.expect(lambda f: f.get("event") == "start", timeout=10)
        assert set(start["players"]) == {ids[n] for n in players}
    racers = {ids[n]: Racer(clients[n], ids[n], DEAL) for n in players}
    followed = await clients["Sam"].call("follow", player=ids["Bob"])
    assert followed["type"] == "applied"
    assert followed["view"] == racers[ids["Bob"]].views[-1]

    # Everyone plays: moves that turn cards first, a deal, an undo, then each gives up.
    for turn in range(10):
        for name in players:
            racer = racers[ids[name]]
            if racer.game.over:
                continue
            move = "deal" if turn == 6 and racer.game.stock else racer.pick()
            answer = await racer.act("move", move=move)
            assert answer["type"] == "applied", answer
    undo = await racers[ids["Bob"]].act("undo")
    assert undo["type"] == "applied"
    for name in players:
        answer = await racers[ids[name]].act("give-up")
        assert answer["type"] == "applied" and answer["status"] == "gave-up"

    for client in clients.values():
        results = await client.expect(lambda f: f.get("event") == "results", timeout=10)
        assert {e["player"] for e in results["ranking"]} == {ids[n] for n in players}
        assert int(results["deal"]) == DEAL  # revealed only now
        assert all(e["status"] == "gave-up" for e in results["ranking"])

    hidden = hidden_at_start(DEAL)
    turned = set().union(*(r.seen for r in racers.values())) & hidden
    assert turned, "the race turned no card: the check below would prove nothing"
    for racer in racers.values():
        check_player_frames(racer, hidden)
    check_spectator_frames(clients["Sam"], racers, hidden, following=ids["Bob"])
    check_spectator_frames(clients["Sue"], racers, hidden, following=None)
    # Sam follows Bob and received Bob's boards; Sue follows nobody and saw no card at all.
    assert any(f.get("type") == "view" for f in clients["Sam"].frames)
    assert not cards_in(clients["Sue"].frames)
    # Every frame before the results: the deal number appears nowhere.
    for client in clients.values():
        for frame in client.frames:
            if frame.get("event") == "results":
                break
            assert str(DEAL) not in str(frame)

    # Statistics and records of the race.
    stats = (await api.call("GET", f"/api/players/{ids['Ann']}/stats")).json()["stats"]
    assert stats == [{"preset": "classic", "started": 1, "won": 0, "lost": 1, "win_rate": 0.0,
                      "current_streak": 0, "best_streak": 0}]  # fmt: skip
    games = (await api.call("GET", "/api/me/games", tokens["Bob"])).json()["games"]
    assert len(games) == 1 and games[0]["status"] == "gave-up" and games[0]["room"] == room
    assert games[0]["deal"] == str(DEAL)  # the results are out: the deal may be shown
    bob = racers[ids["Bob"]]
    assert [a for a, _ in games[0]["actions"]] == [a for a, _ in bob.game.log]

    # Rematch: a new round in the same room.
    answer = await clients["Ann"].call("rematch", round=1)
    assert answer["type"] == "applied", answer
    for client in clients.values():
        await client.expect(lambda f: f.get("event") == "rematch", timeout=10)
        await client.close()
    metrics = (await api.call("GET", "/metrics")).text
    found = re.search(r"^scorpion_moves_total (\S+)$", metrics, re.M)
    assert found is not None and float(found.group(1)) >= 30


def test_the_hidden_card_check_catches_a_leak() -> None:
    hidden = hidden_at_start(DEAL)
    secret = sorted(hidden)[0]
    racer = Racer(Client.__new__(Client), "p1", DEAL)
    racer.client.name, racer.client.frames = "x", [{"type": "event", "hint": f"{secret}>3"}]
    try:
        check_player_frames(racer, hidden)
    except AssertionError as exc:
        assert secret in str(exc)
    else:
        raise AssertionError("a hidden card in a frame went unnoticed")
    assert cards_in({"a": ["10h>2", "deal", "p_4H", {"b": "QD"}]}) == {"TH", "QD"}
