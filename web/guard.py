"""The board's guard: who a request comes from (a person, a browser, an address), bounded rates per person under a
looser ceiling per address, a process-wide ceiling on live connections from the open-file limit, request bodies
checked before they are used, and logs that never flood.

Limits key on the person, not the address: behind the HTTPS reverse proxy the README prescribes, every Discord member
arrives from the proxy's address, and on the local board every browser shares 127.0.0.1. A person is a signed
session's first person (a Discord member, a local player), else this browser's signed id (`kd_browser`, given with
the page), else, for a request with neither, its address. The address (the connection's peer, or the client a
trusted proxy names in X-Forwarded-For) has its own, looser ceiling, so that one address cannot make people without
end either."""

from __future__ import annotations

import ipaddress
import json
import logging
import resource
import time
from collections.abc import Iterable
from dataclasses import dataclass

READS_PER_SECOND, READ_BURST = 40.0, 120.0
WRITES_PER_SECOND, WRITE_BURST = 8.0, 30.0
ADDRESS_FACTOR = 20.0  # an address's ceiling: as much as this many people at full speed
MAX_CLIENTS = 10_000
STREAMS_PER_PERSON = 24
STREAMS_PER_ADDRESS = 480  # 20 people's worth: a proxy's address carries everyone
FILE_RESERVE = 256  # open files kept for everything but the boards' streams (the database, workers, pages)
MIN_STREAMS = 16
MAX_DEPTH = 16  # of a request's JSON body (the board's deepest is 3)
MAX_INT = 2**63 - 1

Network = ipaddress.IPv4Network | ipaddress.IPv6Network

CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
    "font-src 'self'; base-uri 'none'; form-action 'none'; "
    "frame-ancestors 'self' https://discord.com https://*.discord.com https://*.discordsays.com"
)
SECURITY_HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Resource-Policy": "same-origin",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=()",
}


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
    """Token buckets per key: every request takes from the key's reads, a write also from its writes. `factor`
    scales a bucket's rate and burst (an address's ceiling is many people's)."""

    def __init__(self, clock=time.monotonic) -> None:
        self.clock = clock
        self._reads: dict[str, Bucket] = {}
        self._writes: dict[str, Bucket] = {}

    def allow(self, client: str, *, write: bool, factor: float = 1.0) -> bool:
        now = self.clock()
        if len(self._reads) > MAX_CLIENTS:  # forget idle clients rather than grow without end
            self._reads.clear()
            self._writes.clear()
        read = self._reads.setdefault(client, Bucket(READ_BURST * factor, now))
        if not read.take(READS_PER_SECOND * factor, READ_BURST * factor, now):
            return False
        if write:
            bucket = self._writes.setdefault(client, Bucket(WRITE_BURST * factor, now))
            return bucket.take(WRITES_PER_SECOND * factor, WRITE_BURST * factor, now)
        return True


class Limits:
    """The rates of a board: per person, under a ceiling per address."""

    def __init__(self, clock=time.monotonic) -> None:
        self.people = RateLimiter(clock)
        self.addresses = RateLimiter(clock)

    def allow(self, person: str, address: str, *, write: bool) -> bool:
        if not self.addresses.allow(address, write=write, factor=ADDRESS_FACTOR):
            return False
        return person == f"a:{address}" or self.people.allow(person, write=write)


def networks(entries: Iterable[str]) -> tuple[Network, ...]:
    return tuple(ipaddress.ip_network(e, strict=False) for e in entries)


def _within(address: str, trusted: tuple[Network, ...]) -> bool:
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return any(ip in network for network in trusted)


def client_address(peer: str | None, forwarded_for: str | None, trusted: tuple[Network, ...]) -> str:
    """The address a request comes from: its connection's peer, or, when the peer is a trusted proxy, the nearest
    address in X-Forwarded-For that is not a trusted proxy (the proxies append: the right end is the nearest)."""
    address = peer or "?"
    if not trusted or not forwarded_for or not _within(address, trusted):
        return address
    for hop in reversed([h.strip() for h in forwarded_for.split(",") if h.strip()]):
        if not _within(hop, trusted):
            return hop
        address = hop
    return address


def forwarded_scheme(peer: str | None, proto: str | None, trusted: tuple[Network, ...], secure: bool) -> bool:
    """Whether the request came over HTTPS: from a trusted proxy, as its X-Forwarded-Proto says; else the
    connection's own."""
    if proto and peer and _within(peer, trusted):
        return proto.split(",")[0].strip().lower() == "https"
    return secure


def is_loopback(address: str) -> bool:
    try:
        return ipaddress.ip_address(address).is_loopback
    except ValueError:
        return False


# -- live connections ---------------------------------------------------------------------------------------------
def raise_open_file_limit() -> int:
    """Raise this process's open-file limit to its hard limit (a desktop's soft default is 1,024); the soft limit
    now."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or hard > soft:
        target = hard if hard != resource.RLIM_INFINITY else max(soft, 65_536)
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
            soft = target
        except (ValueError, OSError):
            pass
    return soft


def stream_ceiling(configured: int | None, open_files: int | None = None) -> int:
    """The most live connections this process keeps: the setting, else half of what the open-file limit leaves
    beside a reserve for everything else (a desktop's 1,024: 384)."""
    if configured is not None:
        return configured
    limit = open_files if open_files is not None else resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    return max(MIN_STREAMS, (limit - FILE_RESERVE) // 2)


class Slots:
    """Who holds the live connections: at most `STREAMS_PER_PERSON` a person, `STREAMS_PER_ADDRESS` an address and
    `ceiling` in all. `take` says which limit refuses (None: taken)."""

    def __init__(self, ceiling: int) -> None:
        self.ceiling = ceiling
        self.total = 0
        self.people: dict[str, int] = {}
        self.addresses: dict[str, int] = {}

    def take(self, person: str, address: str) -> str | None:
        if self.total >= self.ceiling:
            return "process"
        if self.addresses.get(address, 0) >= STREAMS_PER_ADDRESS:
            return "address"
        if self.people.get(person, 0) >= STREAMS_PER_PERSON:
            return "person"
        self.total += 1
        self.people[person] = self.people.get(person, 0) + 1
        self.addresses[address] = self.addresses.get(address, 0) + 1
        return None

    def give_back(self, person: str, address: str) -> None:
        self.total -= 1
        for counts, key in ((self.people, person), (self.addresses, address)):
            left = counts.get(key, 1) - 1
            if left > 0:
                counts[key] = left
            else:
                counts.pop(key, None)


# -- request bodies -------------------------------------------------------------------------------------------------
class BadBody(ValueError):
    """A body the board does not read: why, in the catalogue's words (`what`: too deep, a number out of range)."""


def _depth(text: str) -> int:
    """How deeply a JSON text nests (brackets outside strings), read before parsing: a deep one costs the parser its
    recursion."""
    depth = deepest = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}":
            depth -= 1
    return deepest


def _number(text: str) -> int | float:
    value = float(text)
    if value != value or value in (float("inf"), float("-inf")):
        raise BadBody("number")
    return value


def _integer(text: str) -> int:
    if len(text) > 20 or abs(value := int(text)) > MAX_INT:
        raise BadBody("number")
    return value


def _constant(name: str) -> None:
    raise BadBody("number")  # NaN, Infinity, -Infinity: not JSON's


def parse_body(raw: str) -> dict:
    """A request's JSON object, its nesting, numbers and constants checked before use; `BadBody` (what is wrong) or
    ValueError (not a JSON object) otherwise."""
    if _depth(raw) > MAX_DEPTH:
        raise BadBody("depth")
    data = json.loads(raw, parse_float=_number, parse_int=_integer, parse_constant=_constant)
    if not isinstance(data, dict):
        raise ValueError("not an object")
    return data


# -- logs ---------------------------------------------------------------------------------------------------------
class OncePerInterval(logging.Filter):
    """Lets one record of a kind (logger, message, exception type) through per `interval` seconds, and says how many
    like it were held back when the next one goes through: a flood of "Too many open files" is a line a minute."""

    def __init__(self, interval: float = 60.0, clock=time.monotonic) -> None:
        super().__init__()
        self.interval, self.clock = interval, clock
        self._seen: dict[tuple, tuple[float, int]] = {}

    def filter(self, record: logging.LogRecord) -> bool:
        args = str(record.args)[:200] if record.args else ""
        kind = (
            record.name,
            record.levelno,
            str(record.msg)[:200],
            args,
            record.exc_info[0] if record.exc_info else None,
        )
        now = self.clock()
        last = self._seen.get(kind)
        if last is not None and now - last[0] < self.interval:
            self._seen[kind] = (last[0], last[1] + 1)
            return False
        held = last[1] if last is not None else 0
        if len(self._seen) > 1000:
            self._seen.clear()
        self._seen[kind] = (now, 0)
        if held:
            record.msg = f"{record.msg} ({held} more like this in the last {self.interval:.0f} s)"
        return True


NOISY_LOGGERS = (
    "asyncio",
    "aiohttp.server",
    "aiohttp.web",
    "aiohttp.access",
    "aiohttp.internal",
    *(f"web.{m}" for m in ("app", "people", "streams", "snapshots", "tables", "lobby", "activity", "review", "hub")),
)


def quiet_floods(interval: float = 60.0) -> OncePerInterval:
    """Hold back repeated records of the board's loggers and the event loop's (once per kind per `interval`)."""
    once = OncePerInterval(interval)
    for name in NOISY_LOGGERS:
        logger = logging.getLogger(name)
        if not any(isinstance(f, OncePerInterval) for f in logger.filters):
            logger.addFilter(once)
    return once
