"""One node of a cluster: any socket and any HTTP call for any table, wherever the table lives.

The node owns some tables (their leases, ``Leases``) and runs them in its own ``Runtime``, exactly as
the embedded server does. A request for a table owned elsewhere travels to the owner over Redis
pub/sub (``bus``), on the owner's inbox channel; the owner applies it in the table's mailbox and builds every
message for that socket there, with the socket's own seat view, then publishes the finished frames on
the inbox channel of the node holding the socket, which writes them out unchanged (the owner's side of
that is ``served.Served``; this module finds the owner and relays this node's own sockets to it).
Nothing is ever filtered at the relaying node: it sees only frames already built for the one seat
behind its socket.

Why pub/sub and not streams: nothing here needs Redis to remember a message. Every accepted command
is in PostgreSQL before anyone hears of it; an update lost in transit leaves a gap in the versions
a client sees (it asks for a resync, and after Redis comes back every relayed socket is resynced
anyway); a request lost in transit times out and the client resends it with the same command id,
which the owner answers once. Streams would add an ever-growing log to trim and consumer offsets to
keep, to redeliver messages that are either stale (an old view) or retried by the client anyway.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import random
from collections.abc import Coroutine
from dataclasses import dataclass
from typing import Any

import orjson
from redis.asyncio import Redis
from redis.exceptions import RedisError

from truco.cluster.bus import Bus, Message
from truco.cluster.keys import Keys, text
from truco.cluster.leases import Leases
from truco.cluster.ratelimit import RateLimit
from truco.cluster.served import ERRORS, Served
from truco.protocol import CloseCode, ErrorCode
from truco.runtime import (
    Close,
    Connection,
    LobbyError,
    NoSuchTable,
    Runtime,
    Send,
    ShuttingDown,
    SubmitResult,
    Ticket,
)
from truco.runtime.connections import Moved
from truco.table import PlayerCommand, TableSettings, command_to_dict

log = logging.getLogger("truco.cluster")

def _no_close(code: int, reason: str) -> None:
    pass


@dataclass
class NodeConfig:
    node_id: str
    lease_ms: int = 4000
    """How long a table's lease lasts unrenewed: a dead node's tables move on after about this long."""
    tick_s: float = 1.0
    """Leases renewed, lobby listing published, dead nodes looked for: this often (a quarter of the
    lease: three late ticks in a row, a loop stalled that long, before a lease lapses)."""
    rpc_timeout_s: float = 5.0
    prefix: str = "truco"
    http_rate: float = 2.0
    http_burst: float = 30.0


@dataclass(eq=False)
class _Proxy:
    """A socket of this node for a table owned by another node."""

    table_id: str
    owner: str
    conn: Connection


class ClusterNode:
    """A ``truco.runtime.front.Front`` over the whole cluster's tables."""

    def __init__(self, rt: Runtime, redis: Redis, cfg: NodeConfig) -> None:
        self.rt = rt
        self.clock = rt.clock
        self.redis = redis
        self.cfg = cfg
        self.node = cfg.node_id
        self.keys = Keys(cfg.prefix)
        self.leases = Leases(redis, self.keys, self.node, cfg.lease_ms)
        self.leases.on_lost = lambda table_id: self._spawn(self._lose(table_id))
        rt.ownership = self.leases
        self.leaving = False
        self._proxies: dict[int, _Proxy] = {}
        self._proxy_ids = itertools.count(1)
        self.bus = Bus(redis, self.keys, self.node, self._on_message, self._moved, self._resync_relayed)
        self.served = Served(rt, self.bus, self.node, self._settled, self._adopt_handed)
        self._adopting: dict[str, asyncio.Future[bool]] = {}
        self._hints: dict[str, str] = {}
        """The owner of each table this node relays sockets for: a command goes there without asking
        Redis first (a stale hint costs one "not here" answer, then the lease is read)."""
        self._tasks: set[asyncio.Task[Any]] = set()
        self._loops: list[asyncio.Task[None]] = []
        self._rate = RateLimit(redis, self.keys, cfg.http_rate, cfg.http_burst)
        self._handed_over = False

    # ------------------------------------------------------------------ life cycle

    async def start(self) -> None:
        await self.rt.start(recover=False)
        await self.leases.renew()
        await self.redis.sadd(self.keys.nodes, self.node)
        self._loops = [asyncio.create_task(self.bus.listen(), name="cluster-listen"),
                       asyncio.create_task(self.bus.send(), name="cluster-send"),
                       asyncio.create_task(self._tick(), name="cluster-tick")]
        await asyncio.wait_for(self.bus.subscribed.wait(), 30)
        log.info("node %s joined the cluster", self.node)

    async def handover(self, timeout: float = 8.0) -> None:
        """A graceful stop: every table is let go (its sockets reconnect elsewhere), its lease given
        back and another node asked to take it now, before this node stops answering. Whatever is
        not handed over in ``timeout`` seconds moves when its lease lapses, as after a crash."""
        if self._handed_over:
            return
        try:
            await asyncio.wait_for(self._handover(), timeout)
        except TimeoutError:
            log.warning("node %s: the handover did not finish in time; the leases will lapse", self.node)

    async def _handover(self) -> None:
        self._handed_over = True
        self.leaving = True
        try:
            _, live = await self._nodes()
            others = sorted(live - {self.node})
        except RedisError:
            others = []
        sem = asyncio.Semaphore(32)

        async def one(i: int, table_id: str) -> None:
            async with sem:
                await self.rt.let_go(table_id, "this server is stopping; reconnect")
                await self.leases.release(table_id)
                if others:
                    self.bus.post(others[i % len(others)], {"op": "adopt", "table": table_id})

        await asyncio.gather(*(one(i, t) for i, t in enumerate(self.rt.table_ids())), return_exceptions=True)
        await self.leases.drain()
        await self.bus.flush()
        log.info("node %s handed its tables over", self.node)

    async def close(self) -> None:
        await self.handover()
        for task in self._loops:
            task.cancel()
        await asyncio.gather(*self._loops, return_exceptions=True)
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        await self.rt.close()
        with contextlib.suppress(RedisError):
            await self.redis.srem(self.keys.nodes, self.node)
            await self.redis.delete(self.keys.alive(self.node), self.keys.owned(self.node),
                                    self.keys.lobby(self.node))
        with contextlib.suppress(RedisError):
            await self.redis.aclose()

    # ------------------------------------------------------------------ the Front

    def table_ids(self) -> list[str]:
        return self.rt.table_ids()

    async def create_table(self, settings: TableSettings | dict[str, Any] | None, host_name: str,
                           bots: str | None = None) -> Ticket:
        if self.leaving:
            raise ShuttingDown("the server is shutting down")
        return await self.rt.create_table(settings, host_name, bots)

    async def join(self, table_id: str, name: str) -> Ticket:
        for _ in range(3):
            owner = await self._owner(table_id)
            if owner == self.node:
                try:
                    return await self.rt.join(table_id, name)
                except Moved:
                    continue
            reply = await self._ask(owner, {"op": "join", "table": table_id, "name": name})
            if reply is not None:
                return Ticket(table_id, int(reply["player"]), str(reply["token"]))
        raise Moved("the table is moving to another server; try again")

    async def describe(self, table_id: str) -> dict[str, Any]:
        for _ in range(3):
            owner = await self._owner(table_id)
            if owner == self.node:
                try:
                    return self.rt.summary(table_id)
                except NoSuchTable:
                    continue
            reply = await self._ask(owner, {"op": "describe", "table": table_id})
            if reply is not None:
                summary: dict[str, Any] = reply["summary"]
                return summary
        raise Moved("the table is moving to another server; try again")

    async def lobby(self) -> list[dict[str, Any]]:
        try:
            nodes = sorted(text(n) for n in await self.redis.smembers(self.keys.nodes))
            blobs = await self.redis.mget([self.keys.lobby(n) for n in nodes]) if nodes else []
        except RedisError as e:
            log.warning("lobby unavailable: %s", e)
            return self.rt.list_open_tables()
        out: list[dict[str, Any]] = []
        for blob in blobs:
            if blob:
                out.extend(orjson.loads(blob))
        return out

    async def connect(self, table_id: str, token: str | None, send: Send,
                      close: Close | None = None) -> Connection:
        for _ in range(3):
            owner = await self._owner(table_id)
            if owner == self.node:
                try:
                    return await self.rt.connect(table_id, token, send, close)
                except Moved:
                    continue
            cid = -next(self._proxy_ids)  # the runtime's own connection ids are positive
            proxy = _Proxy(table_id, owner, Connection(table_id, None, send, close or _no_close, conn_id=cid))
            self._proxies[cid] = proxy  # before asking: the hello may arrive before the answer
            try:
                reply = await self._ask(owner, {"op": "attach", "table": table_id, "token": token, "c": cid})
            except BaseException:
                self._proxies.pop(cid, None)
                raise
            if reply is None:
                self._proxies.pop(cid, None)
                continue
            proxy.conn.player = reply["player"]
            self._hints[table_id] = owner
            return proxy.conn
        raise Moved("the table is moving to another server; reconnect")

    async def disconnect(self, conn: Connection) -> None:
        proxy = self._proxies.get(conn.conn_id) if conn.conn_id < 0 else None
        if proxy is None:
            await self.rt.disconnect(conn)
            return
        if proxy.conn is conn:
            del self._proxies[conn.conn_id]
            self.bus.post(proxy.owner, {"op": "detach", "c": conn.conn_id})

    async def resync(self, conn: Connection) -> None:
        proxy = self._proxies.get(conn.conn_id) if conn.conn_id < 0 else None
        if proxy is None:
            await self.rt.resync(conn)
            return
        if await self._ask(proxy.owner, {"op": "resync", "c": conn.conn_id}) is None:
            raise Moved("the table moved to another server; reconnect")

    async def submit(self, table_id: str, token: str, command: PlayerCommand,
                     cid: str | None = None) -> SubmitResult:
        for _ in range(3):
            owner = self._hints.get(table_id) or await self._owner(table_id)
            if owner == self.node:
                try:
                    return await self.rt.submit(table_id, token, command, cid)
                except Moved:
                    continue
            try:
                reply = await self._ask(owner, {"op": "submit", "table": table_id, "token": token,
                                                "cmd": command_to_dict(command), "cid": cid})
            except Moved:
                self._hints.pop(table_id, None)
                raise
            if reply is None:
                self._hints.pop(table_id, None)
            else:
                return SubmitResult(reply["accepted"], reply["version"], reply.get("reason"),
                                    bool(reply.get("duplicate")), ErrorCode(reply["code"]), reply.get("why"))
        raise Moved("the table is moving to another server; reconnect")

    async def allow_post(self, client: str) -> bool:
        """The POST rate limit per client address, the same on every node."""
        return await self._rate.allow(client)

    # ------------------------------------------------------------------ routing

    async def _owner(self, table_id: str) -> str:
        """The node that owns the table, taking it first when nobody does. Raises ``NoSuchTable``."""
        if self.rt.holds(table_id):
            return self.node
        pending = self._adopting.get(table_id)
        if pending is not None:
            if await pending:
                return self.node
            raise NoSuchTable("there is no such table")
        try:
            for _ in range(3):
                holder = await self.leases.holder(table_id)
                if holder is not None and holder != self.node:
                    return holder
                if holder is None:
                    if self.leaving:
                        raise Moved("this server is stopping; reconnect")
                    if not await self.leases.claim(table_id):
                        continue
                elif self.leaving:
                    raise Moved("this server is stopping; reconnect")
                else:
                    self.leases.mine.add(table_id)  # ours, yet not here: a takeover cut short
                if await self._adopt(table_id):
                    return self.node
                raise NoSuchTable("there is no such table")
        except (RedisError, OSError) as e:
            log.warning("cannot find the owner of %s: %s", table_id, e)
            raise Moved("the server could not reach its cluster; reconnect") from None
        raise Moved("the table is moving to another server; reconnect")

    async def _adopt(self, table_id: str) -> bool:
        """Rebuild a table whose lease we hold; tell every node it is here now."""
        pending = self._adopting.get(table_id)
        if pending is not None:
            return await pending
        fut: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        self._adopting[table_id] = fut
        ok = False
        try:
            ok = await self.rt.adopt(table_id)
        except Exception as e:
            log.error("table %s could not be taken over: %s", table_id, e)
        finally:
            del self._adopting[table_id]
            fut.set_result(ok)
        if ok:
            self._hints.pop(table_id, None)
            # Sockets of this table we relayed to its old owner hear nothing from it now; the sweep that
            # drops them may never come (another node's sweep can forget the dead owner first).
            self._drop_relayed(table_id, self.node, "the table moved to this server; reconnect")
            log.info("node %s took table %s at version %d", self.node, table_id, self.rt.version(table_id))
            with contextlib.suppress(RedisError):
                await self.bus.announce(table_id)
        else:
            self.leases.gone(table_id)
        return ok

    async def _lose(self, table_id: str) -> None:
        """Someone else owns this table now: let it go (its sockets reconnect to the new owner)."""
        if not self.rt.holds(table_id):
            return
        log.warning("node %s let go of table %s", self.node, table_id)
        await self.rt.let_go(table_id)
        self.served.forget_table(table_id)

    # ------------------------------------------------------------------ requests to other nodes

    async def _ask(self, node: str, msg: dict[str, Any]) -> dict[str, Any] | None:
        """Send a request to ``node`` and wait for its answer. None: the table is not there (any
        more); the caller routes again. An error of the owner's is raised here as the same error."""
        try:
            reply = await self.bus.ask(node, msg, self.cfg.rpc_timeout_s)
        except TimeoutError:
            log.warning("node %s: %s for table %s got no answer from %s", self.node, msg["op"],
                        msg.get("table"), node)
            raise Moved("the table's server does not answer; reconnect") from None
        if reply.get("error") is None:
            return reply
        if reply["error"] == "moved":
            return None
        raise ERRORS.get(reply["error"], LobbyError)(reply.get("message", ""))

    async def _settled(self, table_id: str) -> None:
        """Wait for a takeover of ``table_id`` in progress here, if any."""
        pending = self._adopting.get(table_id)
        if pending is not None:
            await pending

    async def _adopt_handed(self, table_id: str) -> None:
        """A node stopping hands this table to us: take it now (unless this node is stopping too)."""
        if not self.leaving:
            with contextlib.suppress(LobbyError, RedisError):
                await self._owner(table_id)

    # ------------------------------------------------------------------ messages from other nodes

    def _resync_relayed(self) -> None:
        """What the owners published while this node was off Redis is lost: every relayed socket
        asks its owner for its view again."""
        log.warning("node %s: resyncing %d relayed sockets", self.node, len(self._proxies))
        for proxy in list(self._proxies.values()):
            self._spawn(self._resync_quietly(proxy))

    async def _resync_quietly(self, proxy: _Proxy) -> None:
        try:
            await self.resync(proxy.conn)
        except LobbyError:
            self._drop_proxy(proxy, "the table moved to another server; reconnect")

    def _on_message(self, msg: Message) -> None:
        op = msg["op"]
        if op == "frame":
            proxy = self._proxies.get(msg["c"])
            if proxy is not None:
                proxy.conn.send(msg["t"])
            else:  # a socket gone here (or given up on before its attach was answered)
                self.bus.post(msg["from"], {"op": "detach", "c": msg["c"]})
        elif op == "close":
            proxy = self._proxies.pop(msg["c"], None)
            if proxy is not None:
                proxy.conn.close(msg["code"], msg["reason"])
        else:
            self._spawn(self.served.serve(msg))

    def _moved(self, table_id: str, owner: str) -> None:
        if owner == self.node:
            return
        self._hints.pop(table_id, None)
        if self.rt.holds(table_id):
            self._spawn(self._lose(table_id))
        self._drop_relayed(table_id, owner, "the table moved to another server; reconnect")

    def _drop_relayed(self, table_id: str, owner: str, reason: str) -> None:
        """Close the sockets of ``table_id`` this node relays to any node but ``owner``, its owner now."""
        for proxy in [p for p in self._proxies.values() if p.table_id == table_id and p.owner != owner]:
            self._drop_proxy(proxy, reason)

    def _drop_proxy(self, proxy: _Proxy, reason: str) -> None:
        if self._hints.get(proxy.table_id) == proxy.owner:
            del self._hints[proxy.table_id]
        if self._proxies.get(proxy.conn.conn_id) is proxy:
            del self._proxies[proxy.conn.conn_id]
            proxy.conn.close(CloseCode.GOING_AWAY, reason)

    # ------------------------------------------------------------------ the tick

    async def _tick(self) -> None:
        while True:
            await asyncio.sleep(self.cfg.tick_s * random.uniform(0.9, 1.1))
            try:
                for table_id in await self.leases.renew():
                    self._spawn(self._lose(table_id))
                if self.leases.out_of_touch:  # the owners may have forgotten our sockets: reconnect them
                    log.warning("node %s was out of touch past its lease; its relayed sockets reconnect",
                                self.node)
                    for proxy in list(self._proxies.values()):
                        self._drop_proxy(proxy, "this server was out of touch; reconnect")
                await self.redis.sadd(self.keys.nodes, self.node)
                await self.redis.set(self.keys.lobby(self.node), orjson.dumps(self.rt.list_open_tables()),
                                     px=int(self.cfg.tick_s * 3000))
                if not self.leaving:
                    await self._sweep()
            except (RedisError, OSError) as e:
                log.warning("node %s: cluster tick failed: %s", self.node, e)
            except Exception:
                log.exception("node %s: cluster tick failed", self.node)

    async def _nodes(self) -> tuple[list[str], set[str]]:
        """Every node that joined, sorted, and those whose alive mark has not lapsed."""
        nodes = sorted(text(n) for n in await self.redis.smembers(self.keys.nodes))
        alive = await self.redis.mget([self.keys.alive(n) for n in nodes]) if nodes else []
        return nodes, {n for n, mark in zip(nodes, alive, strict=True) if mark is not None}

    async def _sweep(self) -> None:
        """Take the tables of nodes that died (their alive mark lapsed): each goes to whichever live
        node claims its lease first. The dead node is forgotten once every one of them has moved."""
        nodes, alive = await self._nodes()
        live = alive | {self.node}
        for node in nodes:
            if node in live:
                continue
            for proxy in [p for p in self._proxies.values() if p.owner == node]:
                self._drop_proxy(proxy, "the table's server stopped; reconnect")
            await self.served.forget_node(node)
            tables = sorted(text(t) for t in await self.redis.smembers(self.keys.owned(node)))
            sem = asyncio.Semaphore(16)
            if all(await asyncio.gather(*(self._take(t, live, sem) for t in tables))):
                await self.redis.srem(self.keys.nodes, node)
                await self.redis.delete(self.keys.owned(node))
                log.info("node %s: node %s is gone; its %d tables moved", self.node, node, len(tables))

    async def _take(self, table_id: str, live: set[str], sem: asyncio.Semaphore) -> bool:
        """A dead node's table: True once it lives on a live node (or is not live at all)."""
        async with sem:
            try:
                return await self._owner(table_id) in live
            except NoSuchTable:
                return True
            except LobbyError:
                return False

    def _spawn(self, coro: Coroutine[Any, Any, Any]) -> None:
        task = asyncio.create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
