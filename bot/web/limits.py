"""Per-address rate limits on the token routes (issue 56): each visitor's address (an IPv6 one by its /64, which
one host usually holds whole) has a bucket of ``burst`` requests refilled at ``per_second``; a request with none
left is refused with the seconds to wait; a page's own picture, asked right after it, is free. Behind the
operator's reverse proxy the visitor is the last address of ``X-Forwarded-For`` that is not a trusted proxy; the
header is believed only from a trusted proxy."""
from __future__ import annotations

import ipaddress
import time
from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import dataclass

BURST = 60  # requests at once: 60 steps clicked quickly (a page and its own picture count as one)
PER_SECOND = 2.0  # then two steps a second, sustained
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
    """Token buckets per address. A page and then its own picture count as one request (a person stepping asks
    for both): at one step a second, however long the game, a person never runs out."""

    def __init__(self, burst: int = BURST, per_second: float = PER_SECOND, kept: int = KEPT) -> None:
        self.burst, self.per_second, self.kept = burst, per_second, kept
        # address -> (tokens, when, the last page it asked for, whose picture is then free)
        self._buckets: OrderedDict[str, tuple[float, float, int | None]] = OrderedDict()
        self.refused = 0

    def take(self, address: str, now: float | None = None, *, step: str = "", picture: bool = False) -> float:
        """Count one request from ``address``: 0 when allowed, else the seconds until one is. ``step``: the page
        asked for (``picture``: its picture): a picture right after its page is free."""
        now = time.monotonic() if now is None else now
        tokens, when, page = self._buckets.pop(address, (float(self.burst), now, None))
        tokens = min(float(self.burst), tokens + (now - when) * self.per_second)
        wait = 0.0
        mark = hash(step) if step else None  # kept as a number: no token stays in memory here
        if picture and mark is not None and mark == page:
            page = None  # the page's own picture, once
        elif tokens >= 1:
            tokens -= 1
            page = None if picture else mark
        else:
            wait = (1 - tokens) / self.per_second
            self.refused += 1
        self._buckets[address] = (tokens, now, page)
        while len(self._buckets) > self.kept:
            self._buckets.popitem(last=False)
        return wait

    def __len__(self) -> int:
        return len(self._buckets)
