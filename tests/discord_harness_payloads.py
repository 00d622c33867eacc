"""Raw gateway payloads for the Discord test harness: users/members, the guild, and slash-command option data
built from the bot's own command tree (so a test names ``"game status"`` and Discord's nesting is derived)."""
from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import TYPE_CHECKING, Any, Iterable, Optional

import discord
from discord import app_commands
from discord.enums import AppCommandOptionType as Opt

from .discord_harness_http import now_iso, snowflake

ATTACHMENT_SIZE_LIMIT = 10 * 1024 * 1024  # bytes per file a server without boosts accepts (interactions say so)
MAX_UPLOADS = 10  # files per message

if TYPE_CHECKING:
    from .discord_harness import Harness

MEMBER_PERMISSIONS = discord.Permissions(  # what a plain member may do (also @everyone's permissions)
    view_channel=True, send_messages=True, send_messages_in_threads=True, create_public_threads=True,
    embed_links=True, attach_files=True, add_reactions=True, use_external_emojis=True, read_message_history=True,
    use_application_commands=True, connect=True, speak=True, change_nickname=True, create_instant_invite=True)


@dataclass
class HarnessUser:
    """A member of the harness guild. ``permissions`` is the integer Discord puts in interaction payloads."""

    id: int
    name: str
    locale: str = "en-US"
    permissions: int = 0
    roles: list[int] = field(default_factory=list)
    bot: bool = False

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"

    @property
    def payload(self) -> dict:
        return {"id": str(self.id), "username": self.name, "global_name": None, "discriminator": "0",
                "avatar": None, "bot": self.bot, "public_flags": 0}

    def member(self) -> dict:
        return {"user": self.payload, "nick": None, "roles": [str(r) for r in self.roles], "joined_at": now_iso(),
                "deaf": False, "mute": False, "flags": 0, "pending": False, "premium_since": None,
                "permissions": str(self.permissions)}


def member_add(user: HarnessUser, guild_id: int) -> dict:
    data = user.member()
    del data["permissions"]
    return {**data, "guild_id": str(guild_id)}


def channel_payload(cid: int, name: str, guild_id: int, position: int = 0) -> dict:
    return {"id": str(cid), "type": 0, "guild_id": str(guild_id), "name": name, "position": position,
            "permission_overwrites": [], "parent_id": None, "nsfw": False, "topic": None, "last_message_id": None,
            "rate_limit_per_user": 0, "flags": 0}


def ready_payloads(h: "Harness") -> list[dict]:
    """READY as the gateway sends it: once, or for an ``AutoShardedClient`` once per shard it runs (``shard: [id,
    count]``), each listing the guilds of that shard (``(guild_id >> 22) % count``). Sets on the state what
    ``launch_shards`` would before its websockets connect."""
    ready = {"v": 10, "user": h.bot_user, "session_id": "harness", "private_channels": [],
             "guilds": [{"id": str(h.guild_id), "unavailable": True}], "resume_gateway_url": "wss://gateway.invalid",
             "application": {"id": str(h.app_id), "flags": 0}}
    if not isinstance(h.bot, discord.AutoShardedClient):
        return [ready]
    count, ids = h.bot.shard_count, list(h.bot.shard_ids or range(h.bot.shard_count or 1))
    if count is None or (h.guild_id >> 22) % count not in ids:
        raise ValueError(f"guild {h.guild_id} is on none of the bot's shards {ids} of {count}")
    h.state.shard_count, h.state.shard_ids = count, ids
    return [{**ready, "session_id": f"harness-{i}", "shard": [i, count],
             "guilds": [g for g in ready["guilds"] if (int(g["id"]) >> 22) % count == i]} for i in ids]


def guild_payload(h: "Harness", guild_id: Optional[int] = None, channel_ids: Optional[Iterable[int]] = None) -> dict:
    """GUILD_CREATE: @everyone, the bot's managed role (its app permissions), the text channels, the bot member.
    By default the harness's guild; ``guild_id`` and ``channel_ids`` for another server the bot is in."""
    guild_id = h.guild_id if guild_id is None else guild_id
    bot_role = guild_id + 1
    roles = [(guild_id, "@everyone", MEMBER_PERMISSIONS.value, False),
             (bot_role, "GameHost", h.app_permissions.value, True)]
    me = {"user": h.bot_user, "roles": [str(bot_role)], "joined_at": now_iso(), "deaf": False, "mute": False,
          "flags": 0}
    channels = h.channel_ids.values() if channel_ids is None else channel_ids
    return {
        "id": str(guild_id), "name": "Harness Guild", "icon": None, "owner_id": str(guild_id + 2),
        "unavailable": False, "large": False, "member_count": 1, "members": [me], "preferred_locale": h.guild_locale,
        "roles": [{"id": str(i), "name": n, "permissions": str(p), "position": 0 if n == "@everyone" else 1,
                   "color": 0, "hoist": False, "managed": m, "mentionable": False, "flags": 0} for i, n, p, m in roles],
        "channels": [h.server.channels[cid] for cid in channels], "threads": [], "emojis": [],
        "stickers": [], "features": [], "voice_states": [], "presences": [], "stage_instances": [],
        "guild_scheduled_events": [], "soundboard_sounds": [], "joined_at": now_iso(), "verification_level": 0,
        "default_message_notifications": 0, "explicit_content_filter": 0, "mfa_level": 0, "nsfw_level": 0,
        "premium_tier": 0, "system_channel_id": None, "afk_channel_id": None, "afk_timeout": 300,
    }


def find_command(h: "Harness", path: str):
    """``"play akuma"`` → (root command, leaf command, the command's guild id if guild-only)."""
    from .discord_harness import HarnessError

    names = path.split()
    tree: app_commands.CommandTree = h.bot.tree
    guild_id, root = None, tree.get_command(names[0])
    if root is None:
        guild_id, root = h.guild_id, tree.get_command(names[0], guild=discord.Object(h.guild_id))
    if root is None:
        raise HarnessError(f"no slash command /{names[0]}; the tree has {[c.name for c in tree.get_commands()]}")
    leaf = root
    for name in names[1:]:
        leaf = leaf.get_command(name) if isinstance(leaf, app_commands.Group) else None
        if leaf is None:
            raise HarnessError(f"/{path}: no subcommand {name!r}")
    if not isinstance(leaf, app_commands.Command):
        raise HarnessError(f"/{path} is a group: name a subcommand ({[c.name for c in leaf.commands]})")
    return root, leaf, guild_id


def build_options(h: "Harness", user: HarnessUser, path: str, given: dict[str, Any],
                  focused: Optional[str] = None) -> dict:
    """The ``data`` of an application-command (or autocomplete) interaction, validated like Discord's client."""
    from .discord_harness import HarnessError

    root, leaf, guild_id = find_command(h, path)
    needed = root.default_permissions
    if needed is not None and not discord.Permissions(user.permissions).is_superset(needed) \
            and not discord.Permissions(user.permissions).administrator:
        raise HarnessError(f"{user.name} lacks the default_member_permissions of /{root.name}: Discord hides it")
    resolved: dict[str, dict] = {}
    options, given = [], dict(given)
    for param in leaf.parameters:
        key = param.name if param.name in given else param.display_name
        if key not in given:
            if param.required and focused is None:
                raise HarnessError(f"/{path}: required option {param.display_name!r} missing")
            continue
        value = _option_value(h, param, given.pop(key), resolved, path)
        option = {"name": param.display_name, "type": param.type.value, "value": value}
        if focused in (param.name, param.display_name):
            option["focused"] = True
        options.append(option)
    if given:
        raise HarnessError(f"/{path} has no options {list(given)}; it has {[p.name for p in leaf.parameters]}")
    names = path.split()
    for depth in range(len(names) - 1, 0, -1):  # wrap in SUB_COMMAND (1) then SUB_COMMAND_GROUP (2)
        options = [{"type": 1 if depth == len(names) - 1 else 2, "name": names[depth], "options": options}]
    data = {"id": str(snowflake()), "name": root.name, "type": 1, "options": options}
    if resolved:
        data["resolved"] = resolved
    if guild_id:
        data["guild_id"] = str(guild_id)
    return data


def _option_value(h: "Harness", param, value: Any, resolved: dict, path: str) -> Any:
    from .discord_harness import HarnessError

    if isinstance(value, app_commands.Choice):
        value = value.value
    if isinstance(value, Enum):
        value = value.value
    if param.choices:
        by_name = {c.name: c.value for c in param.choices}
        value = by_name.get(value, value)
        if value not in [c.value for c in param.choices]:
            raise HarnessError(f"/{path} {param.display_name}: {value!r} is not one of {list(by_name)}")
    if param.type in (Opt.user, Opt.mentionable) and (isinstance(value, HarnessUser) or int(value) in h.users):
        target = h.users[int(getattr(value, "id", value))]
        resolved.setdefault("users", {})[str(target.id)] = target.payload
        member = {k: v for k, v in target.member().items() if k != "user"}
        resolved.setdefault("members", {})[str(target.id)] = member
        return str(target.id)
    if param.type is Opt.channel:
        cid = int(getattr(value, "id", value))
        resolved.setdefault("channels", {})[str(cid)] = {**h.server.channels[cid], "permissions": "0"}
        return str(cid)
    if param.type in (Opt.role, Opt.mentionable):
        rid = int(getattr(value, "id", value))
        role = h.guild.get_role(rid)
        if role is None:
            raise HarnessError(f"/{path} {param.display_name}: no role {rid}")
        resolved.setdefault("roles", {})[str(rid)] = {"id": str(rid), "name": role.name, "color": 0, "hoist": False,
                                                       "position": role.position, "managed": False,
                                                       "mentionable": False, "flags": 0,
                                                       "permissions": str(role.permissions.value)}
        return str(rid)
    if param.type is Opt.attachment:
        raise HarnessError("attachment options are not supported by the harness")
    cast = {Opt.integer: int, Opt.number: float, Opt.boolean: bool, Opt.string: str}[param.type]
    value = cast(value)
    low, high = param.min_value, param.max_value
    if (low is not None and (len(value) if isinstance(value, str) else value) < low) or (
            high is not None and (len(value) if isinstance(value, str) else value) > high):
        raise HarnessError(f"/{path} {param.display_name}: {value!r} is outside [{low}, {high}]")
    return value


def interaction_payload(h: "Harness", user: HarnessUser, kind: int, data: dict, channel_id: int,
                        message: Optional[Any]) -> dict:
    """INTERACTION_CREATE as Discord sends it to a guild bot; ``message`` (a SentMessage) for components/modals.
    The interaction comes from the server of ``channel_id`` (see ``Harness.add_guild``)."""
    iid = snowflake()
    if h.server.channels[channel_id]["type"] in PRIVATE_TYPES:
        return private_interaction(h, user, iid, kind, data, channel_id, message)
    guild_id = int(h.server.channels[channel_id].get("guild_id") or h.guild_id)
    payload = {
        "id": str(iid), "application_id": str(h.app_id), "type": kind, "data": data, "token": f"tok-{iid}",
        "version": 1, "guild_id": str(guild_id), "channel_id": str(channel_id),
        "guild": {"id": str(guild_id), "locale": h.guild_locale, "features": []},
        "channel": {**h.server.channels[channel_id], "permissions": str(user.permissions)}, "member": user.member(),
        "locale": user.locale, "guild_locale": h.guild_locale, "app_permissions": str(h.app_permissions.value),
        "entitlements": [], "authorizing_integration_owners": {"0": str(guild_id)}, "context": 0,
        "attachment_size_limit": ATTACHMENT_SIZE_LIMIT}
    if message is not None:
        payload["message"] = message.payload
    return payload


DM, GROUP_DM = 1, 3  # channel types
PRIVATE_TYPES = (DM, GROUP_DM)
BOT_DM, PRIVATE_CHANNEL = 1, 2  # interaction contexts
# What Discord sends as ``app_permissions`` outside a server: Attach Files, Embed Links, Mention Everyone only.
PRIVATE_APP_PERMISSIONS = (1 << 15) | (1 << 14) | (1 << 17)


def private_channel_payload(cid: int, kind: int, users: list[HarnessUser]) -> dict:
    """A DM of one person with the bot, or a group DM of people (the bot is never a member of one)."""
    payload = {"id": str(cid), "type": kind, "last_message_id": None, "flags": 0,
               "recipients": [u.payload for u in users]}
    if kind == GROUP_DM:
        payload.update(name=None, icon=None, owner_id=str(users[0].id))
    return payload


def private_interaction(h: "Harness", user: HarnessUser, iid: int, kind: int, data: dict, channel_id: int,
                        message: Optional[Any]) -> dict:
    """INTERACTION_CREATE from a DM with the bot or a group DM, for an app the person installed to their account:
    no guild, a ``user`` instead of a member, the context, and the reduced ``app_permissions``."""
    channel = h.server.channels[channel_id]
    payload = {
        "id": str(iid), "application_id": str(h.app_id), "type": kind, "data": data, "token": f"tok-{iid}",
        "version": 1, "channel_id": str(channel_id), "channel": channel, "user": user.payload,
        "locale": user.locale, "app_permissions": str(PRIVATE_APP_PERMISSIONS), "entitlements": [],
        "authorizing_integration_owners": {"1": str(user.id)},
        "context": BOT_DM if channel["type"] == DM else PRIVATE_CHANNEL,
        "attachment_size_limit": ATTACHMENT_SIZE_LIMIT}
    if message is not None:
        payload["message"] = message.payload
    return payload


def modal_answers(form: dict, values: dict[str, Any]) -> list[dict]:
    """The submitted ``components`` of a modal: its rows/labels with each input's value (required ones enforced)."""
    from .discord_harness import HarnessError

    left = dict(values)

    def answer(c: dict) -> dict:
        value = left.pop(c["custom_id"], c.get("value") or "")
        if c["type"] == 4:
            if c.get("required", True) and not value:
                raise HarnessError(f"text input {c['custom_id']!r} is required")
            return {"type": 4, "custom_id": c["custom_id"], "value": value}
        return {"type": c["type"], "custom_id": c["custom_id"], "values": list(value or [])}

    rows = [{"type": 1, "components": [answer(c) for c in row["components"]]} if row["type"] == 1
            else {"type": 18, "component": answer(row["component"])}
            for row in form["components"] if row["type"] in (1, 18)]
    if left:
        raise HarnessError(f"the modal has no inputs {list(left)}")
    return rows
