"""An event loop of a backend's own, in a daemon thread.

Why: the async PostgreSQL driver then encodes, sends and decodes away from the server's loop (which
runs every table and socket), and the storage's plain calls (reads at start-up, ``close`` at
shutdown) can wait for it without needing, or blocking, the caller's loop."""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import threading
from collections.abc import Coroutine
from typing import Any, TypeVar

T = TypeVar("T")


class LoopThread:
    def __init__(self, name: str) -> None:
        self.loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        asyncio.set_event_loop(self.loop)
        try:
            self.loop.run_forever()
        finally:
            self.loop.close()

    def submit(self, coro: Coroutine[Any, Any, T]) -> concurrent.futures.Future[T]:
        return asyncio.run_coroutine_threadsafe(coro, self.loop)

    def run(self, coro: Coroutine[Any, Any, T]) -> T:
        """Run ``coro`` there and wait for it (a blocking call; never from this thread)."""
        return self.submit(coro).result()

    async def call(self, coro: Coroutine[Any, Any, T]) -> T:
        """Await ``coro`` run there from another loop. Cancelling the caller does not cancel ``coro``:
        a write half done by the driver would leave nobody knowing whether it committed."""
        return await self.wait(self.submit(coro))

    @staticmethod
    async def wait(done: concurrent.futures.Future[T]) -> T:
        loop = asyncio.get_running_loop()
        fut: asyncio.Future[T] = loop.create_future()

        def relay(f: concurrent.futures.Future[T]) -> None:
            with contextlib.suppress(RuntimeError):  # the caller's loop is closed: nobody waits
                loop.call_soon_threadsafe(_copy, f, fut)

        done.add_done_callback(relay)
        return await fut

    def stop(self) -> None:
        if self.loop.is_closed():
            return
        try:
            self.loop.call_soon_threadsafe(self.loop.stop)
        except RuntimeError:
            return
        if threading.current_thread() is not self._thread:
            self._thread.join()


def _copy(src: concurrent.futures.Future[T], dst: asyncio.Future[T]) -> None:
    if dst.done():
        return
    if src.cancelled():
        dst.cancel()
        return
    error = src.exception()
    if error is not None:
        dst.set_exception(error)
    else:
        dst.set_result(src.result())
