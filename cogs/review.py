"""The replay viewer (issue 33, item 2): **Review** under a table's result and ``/game review <table>`` open, only
to whoever asked, a finished table's game one frame at a time — the board of that moment (text, and the picture
for the games that draw one), what happened, ⏮ ◀ n/N ▶ ⏭, a seek menu (by deal, trick or turn) and a perspective
menu (*my seat*, *spectator*, *all hands*). Every control is a ``GameItem`` whose custom_id carries the table,
the frame and the perspective, so an old viewer still works after a restart; a click edits the viewer in place.
The viewer reads only the stored game (``bot.replay``) and never changes it. *All hands* waits for a tournament
game's round to be over (its other tables may still be playing); *my seat* is the clicker's own seat, found from
who clicks, never from the custom_id."""
from __future__ import annotations

import asyncio
import io
import weakref
from typing import Any

import discord

from bot import literal, render
from bot.errors import HostError
from bot.games import render_hooks
from bot.i18n import language, t
from bot.replay import GameRecord, rebuild, stored_record
from bot.replay_show import record_names
from bot.replies import NO_MENTIONS
from bot.review import Perspective, ReplayCache, SteppedReplay, frame_lines, seek_points
from bot.table import Table

from .common import GameItem, host
from .custom_ids import ID, INDEX, number, valid_id

EMBED_CHARS = 4096  # Discord's limit for an embed's description
PICTURE = "board.png"
PERSPECTIVE = "(?P<p>[msa])"
_caches: weakref.WeakKeyDictionary[discord.Client, ReplayCache] = weakref.WeakKeyDictionary()


def replay_cache(client: discord.Client) -> ReplayCache:
    """This bot's rebuilt replays (a restarted bot starts with none)."""
    cache = _caches.get(client)
    if cache is None:
        cache = _caches[client] = ReplayCache()
    return cache


async def finished_table(interaction: discord.Interaction, table_id: int) -> Table:
    if not valid_id(table_id):  # a typed number no table can have
        raise HostError("no_such_game", game_id=table_id)
    table = await host(interaction).service.table(table_id)
    if table.row.guild_id != interaction.guild_id:  # a table of no server is not this server's either
        raise HostError("other_server")
    if table.status != "finished":
        raise HostError("review_not_finished", game_id=table_id)
    return table


async def all_hands_allowed(interaction: discord.Interaction, table_id: int) -> bool:
    """Every hand may be shown once the game is over, but a tournament game's only once its round is over."""
    storage = host(interaction).storage
    tournament_id = await storage.tournaments.tournament_of_game(table_id)
    if tournament_id is None:
        return True
    tournament = await storage.tournaments.load(tournament_id)
    if tournament is None:
        return False
    rounds = {tb.round for tb in tournament.tables if tb.game_id == table_id}
    return all(tb.done for tb in tournament.tables if tb.round in rounds)


async def seen_as(interaction: discord.Interaction, table: Table, perspective: Perspective) -> str | None:
    """The engine player whose seat *my seat* shows (None for the others); refused when not allowed."""
    if perspective is Perspective.ALL and not await all_hands_allowed(interaction, table.id):
        raise HostError("review_round_running", game_id=table.id)
    if perspective is not Perspective.MINE:
        return None
    seat = next((s for s in table.seats if s.user_id == interaction.user.id), None)
    if seat is None:
        raise HostError("review_not_seated", game_id=table.id)
    return seat.player


def default_perspective(table: Table, user_id: int) -> Perspective:
    return Perspective.MINE if any(s.user_id == user_id for s in table.seats) else Perspective.SPECTATOR


def viewer_message(replay: SteppedReplay, index: int, perspective: Perspective, player: str | None,
                   locale: object | None) -> dict[str, Any]:
    """The send/edit arguments of the viewer at frame ``index`` (CPU work: drawn off the event loop)."""
    record, last = replay.record, len(replay) - 1
    lang = language(locale)
    names = record_names(record, lang, literal.markdown)
    text = "\n".join(frame_lines(replay, index, perspective, player, lang, names))
    if len(text) > EMBED_CHARS:
        text = text[:EMBED_CHARS - 1] + "…"
    embed = discord.Embed(title=t("review.title", lang, id=record.table, game=render.game_title(record.game, lang),
                                  index=index, total=last), description=text, colour=0x3498DB)
    embed.set_footer(text=t(f"review.perspective.{perspective.value}", lang))
    files = []
    draw = render_hooks(record.game).image
    if draw is not None:
        files.append(discord.File(io.BytesIO(draw(replay.view(index, None), names.plain(), lang)), filename=PICTURE))
        embed.set_image(url=f"attachment://{PICTURE}")
    return {"embed": embed, "attachments": files, "view": viewer_controls(replay, index, perspective, lang),
            "allowed_mentions": NO_MENTIONS}


def viewer_controls(replay: SteppedReplay, index: int, perspective: Perspective, lang: str) -> discord.ui.View:
    gid, last = replay.record.table, len(replay) - 1
    view = discord.ui.View(timeout=None)
    steps = [("⏮", 0, index > 0), ("◀", max(index - 1, 0), index > 0), (f"{index}/{last}", index, False),
             ("▶", min(index + 1, last), index < last), ("⏭", last, index < last)]
    for slot, (label, target, enabled) in enumerate(steps):
        view.add_item(ReviewStep(gid, target, perspective, slot, label, disabled=not enabled))
    kind, points = seek_points(replay)
    view.add_item(ReviewSeek(gid, perspective, [discord.SelectOption(
        label=t(f"review.seek.{kind.value}", lang, number=p.number, index=p.frame), value=str(p.frame),
        default=p.frame == index) for p in points], t(f"review.seek_by.{kind.value}", lang)))
    view.add_item(ReviewPerspective(gid, index, [discord.SelectOption(
        label=t(f"review.perspective.{p.value}", lang), value=p.value, default=p is perspective)
        for p in Perspective], t("review.perspective_pick", lang)))
    return view


def stepped(record: GameRecord) -> SteppedReplay:
    """The game rebuilt and checked (``bot.replay.rebuild``), kept as the viewer's checkpoints."""
    return SteppedReplay(rebuild(record))


async def rebuilt(interaction: discord.Interaction, record: GameRecord) -> SteppedReplay:
    replay = await asyncio.to_thread(stepped, record)
    replay_cache(interaction.client).put(record.table, replay)
    return replay


async def open_viewer(interaction: discord.Interaction, table_id: int) -> None:
    """A new private viewer of a finished table at its first frame, from the clicker's default perspective."""
    table = await finished_table(interaction, table_id)
    perspective = default_perspective(table, interaction.user.id)
    player = await seen_as(interaction, table, perspective)
    replay = replay_cache(interaction.client).get(table_id)
    if replay is None:
        record = await stored_record(host(interaction).storage, table_id)
        await interaction.response.defer(ephemeral=True, thinking=True)
        replay = await rebuilt(interaction, record)
    message = await asyncio.to_thread(viewer_message, replay, 0, perspective, player, interaction.locale)
    files = message.pop("attachments")
    if interaction.response.is_done():
        await interaction.followup.send(ephemeral=True, files=files, **message)
    else:
        await interaction.response.send_message(ephemeral=True, files=files, **message)


async def show_frame(interaction: discord.Interaction, table_id: int, index: int, perspective: Perspective) -> None:
    """The viewer edited in place at frame ``index`` (a forged frame out of range is refused)."""
    table = await finished_table(interaction, table_id)
    player = await seen_as(interaction, table, perspective)
    replay = replay_cache(interaction.client).get(table_id)
    record = replay.record if replay is not None else await stored_record(host(interaction).storage, table_id)
    if index > len(record.actions):  # checked before any answer, so the refusal is the answer
        raise HostError("review_no_frame", index=index, last=len(record.actions))
    if replay is None:  # not rebuilt since the start (or pushed out of the cache): say we are on it first
        await interaction.response.defer()
        replay = await rebuilt(interaction, record)
    message = await asyncio.to_thread(viewer_message, replay, index, perspective, player, interaction.locale)
    if interaction.response.is_done():
        await interaction.edit_original_response(**message)
    else:
        await interaction.response.edit_message(**message)


class ReviewButton(GameItem, template=rf"gh:review:(?P<gid>{ID})"):
    """**Review** under a finished table's result: opens a private viewer of its game."""

    def __init__(self, game_id: int, locale: object | None = None) -> None:
        super().__init__(discord.ui.Button(label=t("result.review", locale), emoji="🎞️",
                                           style=discord.ButtonStyle.secondary, custom_id=f"gh:review:{game_id}"))
        self.game_id = game_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: Any, match: Any) -> "ReviewButton":
        return cls(int(match["gid"]), interaction.locale)

    async def run(self, interaction: discord.Interaction) -> None:
        await open_viewer(interaction, self.game_id)


class ReviewStep(GameItem, template=rf"gh:rv:(?P<gid>{ID}):(?P<frame>{INDEX}):{PERSPECTIVE}:(?P<slot>[0-4])"):
    """⏮ ◀ n/N ▶ ⏭: each carries the frame it shows (``slot`` keeps two buttons to one frame apart)."""

    def __init__(self, game_id: int, frame: int, perspective: Perspective, slot: int, label: str = "",
                 disabled: bool = False) -> None:
        super().__init__(discord.ui.Button(
            label=label or "·", style=discord.ButtonStyle.secondary, disabled=disabled,
            custom_id=f"gh:rv:{game_id}:{frame}:{perspective.value}:{slot}"))
        self.game_id, self.frame, self.perspective = game_id, frame, perspective

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: Any, match: Any) -> "ReviewStep":
        return cls(int(match["gid"]), int(match["frame"]), Perspective(match["p"]), int(match["slot"]))

    async def run(self, interaction: discord.Interaction) -> None:
        await show_frame(interaction, self.game_id, self.frame, self.perspective)


class ReviewSeek(GameItem, template=rf"gh:rvk:(?P<gid>{ID}):{PERSPECTIVE}"):
    """The seek menu: each option's value is the frame it jumps to."""

    def __init__(self, game_id: int, perspective: Perspective, options: list[discord.SelectOption] | None = None,
                 placeholder: str | None = None) -> None:
        super().__init__(discord.ui.Select(custom_id=f"gh:rvk:{game_id}:{perspective.value}", options=options or [],
                                           placeholder=placeholder, min_values=1, max_values=1))
        self.game_id, self.perspective = game_id, perspective

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: Any, match: Any) -> "ReviewSeek":
        return cls(int(match["gid"]), Perspective(match["p"]))

    async def run(self, interaction: discord.Interaction) -> None:
        values = self.item.values  # type: ignore[attr-defined]  # item is a Select
        index = number(values[0], INDEX) if len(values) == 1 else None
        if index is None:
            raise HostError("review_no_frame", index=values[0] if values else "-", last="?")
        await show_frame(interaction, self.game_id, index, self.perspective)


class ReviewPerspective(GameItem, template=rf"gh:rvp:(?P<gid>{ID}):(?P<frame>{INDEX})"):
    """The perspective menu: the same frame seen through other eyes."""

    def __init__(self, game_id: int, frame: int, options: list[discord.SelectOption] | None = None,
                 placeholder: str | None = None) -> None:
        super().__init__(discord.ui.Select(custom_id=f"gh:rvp:{game_id}:{frame}", options=options or [],
                                           placeholder=placeholder, min_values=1, max_values=1))
        self.game_id, self.frame = game_id, frame

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: Any, match: Any) -> "ReviewPerspective":
        return cls(int(match["gid"]), int(match["frame"]))

    async def run(self, interaction: discord.Interaction) -> None:
        values = self.item.values  # type: ignore[attr-defined]  # item is a Select
        chosen = {p.value: p for p in Perspective}.get(values[0]) if len(values) == 1 else None
        if chosen is None:
            raise HostError("review_no_perspective")
        await show_frame(interaction, self.game_id, self.frame, chosen)


REVIEW_ITEMS = (ReviewButton, ReviewStep, ReviewSeek, ReviewPerspective)
