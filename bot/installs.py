"""Where each slash command may be installed and used (Discord's ``integration_types`` and ``contexts``), in one
table (:data:`COMMAND_REACH`), declared on every top-level command at start-up (:func:`declare_reach`).

The table commands (``/play``, ``/rules``, ``/game``) can be installed to a person's own account and used in
servers, in a DM with the bot and in group DMs. Everything that belongs to a server (its settings and limits, its
tournaments, its ratings and stats) is installed with the server only and used in its channels; one run elsewhere
anyway (a person's own install in a server that has not added the bot, or an old client) is answered with why
(:func:`outside_its_server`)."""
from __future__ import annotations

from enum import Enum

import discord
from discord import app_commands


class CommandReach(Enum):
    ANYWHERE = "anywhere"  # installable to a server or a user; usable in servers, DMs and group DMs
    SERVER = "server"  # installed with a server and used in its channels only


INSTALLS = {
    CommandReach.ANYWHERE: app_commands.AppInstallationType(guild=True, user=True),
    CommandReach.SERVER: app_commands.AppInstallationType(guild=True, user=False),
}
CONTEXTS = {
    CommandReach.ANYWHERE: app_commands.AppCommandContext(guild=True, dm_channel=True, private_channel=True),
    CommandReach.SERVER: app_commands.AppCommandContext(guild=True, dm_channel=False, private_channel=False),
}
COMMAND_REACH: dict[str, CommandReach] = {
    "play": CommandReach.ANYWHERE,
    "rules": CommandReach.ANYWHERE,
    "game": CommandReach.ANYWHERE,
    "config": CommandReach.SERVER,
    "tournament": CommandReach.SERVER,
    "stats": CommandReach.SERVER,
    "leaderboard": CommandReach.SERVER,
}


def declare_reach(tree: app_commands.CommandTree) -> None:
    """Every top-level command gets its row's installation types and contexts; a command without a row fails the
    start (a new command must say where it may run)."""
    for command in tree.get_commands():
        reach = COMMAND_REACH.get(command.name)
        if reach is None:
            raise LookupError(f"/{command.name} has no row in cogs.installs.COMMAND_REACH")
        command.allowed_installs = INSTALLS[reach]
        command.allowed_contexts = CONTEXTS[reach]
        command.guild_only = reach is CommandReach.SERVER  # the deprecated dm_permission, kept consistent


def by_server_install(interaction: discord.Interaction) -> bool:
    """The interaction runs in a server that installed the bot (not a person's own install used there, nor a DM)."""
    return interaction.guild_id is not None and interaction.is_guild_integration()


def outside_its_server(interaction: discord.Interaction) -> bool:
    """A server-only command run where it does not belong."""
    command = interaction.command
    if command is None or interaction.type is not discord.InteractionType.application_command:
        return False
    root = command.root_parent if isinstance(command, app_commands.Command) else None
    name = (root or command).name
    return COMMAND_REACH.get(name) is CommandReach.SERVER and not by_server_install(interaction)
