"""Faults the fake Discord injects on purpose: rate limits, server errors, slow answers, refused uploads, dropped
connections, gateway closes. A test turns them on per route (method + route template) or for everything; a seed
makes the random ones repeat exactly. Every injected fault is logged and counted, so a soak test can report what
was injected and what the bot recovered from; a fault the fake injected is never reported as the bot's mistake.

    fake.faults.seed(7)
    fake.faults.rate_limit("POST", "/channels/{channel_id}/messages", retry_after=0.2)
    fake.faults.server_error(status=502, probability=0.1, times=None)   # every route, 1 in 10, forever
    fake.faults.drop_connection("POST", "/channels/{channel_id}/messages", nth=2, on_hit=harness.stop)
"""

from __future__ import annotations

import asyncio
import inspect
import random
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .wire import RecordedRequest

# What discord.py retries by itself: its HTTP client retries these 5xx; its webhook adapter (interaction callbacks,
# follow-ups, edits of the original) retries every 5xx. Both wait `retry_after` after a 429 with a `Via` header.
HTTP_CLIENT_RETRIED = frozenset({500, 502, 504, 524})
SERVER_ERROR_MESSAGES = {
    500: "500: Internal Server Error",
    502: "502: Bad Gateway",
    503: "503: Service Unavailable",
    504: "504: Gateway Timeout",
}

OnHit = Callable[["RecordedRequest"], Any] | Callable[[], Any]


def route_pattern(route: str | None) -> re.Pattern[str] | None:
    """`/channels/{channel_id}/messages` -> a regex matching the request paths of that route."""
    if route is None:
        return None
    parts = re.split(r"(\{[^}/]+\})", route)
    regex = "".join("[^/]+" if p.startswith("{") else re.escape(p) for p in parts)
    return re.compile(regex)


def _takes_an_argument(function: Callable[..., Any]) -> bool:
    try:
        parameters = inspect.signature(function).parameters.values()
    except (TypeError, ValueError):
        return True
    positional = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    return any(p.kind in positional or p.kind == inspect.Parameter.VAR_POSITIONAL for p in parameters)


@dataclass(eq=False)
class Fault:
    """One rule: which requests it hits and what it does to them.

    `nth`: hit only the nth matching request (1-based) counted from when the rule was added; otherwise every
    matching request with `probability`, at most `times` times (None: unlimited).
    """

    kind: str  # "rate limit", "global rate limit", "server error", "slow", "refuse upload", "drop"
    method: str | None = None
    route: str | None = None
    status: int = 0
    retry_after: float = 0.0
    delay: float = 0.0
    times: int | None = 1
    nth: int | None = None
    probability: float = 1.0
    uploads_only: bool = False
    applied: bool = False  # drop/slow: whether the fake carries out the request before it drops/answers
    on_hit: OnHit | None = None
    bucket: str = ""
    seen: int = 0  # matching requests so far
    hits: int = 0  # faults injected by this rule
    _pattern: re.Pattern[str] | None = field(default=None, repr=False)

    def __post_init__(self) -> None:
        self.method = self.method.upper() if self.method else None
        self._pattern = route_pattern(self.route)

    def matches(self, rec: RecordedRequest) -> bool:
        if self.method is not None and rec.method != self.method:
            return False
        if self._pattern is not None and not self._pattern.fullmatch(rec.path):
            return False
        return not (self.uploads_only and not rec.files)

    @property
    def exhausted(self) -> bool:
        if self.nth is not None:
            return self.seen >= self.nth
        return self.times is not None and self.hits >= self.times

    def describe(self) -> str:
        where = f"{self.method or '*'} {self.route or '*'}"
        what = {
            "rate limit": f"429 (retry after {self.retry_after} s)",
            "global rate limit": f"global 429 (retry after {self.retry_after} s)",
            "server error": str(self.status),
            "slow": f"{self.delay} s late",
            "refuse upload": "413 upload refused",
            "drop": "connection dropped" + (" after carrying it out" if self.applied else ""),
        }.get(self.kind, self.kind)
        return f"{what} on {where}"


@dataclass(eq=False)
class InjectedFault:
    """One fault the fake injected: on a request (`request`) or on the gateway (`shard_id`)."""

    kind: str
    detail: str
    at: float
    request: RecordedRequest | None = None
    shard_id: int | None = None
    recovered: bool = False  # a later request to the same method and path succeeded (gateway: the bot came back)

    def __str__(self) -> str:
        where = str(self.request) if self.request is not None else f"gateway shard {self.shard_id}"
        return f"{self.kind}: {self.detail} ({where}){' - recovered' if self.recovered else ''}"


class FaultInjector:
    """The fake's fault rules, their random generator and the log of what was injected."""

    def __init__(self, seed: int | None = 0) -> None:
        self.rules: list[Fault] = []
        self.injected: list[InjectedFault] = []
        self.random = random.Random(seed)
        self._clock: Callable[[], float] = lambda: 0.0

    def seed(self, seed: int) -> None:
        """Restart the random generator that decides the `probability` rules: the same seed, the same faults."""
        self.random.seed(seed)

    def clear(self) -> None:
        """Remove every rule (the log stays)."""
        self.rules.clear()

    def add(self, fault: Fault) -> Fault:
        self.rules.append(fault)
        return fault

    # --- rules -------------------------------------------------------------------------------------------------
    def rate_limit(
        self,
        method: str | None = None,
        route: str | None = None,
        *,
        retry_after: float = 0.1,
        bucket: str = "",
        **when: Any,
    ) -> Fault:
        """429 with the headers of a per-route bucket (X-RateLimit-Bucket, -Limit, -Remaining 0, -Reset, ...)."""
        return self.add(Fault("rate limit", method, route, status=429, retry_after=retry_after, bucket=bucket, **when))

    def global_rate_limit(
        self, method: str | None = None, route: str | None = None, *, retry_after: float = 0.1, **when: Any
    ) -> Fault:
        """429 with X-RateLimit-Global and `"global": true`: discord.py pauses every request for `retry_after`."""
        return self.add(Fault("global rate limit", method, route, status=429, retry_after=retry_after, **when))

    def server_error(
        self, method: str | None = None, route: str | None = None, *, status: int = 500, **when: Any
    ) -> Fault:
        """500, 502, 503 or 504 instead of carrying out the request."""
        if status not in SERVER_ERROR_MESSAGES:
            raise ValueError(f"status {status} is not one of {sorted(SERVER_ERROR_MESSAGES)}")
        return self.add(Fault("server error", method, route, status=status, **when))

    def slow(
        self, method: str | None = None, route: str | None = None, *, delay: float, applied: bool = True, **when: Any
    ) -> Fault:
        """Answer `delay` seconds late. `applied`: Discord carried the request out at once (only the answer is
        late); otherwise it is carried out after the delay."""
        return self.add(Fault("slow", method, route, delay=delay, applied=applied, **when))

    def refuse_upload(self, method: str | None = None, route: str | None = None, **when: Any) -> Fault:
        """413 Request Entity Too Large (code 40005) for requests that upload files."""
        return self.add(Fault("refuse upload", method, route, status=413, uploads_only=True, **when))

    def drop_upload(self, method: str | None = None, route: str | None = None, **when: Any) -> Fault:
        """Drop the connection of a request that uploads files, before the fake carries it out."""
        return self.add(Fault("drop", method, route, uploads_only=True, **when))

    def drop_connection(
        self,
        method: str | None = None,
        route: str | None = None,
        *,
        nth: int | None = 1,
        on_hit: OnHit | None = None,
        applied: bool = False,
        **when: Any,
    ) -> Fault:
        """Drop the connection at the `nth` matching request (None: by `times`/`probability`).

        `on_hit(request)` (sync or async) runs first, while the request hangs: stop or kill the bot there to
        crash it at exactly that point. `applied`: carry the request out, then drop (the answer is lost).
        """
        return self.add(Fault("drop", method, route, nth=nth, on_hit=on_hit, applied=applied, **when))

    # --- deciding and logging ------------------------------------------------------------------------------------
    def pick(self, rec: RecordedRequest) -> Fault | None:
        """The rule that hits this request, if any (the first live matching rule that fires)."""
        for rule in self.rules:
            if rule.exhausted or not rule.matches(rec):
                continue
            rule.seen += 1
            if rule.nth is not None:
                fire = rule.seen == rule.nth
            else:
                fire = rule.probability >= 1.0 or self.random.random() < rule.probability
            if fire:
                rule.hits += 1
                return rule
        return None

    def log(
        self, kind: str, detail: str, *, request: RecordedRequest | None = None, shard_id: int | None = None
    ) -> InjectedFault:
        entry = InjectedFault(kind, detail, self._clock(), request, shard_id)
        self.injected.append(entry)
        return entry

    async def run_on_hit(self, rule: Fault, rec: RecordedRequest) -> None:
        """Call `on_hit(request)`, or `on_hit()` if it takes no argument (`harness.stop`, `process.kill`)."""
        if rule.on_hit is None:
            return
        result = rule.on_hit(rec) if _takes_an_argument(rule.on_hit) else rule.on_hit()  # type: ignore[call-arg]
        if inspect.isawaitable(result):
            await asyncio.ensure_future(result)

    def note_success(self, rec: RecordedRequest) -> None:
        """A request succeeded: the earlier faults on the same method and path are recovered."""
        for entry in self.injected:
            request = entry.request
            same = request is not None and request.method == rec.method and request.path == rec.path
            if same and not entry.recovered and request is not rec:
                entry.recovered = True

    def note_gateway_back(self, shard_id: int) -> None:
        for entry in self.injected:
            if entry.shard_id == shard_id and entry.request is None:
                entry.recovered = True

    @property
    def counts(self) -> Counter[str]:
        """How many faults of each kind were injected."""
        return Counter(e.kind for e in self.injected)

    def summary(self) -> dict[str, Any]:
        """{"injected": n, "recovered": m, "by_kind": {kind: n}} for a soak test's report."""
        return {
            "injected": len(self.injected),
            "recovered": sum(1 for e in self.injected if e.recovered),
            "by_kind": dict(self.counts),
        }

    def report(self) -> str:
        """One line for a soak test's output: 'faults injected: 5 (rate limit 3, drop 2); recovered: 4'."""
        summary = self.summary()
        kinds = ", ".join(f"{kind} {n}" for kind, n in sorted(summary["by_kind"].items()))
        return (
            f"faults injected: {summary['injected']}{f' ({kinds})' if kinds else ''}; recovered: {summary['recovered']}"
        )

    def take_log(self) -> list[InjectedFault]:
        taken, self.injected = self.injected, []
        return taken
