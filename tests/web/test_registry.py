"""The connection registry, directly: limits per address, silent sockets swept on time."""

from __future__ import annotations

from scorpion.web.registry import Registry


class FakeConn:
    def __init__(self, conn_id: int, last_seen: float, player: str = "p") -> None:
        self.id = conn_id
        self.last_seen = last_seen
        self.player = player
        self.closed: tuple[int, str] | None = None

    @property
    def closing(self) -> bool:
        return self.closed is not None

    def close(self, code: int, reason: str = "") -> None:
        self.closed = (code, reason)


def test_limits_per_address_and_in_all() -> None:
    registry = Registry(max_connections=3, max_per_address=2)
    conns = [FakeConn(registry.new_id(), 0.0) for _ in range(3)]
    registry.add(conns[0], "a")  # type: ignore[arg-type]
    registry.add(conns[1], "a")  # type: ignore[arg-type]
    assert not registry.admits("a") and registry.admits("b")
    registry.add(conns[2], "b")  # type: ignore[arg-type]
    assert not registry.admits("c")  # the process is full
    registry.remove(conns[0], "a")  # type: ignore[arg-type]
    assert registry.admits("a") and registry.count == 2
    assert len({c.id for c in conns}) == 3


def test_silent_sockets_are_closed_and_only_they() -> None:
    registry = Registry(10, 10)
    quiet, chatty = FakeConn(1, 100.0, "q"), FakeConn(2, 150.0, "c")
    registry.add(quiet, "a")  # type: ignore[arg-type]
    registry.add(chatty, "a")  # type: ignore[arg-type]
    assert registry.close_silent(60.0, now=159.9) == 0
    assert registry.close_silent(60.0, now=160.0) == 1
    assert quiet.closed == (4010, "silent for 60 s: send ping") and chatty.closed is None
    registry.close_player("c", 4001, "player deleted")
    assert chatty.closed == (4001, "player deleted")
