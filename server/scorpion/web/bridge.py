"""Drives the referee's outputs: persist first, then send, close and search, in order.

The referee is synchronous (sans-I/O). After every call into it the outputs go to
:meth:`Bridge.run` with no ``await`` in between, so the store receives records in
the order the referee made them. Each batch's records are committed (one
transaction, grouped with other batches by the store) before any of its messages
is sent; batches are sent in the order they were made, so room versions arrive in
order even when a later batch had nothing to write.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable, Sequence

import orjson

from scorpion.hub import Hub
from scorpion.race import (
    AutoSearch,
    Close,
    DealSearch,
    GameResult,
    HintSearch,
    Output,
    Persist,
    Referee,
    SearchRequest,
    Send,
)
from scorpion.race.protocol import SERVER_ERROR, game_id
from scorpion.race.records import RoundFinished, RoundStarted
from scorpion.store import AppendLog, CloseRoom, Fenced, OpenRoom, Store, Write

from .metrics import Metrics
from .records import RecordWriter, is_move, log_key, place_of

log = logging.getLogger("scorpion.web")

Closer = Callable[[int, int, str], None]  # (conn, code, reason)
TICK_SLACK = 0.005  # seconds a timer may fire late (see Bridge.timers)


class Bridge:
    def __init__(
        self,
        referee: Referee,
        store: Store,
        hub: Hub,
        metrics: Metrics,
        *,
        close: Closer,
        search: Callable[[SearchRequest], object],
        failed: Callable[[set[str]], None] = lambda keys: None,
        finished: Callable[[str], None] = lambda game_id: None,
        round_finished: Callable[[RoundFinished], None] = lambda record: None,
        round_started: Callable[[RoundStarted], None] = lambda record: None,
    ) -> None:
        self.referee = referee
        self.finished = finished  # a game row was committed finished (its id): analyse it
        self.round_finished = round_finished  # a round's results were committed: rate it
        self.round_started = round_started  # a round's start was committed: unqueue its racers
        self.search = search
        self.failed = failed  # the logs (rooms, dailies, practices) a write failed for
        self.store = store
        self.hub = hub
        self.metrics = metrics
        self.close = close
        self.shards = referee.config.daily_shards
        self.writer = RecordWriter(referee.room_settings, self.shards)
        self._tail: asyncio.Future[None] | None = None
        self._wake = asyncio.Event()
        # The time the timers wait until (None: no deadline, 0: they are not waiting).
        self._waits_for: float | None = 0.0
        self.failures = 0
        # With several processes: the fence each write of a place carries (its lease token).
        self.fence: Callable[[str], Write] | None = None

    async def run(self, outputs: Sequence[Output]) -> None:
        """Persist, then send/close. Call it right after the referee call that made ``outputs``."""
        self._wake_timers()
        if not outputs:
            return
        writes: list[Write] = []
        moves = 0
        for out in outputs:
            if isinstance(out, Persist):
                writes.extend(self.writer.writes(out.record))
                moves += is_move(out.record)
        for w in writes:
            # A daily's or a practice's log is "reopened" by each of its writes (usually
            # a no-op): only a room's opening and closing are worth a line.
            if isinstance(w, (OpenRoom, CloseRoom)) and not (isinstance(w, OpenRoom) and w.reopen):
                log.info("room %s %s", w.room_id, "opened" if isinstance(w, OpenRoom) else "closed")
        if writes and self.fence is not None:
            places = {w.room_id for w in writes if isinstance(w, AppendLog | CloseRoom | OpenRoom)}
            writes[:0] = [self.fence(place) for place in sorted(places)]
        previous, done = self._tail, asyncio.get_running_loop().create_future()
        self._tail = done
        try:
            if writes:
                started = time.perf_counter()
                await self.store.write(writes)  # queued before any other await: order kept
                self.metrics.store_write_seconds.observe(time.perf_counter() - started)
            if previous is not None and not previous.done():
                await asyncio.shield(previous)
            self.metrics.moves.inc(moves)
            self._deliver(outputs)
            for out in outputs:
                if not isinstance(out, Persist):
                    continue
                rec = out.record
                if isinstance(rec, GameResult):
                    self.finished(game_id(place_of(rec), rec.round, rec.player))
                elif isinstance(rec, RoundFinished):
                    self.round_finished(rec)
                elif isinstance(rec, RoundStarted):
                    self.round_started(rec)
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            # Not written, so not acknowledged: tell the clients concerned and let them retry.
            self.failures += 1
            if isinstance(exc, Fenced):  # expected: the place is another process's now
                log.warning(
                    "%d records not written: %s; closing their connections", len(writes), exc
                )
            else:
                log.exception(
                    "could not persist %d records; closing their connections", len(writes)
                )
            for conn in {c for out in outputs if isinstance(out, Send) for c in out.conns}:
                self.close(conn, SERVER_ERROR, "server error: not saved, reconnect")
            # The referee has applied what the store did not keep: those places are rebuilt
            # from their logs (what is written) before anyone plays on them again.
            failed = {
                log_key(out.record, self.shards) for out in outputs if isinstance(out, Persist)
            }
            self.failed(failed)
        finally:
            if not done.done():
                done.set_result(None)
            if self._tail is done:
                self._tail = None

    async def settled(self) -> None:
        """Wait until every write queued so far is committed (or failed): what the referee
        applied before this call is in the store, or was never acknowledged."""
        while (tail := self._tail) is not None and not tail.done():
            await asyncio.shield(tail)

    def _deliver(self, outputs: Sequence[Output]) -> None:
        for out in outputs:
            if isinstance(out, Send):
                message = out.message
                if message.get("type") == "refused":
                    self.metrics.refused.labels(str(message.get("code"))).inc()
                encoded = out.encoded if out.encoded is not None else orjson.dumps(message)
                self.hub.send(out.conns, encoded.decode())
            elif isinstance(out, Close):
                self.close(out.conn, out.code, out.reason)
            elif isinstance(out, HintSearch | AutoSearch | DealSearch):
                self.search(out)

    def _wake_timers(self) -> None:
        """Wake :meth:`timers` if the referee's next deadline comes before the one it waits
        for (not on every batch: a wake-up is a turn of its task)."""
        deadline = self.referee.next_deadline()
        if deadline is not None and (self._waits_for is None or deadline < self._waits_for):
            self._wake.set()

    async def timers(self) -> None:
        """Call ``referee.tick`` whenever its next deadline comes (woken by every batch).

        A tick waits up to ``TICK_SLACK`` past the deadline, so that rooms whose deadlines
        fall close together (progress announcements, ten a second per busy room) share
        one tick rather than each waking the loop."""
        while True:
            deadline = self.referee.next_deadline()
            now = time.time()
            if deadline is not None and deadline <= now:
                try:
                    outputs = self.referee.tick(now)
                except Exception:
                    log.exception("referee.tick failed")
                    outputs = []
                await self.run(outputs)
                if self.referee.next_deadline() == deadline:
                    await asyncio.sleep(0.05)  # a deadline tick did not clear: never spin
                continue
            self._wake.clear()
            timeout = None if deadline is None else min(deadline - now + TICK_SLACK, 60.0)
            self._waits_for = None if timeout is None else now + timeout
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(timeout):  # no task per wait, unlike wait_for
                    await self._wake.wait()
            self._waits_for = 0.0  # awake: nothing to wake

    async def drain(self, timeout: float = 10.0) -> None:
        """Wait until every batch handed to :meth:`run` has been written and sent (bounded:
        a shutdown must end even if the disk hangs)."""
        deadline = time.monotonic() + timeout
        while self._tail is not None and time.monotonic() < deadline:
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(asyncio.shield(self._tail), deadline - time.monotonic())
