"""Drives the referee's outputs: persist first, then send, close and search, in order.

The referee is synchronous (sans-I/O). After every call into it the outputs go to
:meth:`Bridge.submit` (or :meth:`Bridge.run`, which waits for them) with no ``await`` in
between, so they are queued in the order the referee made them. Outputs with records wait
in the open :class:`Batch`; one flusher writes a batch (each call's records all or nothing,
every call's in one commit: :meth:`~scorpion.store.base.Store.write_each`), then sends
its outputs in order, then takes the next batch. Outputs with nothing to write, behind a
batch, wait in it too, so room versions arrive in order; with nothing ahead of them they
are sent at once.

A command's reader does not wait for its batch (unless the batch is full: the store has
fallen behind): it goes back to its socket, and a busy server keeps one coroutine, one
future and one wake-up per batch rather than per command. The connection's next command
is applied only once the batch is done (web/ws.py).
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
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
BATCH_MOST = 5_000  # calls a batch takes before their readers wait for it (backpressure)


class Queued:
    """One call's outputs waiting in a batch: its records' writes, and when it arrived
    (``time.perf_counter``, a command's: its acknowledgement time is observed when sent)."""

    __slots__ = ("arrived", "outputs", "writes")

    def __init__(self, outputs: Sequence[Output], writes: list[Write], arrived: float | None):
        self.outputs, self.writes, self.arrived = outputs, writes, arrived


class Batch:
    """The calls committed together and then sent, in order; ``done`` once they are."""

    __slots__ = ("done", "queued")

    def __init__(self) -> None:
        self.queued: list[Queued] = []
        self.done: asyncio.Future[None] = asyncio.get_running_loop().create_future()

    @property
    def full(self) -> bool:
        return len(self.queued) >= BATCH_MOST


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
        self._open: Batch | None = None  # the batch new calls join
        self._committing: Batch | None = None  # the batch being written
        self._flusher: asyncio.Task[None] | None = None
        self._wake = asyncio.Event()
        # The time the timers wait until (None: no deadline, 0: they are not waiting).
        self._waits_for: float | None = 0.0
        self.failures = 0
        # With several processes: the fence each write of a place carries (its lease token).
        self.fence: Callable[[str], Write] | None = None

    def submit(self, outputs: Sequence[Output], arrived: float | None = None) -> Batch | None:
        """Queue ``outputs`` (call it right after the referee call that made them): written,
        then sent after everything queued before. The batch they wait in, or None when
        they were sent at once (nothing to write, nothing ahead)."""
        self._wake_timers()
        if not outputs:
            return None
        writes = self._writes(outputs)
        if not writes and self._open is None and self._committing is None:
            self._sent(Queued(outputs, writes, arrived))
            return None
        batch = self._open
        if batch is None:
            batch = self._open = Batch()
        batch.queued.append(Queued(outputs, writes, arrived))
        if self._flusher is None or self._flusher.done():
            # A context of its own: its log lines are no one caller's (web/logs.py's ids).
            self._flusher = asyncio.create_task(
                self._flush(), name="scorpion-bridge", context=contextvars.Context()
            )
        return batch

    async def run(self, outputs: Sequence[Output]) -> None:
        """:meth:`submit`, then wait until ``outputs`` are written and sent (or refused)."""
        batch = self.submit(outputs)
        if batch is not None:
            await asyncio.shield(batch.done)

    def _writes(self, outputs: Sequence[Output]) -> list[Write]:
        writes: list[Write] = []
        for out in outputs:
            if isinstance(out, Persist):
                writes.extend(self.writer.writes(out.record))
        if not writes:
            return writes
        for w in writes:
            # A daily's or a practice's log is "reopened" by each of its writes (usually
            # a no-op): only a room's opening and closing are worth a line.
            if isinstance(w, (OpenRoom, CloseRoom)) and not (isinstance(w, OpenRoom) and w.reopen):
                log.info("room %s %s", w.room_id, "opened" if isinstance(w, OpenRoom) else "closed")
        if self.fence is not None:
            places = {w.room_id for w in writes if isinstance(w, AppendLog | CloseRoom | OpenRoom)}
            writes[:0] = [self.fence(place) for place in sorted(places)]
        return writes

    async def _flush(self) -> None:
        while (batch := self._open) is not None:
            self._open, self._committing = None, batch
            try:
                await self._commit(batch)
            finally:
                self._committing = None
                if not batch.done.done():
                    batch.done.set_result(None)

    async def _commit(self, batch: Batch) -> None:
        """Write the batch's records, then send, in order, what was written or had nothing
        to write; refuse what was not (:meth:`_refuse`)."""
        writing = [queued for queued in batch.queued if queued.writes]
        refused: set[int] = set()  # ids of the Queued not written
        if writing:
            started = time.perf_counter()
            try:
                errors = await self.store.write_each([queued.writes for queued in writing])
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # the commit failed: nothing of the batch was written
                self._log_refusal(sum(len(queued.writes) for queued in writing), exc)
                refused = set(map(id, writing))
            else:
                self.metrics.store_write_seconds.observe(time.perf_counter() - started)
                for queued, error in zip(writing, errors, strict=True):
                    if error is not None:
                        self._log_refusal(len(queued.writes), error)
                        refused.add(id(queued))
        failed: set[str] = set()
        for queued in batch.queued:
            try:
                if id(queued) in refused:
                    failed |= self._refuse(queued)
                else:
                    self._sent(queued)
            except Exception:  # a bug in one call's outputs: the others still go out
                log.exception("could not send the outputs of a call")
        if failed:
            # The referee has applied what the store did not keep: those places are rebuilt
            # from their logs (what is written) before anyone plays on them again.
            self.failed(failed)

    def _sent(self, queued: Queued) -> None:
        """Send what was written (or had nothing to write), then what follows a commit."""
        moves = 0
        self._deliver(queued.outputs)
        for out in queued.outputs:
            if not isinstance(out, Persist):
                continue
            rec = out.record
            moves += is_move(rec)
            if isinstance(rec, GameResult):
                self.finished(game_id(place_of(rec), rec.round, rec.player))
            elif isinstance(rec, RoundFinished):
                self.round_finished(rec)
            elif isinstance(rec, RoundStarted):
                self.round_started(rec)
        if moves:
            self.metrics.moves.inc(moves)
        if queued.arrived is not None:
            self.metrics.ack_seconds.observe(time.perf_counter() - queued.arrived)

    def _refuse(self, queued: Queued) -> set[str]:
        """Not written, so not acknowledged: close the connections it would have told (they
        reconnect and retry); the logs it was for."""
        self.failures += 1
        for conn in {c for out in queued.outputs if isinstance(out, Send) for c in out.conns}:
            self.close(conn, SERVER_ERROR, "server error: not saved, reconnect")
        if queued.arrived is not None:
            self.metrics.ack_seconds.observe(time.perf_counter() - queued.arrived)
        return {
            log_key(out.record, self.shards) for out in queued.outputs if isinstance(out, Persist)
        }

    @staticmethod
    def _log_refusal(records: int, exc: Exception) -> None:
        if isinstance(exc, Fenced):  # expected: the place is another process's now
            log.warning("%d records not written: %s; closing their connections", records, exc)
        else:
            log.error(
                "could not persist %d records; closing their connections", records, exc_info=exc
            )

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

    def _last(self) -> Batch | None:
        """The batch done last: the open one, else the one being written."""
        return self._open if self._open is not None else self._committing

    async def settled(self) -> None:
        """Wait until every write queued so far is committed (or failed): what the referee
        applied before this call is in the store, or was never acknowledged."""
        while (batch := self._last()) is not None:
            await asyncio.shield(batch.done)

    async def drain(self, timeout: float = 10.0) -> None:
        """Wait until every batch queued has been written and sent (bounded: a shutdown
        must end even if the disk hangs)."""
        deadline = time.monotonic() + timeout
        while (batch := self._last()) is not None and time.monotonic() < deadline:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(asyncio.shield(batch.done), deadline - time.monotonic())
