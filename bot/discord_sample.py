"""Every kind of message the bot sends, for a seeded game of each kind in each language, as the request bodies
discord.py builds for Discord — checked against ``bot.discord_rules`` by the sweep test and ``python -m bot check``.

Per game and language: the lobby (posted, redrawn, started; in the channel or in its thread), the table's thread
(started from the lobby), the rules pages, and at every decision point of a seeded random game the public board
(posted and edited, with its picture), the event and turn lines, and every seat's hand view that may act (opened,
and redrawn with a selection), plus ``/game status``, the timeout lines and the result told in the lobby's channel.
Seats carry 32-character names, the longest display name Discord allows.
"""
from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from typing import Any, Iterator, Optional, Sequence

import discord
from discord.http import handle_message_parameters
from discord.webhook.async_ import interaction_message_response_params

from bot.discord_rules.limits import MESSAGE_CONTENT
from engines import get_engine

from .discord_rules import callback_errors, message_errors, thread_errors
from .discord_rules.problems import Answer
from .games import engine_hooks, games
from .i18n import LANGUAGES, t
from .storage import GameRow, GameStatus, SeatRow
from .table import Table, human_player

APPLICATION_COMMAND, MESSAGE_COMPONENT = 2, 3
CHANNEL_MESSAGE, UPDATE_MESSAGE = 4, 7
FIRST_USER = 900_000_000_000_001_000
LONG_NAME = 32


@dataclass
class Sample:
    """One request body: a channel message (``edit`` or not) or an interaction callback (``interaction`` type)."""

    what: str
    body: dict
    uploads: list[str] = field(default_factory=list)
    edit: bool = False
    interaction: int = 0
    thread: bool = False  # the body of a thread started from a message

    def errors(self) -> Optional[Answer]:
        if self.thread:
            return thread_errors(self.body, from_message=True)
        if self.interaction:
            return callback_errors(self.interaction, self.body, self.uploads)
        return message_errors(self.body, self.uploads, creating=not self.edit)


def body_and_uploads(params: Any) -> tuple[dict, list[str]]:
    """The JSON body of discord.py's request (``payload_json`` of a multipart one) and its files' names."""
    body = params.payload
    if body is None:
        body = json.loads(next(p["value"] for p in params.multipart if p["name"] == "payload_json"))
    return body, [f.filename for f in params.files or []]


def channel_message(what: str, *, edit: bool = False, **kwargs: Any) -> Sample:
    return Sample(what, *body_and_uploads(handle_message_parameters(**kwargs)), edit=edit)


def callback(what: str, interaction: int, kind: int = CHANNEL_MESSAGE, *, ephemeral: bool = True,
             **kwargs: Any) -> Sample:
    flags = discord.MessageFlags(ephemeral=ephemeral) if kind == CHANNEL_MESSAGE else discord.utils.MISSING
    params = interaction_message_response_params(type=kind, flags=flags, **kwargs)
    return Sample(what, *body_and_uploads(params), interaction=interaction)


def seated_table(game: str, lang: str, players: int, status: GameStatus = GameStatus.RUNNING, seed: int = 1,
                 names: Sequence[str] = ()) -> Table:
    """A table of people named ``names`` (in seat order), the other seats with the longest names, dealt from
    ``seed`` (no storage: nothing is written)."""
    seats = [SeatRow(i, human_player(FIRST_USER + i), names[i] if i < len(names) else long_name(i), FIRST_USER + i)
             for i in range(players)]
    row = GameRow(id=4242, guild_id=1, channel_id=2, game=game, options={}, seed=seed, status=status,
                  host_id=FIRST_USER, locale=lang, seats=seats)
    table = Table(row)
    if status is GameStatus.RUNNING:
        table.state = get_engine(game).new_game([s.player for s in seats], seed=seed)
    return table


def long_name(seat: int) -> str:
    return f"{seat + 1}" + "Ｗ" * (LONG_NAME - 1)


def lobby_samples(game: str, lang: str, names: Sequence[str] = ()) -> Iterator[Sample]:
    from cogs.common import NO_MENTIONS
    from cogs.lobby import lobby_embed, lobby_view
    from cogs.rules import rules_messages
    from cogs.table_thread import AUTO_ARCHIVE_MINUTES, THREAD_PERMISSIONS, lobby_note, thread_name

    table = seated_table(game, lang, get_engine(game).max_players, status=GameStatus.LOBBY, names=names)
    embed, view = lobby_embed(table, lang), lobby_view(table, lang)
    yield callback("lobby", APPLICATION_COMMAND, ephemeral=False, embed=embed, view=view,
                   allowed_mentions=NO_MENTIONS)
    yield channel_message("lobby redrawn", edit=True, embed=embed, view=view)
    yield callback("/game status (lobby)", APPLICATION_COMMAND, embed=embed, allowed_mentions=NO_MENTIONS)
    yield channel_message("lobby started", edit=True, content=t("lobby.started", lang), embed=embed, view=None)
    yield callback("lobby (no thread)", APPLICATION_COMMAND, ephemeral=False, embed=embed, view=view,
                   content=lobby_note(list(THREAD_PERMISSIONS), lang), allowed_mentions=NO_MENTIONS)
    yield Sample("table thread", {"name": thread_name(table), "auto_archive_duration": AUTO_ARCHIVE_MINUTES},
                 thread=True)
    yield channel_message("lobby started (thread)", edit=True, embed=embed, view=None,
                          content=t("lobby.playing_in_thread", lang, thread=f"<#{FIRST_USER}>"))
    for embeds in rules_messages(game, lang):  # the first is the answer; any more are followups alike
        yield callback("/rules", APPLICATION_COMMAND, embeds=embeds)


async def board_samples(table: Table, lang: str, *, first: bool) -> list[Sample]:
    from cogs.board import board_message, board_view
    from cogs.common import NO_MENTIONS, board_embed

    board = await board_message(table, lang)
    samples = [channel_message("board edited", edit=True, **board.edit())]
    if first:
        samples.append(channel_message("board", **board.send()))
        samples.append(callback("/game status", APPLICATION_COMMAND, embed=board_embed(table, lang),
                                view=board_view(table, lang), allowed_mentions=NO_MENTIONS))
    return samples


def line_samples(table: Table, lang: str, events: list, *, first: bool) -> Iterator[Sample]:
    """The event and turn lines (with My hand and the game's public buttons), as the table cog posts them."""
    from bot import render
    from cogs.common import names_for
    from cogs.controls import BackButton
    from cogs.table import board_view

    names = names_for(table, lang)
    lines = [line for ev in events if ev.visible_to is None and (line := render.event_line(table.row.game, ev,
                                                                                           names, lang))]
    users = table.user_ids_to_act()
    mentions = discord.AllowedMentions(users=[discord.Object(u) for u in users], everyone=False, roles=False)
    players = " ".join(f"<@{u}>" for u in users)
    if users:
        lines.append(t("table.your_turn", lang, players=players))
    if lines:
        yield channel_message("event lines", content="\n".join(lines)[:MESSAGE_CONTENT], allowed_mentions=mentions,
                              view=board_view(table, lang, public_controls=bool(users)))
    if first and users:
        name = names(table.to_act()[0])
        back = discord.ui.View(timeout=None)
        back.add_item(BackButton(table.id, lang))
        away = t("table.timed_out", lang, player=name) + "\n" + t("table.seat_away", lang, player=name)
        yield channel_message("timeout lines", content=away, view=back, allowed_mentions=mentions)
        yield channel_message("time warning", content=t("table.time_warning", lang, players=players, seconds=30),
                              view=board_view(table, lang), allowed_mentions=mentions)


def hand_samples(table: Table, lang: str) -> Iterator[Sample]:
    """Each seat that may act: its hand view as opened, and redrawn with the first option of each select chosen."""
    from cogs.controls import hand_content, hand_files

    for seat in table.seats:
        player = seat.player
        if player not in table.to_act() and not table.engine.out_of_turn_actions(table.state, player):
            continue
        content, view = hand_content(table, player, lang)
        yield callback("hand view", MESSAGE_COMPONENT, content=content, view=view,
                       files=hand_files(table, player, [], lang) or discord.utils.MISSING)
        selection = [s.options[0].value for s in view.children if isinstance(s, discord.ui.Select) and s.options]
        content, view = hand_content(table, player, lang, selection=selection)
        yield callback("hand view with a selection", MESSAGE_COMPONENT, UPDATE_MESSAGE, content=content,
                       view=view, attachments=hand_files(table, player, selection, lang) or discord.utils.MISSING)


async def game_samples(game: str, lang: str, *, seed: int = 1, players: Optional[int] = None,
                       max_steps: Optional[int] = None, names: Sequence[str] = ()) -> list[Sample]:
    """Every message of one seeded game of ``game`` in ``lang`` (random legal moves; ``max_steps`` caps it), its
    people named ``names`` in seat order (else, and for the lobby's further seats, the longest names)."""
    engine = get_engine(game)
    table = seated_table(game, lang, players or min(4, engine.max_players), seed=seed, names=names)
    rnd = random.Random(seed)
    samples = tagged(lobby_samples(game, lang, names), f"{game} {lang}")
    start_events = engine_hooks(game).start_events
    events: list = list(start_events(table.state)) if start_events else []
    steps = 0
    while table.to_act() and (max_steps is None or steps < max_steps):
        batch = await board_samples(table, lang, first=steps == 0)
        batch += line_samples(table, lang, events, first=steps == 0)
        batch += hand_samples(table, lang)
        samples += tagged(batch, f"{game} {lang} v{table.version}")
        player = rnd.choice(table.to_act())
        table.state, events = engine.apply(table.state, player, rnd.choice(engine.legal_actions(table.state, player)))
        table.row.version += 1
        steps += 1
    if not table.to_act():
        table.row.status = GameStatus.FINISHED
    batch = await board_samples(table, lang, first=False) + list(line_samples(table, lang, events, first=False))
    batch += end_samples(table, lang)
    return samples + tagged(batch, f"{game} {lang} v{table.version} ({table.row.status})")


def end_samples(table: Table, lang: str) -> list[Sample]:
    """What the lobby's channel is told at the end of a table that played in its thread."""
    from cogs.common import NO_MENTIONS, board_embed

    thread = f"<#{FIRST_USER}>"
    if table.row.status is not GameStatus.FINISHED:
        return []
    return [channel_message("result in the channel", content=t("table.result_in_thread", lang, id=table.id,
                                                                  thread=thread),
                            embed=board_embed(table, lang), allowed_mentions=NO_MENTIONS),
            channel_message("ended in the channel", content=t("table.ended_in_thread", lang, id=table.id,
                                                                 thread=thread), allowed_mentions=NO_MENTIONS),
            channel_message("no thread", content=t("table.no_thread.error", lang, error="503"),
                            allowed_mentions=NO_MENTIONS)]


def tagged(samples: Any, prefix: str) -> list[Sample]:
    found = list(samples)
    for sample in found:
        sample.what = f"{prefix}: {sample.what}"
    return found


async def all_samples(*, max_steps: Optional[int] = None) -> list[Sample]:
    """Every game in every language."""
    found: list[Sample] = []
    for game in games():
        for lang in LANGUAGES:
            found += await game_samples(game, lang, max_steps=max_steps)
    return found
