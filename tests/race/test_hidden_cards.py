"""No frame ever names a face-down or stock card before it turns face up, nor the deal."""

from __future__ import annotations

import itertools
import random
import re

from scorpion.engine import Game, card_name, card_text
from scorpion.race import Output, Player
from scorpion.race.quick_room import ARRIVAL, QuickSeats, quick_settings

from .harness import Client, Harness

DEAL = 8_123_456_789_012  # big enough that no other number in a frame can equal it
PLAYERS = [Player(x, n) for x, n in (("a", "Ada"), ("b", "Bo"), ("c", "Cy"))]
WATCHERS = [Player("d", "Di"), Player("e", "Eve")]
UNEVEN_DEAL = 195  # greedy play turns every card of it (and deals the stock) in 53 moves
CARD = re.compile(r"(?<![\w-])[2-9TJQKA][SHDC](?![\w-])")  # not in an id ("-" is in some)


def visible(game: Game) -> set[str]:
    """Card texts the player of ``game`` can see now (face-up, reserve, removed runs)."""
    cards = {card_text(c) for col, d in zip(game.columns, game.down, strict=True) for c in col[d:]}
    cards |= {card_text(c) for c in game.reserve}
    cards |= {card_text(s * 13 + r) for s in game.runs for r in range(13)}
    return cards


def hidden_texts(game: Game) -> set[str]:
    """Card texts face down on ``game``'s board, its stock included."""
    down = {card_text(c) for col, d in zip(game.columns, game.down, strict=True) for c in col[:d]}
    return down | {card_text(c) for c in game.stock}


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
                member = room.core.members.by_conn[conn]
                allowed: set[str] = set()
                for pid in {member.id, member.following}:
                    racer = room.racers.get(pid) if pid else None
                    if racer is not None:
                        allowed |= visible(racer.game)
                # Minus what another racer still playing has face down (masking), unless
                # this recipient turned it on their own board.
                for pid, racer in room.racers.items():
                    if pid != member.id and racer.playing:
                        allowed -= hidden_texts(racer.game)
                own = room.racers.get(member.id)
                if own is not None:
                    allowed |= visible(own.game)
                shown = {card for text in texts for card in CARD.findall(text)}
                assert shown <= allowed, (conn, shown - allowed, message)
                hidden = {c for c in range(52) if card_text(c) not in allowed}
                joined = " ".join(texts).lower()
                named = [card_name(c) for c in hidden if card_name(c) in joined]
                assert not named, (conn, named, message)
        super().feed(outputs)


def test_no_hidden_card_in_any_frame_of_a_whole_race() -> None:
    h = ScanningHarness()
    h.room(PLAYERS[0], preset="classic", time_limit=120, undo="full", hints=True)
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


# ---------------------------------------------------------------- other racers' secrets
class SecretsHarness(Harness):
    """Records, per recipient, every card named in a frame while it was still face down on
    the board of a racer other than that recipient who was still playing (and not one the
    recipient, racing the same deal, has turned on their own board)."""

    def __init__(self, deal: int) -> None:
        super().__init__(deals=itertools.repeat(deal))
        self.learned: dict[str, set[str]] = {}  # recipient player id -> hidden cards received
        self.frames = 0

    def feed(self, outputs: list[Output]) -> None:
        from scorpion.race import Send

        room = self.referee.rooms.get("room1")
        for output in outputs:
            if not isinstance(output, Send) or room is None or room.phase != "racing":
                continue
            texts, _ = strings_and_numbers(output.message)
            shown = {card for text in texts for card in CARD.findall(text)}
            for conn in output.conns:
                self.frames += 1
                viewer = room.core.members.by_conn[conn].id
                secret: set[str] = set()
                for pid, racer in room.racers.items():
                    if pid != viewer and racer.playing:
                        secret |= hidden_texts(racer.game)
                own = room.racers.get(viewer)
                if own is not None:  # the same deal: what a racer turned, they know
                    secret -= visible(own.game)
                self.learned.setdefault(viewer, set()).update(shown & secret)
        super().feed(outputs)


def uneven_race(deal: int, steps: int) -> SecretsHarness:
    """Ada plays every step (turning cards, dealing the stock), Bo every seventh, Cy never;
    Bo's second account ("b2") follows Ada, Di follows Bo, Eve follows Ada and then Bo."""
    h = SecretsHarness(deal)
    players = [Player("a", "Ada"), Player("b", "Bo"), Player("c", "Cy")]
    h.room(players[0], preset="classic", time_limit=0, undo="full")
    racers = {p.id: h.connect(p, room="room1") for p in players}
    for client in racers.values():
        client.command("join", **{"as": "player"})
        client.command("ready")
    racers["a"].command("start")
    second = h.connect(Player("b2", "Bo again"), room="room1")
    di = h.connect(Player("d", "Di"), room="room1")
    eve = h.connect(Player("e", "Eve"), room="room1")
    h.advance(3)
    assert second.command("follow", player="a")["type"] == "applied"
    assert di.command("follow", player="b")["type"] == "applied"
    assert eve.command("follow", player="a")["type"] == "applied"
    games = {pid: Game.new(deal, "classic") for pid in racers}
    rng = random.Random(13)

    def play(pid: str) -> None:
        game = games[pid]
        moves = game.legal_moves()
        if not moves:
            return
        turning = [m for m in moves if m.card is not None and turns(game, m)]
        move = turning[0] if turning else rng.choice(moves)
        if game.stock and rng.random() < 0.05:
            move = next((m for m in moves if str(m) == "deal"), move)
        assert racers[pid].command("move", move=str(move))["type"] == "applied"
        game.play(move)

    for step in range(steps):
        h.advance(0.5)
        if not games["a"].over:
            play("a")
        if step % 7 == 6 and not games["b"].over:
            play("b")
        if step == steps // 2:  # Eve switches, and a follower reconnects mid-race
            eve.command("follow", player="b")
            second.disconnect()
            second = h.connect(Player("b2", "Bo again"), room="room1", last_version=1)
    return h


def turns(game: Game, move: object) -> bool:
    """Whether ``move`` uncovers a face-down card."""
    card = getattr(move, "card", None)
    for j, col in enumerate(game.columns):
        d = game.down[j]
        if d and card in col[d:] and col.index(card) == d:
            return True
    return False


def test_a_second_account_following_the_leader_learns_no_hidden_card() -> None:
    h = uneven_race(UNEVEN_DEAL, 120)
    learned = h.learned.get("b2", set())
    print(f"hidden cards learned by the second account following the leader: {len(learned)}")
    assert h.frames > 200
    assert not learned, f"the follower learned {len(learned)} hidden cards: {sorted(learned)}"
    for viewer in ("d", "e", "a", "b", "c"):
        assert not h.learned.get(viewer), (viewer, h.learned[viewer])


# ---------------------------------------------------------------- the quick race, rated rooms
def race_out(h: ScanningHarness, racers: list[Client], steps: int) -> None:
    """Each racer plays random legal moves (its own replica of the deal), then all give up;
    no frame before the results names the deal dealt (the winnable search's, not DEAL)."""
    rng = random.Random(7)
    deal = h.referee.rooms["room1"].deal
    games = {c.player.id: Game.new(deal, "classic") for c in racers}
    for step in range(steps):
        h.advance(0.25)
        client = racers[step % len(racers)]
        game = games[client.player.id]
        moves = game.legal_moves()
        if moves and not game.over:
            move = rng.choice(moves)
            assert client.command("move", move=str(move))["type"] == "applied"
            game.play(move)
    for client in racers:
        client.command("give-up")
    ends = next(i for i, (_, m) in enumerate(h.sent) if m.get("event") == "results")
    for _, message in h.sent[:ends]:
        texts, numbers = strings_and_numbers(message)
        assert deal not in numbers and not any(str(deal) in t for t in texts), message


def test_no_hidden_card_nor_the_deal_in_a_quick_race_its_rating_or_a_league() -> None:
    """A quick race (seats, the winnable search, its start by itself) watched by a stranger
    and a racer's second account; then its rating and a league round's points."""
    h = ScanningHarness()
    seats = QuickSeats(tuple(p.id for p in PLAYERS), h.now + ARRIVAL)
    h.feed(h.referee.create_room("room1", PLAYERS[0], quick_settings("classic"), h.now, seats))
    watchers = [h.connect(p, room="room1") for p in WATCHERS]
    racers = [h.connect(p, room="room1") for p in PLAYERS]  # seated as they come: dealt
    h.advance(3)
    assert h.referee.rooms["room1"].phase == "racing"
    assert watchers[0].command("follow", player="a")["type"] == "applied"
    race_out(h, racers, 150)
    assert h.revealed and h.frames > 300
    shown = {p.id: {"before": 1000, "after": 990, "change": -10} for p in PLAYERS}
    h.feed(h.referee.rated_round("room1", 1, shown))  # type: ignore[arg-type]
    assert watchers[1].events("rated")[-1]["ratings"] == shown
    results = watchers[0].events("results")[-1]
    assert results["deal"] == str(h.referee.rooms["room1"].deal)  # public once over


def test_no_hidden_card_nor_the_deal_while_a_rated_league_room_searches_its_deal() -> None:
    h = ScanningHarness()
    h.hold_searches = True  # the room says it is dealing while the search runs
    h.room(PLAYERS[0], deal="winnable", rated=True, league=True, undo="fair")
    racers = [h.connect(p, room="room1") for p in PLAYERS[:2]]
    watcher = h.connect(WATCHERS[0], room="room1")
    for client in racers:
        client.command("join", **{"as": "player"})
        client.command("ready")
    racers[0].seq += 1  # answered once the deal is found
    start = {"type": "start", "seq": racers[0].seq}
    h.feed(h.referee.receive(racers[0].conn, start, h.now))
    assert watcher.events("dealing")[-1]["until"] is not None
    h.hold_searches = False
    h.answer_search()
    h.advance(3)
    race_out(h, racers, 120)
    assert h.revealed
    h.feed(h.referee.league_round("room1", 1, {"a": 10, "b": 7}))
    assert watcher.events("league-points")[-1]["points"] == {"a": 10, "b": 7}
