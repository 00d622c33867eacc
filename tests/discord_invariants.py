"""What must hold of every message the real bot writes, checked by the harness itself in every Discord-layer test
(``watch``, which ``tests/conftest.py`` installs on every harness of a ``GameHostBot``): a broken one is a
:class:`InvariantBroken` error of the test, as a request Discord refuses is.

- **No secret in the wrong place.** A card that is in a player's hand now (its id, or the mark the game's
  renderer draws for it: ``🟡7``, ``7♠``) appears in no public message and in no ephemeral message to anyone
  else. A mark shared with a card public at that moment, or a few versions before (a message drawn just before a
  new deal), proves nothing and is skipped, as are the marks the catalogs write themselves (a legend's example),
  cards a private event showed its reader, and lines of an edited message that were checked when they first
  appeared. Checked against the tables running when the message was written — the ones its controls name, else
  the ones playing where it was written — once the bot is idle again (so every update up to then is known).
- **Hand views only ephemeral**: a message opening with the hand view's header carries the ephemeral flag.
- **At most one ping per turn change**: the board posts that notify a person (``allowed_mentions.users``) are no
  more than the turns that began for them, and so are the time warnings (a turn's second notification).
- Writes Discord refuses (a channel write at a DM or group DM the bot is not in, a body Discord would refuse) are
  the harness's own errors (``DiscordRefused``); nothing more is needed here.

The checks cost nothing when nothing is secret (no table running).
"""
from __future__ import annotations

import json
import re
from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterable

from bot import render
from bot.games import render_hooks
from engines import get_engine

from .discord_harness_http import EPHEMERAL, HarnessError, payload_text, walk_components
from .engines.conformance import string_leaves

if TYPE_CHECKING:
    from bot.table import Table, Update

    from .discord_harness import Harness

HAND_HEADER = "hand.header"
TABLE_CONTROL = re.compile(r"gh:(?!tn)[a-z]+:([0-9]+)")  # a table's control (a tournament's are gh:tn…)
RECENT_VERSIONS = 16  # a message may have been drawn this many versions before it was written (a writer's backlog)
RNG_DIGITS = 8  # a seed or RNG state this long is looked for as text (a short one is in every number)


class InvariantBroken(HarnessError):
    """A message the bot wrote breaks what every message must hold (``tests/discord_invariants.py``)."""


# ---- secrets ----------------------------------------------------------------------------------------------------
@lru_cache(maxsize=None)
def pattern(word: str) -> re.Pattern[str]:
    return re.compile(rf"(?<![0-9A-Za-z]){re.escape(word)}(?![0-9A-Za-z])")


def found(words: Iterable[str], text: str) -> set[str]:
    return {w for w in words if w and w in text and pattern(w).search(text)}


@lru_cache(maxsize=None)
def catalog_marks(game: str) -> frozenset[str]:
    """Marks the game's catalog writes itself (a legend's example such as ``🟦3×2``): no evidence of a leak."""
    mark = render_hooks(game).card
    folder = Path(render.__file__).resolve().parent.parent / "locales" / "en"
    texts = " ".join(str(v) for f in folder.glob("*.json") for v in json.loads(f.read_text("utf-8")).values())
    engine = get_engine(game)
    every: set[str] = set()
    for seed in range(1, 21):  # enough deals to see every kind of card (Pile up's 84-card deck has 4 left over)
        state = engine.new_game([f"p{i}" for i in range(engine.max_players)], seed=seed)
        every |= {c for p in state.players for c in (engine.view(state, p).hand or [])}
    return frozenset(m for m in {mark(c) for c in every} if pattern(m).search(texts))


class Secrets:
    """What is secret right now, and from whom: ids and marks per owner, minus marks any public card shares."""

    def __init__(self, game: str, state: Any) -> None:
        engine = get_engine(game)
        mark = render_hooks(game).card
        self.game = game
        self.owners = {p: set((engine.view(state, p).hand or [])) for p in state.players}
        piles, streams = own_secrets(state)
        seen = set(getattr(state, "peek", None) or ())  # Twin Pyramid: what a 3 showed its player, still on the pile
        if seen and state.three_player is not None:  # (per-seat: on the player's own pile, D19) theirs to see
            self.owners[state.three_player] |= seen
            piles -= seen
        if piles:  # every seat's own pile (``streams: per_seat``): secret from everyone, its owner included
            self.owners[PILES] = piles
        public = set(string_leaves(engine.view(state, None)))
        public_marks = {mark(x) for x in public if x}
        self.ids = {p: cards - public for p, cards in self.owners.items()}
        static = catalog_marks(game)
        self.marks = {p: {mark(c) for c in cards} - public_marks - static for p, cards in self.ids.items()}
        self.rng = {str(state.seed), str(state.rng.state), *map(str, streams)}

    def hidden_from(self, reader: str | None, allowed: Iterable[str] = ()) -> tuple[set[str], set[str]]:
        """(ids, marks) that ``reader`` (None: everyone) may not see; ``allowed``: owners whose secrets are shown to
        the reader on purpose (a private event addressed to them too)."""
        shown = [p for p in self.owners if p == reader or p in set(allowed)]
        mine = set().union(*(self.marks[p] for p in shown)) if shown else set()  # identical copies prove nothing
        my_ids = set().union(*(self.owners[p] for p in shown)) if shown else set()  # (one id for both, in some decks)
        owners = [p for p in self.owners if p not in shown]
        ids = set().union(*(self.ids[p] for p in owners)) - my_ids if owners else set()
        marks = set().union(*(self.marks[p] for p in owners)) - mine if owners else set()
        return ids, marks

    def leaks(self, text: str, reader: str | None, allowed: Iterable[str] = (), *, raw: bool = True,
              known: Iterable[str] = (), rng_digits: int = 0) -> set[str]:
        """Secrets in ``text``; ``known``: cards the reader was told about privately (a card they passed on), or
        public a moment ago; ``rng_digits``: the shortest seed or RNG state looked for."""
        ids, marks = self.hidden_from(reader, allowed)
        if known:
            mark = render_hooks(self.game).card
            ids, marks = ids - set(known), marks - {mark(c) for c in known}
        rng = {r for r in self.rng if len(r) >= rng_digits and r in text}
        return (found(ids, text) if raw else set()) | found(marks, text) | rng


PILES = "\x00own piles"  # the owner nobody is: the cards of the seats' own piles


def own_secrets(state: Any) -> tuple[set[str], set[int]]:
    """The cards of every seat's own pile and the states of every seat's own RNGs (``streams: per_seat``; Pile up
    keeps a pile and two RNGs per seat, Twin Pyramid a pile and an RNG, Rocca a pile, Akuma an RNG)."""
    piles: set[str] = set()
    streams: set[int] = set()
    for own in (getattr(state, "own", None) or {}).values():
        if isinstance(own, list):
            piles |= set(own)
        elif hasattr(own, "rng"):  # Twin Pyramid: a pile and the RNG that rebuilds it
            piles |= set(own.pile)
            streams.add(own.rng.state)
        elif hasattr(own, "pile"):
            piles |= set(own.pile)
            streams |= {own.dice.state, own.deflect.state}
        else:
            streams.add(own.state)
    return piles, streams


def message_text(payload: dict) -> str:
    """What a message shows or sends back: its text, and its components' custom ids and select values."""
    parts = [payload_text(payload)]
    for c in walk_components(payload.get("components") or []):
        parts.append(c.get("custom_id") or "")
        parts += [o.get("value", "") for o in c.get("options") or []]
    return "\n".join(parts)


def custom_ids(payload: dict) -> list[str]:
    return [c.get("custom_id") or "" for c in walk_components(payload.get("components") or [])]


def opens_with_hand_header(text: str) -> bool:
    from bot.i18n import LANGUAGES, catalog

    return any(catalog(lang)[HAND_HEADER].split("{")[0] in text for lang in LANGUAGES)


# ---- the watch ----------------------------------------------------------------------------------------------------
@dataclass
class Written:
    """A message as it was written: its new lines, its reader (None: public), the secrets of the running tables."""

    message_id: int
    text: str
    reader: str | None
    tables: list[tuple[int, str, int, Secrets]]  # (table id, game, version, secrets then)


@dataclass
class Watch:
    h: "Harness"
    checked_lines: dict[int, set[str]] = field(default_factory=dict)
    written: list[Written] = field(default_factory=list)
    secrets: dict[tuple[int, int, int], Secrets] = field(default_factory=dict)
    public: dict[int, dict[int, frozenset[str]]] = field(default_factory=dict)  # table → version → public cards
    public_ever: dict[int, set[str]] = field(default_factory=dict)  # table → cards public at any version
    known: dict[str, set[str]] = field(default_factory=dict)  # player → cards private events showed them
    to_act: dict[int, set[int]] = field(default_factory=dict)  # table → people to act at its last update seen
    places: dict[int, int] = field(default_factory=dict)  # table → the channel it played in when last looked at
    turns: Counter[int] = field(default_factory=Counter)  # person → turns that began for them
    pings: Counter[int] = field(default_factory=Counter)  # person → board posts that notified them
    warnings: Counter[int] = field(default_factory=Counter)  # person → time warnings that notified them
    told: set[tuple[str, int, int]] = field(default_factory=set)  # (what, person, count) already reported
    subscribed: bool = False

    def tables(self) -> list["Table"]:
        service = getattr(self.h.bot, "service", None)
        return [] if service is None else list(service._tables.values())

    # -- what the bot writes (the fake Discord stores it)
    def on_write(self, payload: dict) -> None:
        running = self._about(payload)
        mid = int(payload["id"])
        lines = message_text(payload).splitlines()
        new = [line for line in lines if line not in self.checked_lines.get(mid, set())]
        self.checked_lines[mid] = set(lines)
        if not running or not new:
            return
        meta = payload.get("interaction_metadata") or {}
        reader = f"u{meta['user']['id']}" if payload["flags"] & EPHEMERAL and meta else None
        snapshots = [(t.id, t.row.game, t.version, self._secrets(t)) for t in running]
        self.written.append(Written(mid, "\n".join(new), reader, snapshots))

    def _about(self, payload: dict) -> list["Table"]:
        """The running tables a message is about: those its controls name, else those playing in its channel."""
        running = [t for t in self.tables() if t.status == "running" and t.state is not None]
        named = {int(m[1]) for cid in custom_ids(payload) if (m := TABLE_CONTROL.match(cid))}
        if named:
            return [t for t in running if t.id in named]
        channel = int(payload["channel_id"])
        return [t for t in running if channel in (t.row.channel_id, t.row.lobby_channel_id)]

    def on_create(self, payload: dict, body: dict) -> None:
        text = payload_text(payload)
        if opens_with_hand_header(text) and not payload["flags"] & EPHEMERAL:
            self.h.record_error(InvariantBroken(f"a hand view was sent without the ephemeral flag: {text[:200]!r}"))
        notified = [int(u) for u in (body.get("allowed_mentions") or {}).get("users", [])]
        if not notified:
            return
        from .discord_helpers import says

        if says(text, "table.time_warning"):
            self.warnings.update(notified)
        elif any(c.startswith("gh:hand:") for c in custom_ids(payload)):  # a board (a tournament's call is not)
            self.pings.update(notified)

    def _secrets(self, table: "Table") -> Secrets:
        key = (table.id, table.version, id(table.state))  # a test may put a prepared state at the same version
        if key not in self.secrets:
            self.secrets[key] = Secrets(table.row.game, table.state)
        return self.secrets[key]

    # -- what the service commits
    async def on_update(self, update: "Update") -> None:
        table = update.table
        if update.public_view is not None:
            cards = frozenset(string_leaves(update.public_view))
            self.public.setdefault(table.id, {})[update.version] = cards
            self.public_ever.setdefault(table.id, set()).update(cards)
        for ev in update.events:
            for reader in ev.visible_to or ():
                self.known.setdefault(reader, set()).update(string_leaves(ev.data))
        if update.state_text is None:
            return
        state = table.engine.load(update.state_text)
        people = {seat.user_id for p in table.engine.to_act(state) if (seat := table.seat_of(p))
                  and not seat.is_bot and seat.user_id is not None}
        self._turns_begin(table.id, people)

    def _turns_begin(self, table_id: int, people: set[int]) -> None:
        self.turns.update(people - self.to_act.get(table_id, set()))
        self.to_act[table_id] = people

    # -- once the bot is idle (settle), every update up to now delivered
    def check(self) -> None:
        service = getattr(self.h.bot, "service", None)
        if service is not None and not self.subscribed:
            service.core._listeners.insert(0, self.on_update)  # before the cogs': a turn is counted before its ping
            self.subscribed = True
        for table in self.tables():  # first seen (loaded after a restart), or moved (its thread deleted): the
            if table.status != "running":  # current turn counts as begun, its board posted where it plays now
                continue
            if table.id not in self.to_act or self.places.get(table.id, table.row.channel_id) != table.row.channel_id:
                self.turns.update(table.user_ids_to_act())
                self.to_act[table.id] = set(table.user_ids_to_act())
            self.places[table.id] = table.row.channel_id
        self._check_secrets()
        for counter, what in ((self.pings, "board posts"), (self.warnings, "time warnings")):
            for person, count in counter.items():
                if count > self.turns[person] and (what, person, count) not in self.told:
                    self.told.add((what, person, count))
                    self.h.record_error(InvariantBroken(
                        f"{count} {what} notified {person}, whose turn began {self.turns[person]} times"))

    def _check_secrets(self) -> None:
        written, self.written = self.written, []
        for w in written:
            for table_id, game, version, secrets in w.tables:
                known = self._public_near(table_id, game, version) | self.known.get(w.reader or "", set())
                known |= {c for other, g, _, s in w.tables if g == game and other != table_id  # the reader's own
                          for c in s.owners.get(w.reader or "", ())}  # cards at another table of the game
                for what in secrets.leaks(w.text, w.reader, known=known, rng_digits=RNG_DIGITS):
                    self.h.record_error(InvariantBroken(
                        f"message {w.message_id} to {w.reader or 'everyone'} shows {what!r}, a secret of table "
                        f"{table_id} ({game}) at version {version}: {w.text[:300]!r}"))

    def seen_by(self, reader: str | None, table: "Table") -> set[str]:
        """Cards ``reader`` (None: everyone) may have been shown at ``table`` lately: public ones, told ones."""
        return self._public_near(table.id, table.row.game, table.version) | self.known.get(reader or "", set())

    def _public_near(self, table_id: int, game: str, version: int) -> set[str]:
        """Cards public at this table in the versions a message written at ``version`` may have been drawn from,
        and at any version of the other tables of the game (a card public at one proves nothing at another)."""
        mine = self.public.get(table_id, {})
        near = set().union(*(mine.get(v, ()) for v in range(version - RECENT_VERSIONS, version + 1)))
        for other in self.tables():
            if other.row.game == game and other.id != table_id:
                near |= self.public_ever.get(other.id, set())
        return near


def watch(h: "Harness") -> Watch:
    """Check every message of ``h``'s bot (a ``GameHostBot``) from now on."""
    w = Watch(h)
    server = h.server
    create, update = server.create_message, server.update_message

    def create_message(channel_id: int, body: dict, files: dict, **kwargs: Any) -> dict:
        payload = create(channel_id, body, files, **kwargs)
        w.on_create(payload, body)
        return payload

    def update_message(p: dict, body: dict, files: dict) -> dict:
        payload = update(p, body, files)
        if "id" in payload and "flags" in payload:
            w.on_write(payload)
        return payload

    server.create_message = create_message  # type: ignore[method-assign]
    server.update_message = update_message  # type: ignore[method-assign]
    h.checks.append(w.check)
    h.invariants = w  # type: ignore[attr-defined]  # what it knows, for a test that checks more (the logs)
    return w
