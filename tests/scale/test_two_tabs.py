"""A player's two tabs on two processes play one game (a daily attempt, a practice): the
owner of the place applies both tabs' commands in one order, so the game never forks."""

from __future__ import annotations

import datetime as dt

from scorpion.engine import Game, apply_action
from scorpion.race.daily import daily_seed
from scorpion_dev.server import Api, Client
from scorpion_dev.views import fair_view

from .conftest import Cluster


async def test_two_tabs_on_two_processes_never_fork_a_daily_attempt(
    cluster: Cluster, api: Api
) -> None:
    day = dt.datetime.now(dt.UTC).date().isoformat()
    deal = daily_seed(b"test-secret", day)
    _, token = await api.new_player("Ann")
    s0, s1, s2 = cluster.servers
    tab_a, tab_b = await Client.connect(s1.ws_url, "a"), await Client.connect(s2.ws_url, "b")
    assert (await tab_a.hello(token, daily=day))["type"] == "welcome"
    assert (await tab_a.call("start"))["type"] == "applied"
    assert (await tab_b.hello(token, daily=day))["last_seq"] == 1
    tab_b.seq = 1  # the tabs share the player's seq sequence: b goes after a's next one

    game = Game.new(deal, "classic")
    for _ in range(5):
        moves = [str(m) for m in game.legal_moves()]
        # Both tabs send a move for the same position at once (different when possible).
        first, second = moves[0], moves[-1]
        tab_a.seq, tab_b.seq = tab_a.seq + 1, tab_a.seq + 2
        await tab_a.send({"type": "move", "seq": tab_a.seq, "move": first})
        await tab_b.send({"type": "move", "seq": tab_b.seq, "move": second})
        answers = [await tab_a.answer(tab_a.seq), await tab_b.answer(tab_b.seq)]
        applied = sorted(
            (a for a in answers if a["type"] == "applied"), key=lambda a: a["view"]["moves"]
        )
        assert applied, answers
        for answer in applied:  # in the owner's order, each on the board the other left
            apply_action(game, answer["move"])
            assert answer["view"] == fair_view(game)
        tab_a.seq = tab_b.seq

    # A third tab, on the third process, sees that one game.
    tab_c = await Client.connect(s0.ws_url, "c")
    welcome = await tab_c.hello(token, daily=day)
    assert welcome["view"] == fair_view(game)
    for tab in (tab_a, tab_b, tab_c):
        await tab.close()


async def test_a_practice_has_one_owner_whichever_process_its_tabs_reach(
    cluster: Cluster, api: Api
) -> None:
    _, token = await api.new_player("Pia")
    s0, s1, s2 = cluster.servers
    tab_a, tab_b = await Client.connect(s1.ws_url, "a"), await Client.connect(s2.ws_url, "b")
    assert (await tab_a.hello(token, practice=True))["state"]["game"] is None
    dealt = await tab_a.call("new-deal", preset="classic")
    assert dealt["type"] == "applied", dealt
    game = Game.new(int(dealt["deal"]), "classic")

    welcome = await tab_b.hello(token, practice=True)  # forwarded to the practice's owner
    assert welcome["state"]["game"]["deal"] == dealt["deal"] and welcome["view"] == game.view()
    for tab in (tab_b, tab_a, tab_b):  # each move on the board the other tab left
        tab.seq = max(tab_a.seq, tab_b.seq, welcome["last_seq"])
        move = str(game.legal_moves()[0])
        answer = await tab.call("move", move=move)
        assert answer["type"] == "applied", answer
        apply_action(game, move)
        assert answer["view"] == game.view()

    # Its owner (s1, reached first) gone with kill -9: a tab on the third process takes the
    # practice over from its log, the game in hand as it was.
    s1.kill()
    tab_c = await Client.connect(s0.ws_url, "c")
    welcome = await tab_c.hello(token, practice=True, timeout=30)
    assert welcome["type"] == "welcome" and welcome["view"] == game.view(), welcome
    tab_c.seq = welcome["last_seq"]
    assert (await tab_c.call("give-up"))["status"] == "gave-up"
    for tab in (tab_a, tab_b, tab_c):
        await tab.close()
