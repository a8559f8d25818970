"""Size and rate limits for one socket. Time is passed in, so tests need no sleeping."""

from __future__ import annotations

from dataclasses import dataclass

MAX_FRAME_BYTES = 4096
"""A client frame above this is garbage: the largest legitimate command is under 200 bytes."""

MAX_CONSECUTIVE_ERRORS = 20
"""After this many rejected messages in a row the socket is closed: it is not a person tapping."""


@dataclass(slots=True)
class RateLimiter:
    """A token bucket: ``rate`` messages per second on average, bursts up to ``burst``.

    A person taps at most a few times a second; a resend after a reconnect may burst a little.
    """

    rate: float = 10.0
    burst: float = 30.0
    _tokens: float = -1.0
    _last: float = 0.0

    def allow(self, now: float) -> bool:
        """Take one token at time ``now`` (seconds); ``False`` means the socket is flooding."""
        if self._tokens < 0:
            self._tokens, self._last = self.burst, now
        elapsed = max(0.0, now - self._last)
        self._last = now
        self._tokens = min(self.burst, self._tokens + elapsed * self.rate)
        if self._tokens < 1.0:
            return False
        self._tokens -= 1.0
        return True
