"""Per-address rate limits on the token routes (issue 56): each visitor's address (an IPv6 one by its /64, which
one host usually holds whole) has a bucket of ``burst`` requests refilled at ``per_second``; a request with none
left is refused with the seconds to wait. Behind the operator's reverse proxy the visitor is the last address of
``X-Forwarded-For`` that is not a trusted proxy; the header is believed only from a trusted proxy."""
from __future__ import annotations

import ipaddress
import time
from collections import OrderedDict
from collections.abc import Iterable

BURST = 60  # requests at once: a page and its picture are two, so about 30 steps clicked quickly
PER_SECOND = 2.0  # then one step a second, sustained
KEPT = 10_000  # addresses remembered (the least recently seen leave first: bounded memory under a flood)


def visitor(peer: str | None, forwarded: Iterable[str], trusted: frozenset[str]) -> str:
    """The address a request counts against: the peer's, or, when the peer is a trusted proxy, the last address
    of ``X-Forwarded-For`` (all its headers, in order) that is no trusted proxy."""
    address = peer or ""
    if address in trusted:
        hops = [hop.strip() for value in forwarded for hop in value.split(",") if hop.strip()]
        while hops and hops[-1] in trusted:
            hops.pop()
        if hops:
            address = hops[-1]
    return bucket_of(address)


def bucket_of(address: str) -> str:
    try:
        parsed = ipaddress.ip_address(address.split("%", 1)[0])
    except ValueError:
        return address[:64]  # no address (a Unix socket, a forged header): counted as written, bounded
    if isinstance(parsed, ipaddress.IPv6Address):
        if parsed.ipv4_mapped is not None:
            return str(parsed.ipv4_mapped)
        return str(ipaddress.ip_network(f"{parsed}/64", strict=False))
    return str(parsed)


class AddressLimits:
    def __init__(self, burst: int = BURST, per_second: float = PER_SECOND, kept: int = KEPT) -> None:
        self.burst, self.per_second, self.kept = burst, per_second, kept
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()  # address -> (tokens, when)
        self.refused = 0

    def take(self, address: str, now: float | None = None) -> float:
        """Count one request from ``address``: 0 when allowed, else the seconds until one is."""
        now = time.monotonic() if now is None else now
        tokens, when = self._buckets.pop(address, (float(self.burst), now))
        tokens = min(float(self.burst), tokens + (now - when) * self.per_second)
        wait = 0.0
        if tokens >= 1:
            tokens -= 1
        else:
            wait = (1 - tokens) / self.per_second
            self.refused += 1
        self._buckets[address] = (tokens, now)
        while len(self._buckets) > self.kept:
            self._buckets.popitem(last=False)
        return wait

    def __len__(self) -> int:
        return len(self._buckets)
