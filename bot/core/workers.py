"""The bot's worker processes (AI thinking, drawing), spoken to from the event loop.

``Workers`` is a small process pool for asyncio: each worker is a spawned process joined to the bot
by a socket pair; a task is its function and arguments, pickled and written with its length, and
the answer comes back the same way, read by the event loop like any other socket. There is no
thread in the bot process: ``concurrent.futures.ProcessPoolExecutor`` moves every task through a
feeder thread and every answer through a manager thread, two hand-offs that each wait for the GIL
(measured in `bench/bot.py`: with a picture or two per click they were a sixth of the loop's busy
time). A worker that dies (killed, out of memory) fails its task with ``BrokenProcessPool`` and is
started afresh for the next one; a worker whose bot is gone reads the end of its socket and leaves.
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import os
import pickle
import socket
import struct
import threading
import time
from collections.abc import Callable
from concurrent.futures.process import BrokenProcessPool
from typing import Any

_HEAD = struct.Struct("!Q")


def exit_with_parent(parent: int) -> None:
    """In a worker: leave as soon as the bot process is gone (even after a SIGKILL)."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(0)

    threading.Thread(target=watch, daemon=True).start()


def _read(sock: socket.socket, n: int) -> bytes | None:
    buf = bytearray(n)
    view = memoryview(buf)
    got = 0
    while got < n:
        k = sock.recv_into(view[got:])
        if k == 0:
            return None
        got += k
    return bytes(buf)


def _serve(sock: socket.socket, initializer: Callable[..., Any] | None, initargs: tuple[Any, ...]) -> None:
    """A worker's life: set up, then answer one task at a time until the bot closes the socket."""
    if initializer is not None:
        initializer(*initargs)
    while True:
        head = _read(sock, _HEAD.size)
        if head is None:
            return
        body = _read(sock, _HEAD.unpack(head)[0])
        if body is None:
            return
        fn, args = pickle.loads(body)
        try:
            answer = (True, fn(*args))
        except BaseException as exc:  # noqa: BLE001 - the task's error goes back to the caller
            answer = (False, exc)
        try:
            data = pickle.dumps(answer, pickle.HIGHEST_PROTOCOL)
        except Exception as exc:  # noqa: BLE001 - an answer that cannot travel is an error too
            data = pickle.dumps((False, RuntimeError(f"the worker's answer cannot be pickled: {exc!r}")))
        sock.sendall(_HEAD.pack(len(data)) + data)


class _Worker:
    """One process and the event loop's end of its socket."""

    def __init__(self, initializer: Callable[..., Any] | None, initargs: tuple[Any, ...]) -> None:
        mine, theirs = socket.socketpair()
        self.process = multiprocessing.get_context("spawn").Process(
            target=_serve, args=(theirs, initializer, initargs), daemon=True, name="partida-worker")
        self.process.start()
        theirs.close()
        self.sock = mine
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def ask(self, payload: bytes) -> tuple[bool, Any]:
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection(sock=self.sock)
        assert self.reader is not None
        self.writer.write(_HEAD.pack(len(payload)) + payload)
        try:
            head = await self.reader.readexactly(_HEAD.size)
            body = await self.reader.readexactly(_HEAD.unpack(head)[0])
        except (asyncio.IncompleteReadError, ConnectionError) as exc:
            raise BrokenProcessPool(f"worker process {self.process.pid} is gone") from exc
        return pickle.loads(body)

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        else:
            self.sock.close()
        if self.process.is_alive():
            self.process.kill()
        with contextlib.suppress(Exception):
            self.process.join(0)


class Workers:
    """``processes`` worker processes, each set up by ``initializer(*initargs)`` once; ``run`` gives
    a task to the first free one (tasks wait their turn in order)."""

    def __init__(self, processes: int, initializer: Callable[..., Any] | None = None, initargs: tuple[Any, ...] = ()) -> None:
        self.initializer = initializer
        self.initargs = initargs
        self._idle: list[_Worker] = [_Worker(initializer, initargs) for _ in range(processes)]
        self._all = list(self._idle)
        self._free: asyncio.Semaphore | None = None
        self.closed = False

    @property
    def processes(self) -> list[multiprocessing.process.BaseProcess]:
        return [w.process for w in self._all]

    @property
    def pids(self) -> list[int | None]:
        return [p.pid for p in self.processes]

    async def run(self, fn: Callable[..., Any], *args: Any) -> Any:
        """``fn(*args)`` in a worker (both picklable); its result, or its exception raised here."""
        if self.closed:
            raise RuntimeError("the workers are closed")
        payload = pickle.dumps((fn, args), pickle.HIGHEST_PROTOCOL)
        if self._free is None:
            self._free = asyncio.Semaphore(len(self._all))
        async with self._free:
            worker = self._idle.pop()
            try:
                ok, value = await worker.ask(payload)
            except BaseException:
                # the worker died, or the caller gave up mid-answer (cancelled): its socket may
                # hold half an answer, so it is replaced rather than reused
                self._replace(worker)
                raise
            self._idle.append(worker)
        if ok:
            return value
        raise value

    def _replace(self, worker: _Worker) -> None:
        worker.close()
        self._all.remove(worker)
        if self.closed:
            return
        fresh = _Worker(self.initializer, self.initargs)
        self._all.append(fresh)
        self._idle.append(fresh)

    def close(self) -> None:
        self.closed = True
        for worker in self._all:
            worker.close()
