"""A whole race over real sockets: three players, two spectators, and no hidden card leaked."""

from __future__ import annotations

import re
from typing import Any

import pytest

from scorpion.engine import Game, card_text
from scorpion.race.masking import face_down, mask_view
from scorpion.race.observed import shown_ordered
from scorpion_dev.server import Api, Client, Replica, ServerProcess, start_race

pytestmark = pytest.mark.backends  # the store under the server: SQLite and PostgreSQL

DEAL = 20261129
UNEVEN_DEAL = 195  # greedy play turns every card of it
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


def check_player_frames(racer: Replica, hidden: set[str]) -> None:
    """Replay the player's frames in order: a hidden card may appear only once the player's
    own game (rebuilt from the applied answers) has turned it face up."""
    replica = Replica(racer.client, racer.id, DEAL)
    for frame in racer.client.frames:
        if frame.get("type") == "applied" and frame.get("command") in ("move", "undo", "give-up"):
            replica.apply(frame["move"] if frame["command"] == "move" else frame["command"])
        if frame.get("type") == "view":
            assert frame["player"] == racer.id, "a player was sent someone else's board"
        leaked = (cards_in(frame) & hidden) - replica.seen
        assert not leaked, f"{racer.client.name} saw hidden {leaked} in {frame}"


def masked_as(sent: dict[str, Any], view: dict[str, Any]) -> bool:
    """Whether ``sent`` is ``view`` with some face-up cards masked as ``??`` and without the
    legal moves (a follower never gets those: a move onto a masked card would name it)."""
    if "legal" in sent or {k: v for k, v in sent.items() if k != "columns"} != {
        k: v for k, v in view.items() if k not in ("columns", "legal")
    }:
        return False
    pairs = list(zip(sent["columns"], view["columns"], strict=True))
    return all(
        a["down"] == b["down"]
        and len(a["up"]) == len(b["up"])
        and all(x in (y, "??") for x, y in zip(a["up"], b["up"], strict=True))
        for a, b in pairs
    )


def check_spectator_frames(
    client: Client, racers: dict[str, Replica], hidden: set[str], following: str | None
) -> None:
    """A spectator sees cards only in the boards of the player it follows, and only boards
    that player had (masked): before the results, never a card some racer had not turned."""
    over = False
    for frame in client.frames:
        over = over or frame.get("event") == "results"
        cards = cards_in(frame) & hidden
        if frame.get("type") == "view" or (frame.get("type") == "applied" and frame.get("view")):
            player = frame.get("player", following)
            assert player == following
            racer = racers[player]
            assert any(masked_as(frame["view"], v) for v in racer.views), "a board never had"
            assert cards <= racer.seen
            if not over:  # every racer played to the end: each had turned what was shown
                assert all(cards <= other.seen for other in racers.values()), cards
        else:
            assert not cards, f"spectator {client.name} saw cards {cards} in {frame}"


async def no_secret_over_http(
    api: Api, room: str, ids: dict[str, str], tokens: dict[str, str], racers: dict[str, Replica]
) -> None:
    """Mid-race, every HTTP answer about the race a spectator, a racer's second account or a
    racer may ask for (the room's summary, the open rooms, the league's tables, the quick
    queue, ratings, games) names neither the deal nor a card still face down for the asker."""
    assert (await racers[ids["Ann"]].client.call("list", listed=True))["type"] == "applied"
    hidden = hidden_at_start(DEAL)
    paths = [
        f"/api/rooms/{room}",
        "/api/rooms",
        f"/api/rooms/{room}/league",
        "/api/quick",
        f"/api/players/{ids['Bob']}/ratings",
        f"/api/players/{ids['Bob']}/stats",
        "/api/me/games",
    ]
    for name in ("Sam", "Bob"):
        seen = racers[ids[name]].seen if ids[name] in racers else set()
        for path in paths:
            answer = await api.call("GET", path, tokens[name])
            assert answer.status_code == 200, (path, answer.text)
            assert str(DEAL) not in answer.text, (name, path, answer.text)
            leaked = (cards_in(answer.json()) & hidden) - seen
            assert not leaked, (name, path, leaked)
    listed = (await api.call("GET", "/api/rooms")).json()["rooms"]
    assert [r["room"] for r in listed] == [room]  # the check above saw the listed room


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
    racers = {ids[n]: Replica(clients[n], ids[n], DEAL) for n in players}
    followed = await clients["Sam"].call("follow", player=ids["Bob"])
    assert followed["type"] == "applied"
    assert followed["view"] == mask_view(racers[ids["Bob"]].views[-1], set())

    # Everyone plays: moves that turn cards first, a deal, an undo, then each gives up.
    for turn in range(10):
        for name in players:
            racer = racers[ids[name]]
            if racer.game.over:
                continue
            move = "deal" if turn == 6 and racer.game.stock else racer.pick()
            answer = await racer.act("move", move=move)
            assert answer["type"] == "applied", answer
    await no_secret_over_http(api, room, ids, tokens, racers)
    bob = racers[ids["Bob"]]
    undo = await bob.act("undo")  # the room's default is fair undo
    if bob.own_view()["can_undo"]:
        assert undo["type"] == "applied"
    else:  # Bob's last move showed a card: told ahead, then refused
        assert bob.own_view()["undo_refusal"] == undo["message"] and undo["code"] == "undo-reveals"
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
                      "current_streak": 0, "best_streak": 0,
                      "assisted_started": 0, "assisted_won": 0}]  # fmt: skip
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
    racer = Replica(Client.__new__(Client), "p1", DEAL)
    racer.client.name, racer.client.frames = "x", [{"type": "event", "hint": f"{secret}>3"}]
    try:
        check_player_frames(racer, hidden)
    except AssertionError as exc:
        assert secret in str(exc)
    else:
        raise AssertionError("a hidden card in a frame went unnoticed")
    assert cards_in({"a": ["10h>2", "deal", "p_4H", {"b": "QD"}]}) == {"TH", "QD"}


def seen(game: Game, secret: frozenset[str]) -> dict[str, object]:
    """A classic board as a follower gets it: masked, its cards in order counted on that."""
    return {**mask_view(game.view(), secret), "ordered": shown_ordered(game, secret)}


async def test_uneven_race_followers_learn_no_card_a_playing_racer_has_not_turned(
    server: ServerProcess, api: Api
) -> None:
    """Ann plays every step, Bob every fourth, Cy never. Bob's second account follows Ann,
    Sue follows Bob: every view each gets is the followed board with exactly the cards
    still face down on another playing board masked, its cards in order counted on that."""
    room, racers, _ = await start_race(server, api, ["Ann", "Bob", "Cy"], UNEVEN_DEAL)
    ann, bob, cy = racers["Ann"], racers["Bob"], racers["Cy"]
    followers: dict[str, Client] = {}
    for name, target in (("Bob again", ann), ("Sue", bob)):
        _, token = await api.new_player(name)
        followers[name] = client = await Client.connect(server.ws_url, name)
        assert (await client.hello(token, room=room))["type"] == "welcome"
        answer = await client.call("follow", player=target.id)
        secret = face_down(bob.game) | face_down(cy.game) | face_down(ann.game)
        assert answer["view"] == seen(target.game, secret)
    learned: set[str] = set()  # cards face down on Bob's board that his second account got

    async def check(follower: Client, mover: Replica) -> None:
        frame = await follower.expect(
            lambda f: f.get("type") == "view" and f["view"]["moves"] == mover.game.moves_made
        )
        others = [r for r in racers.values() if r is not mover and r.game.over is False]
        secret = frozenset().union(*(face_down(r.game) for r in others))
        assert frame["player"] == mover.id
        assert frame["view"] == seen(mover.game, secret)
        assert not cards_in(frame) & secret
        if follower is followers["Bob again"]:
            learned.update(cards_in(frame) & face_down(bob.game))

    for step in range(24):
        if ann.game.legal_moves():
            assert (await ann.act("move", move=ann.pick()))["type"] == "applied"
            await check(followers["Bob again"], ann)
        if step % 4 == 3 and bob.game.legal_moves():
            assert (await bob.act("move", move=bob.pick()))["type"] == "applied"
            await check(followers["Sue"], bob)
    assert ann.game.cards_turned > bob.game.cards_turned > 0 == cy.game.cards_turned
    assert not learned
    masked = [f for f in followers["Bob again"].frames if "??" in str(f.get("view"))]
    assert masked, "nothing was masked: the check above proved nothing"
    for client in (*followers.values(), *(r.client for r in racers.values())):
        await client.close()


async def test_the_peek_by_undo_is_refused_over_a_real_socket(
    server: ServerProcess, api: Api
) -> None:
    _, racers, _ = await start_race(server, api, ["Ann"], DEAL, undo="fair", max_players=1)
    ann = racers["Ann"]
    welcome = next(f for f in ann.client.frames if f.get("type") == "welcome")
    assert welcome["state"]["settings"]["undo"] == "fair"
    dealt = await ann.act("move", move="deal")
    assert dealt["view"]["can_undo"] is False  # told ahead, with the refusal's sentence
    assert dealt["view"]["undo_refusal"] == "Undo can't take back a move that showed a card"
    refused = await ann.act("undo")
    assert refused["type"] == "refused" and refused["code"] == "undo-reveals"
    assert refused["message"] == dealt["view"]["undo_refusal"]
    # Nothing changed: the next move's answer is the replica's board, moves counted from 1.
    answer = await ann.act("move", move=ann.pick())
    assert answer["type"] == "applied" and answer["view"]["moves"] == 2
    assert answer["view"]["stock"] == 0 and answer["elapsed"] >= dealt["elapsed"]
