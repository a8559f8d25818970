"""The limit on POST requests per client address, one for the whole cluster (a token bucket in Redis)."""

from __future__ import annotations

from redis.asyncio import Redis
from redis.exceptions import RedisError

from truco.cluster.keys import Keys

_BUCKET = """
-- A token bucket per client address, shared by every node. ARGV: rate per s, burst.
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local v = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local rate, burst = tonumber(ARGV[1]), tonumber(ARGV[2])
local tokens, at = tonumber(v[1]) or burst, tonumber(v[2]) or now
tokens = math.min(burst, tokens + (now - at) * rate / 1000)
local ok = 0
if tokens >= 1 then tokens = tokens - 1; ok = 1 end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'at', now)
redis.call('PEXPIRE', KEYS[1], math.ceil(burst / rate * 1000) + 1000)
return ok
"""


class RateLimit:
    """``rate`` requests a second per client, ``burst`` at once, counted the same on every node."""

    def __init__(self, redis: Redis, keys: Keys, rate: float, burst: float) -> None:
        self.keys = keys
        self.rate = rate
        self.burst = burst
        self._script = redis.register_script(_BUCKET)

    async def allow(self, client: str) -> bool:
        try:
            return bool(await self._script(keys=[self.keys.rate(client)], args=[self.rate, self.burst]))
        except RedisError:
            return True  # the limit is a courtesy; the lobby must not die with Redis
