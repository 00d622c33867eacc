"""Raw, unchecked interactions and the random bad inputs of the interaction fuzzer (``test_fuzz_interactions``).

``send_raw`` feeds an INTERACTION_CREATE exactly as ``Harness._interact`` does, minus every client-side check
(whose message a component is on, whether it is enabled, which select values are offered, option ranges):
a modified client or a forged request can send anything, so the bot must not rely on Discord's client to validate.
Each generator returns an :class:`Input`; every one of them must be refused (or only redraw the sender's own
hand) with a clear ephemeral answer and no change anywhere.
"""
from __future__ import annotations

import json
import random
import re
import string
from dataclasses import dataclass, field
from typing import Any, Callable, Optional

from .discord_harness import Harness, HarnessUser, Reply, SentMessage
from .discord_harness_http import snowflake
from .discord_harness_payloads import interaction_payload


@dataclass
class Input:
    kind: str
    user: HarnessUser
    type: int  # 2 slash command, 3 component, 5 modal submit
    data: dict[str, Any]
    channel_id: int
    message: Optional[SentMessage] = None


@dataclass
class Table:
    """What a generator may use of one running table: its players, a hand view, the board, codes of other games."""

    id: int
    game: str
    version: int
    channel_id: int
    due: HarnessUser  # a person who must act now
    other: HarnessUser  # a seated person who must not
    board: SentMessage
    hand: SentMessage  # the due person's current hand view
    secrets: list[str] = field(default_factory=list)  # other players' cards: never playable by ``due``


async def send_raw(h: Harness, inp: Input) -> Reply:
    payload = interaction_payload(h, inp.user, inp.type, inp.data, inp.channel_id, inp.message)
    reply = Reply(h.server, int(payload["id"]), payload["token"], inp.type, inp.channel_id, inp.user.payload,
                  source_message_id=inp.message.id if inp.message is not None else None)
    h.server.replies[reply.token] = reply
    h._hook_error_handlers()
    h.server.windows.append(reply.calls)
    try:
        h.dispatch("INTERACTION_CREATE", payload)
        await h.settle(check=False)
    finally:
        h.server.windows.remove(reply.calls)
    h.check_errors()
    return reply


def forge(h: Harness, channel_id: int, components: list[dict], *, ephemeral_for: Optional[HarnessUser] = None
          ) -> SentMessage:
    """A message "of the bot" holding forged components (public, or an ephemeral one of ``ephemeral_for``)."""
    p = {"id": str(snowflake()), "channel_id": str(channel_id), "type": 0, "author": h.bot_user, "content": "x",
         "embeds": [], "attachments": [], "mentions": [], "mention_roles": [], "mention_everyone": False,
         "pinned": False, "tts": False, "timestamp": "2024-01-01T00:00:00+00:00", "edited_timestamp": None,
         "flags": 64 if ephemeral_for else 0,
         "guild_id": str(h.server.channels[channel_id].get("guild_id") or h.guild_id),  # the channel's server
         "components": [{"type": 1, "components": [c]} for c in components[:5]]}
    if ephemeral_for is not None:
        p.update(webhook_id=str(h.app_id), application_id=str(h.app_id),
                 interaction_metadata={"id": str(snowflake()), "type": 3, "user": ephemeral_for.payload})
    return h.adopt(p)


def button(custom_id: str) -> dict:
    return {"type": 2, "style": 1, "label": "x", "custom_id": custom_id}


def select(custom_id: str, values: list[str]) -> dict:
    options = [{"label": (v or "?")[:100], "value": v[:100] or "?"} for v in values[:25]] or [{"label": "?",
                                                                                             "value": "?"}]
    return {"type": 3, "custom_id": custom_id, "options": options, "min_values": 0, "max_values": len(options)}


def junk(rng: random.Random, n: int | None = None) -> str:
    n = rng.randint(0, 120) if n is None else n
    # with digits of other scripts and superscripts, which a regex \d or str.isdigit() takes
    alphabet = string.printable + "é漢字🂠🃏١٢٣²³¹０９\u200b\u202e\x00"
    return "".join(rng.choice(alphabet) for _ in range(n))


def click(kind: str, user: HarnessUser, message: SentMessage, custom_id: str, *, on_message: bool = True,
          values: list[str] | None = None) -> Input:
    data: dict[str, Any] = {"custom_id": custom_id, "component_type": 2 if values is None else 3}
    if values is not None:
        data["values"] = values
    return Input(kind, user, 3, data, message.channel_id, message)


class Generators:
    """One method per kind of bad input; ``make`` picks a kind at random."""

    def __init__(self, h: Harness, rng: random.Random, tables: list[Table], stranger: HarnessUser,
                 lobby: tuple[int, int, SentMessage], codes: dict[str, list[str]],
                 commands: list[tuple[str, list[dict]]], guest: HarnessUser,
                 is_legal: Callable[[Table, str], bool], elsewhere: tuple[int, HarnessUser]) -> None:
        self.h, self.rng, self.tables, self.stranger, self.guest = h, rng, tables, stranger, guest
        self.other_channel, self.other_admin = elsewhere  # a channel of another server, and an admin there
        self.is_legal = is_legal  # whether a button code is a move the table's due player may make now
        self.lobby_id, self.lobby_channel, self.lobby_message = lobby
        self.codes, self.commands = codes, commands  # real button codes of each game; slash commands with bad options
        self.kinds: dict[str, Callable[[], Input]] = {
            name[4:]: getattr(self, name) for name in dir(self) if name.startswith("gen_")}

    def make(self) -> Input:
        """A random bad input; never a real move (a garbled id can still read as one, e.g. ``r:`` is a roll)."""
        while True:
            inp = self.kinds[self.rng.choice(sorted(self.kinds))]()
            m = re.fullmatch(r"gh:do:(\d+):(\d+):(\S+)", str(inp.data.get("custom_id", "")))
            table = next((t for t in self.tables if m and int(m[1]) == t.id and int(m[2]) == t.version), None)
            if table is None or inp.user.id != table.due.id or not self.is_legal(table, m[3]):  # type: ignore
                return inp

    def table(self) -> Table:
        return self.rng.choice(self.tables)

    def real_button(self, t: Table) -> Optional[str]:
        ids = [c["custom_id"] for c in t.hand.components if c.get("type") == 2 and c.get("custom_id", "")
               .startswith(f"gh:do:{t.id}:")]
        return self.rng.choice(ids) if ids else None

    # ---- who clicks ---------------------------------------------------------------------------------------------
    def gen_not_seated(self) -> Input:
        t = self.table()
        cid = self.real_button(t)
        if cid is None or self.rng.random() < 0.3:
            return click("not_seated", self.stranger, t.board, f"gh:hand:{t.id}")
        return click("not_seated", self.stranger, forge(self.h, t.channel_id, [button(cid)]), cid)

    def gen_wrong_seat(self) -> Input:
        t = self.table()
        cid = self.real_button(t) or f"gh:do:{t.id}:{t.version}:{self.rng.choice(self.codes[t.game])}"
        return click("wrong_seat", t.other, forge(self.h, t.channel_id, [button(cid)], ephemeral_for=t.other), cid)

    # ---- versions and ids -----------------------------------------------------------------------------------------
    def gen_stale_version(self) -> Input:
        t = self.table()
        old = self.rng.randint(0, max(t.version - 1, 0))
        if self.rng.random() < 0.3:
            cid = f"gh:pick:{t.id}:{old}:0:"
            return click("stale_version", t.due, forge(self.h, t.channel_id, [select(cid, ["x"])],
                                                       ephemeral_for=t.due), cid, values=["x"])
        cid = f"gh:do:{t.id}:{old}:{self.rng.choice(self.codes[t.game])}"[:100]
        return click("stale_version", t.due, forge(self.h, t.channel_id, [button(cid)], ephemeral_for=t.due), cid)

    def gen_garbled_id(self) -> Input:
        t = self.table()
        base = self.real_button(t) or f"gh:hand:{t.id}"
        choice = self.rng.randrange(6)
        if choice == 0:
            cid = junk(self.rng)
        elif choice == 1:
            cid = base[:self.rng.randint(0, len(base))]
        elif choice == 2:
            cid = base + junk(self.rng, self.rng.randint(1, 20))
        elif choice == 3:
            prefix = self.rng.choice(["do", "pick", "hand", "refresh", "back", "lobby", "x"])
            cid = f"gh:{prefix}:" + junk(self.rng)
        elif choice == 4:
            cid = "gh:do:" + ":".join(junk(self.rng, self.rng.randint(0, 6)) for _ in range(self.rng.randint(0, 6)))
        else:
            cid = base.replace(":", self.rng.choice([";", "::", ":\u200b", " :"]), 1)
        return click("garbled_id", t.due, forge(self.h, t.channel_id, [button(cid)], ephemeral_for=t.due), cid)

    def gen_overlong_id(self) -> Input:
        t = self.table()
        cid = f"gh:do:{t.id}:{t.version}:" + self.rng.choice(self.codes[t.game]) + "." * self.rng.randint(90, 400)
        return click("overlong_id", t.due, forge(self.h, t.channel_id, [button(cid)], ephemeral_for=t.due), cid)

    def gen_huge_numbers(self) -> Input:
        t = self.table()
        big = str(self.rng.choice([2 ** 63, 2 ** 64 + 1, 10 ** 30, 10 ** 200, 0, -t.id, 10 ** 19 - 1]))
        uni = "".join(self.rng.choice("١٢٣٤٥٦٧٨٩٠") for _ in range(3))  # \d matches these: ids 0–999
        sup = self.rng.choice(["²", f"{t.id}²", "０１", "¹²³"])  # isdigit() takes these; int() refuses them
        gid, ver = self.rng.choice([(big, t.version), (t.id, big), (uni, t.version), (t.id, uni), (sup, t.version),
                                    (t.id, sup), (f"000{t.id}", t.version), (f"0{t.id}", f"0{t.version}")])
        seat = self.rng.choice(self.codes[t.game]).split(".")[0]
        code = self.rng.choice([self.rng.choice(self.codes[t.game]), f"{seat}.²", f"{seat}.٣", f"{seat}.{'0' * 25}",
                                f"0{seat}.0", f"-{seat}.0", f"{seat}.-1", f"{seat}.{2 ** 63}"])
        bad = self.rng.choice([big, uni, sup, f"000{t.id}", f"0{t.id}"])  # never the table's own id
        cid = self.rng.choice([f"gh:do:{gid}:{ver}:" + self.rng.choice(self.codes[t.game]),
                               f"gh:do:{t.id}:{t.version}:{code}", f"gh:hand:{gid}", f"gh:refresh:{gid}",
                               f"gh:back:{gid}", f"gh:lobby:{gid}:start", f"gh:end:{bad}", f"gh:rematch:{bad}",
                               f"gh:tn:{bad}:join", f"gh:lobbyrm:{bad}:{ver}"])
        return click("huge_numbers", t.due, forge(self.h, t.channel_id, [button(cid)], ephemeral_for=t.due), cid)

    def gen_other_server(self) -> Input:
        """An admin of another server clicks a control naming one of this server's tables or its lobby."""
        t = self.table()
        cid = self.rng.choice([f"gh:end:{t.id}", f"gh:hand:{t.id}", f"gh:back:{t.id}", f"gh:refresh:{t.id}",
                               self.real_button(t) or f"gh:hand:{t.id}", f"gh:lobby:{self.lobby_id}:join",
                               f"gh:lobby:{self.lobby_id}:start", f"gh:lobby:{self.lobby_id}:bot:easy",
                               f"gh:end:{self.lobby_id}", f"gh:pick:{t.id}:{t.version}:0:"])
        if "pick" in cid:
            return click("other_server", self.other_admin, forge(self.h, self.other_channel, [select(cid, ["a"])]),
                         cid, values=["a"])
        return click("other_server", self.other_admin, forge(self.h, self.other_channel, [button(cid)]), cid)

    def gen_unknown_game(self) -> Input:
        t = self.table()
        gid = self.rng.choice([9_999, 123_456, 7])
        while any(x.id == gid for x in self.tables) or gid == self.lobby_id:
            gid += 1
        cid = self.rng.choice([f"gh:hand:{gid}", f"gh:do:{gid}:1:x", f"gh:refresh:{gid}", f"gh:back:{gid}",
                               f"gh:lobby:{gid}:join", f"gh:pick:{gid}:3:0:",
                               # a table that has not started: no hand, no moves yet
                               f"gh:hand:{self.lobby_id}", f"gh:refresh:{self.lobby_id}", f"gh:do:{self.lobby_id}:1:x",
                               f"gh:pick:{self.lobby_id}:1:0:"])
        comp = select(cid, ["a"]) if "pick" in cid else button(cid)
        return click("unknown_game", t.due, forge(self.h, t.channel_id, [comp]), cid,
                     values=["a"] if "pick" in cid else None)

    def gen_not_on_message(self) -> Input:
        """A valid-looking custom_id that the message it claims to come from does not have."""
        t = self.table()
        cid = f"gh:do:{t.id}:{t.version}:{self.rng.choice(self.codes[t.game])}"
        return click("not_on_message", t.due, t.board, cid)

    # ---- actions that do not fit ------------------------------------------------------------------------------
    def gen_forged_code(self) -> Input:
        """Current version, the due player, but a code of another game, garbage, or another player's cards."""
        t = self.table()
        other_games = [c for g, cs in self.codes.items() if g != t.game for c in cs]
        choice = self.rng.randrange(4)
        if choice == 0 and other_games:
            code = self.rng.choice(other_games)
        elif choice == 1 and t.secrets:
            code = self.rng.choice(self.codes[t.game]).split(":")[0] + ":" + ".".join(
                self.rng.sample(t.secrets, min(len(t.secrets), self.rng.randint(1, 3))))
        elif choice == 2:
            code = junk(self.rng, self.rng.randint(1, 30)).replace(" ", "_") or "z"
        else:
            code = self.rng.choice(["?", "x:y:z", "p:" + "9" * 40, "g:nobody", "s:u999", "d:bot9", "k:1", "r:1"])
        code = "".join(ch for ch in code if not ch.isspace()) or "z"
        cid = f"gh:do:{t.id}:{t.version}:{code}"[:100]
        return click("forged_code", t.due, forge(self.h, t.channel_id, [button(cid)], ephemeral_for=t.due), cid)

    def gen_select_not_offered(self) -> Input:
        t = self.table()
        menus = [c for c in t.hand.components if c.get("type") == 3]
        choice = self.rng.randrange(4)
        values = {0: lambda: [junk(self.rng, self.rng.randint(1, 40)) for _ in range(self.rng.randint(1, 3))],
                  1: lambda: self.rng.sample(t.secrets, min(len(t.secrets), 2)) or ["nope"],
                  2: lambda: ["Z" * self.rng.randint(101, 4000)],
                  3: lambda: [str(i) for i in range(self.rng.randint(26, 60))]}[choice]()
        if menus and self.rng.random() < 0.6:
            return click("select_not_offered", t.due, t.hand, menus[0]["custom_id"], values=values)
        cid = f"gh:pick:{t.id}:{t.version}:0:"
        return click("select_not_offered", t.due, forge(self.h, t.channel_id, [select(cid, ["a"])],
                                                        ephemeral_for=t.due), cid, values=values)

    def gen_hand_controls_on_public_message(self) -> Input:
        """Hand-view controls (pick, refresh) forged onto a public message: a hand must never go public."""
        t = self.table()
        if self.rng.random() < 0.5:
            cid = f"gh:refresh:{t.id}"
            return click("hand_controls_on_public_message", t.due, forge(self.h, t.channel_id, [button(cid)]), cid)
        cid = f"gh:pick:{t.id}:{t.version}:0:"
        return click("hand_controls_on_public_message", t.due, forge(self.h, t.channel_id, [select(cid, ["a"])]),
                     cid, values=["a"])

    def gen_lobby_refused(self) -> Input:
        t = self.table()
        host = self.tables[0].due if self.tables[0].due.id != self.guest.id else self.tables[0].other
        who, op, gid = self.rng.choice([  # the lobby's host hosts every table; the guest sits at the tables only
            (self.guest, "start", self.lobby_id), (self.guest, "bot", self.lobby_id),
            (self.stranger, "leave", self.lobby_id), (host, "join", self.lobby_id), (host, "start", t.id),
            (self.guest, "join", t.id), (self.guest, "bot", t.id), (self.stranger, "leave", t.id)])
        cid = f"gh:lobby:{gid}:{op}"
        return click("lobby_refused", who, forge(self.h, self.lobby_channel, [button(cid)]), cid)

    def gen_back_not_away(self) -> Input:
        t = self.table()
        cid = f"gh:back:{t.id}"
        return click("back_not_away", self.rng.choice([t.due, t.other, self.stranger]),
                     forge(self.h, t.channel_id, [button(cid)]), cid)

    # ---- commands and modals ----------------------------------------------------------------------------------------
    def gen_slash_bad_options(self) -> Input:
        t = self.table()
        name, options = self.rng.choice(self.commands)
        user = self.rng.choice([self.stranger, self.guest])  # never a table's host: they may end it
        if name == "game" and options[0]["name"] == "leave":
            user = self.stranger  # a seated guest may leave (a bot takes the seat): that is no bad input
        channel = self.rng.choice([t.channel_id, self.lobby_channel])
        data = {"id": str(snowflake()), "name": name, "type": 1, "options": json.loads(json.dumps(options))}
        return Input("slash_bad_options", user, 2, data, channel)

    def gen_unknown_modal(self) -> Input:
        t = self.table()
        data = {"custom_id": self.rng.choice([junk(self.rng, 20), f"gh:do:{t.id}:{t.version}:x"]),
                "components": [{"type": 1, "components": [{"type": 4, "custom_id": "a", "value": junk(self.rng)}]}]}
        return Input("unknown_modal", t.due, 5, data, t.channel_id, t.hand)

