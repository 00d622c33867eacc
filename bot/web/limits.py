"""Per-address rate limits on the token routes (issue 56): each visitor's address (an IPv6 one by its /64, which
one host usually holds whole) has a bucket of ``burst`` requests refilled at ``per_second``; a request with none
left is refused with the seconds to wait. Behind the operator's reverse proxy the visitor is the last address of
``X-Forwarded-For`` that is not a trusted proxy; the header is believed only from a trusted proxy."""
from __future__ import annotations

import ipaddress
import time
from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import dataclass

BURST = 60  # requests at once: a page and its picture are two, so about 30 steps clicked quickly
PER_SECOND = 2.0  # then one step a second, sustained
KEPT = 10_000  # addresses remembered (the least recently seen leave first: bounded memory under a flood)


Address = ipaddress.IPv4Address | ipaddress.IPv6Address
Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def address_of(text: str) -> Address | None:
    """An address as a peer or an ``X-Forwarded-For`` hop writes it: ``192.0.2.1``, ``192.0.2.1:4321``,
    ``2001:db8::1``, ``[2001:db8::1]:4321`` (a port is no part of who it is), a zone dropped; IPv4-mapped IPv6
    as its IPv4. None for anything else."""
    text = text.strip()
    if text.startswith("["):  # bracketed IPv6, a port after it or not
        text = text[1:].partition("]")[0]
    elif text.count(":") == 1:  # IPv4 with a port (a bare IPv6 has at least two colons)
        text = text.partition(":")[0]
    try:
        parsed = ipaddress.ip_address(text.split("%", 1)[0])
    except ValueError:
        return None
    if isinstance(parsed, ipaddress.IPv6Address) and parsed.ipv4_mapped is not None:
        return parsed.ipv4_mapped
    return parsed


@dataclass(frozen=True)
class Proxies:
    """The proxies whose ``X-Forwarded-For`` is believed (``WEB_TRUSTED_PROXIES``): addresses and ranges."""

    networks: tuple[Network, ...] = ()

    @classmethod
    def parse(cls, text: str) -> "Proxies":
        """``"127.0.0.1, ::1, 172.17.0.0/16"``; ValueError naming the first entry that is neither."""
        networks = []
        for entry in filter(None, (part.strip() for part in text.split(","))):
            try:
                networks.append(ipaddress.ip_network(entry, strict=False))
            except ValueError:
                raise ValueError(entry) from None
        return cls(tuple(networks))

    def __contains__(self, address: object) -> bool:
        parsed = address_of(address) if isinstance(address, str) else None
        return parsed is not None and any(parsed.version == n.version and parsed in n for n in self.networks)


LOCAL_PROXIES = Proxies.parse("127.0.0.1,::1")


def visitor(peer: str | None, forwarded: Iterable[str], trusted: Proxies) -> str:
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
    parsed = address_of(address)
    if parsed is None:
        return address[:64]  # no address (a Unix socket, a forged header): counted as written, bounded
    if isinstance(parsed, ipaddress.IPv6Address):
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
