"""A day's daily split in shards (``daily:<date>:<shard>`` by a hash of the player), held
by two "processes" (two referees on one fake clock): one ranked attempt per player and day
when a shard moves, the day's closing on every shard, "playing now" merged across shards."""

from __future__ import annotations

import json

from scorpion.race import GameResult, Player, Record, record_from_dict
from scorpion.race.daily import RANKED_LIMIT, closes_at, utc_date
from scorpion.race.daily_feed import STALE_PARTS, TOP_LIVE
from scorpion.race.protocol import player_daily_key, shard_numbers, shard_of, shard_of_key
from scorpion.web.records import log_key

from .harness import T0, Client, Harness

SHARDS = 2
TODAY = utc_date(T0)
# Players of both shards (shard_of is a stable hash: the same on every process and day).
PLAYERS = [Player(f"p{i}", f"P{i}") for i in range(12)]
NUMBERS = shard_numbers(SHARDS)  # the shards' numbers (chosen for the proxy), by index
ON = {i: [p for p in PLAYERS if shard_of(p.id, SHARDS) == n] for i, n in enumerate(NUMBERS)}


class Cluster:
    """Two processes: ``held[n]`` is the harness owning shard number ``n`` (the lease's
    holder)."""

    def __init__(self) -> None:
        self.a, self.b = Harness(daily_shards=SHARDS), Harness(daily_shards=SHARDS)
        self.held = {NUMBERS[0]: self.a, NUMBERS[1]: self.b}

    def connect(self, player: Player) -> Client:
        """What routing does: the socket reaches the owner of the player's shard."""
        return self.held[shard_of(player.id, SHARDS)].connect(player, daily=TODAY)

    def advance(self, seconds: float) -> None:
        for h in (self.a, self.b):
            h.advance(seconds)

    def records(self) -> list[Record]:
        return [*self.a.records, *self.b.records]


def shard_log(records: list[Record], shard: int) -> list[Record]:
    """One shard's log as the store keeps it (each record under its log key), through JSON."""
    key = f"daily:{TODAY}:{shard}"
    return [
        record_from_dict(json.loads(json.dumps(r.to_dict())))
        for r in records
        if log_key(r, SHARDS) == key
    ]


def test_both_shards_hold_players_and_their_keys_name_them() -> None:
    assert ON[0] and ON[1]  # the hash spreads even a dozen players over both shards
    for player in PLAYERS:
        key = player_daily_key(TODAY, player.id, SHARDS)
        assert shard_of_key(key) == shard_of(player.id, SHARDS)
    assert player_daily_key(TODAY, "p0", 1) == f"daily:{TODAY}"  # not split: as before


def test_a_shard_moving_to_another_process_keeps_one_ranked_attempt_per_player() -> None:
    c = Cluster()
    ada, bo = ON[0][0], ON[1][0]
    a, b = c.connect(ada), c.connect(bo)
    assert a.command("start")["ranked"] is True and b.command("start")["ranked"] is True
    c.advance(5)
    a.command("deal")
    # Shard 0 moves from A to B (a hand-back): A forgets it, B takes it from its log.
    conns = c.a.referee.forget(f"daily:{TODAY}:{NUMBERS[0]}")
    assert conns == [a.conn]
    assert c.a.referee.dailies[TODAY].attempts == {}  # nothing of shard 0 left on A
    c.b.feed(c.b.referee.restore(shard_log(c.records(), NUMBERS[0]), c.b.now))
    c.held[NUMBERS[0]] = c.b
    back = c.connect(ada)  # on B now, with her attempt and its deal
    back.seq = 10  # the client's seqs go on (those answered are known from the log)
    state = back.inbox[0]["state"]
    assert state["attempt"]["ranked"] is True and state["attempt"]["moves"] == 1  # type: ignore[index]
    again = back.command("start")
    assert again["resumed"] is True and again["attempt"] == 1
    back.command("give-up")
    second = back.command("start")  # a second attempt: unranked, however the shard moved
    assert (second["ranked"], second["attempt"]) == (False, 2)
    assert b.command("start")["resumed"] is True  # Bo's shard was not touched
    ranked = [r for r in c.records() if isinstance(r, GameResult) and r.ranked]
    assert [r.player for r in ranked] == [ada.id]


def test_the_day_closes_on_every_shard() -> None:
    c = Cluster()
    clients = [c.connect(ON[0][0]), c.connect(ON[1][0])]
    for client in clients:
        assert client.command("start")["ranked"] is True
    c.advance(RANKED_LIMIT)  # every ranked attempt times out at its limit, on both processes
    for client in clients:
        assert client.command("deal")["code"] == "finished"
    timed_out = [r.status for r in c.records() if isinstance(r, GameResult)]
    assert timed_out == ["timed-out", "timed-out"]
    for h in (c.a, c.b):
        h.now = closes_at(TODAY)  # the day closed: help on the deal is allowed everywhere
    late = [c.connect(ON[0][1]), c.connect(ON[1][1])]
    for client in late:
        started = client.command("start")
        assert (started["ranked"], started["hints_allowed"]) == (False, True)


def test_playing_now_merges_the_shards_and_stays_bounded_per_socket() -> None:
    c = Cluster()
    every = c.a.referee.daily(TODAY, c.a.now).feed.every
    watchers = {s: [c.connect(p) for p in ON[s]] for s in range(SHARDS)}
    for s in range(SHARDS):
        for client in watchers[s]:
            client.command("start")
    for client in watchers[0]:  # shard 0's players deal: fewer moves rank first, so the
        client.command("deal")  # best attempts going on are all on shard 1
    frames_before = {cl.conn: len(cl.events("playing")) for cl in watchers[0]}
    for _ in range(10):  # each owner tells the other its part every event (over Redis)
        c.advance(every)
        for here, there, name in ((c.a, c.b, "a"), (c.b, c.a, "b")):
            part = here.referee.dailies[TODAY].feed.playing_part()
            there.referee.hear_playing(TODAY, name, part, there.now)
    c.advance(every)
    merged = watchers[0][0].events("playing")[-1]["playing"]
    assert merged["count"] == len(PLAYERS)  # type: ignore[index]
    live = [a for h in (c.a, c.b) for a in h.referee.dailies[TODAY].live.values()]
    best = sorted(live, key=lambda a: (a.live_key(), a.player.id))[:TOP_LIVE]
    shown = [e["player"] for e in merged["top"]]  # type: ignore[index]
    assert shown == [a.player.id for a in best]
    assert {p.id for p in ON[1]} >= set(shown[: len(ON[1])])  # shard 1's, seen on shard 0
    # Frames per socket stay bounded: at most one ``playing`` event per ``every``.
    for cl in watchers[0]:
        assert len(cl.events("playing")) - frames_before[cl.conn] <= 11
    # A silent owner's part goes: B stops telling A, whose count falls back to its own.
    c.advance(every * (STALE_PARTS + 2))
    alone = watchers[0][0].events("playing")[-1]["playing"]
    assert alone["count"] == len(ON[0])  # type: ignore[index]


def test_a_linked_players_ranked_attempt_on_another_shard_makes_this_one_unranked() -> None:
    c = Cluster()
    ada, bo = ON[0][0], ON[1][0]
    # Bo shares a device with Ada, whose ranked attempt is on the other shard: the web layer
    # read it from the store at Bo's hello (ranked_linked); his shard alone cannot see it.
    a = c.connect(Player(ada.id, ada.name, linked=frozenset({bo.id})))
    assert a.command("start")["ranked"] is True
    told = Player(bo.id, bo.name, linked=frozenset({ada.id}), ranked_linked=frozenset({ada.id}))
    b = c.connect(told)
    assert (b.inbox[0]["state"]["ranked"], b.inbox[0]["state"]["unranked_reason"]) == (  # type: ignore[index]
        False,
        "linked",
    )
    assert b.command("start")["ranked"] is False
    unknown = c.connect(Player(ON[1][1].id, "Cy", linked=frozenset({ada.id})))
    assert unknown.command("start")["ranked"] is True  # nothing known: ranked (as today)
