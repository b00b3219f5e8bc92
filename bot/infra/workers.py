"""Worker processes for CPU-bound jobs: spawned, replaced when one dies, recycled when one grows too large.

Each worker has its own pipe and a thread in this process that feeds it one job at a time from a shared priority
queue. So a slow job holds one worker only, a worker that dies is noticed at once (its pipe closes) and the job it
owed is known: that job is retried once (on the next free worker), then failed with :class:`WorkerDied`, never
dropped. The standard library's ``ProcessPoolExecutor`` cannot do this: one dead worker breaks the whole pool and
fails every job in flight, and it cannot say which job killed the worker.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import ctypes
import gc
import itertools
import logging
import multiprocessing
import multiprocessing.connection
import os
import pickle
import queue
import signal
import struct
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

log = logging.getLogger("parley.workers")

#: seconds a new worker may take to start (imports and warm-up) before it counts as dead
BOOT_SECONDS = 120.0


class WorkerDied(RuntimeError):
    """The worker process running a job died (crashed, was killed or timed out), twice for the same job."""


def rss_bytes(pid: int | str = "self") -> int:
    """Resident memory of a process (Linux /proc; 0 when unknown)."""
    try:
        with open(f"/proc/{pid}/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return 0


def trim_heap() -> None:
    """Hand freed heap pages back to the system (glibc keeps them otherwise, so a big job's peak would stay).
    Well under a millisecond on the bot's heap, so it may run on the event loop."""
    with contextlib.suppress(OSError, AttributeError):  # not glibc: nothing to do
        ctypes.CDLL("libc.so.6").malloc_trim(0)


def _worker_main(conn: multiprocessing.connection.Connection, boot: Callable[[], None] | None) -> None:
    """A worker: boot, say ready, then run jobs until the pipe closes (the pool, or the whole bot, went away)."""
    # Ctrl-C reaches the whole process group; the main process shuts its workers down itself.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if boot is not None:
        try:
            boot()
        except Exception as exc:  # noqa: BLE001 - a failed warm-up only makes the first jobs slower
            log.warning("worker warm-up failed: %s", type(exc).__name__)
    # What start-up and warm-up made (modules, fonts, cached art) lives as long as the worker: kept out of the
    # collector's way, a full collection in the middle of a picture walks only what the jobs made.
    gc.collect()
    gc.freeze()
    try:
        conn.send_bytes(pickle.dumps(("ready", os.getpid())))
        while True:
            data = conn.recv_bytes()
            started = time.process_time()  # waiting for the job took no CPU; unpickling it does
            fn, args, trim = pickle.loads(data)
            del data
            try:
                reply: tuple[bool, Any] = (True, fn(*args))
            except Exception as exc:  # noqa: BLE001 - the job's failure is the caller's to handle
                reply = (False, exc)
            try:
                data = pickle.dumps(reply, pickle.HIGHEST_PROTOCOL)
            except Exception as exc:  # noqa: BLE001 - e.g. an exception that cannot be pickled
                data = pickle.dumps((False, RuntimeError(f"{type(exc).__name__} in a worker's result")))
            del reply
            if trim:
                trim_heap()
            # the job's CPU time in this process, from its arrival to its answer, rides after the answer
            conn.send_bytes(data + _CPU.pack(time.process_time() - started))
            del data
    except (EOFError, OSError):
        return  # the pool closed our pipe, or the main process died


#: the CPU seconds a worker spent on a job, appended to its answer
_CPU = struct.Struct("<d")


@dataclass(order=True)
class _Job:
    priority: int
    seq: int
    fn: Callable[..., Any] | None = field(compare=False)
    args: tuple[Any, ...] = field(compare=False, default=())
    future: concurrent.futures.Future[Any] = field(compare=False, default_factory=concurrent.futures.Future)
    timeout: float = field(compare=False, default=60.0)
    trim: bool = field(compare=False, default=False)
    retries: int = field(compare=False, default=1)
    started: bool = field(compare=False, default=False)


@dataclass
class _Slot:
    index: int
    process: multiprocessing.process.BaseProcess | None = None
    conn: multiprocessing.connection.Connection | None = None
    thread: threading.Thread | None = None
    ready: threading.Event = field(default_factory=threading.Event)


class WorkerPool:
    """``processes`` spawned workers. ``boot`` (picklable) runs in each new worker before it takes jobs;
    ``recycle_bytes``: a worker whose resident memory passed it after a job is replaced by a fresh one."""

    def __init__(
        self,
        processes: int,
        *,
        name: str = "parley-worker",
        boot: Callable[[], None] | None = None,
        recycle_bytes: int | None = None,
    ) -> None:
        if processes < 1:
            raise ValueError("a worker pool needs at least one process")
        self.processes = processes
        self.name = name
        self.boot = boot
        self.recycle_bytes = recycle_bytes
        #: workers replaced because they died, and because they grew past ``recycle_bytes``
        self.replaced = 0
        self.recycled = 0
        #: CPU seconds the workers spent on finished jobs, by priority (each job's unpickling, run and answer)
        self.cpu: dict[int, float] = {}
        self._context = multiprocessing.get_context("spawn")
        self._queue: queue.PriorityQueue[_Job] = queue.PriorityQueue()
        self._seq = itertools.count()
        self._slots = [_Slot(i) for i in range(processes)]
        self._lock = threading.Lock()
        self._started = False
        self._closing = False

    # -- the caller's side -------------------------------------------------------------------------------
    def start(self) -> None:
        """Start the workers in the background (idempotent); jobs submitted meanwhile wait for the first."""
        with self._lock:
            if self._started or self._closing:
                return
            self._started = True
            for slot in self._slots:
                slot.thread = threading.Thread(target=self._serve, args=(slot,), name=f"{self.name}-{slot.index}")
                slot.thread.daemon = True
                slot.thread.start()

    def submit(
        self, fn: Callable[..., Any], *args: Any, priority: int = 0, timeout: float = 60.0, trim: bool = False
    ) -> concurrent.futures.Future[Any]:
        """Run ``fn(*args)`` (both picklable) in a worker: lower ``priority`` first, then in order. A job still
        running after ``timeout`` seconds has its worker killed and fails. ``trim``: the job is big, give its
        memory back to the system afterwards."""
        if self._closing:
            raise RuntimeError("the worker pool is shut down")
        self.start()
        job = _Job(priority, next(self._seq), fn, args, timeout=timeout, trim=trim)
        self._queue.put(job)
        return job.future

    async def run(self, fn: Callable[..., Any], *args: Any, **options: Any) -> Any:
        return await asyncio.wrap_future(self.submit(fn, *args, **options))

    async def ready(self, timeout: float = BOOT_SECONDS) -> None:
        """Wait until every worker has started (after :meth:`start`)."""
        self.start()
        await asyncio.gather(*(asyncio.to_thread(s.ready.wait, timeout) for s in self._slots))

    def any_ready(self) -> bool:
        """Whether at least one worker has started and can take a job now."""
        return any(slot.ready.is_set() for slot in self._slots)

    def pids(self) -> list[int]:
        """The process ids of the live workers."""
        pids = []
        for slot in self._slots:
            try:
                if slot.process is not None and slot.process.pid is not None and slot.ready.is_set():
                    pids.append(slot.process.pid)
            except ValueError:
                pass  # closed by its feeder just now
        return pids

    def shutdown(self, timeout: float = 10.0) -> None:
        """Cancel the jobs not started, let running ones finish (up to ``timeout`` s), then stop every worker."""
        with self._lock:
            if self._closing:
                return
            self._closing = True
        while True:
            try:
                job = self._queue.get_nowait()
            except queue.Empty:
                break
            self._abandon(job)
        for _ in self._slots:
            self._queue.put(_Job(-1, next(self._seq), None))
        for slot in self._slots:
            if slot.thread is not None:
                slot.thread.join(timeout)
            if slot.thread is not None and slot.thread.is_alive() and slot.process is not None:
                slot.process.kill()  # a job that will not end: its thread sees the pipe close and stops
                slot.thread.join(timeout)
            self._retire(slot)

    # -- the feeding threads ---------------------------------------------------------------------------
    def _serve(self, slot: _Slot) -> None:
        """One worker's feeder: start it, hand it jobs one at a time, replace it when it dies or grows."""
        while True:
            try:
                if self._feed(slot):
                    return
            except Exception:  # noqa: BLE001 - a feeder must outlive any surprise, or its jobs would wait forever
                log.exception("%s %d: the feeder thread hit an error; carrying on", self.name, slot.index)
                threading.Event().wait(1.0)

    def _feed(self, slot: _Slot) -> bool:
        """Serve jobs until shutdown (True) or an error escapes (raised)."""
        while True:
            if slot.conn is None and not self._closing and not self._spawn(slot):
                continue
            job = self._queue.get()
            if job.fn is None:
                return True  # shutdown
            if self._closing:
                self._abandon(job)
                continue
            if not job.started:
                if not job.future.set_running_or_notify_cancel():
                    continue  # cancelled while queued
                job.started = True
            self._run(slot, job)

    def _spawn(self, slot: _Slot) -> bool:
        slot.ready.clear()
        parent, child = self._context.Pipe(duplex=True)
        process = self._context.Process(
            target=_worker_main, args=(child, self.boot), name=f"{self.name}-{slot.index}", daemon=True
        )
        try:
            process.start()
        except Exception as exc:  # noqa: BLE001 - e.g. OSError, or spawning from a module that is being imported
            log.error("%s %d could not start: %s", self.name, slot.index, type(exc).__name__)
            parent.close()
            child.close()
            threading.Event().wait(1.0)
            return False
        child.close()
        slot.process, slot.conn = process, parent
        try:
            if not parent.poll(BOOT_SECONDS):
                raise EOFError("no ready message")
            pickle.loads(parent.recv_bytes())
        except (EOFError, OSError):
            log.error("%s %d (pid %s) died while starting (exit code %s)", self.name, slot.index, process.pid,
                      process.exitcode)
            self._retire(slot)
            threading.Event().wait(1.0)  # do not spin on a worker that cannot start
            return False
        slot.ready.set()
        log.info("%s %d started (pid %s)", self.name, slot.index, process.pid)
        return True

    def _run(self, slot: _Slot, job: _Job) -> None:
        conn = slot.conn
        assert conn is not None and job.fn is not None
        try:
            payload = pickle.dumps((job.fn, job.args, job.trim), pickle.HIGHEST_PROTOCOL)
        except Exception as exc:  # noqa: BLE001 - an unpicklable job fails alone; the worker is untouched
            job.future.set_exception(exc)
            return
        try:
            conn.send_bytes(payload)
            del payload
            if not conn.poll(job.timeout):
                log.error("%s %d (pid %s) took over %g s on a job; stopping it", self.name, slot.index,
                          slot.process.pid if slot.process else None, job.timeout)
                if slot.process is not None:
                    slot.process.kill()
                self._retire(slot)
                job.future.set_exception(WorkerDied(f"the job took over {job.timeout:g} s"))
                return
            answer = conn.recv_bytes()
            (cpu,) = _CPU.unpack_from(answer, len(answer) - _CPU.size)
            with self._lock:
                self.cpu[job.priority] = self.cpu.get(job.priority, 0.0) + cpu
            ok, value = pickle.loads(memoryview(answer)[: -_CPU.size])
            del answer
        except (EOFError, OSError):
            self._died(slot, job)
            return
        except Exception as exc:  # noqa: BLE001 - a result that cannot be unpickled fails its job alone
            job.future.set_exception(exc)
            return
        if ok:
            job.future.set_result(value)
        else:
            job.future.set_exception(value)
        del value
        pid = slot.process.pid if slot.process is not None else None
        if self.recycle_bytes and pid is not None and (size := rss_bytes(pid)) > self.recycle_bytes:
            self.recycled += 1
            log.info("%s %d (pid %s) uses %d MB; replacing it with a fresh one", self.name, slot.index, pid,
                     size // 2**20)
            self._retire(slot)

    def _died(self, slot: _Slot, job: _Job) -> None:
        """The worker died during ``job``: replace it (the feeder loop starts another), retry the job once."""
        process = slot.process
        code = pid = None
        if process is not None:
            process.join(5)
            code, pid = process.exitcode, process.pid
        self._retire(slot)
        if self._closing:
            job.future.set_exception(WorkerDied("the pool was shut down"))
            return
        self.replaced += 1
        if job.retries > 0:
            job.retries -= 1
            log.error("%s %d (pid %s) died during a job (exit code %s); replacing it and retrying the job",
                      self.name, slot.index, pid, code)
            self._queue.put(job)
        else:
            log.error("%s %d (pid %s) died during a job again (exit code %s); replacing it, the job fails",
                      self.name, slot.index, pid, code)
            job.future.set_exception(WorkerDied(f"two workers died running this job (exit code {code})"))

    def _retire(self, slot: _Slot) -> None:
        """Close a worker's pipe (a live worker exits on it) and reap the process."""
        slot.ready.clear()
        if slot.conn is not None:
            slot.conn.close()
            slot.conn = None
        process, slot.process = slot.process, None
        if process is not None:
            process.join(5)
            if process.is_alive():
                process.kill()
                process.join(5)
            process.close()

    @staticmethod
    def _abandon(job: _Job) -> None:
        if job.fn is None or job.future.done():
            return
        if not job.started:
            job.future.cancel()
            job.future.set_running_or_notify_cancel()
        else:
            job.future.set_exception(WorkerDied("the pool was shut down"))
