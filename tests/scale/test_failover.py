"""kill -9 of the process owning a race and today's daily: the others take its places over
from the log; every player reconnects through nginx and plays on, nothing acknowledged lost."""

from __future__ import annotations

from scorpion_dev.failover import MOVES, kill_round
from scorpion_dev.server import Api

from .conftest import Cluster


async def test_kill_9_of_an_owner_moves_its_race_and_daily_to_the_others(
    cluster: Cluster, api: Api
) -> None:
    target, players = await kill_round(cluster.servers, cluster.ws_url, api, cluster.database, "1")
    assert not target.running
    for player in players:
        assert player.resumed_after is not None
        welcome = player.welcomes[-1]
        assert welcome["you"]["role"] == "player", welcome["you"]
        # The new owner rebuilt the place from its log: the client rebuilds from the state.
        assert welcome["recovered"] is False and welcome["events"] == []
        # MOVES before the kill and one after, each applied exactly once.
        assert len(player.replica.game.log) == MOVES + 1
    # The killed process comes back and takes a share of the places again.
    target.start()
    _, again = await kill_round(cluster.servers, cluster.ws_url, api, cluster.database, "2")
    assert all(p.resumed_after is not None for p in again)
