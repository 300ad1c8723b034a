"""Bounded request rates per client address: a token bucket for every request and a smaller one for writes."""

from __future__ import annotations

import time
from dataclasses import dataclass

READS_PER_SECOND, READ_BURST = 40.0, 120.0
WRITES_PER_SECOND, WRITE_BURST = 8.0, 30.0
MAX_CLIENTS = 10_000


@dataclass
class Bucket:
    tokens: float
    at: float

    def take(self, rate: float, burst: float, now: float) -> bool:
        self.tokens = min(burst, self.tokens + (now - self.at) * rate)
        self.at = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


class RateLimiter:
    def __init__(self, clock=time.monotonic) -> None:
        self.clock = clock
        self._reads: dict[str, Bucket] = {}
        self._writes: dict[str, Bucket] = {}

    def allow(self, client: str, *, write: bool) -> bool:
        now = self.clock()
        if len(self._reads) > MAX_CLIENTS:  # forget idle clients rather than grow without end
            self._reads.clear()
            self._writes.clear()
        read = self._reads.setdefault(client, Bucket(READ_BURST, now))
        if not read.take(READS_PER_SECOND, READ_BURST, now):
            return False
        if write:
            bucket = self._writes.setdefault(client, Bucket(WRITE_BURST, now))
            return bucket.take(WRITES_PER_SECOND, WRITE_BURST, now)
        return True
