"""A device signed out on one process is signed out on every process at once: the hub
tells the others, which forget the token they cached and close its sockets (4001)."""

from __future__ import annotations

from scorpion_dev.server import Api, Client

from .conftest import Cluster


async def test_a_sign_out_on_one_process_reaches_the_others(cluster: Cluster) -> None:
    s0, s1, s2 = cluster.servers
    async with Api(s0.url) as a0, Api(s1.url) as a1, Api(s2.url) as a2:
        _, laptop = await a0.new_player("Ann")
        code = (await a0.call("POST", "/api/me/device-code", laptop)).json()["code"]
        phone = (await a1.call("POST", "/api/devices/claim", body={"code": code})).json()["token"]
        sockets = []
        for server, api in ((s1, a1), (s2, a2)):  # the phone's token cached on both
            assert (await api.call("GET", "/api/me", phone)).status_code == 200
            socket = await Client.connect(server.ws_url, "phone")
            assert (await socket.hello(phone, practice=True))["type"] == "welcome"
            sockets.append(socket)
        devices = (await a0.call("GET", "/api/me/devices", laptop)).json()["devices"]
        (phone_id,) = [d["id"] for d in devices if not d["this_device"]]
        r = await a0.call("DELETE", f"/api/me/devices/{phone_id}", laptop)
        assert r.json()["signed_out"] == 1
        # Each process closes its own socket of the phone, after forgetting its token.
        assert [(await s.closed())[0] for s in sockets] == [4001, 4001]
        for api in (a0, a1, a2):
            assert (await api.call("GET", "/api/me", phone)).status_code == 401
            assert (await api.call("GET", "/api/me", laptop)).status_code == 200
