"""The replay viewer (issue 33, item 2): **Review** under a table's result and ``/game review <table>`` open, only
to whoever asked, a finished table's game one frame at a time — the board of that moment (text, and the picture
for the games that draw one), what happened, ⏮ ◀ n/N ▶ ⏭, a seek menu (by deal, trick or turn) and a perspective
menu (*my seat*, *spectator*, *all hands*). Every control is a ``GameItem`` whose custom_id carries the table,
the frame and the perspective, so an old viewer still works after a restart; a click edits the viewer in place.
The viewer reads only the stored game (``bot.replay``) and never changes it. *All hands* waits for a tournament
game's round to be over (its other tables may still be playing); *my seat* is the clicker's own seat, found from
who clicks, never from the custom_id — except in a viewer that follows one seat (a same-deal round's comparison,
issue 55), whose custom_ids carry that seat (``:s<seat>``): another's hand, so shown only when every hand may be."""
from __future__ import annotations

import asyncio
import enum
import weakref
from dataclasses import replace
from typing import Any

import discord

from bot import literal, render
from bot.discord_rules.limits import EMBED_DESCRIPTION, OPTION_LABEL
from bot.errors import HostError
from bot.games import render_hooks
from bot.i18n import language, t
from bot.outgoing import Outgoing, Picture
from bot.replay import GameRecord, stored_record
from bot.replay_show import record_names
from bot.replies import NO_MENTIONS, fill_original, reply
from bot.review import Perspective, SteppedReplay, frame_lines
from bot.review_seek import menus, point_label
from bot.storage import GameStatus
from bot.table import Table

from .board import image_alt
from .common import host
from .custom_ids import ID, INDEX, SEAT, number, valid_id
from .look_back import (
    LookBackItem,
    all_hands_allowed,
    check_can_see,
    check_round_secret,
    look_back,
    opening,
    replay_cache,
)
from .review_shared import SharedReviews, post_shared

EMBED_CHARS = EMBED_DESCRIPTION  # Discord's limit for an embed's description
PICTURE = "board.png"
STEPS_PER_ROW = 5
PERSPECTIVE = "(?P<p>[msa])"
LEADER = rf"(?::(?P<lead>{ID}))?"  # a shared review's custom_ids end with its leader's user id
SEAT_OF = rf"(?::s(?P<seat>{SEAT}))?"  # a viewer that follows one seat (a same-deal comparison's) says which
_shared: weakref.WeakKeyDictionary[discord.Client, SharedReviews] = weakref.WeakKeyDictionary()


async def finished_table(interaction: discord.Interaction, table_id: int) -> Table:
    if not valid_id(table_id):  # a typed number no table can have
        raise HostError("no_such_game", game_id=table_id)
    table = await host(interaction).service.table(table_id)
    check_can_see(interaction, table)
    await check_round_secret(interaction, table)
    if table.status is not GameStatus.FINISHED:
        raise HostError("review_not_finished", game_id=table_id)
    return table


async def seen_as(interaction: discord.Interaction, table: Table, perspective: Perspective,
                  seat: int | None = None) -> str | None:
    """The engine player whose seat *my seat* shows (None for the others): the clicker's own, or ``seat`` for a
    viewer that follows one seat (another's hand: only when every hand may be shown); refused when not allowed."""
    if perspective is Perspective.ALL and not await all_hands_allowed(interaction, table.id):
        raise HostError("review_round_running", game_id=table.id)
    if perspective is not Perspective.MINE:
        return None
    if seat is not None:
        followed = next((s for s in table.seats if s.seat == seat), None)
        if followed is None:
            raise HostError("review_no_perspective")
        if followed.user_id != interaction.user.id and not await all_hands_allowed(interaction, table.id):
            raise HostError("review_round_running", game_id=table.id)
        return followed.player
    own = next((s for s in table.seats if s.user_id == interaction.user.id), None)
    if own is None:
        raise HostError("review_not_seated", game_id=table.id)
    return own.player


def default_perspective(table: Table, user_id: int) -> Perspective:
    return Perspective.MINE if any(s.user_id == user_id for s in table.seats) else Perspective.SPECTATOR


def embed_parts(lines: list[str], limit: int = EMBED_CHARS) -> list[str]:
    """The frame's lines as embed descriptions of at most ``limit`` characters each, split between lines (a line
    longer than that alone is split where it must): a frame is never cut short, however many hands it shows."""
    parts: list[str] = []
    current = ""
    for line in lines:
        while len(line) > limit:
            if current:
                parts.append(current)
                current = ""
            parts.append(line[:limit])
            line = line[limit:]
        joined = f"{current}\n{line}" if current else line
        if len(joined) > limit:
            parts.append(current)
            joined = line
        current = joined
    return [*parts, current] if current or not parts else parts


def viewer_message(replay: SteppedReplay, index: int, perspective: Perspective, player: str | None,
                   locale: object | None, leader: int | None = None, seat: int | None = None) -> Outgoing:
    """The viewer's message at frame ``index`` (CPU work: drawn off the event loop); ``leader``: the user who steps
    a shared review (None: a private viewer); ``seat``: the seat a viewer follows."""
    record, last = replay.record, len(replay) - 1
    lang = language(locale)
    names = record_names(record, lang, literal.markdown)
    parts = embed_parts(frame_lines(replay, index, perspective, player, lang, names))
    embeds = [discord.Embed(description=part, colour=0x3498DB) for part in parts]
    embeds[0].title = t("review.title", lang, id=record.table, game=render.game_title(record.game, lang),
                        index=index, total=last)
    followed = perspective is Perspective.MINE and seat is not None and player is not None
    embeds[-1].set_footer(text=t("review.perspective_seat", lang, seat=(seat or 0) + 1, name=names.plain()(player))
                          if followed and player is not None else t(f"review.perspective.{perspective.value}", lang))
    embed = embeds[0]
    pictures: list[Picture] = []
    draw = render.review_picture(record.game)
    if draw is not None:
        action = replay.actions[index]
        moved = action.player if action is not None else None  # the seat the frame's words tell of
        public = replay.view(index, None)
        picture = draw(public, names.plain(), lang, moved=moved)
        alt = image_alt(render_hooks(record.game), public, names.plain(), lang)  # as the live board's picture
        pictures.append(Picture(PICTURE, picture, alt))
        embed.set_image(url=f"attachment://{PICTURE}")
    return Outgoing(embeds=tuple(embeds), pictures=tuple(pictures), mentions=NO_MENTIONS,
                    view=viewer_controls(replay, index, perspective, lang, leader, player, seat))


def viewer_controls(replay: SteppedReplay, index: int, perspective: Perspective, lang: str,
                    leader: int | None, player: str | None = None, seat: int | None = None) -> discord.ui.View:
    """⏮ ◀ n/N ▶ ⏭; the deal (trick, turn) before and after, and from *my seat* the seat's own turn before and
    after, with **Show the table**; the deal menu, the turn menu; the perspective menu (``bot.review_seek``)."""
    gid = replay.record.table
    view = discord.ui.View(timeout=None)
    names = record_names(replay.record, lang).plain()
    shown = menus(replay, index, lang, player, names)
    for slot, step in enumerate(shown.steps):
        view.add_item(ReviewStep(gid, step.target, perspective, slot, leader, step.label, disabled=not step.enabled,
                                 seat=seat))
    if leader is None:
        view.add_item(ReviewShare(gid, index, perspective, lang))
    row = 2
    for menu, kind, points in ((SeekMenu.DEAL, shown.part_kind, shown.parts),
                               (SeekMenu.TURN, shown.turn_kind, shown.turns)):
        if kind is None or not points:
            continue
        view.add_item(ReviewSeek(gid, perspective, leader, [discord.SelectOption(
            label=point_label(p, kind, lang, names(p.player) if p.player else None, shown.turn_kind)[:OPTION_LABEL],
            value=str(p.frame), default=p.frame == index) for p in points],
            t(f"review.seek_by.{kind.value}" if menu is SeekMenu.DEAL else f"review.seek_near.{kind.value}", lang),
            menu, row, seat))
        row += 1
    seen = [p for p in Perspective if leader is None or p is not Perspective.MINE]  # a shared review: no one's seat
    def label(p: Perspective) -> str:
        if p is Perspective.MINE and seat is not None and player is not None:  # the seat this viewer follows
            return t("review.perspective_seat", lang, seat=seat + 1, name=names(player))[:OPTION_LABEL]
        return t(f"review.perspective.{p.value}", lang)
    view.add_item(ReviewPerspective(gid, index, leader, [discord.SelectOption(
        label=label(p), value=p.value, default=p is perspective)
        for p in seen], t("review.perspective_pick", lang), row, seat))
    return view


async def rebuilt(interaction: discord.Interaction, record: GameRecord) -> SteppedReplay:
    """The game from the bot's one cache of rebuilt games, rebuilt (once at a time) when not there."""
    return await look_back(interaction.client).rebuilt(record)


async def open_viewer(interaction: discord.Interaction, table_id: int, seat: int | None = None) -> None:
    """A new private viewer of a finished table at its first frame: from the clicker's own seat when they played
    there, else a spectator's; or following ``seat`` (a same-deal comparison's Review)."""
    table = await finished_table(interaction, table_id)
    opening(interaction)
    perspective = Perspective.MINE if seat is not None else default_perspective(table, interaction.user.id)
    player = await seen_as(interaction, table, perspective, seat)
    replay = replay_cache(interaction.client).get(table_id)
    if replay is None:
        record = await stored_record(host(interaction).storage, table_id)
        await interaction.response.defer(ephemeral=True, thinking=True)
        replay = await rebuilt(interaction, record)
    message = await asyncio.to_thread(viewer_message, replay, 0, perspective, player, interaction.locale, None, seat)
    if interaction.response.is_done():  # deferred while the game was rebuilt: the "thinking…" message is the answer
        await fill_original(interaction, **message.edit())
    else:
        await interaction.response.send_message(ephemeral=True, **message.send())


async def show_frame(interaction: discord.Interaction, table_id: int, index: int, perspective: Perspective,
                     leader: int | None = None, seat: int | None = None) -> None:
    """The viewer edited in place at frame ``index`` (a forged frame out of range is refused); a shared review
    (``leader``) is stepped by its leader only, in the table's language, never from someone's seat."""
    table = await finished_table(interaction, table_id)
    if leader is not None and interaction.user.id != leader:
        raise HostError("review_not_leader")
    if leader is not None and perspective is Perspective.MINE:
        raise HostError("review_no_perspective")
    seat = None if leader is not None else seat  # a shared review follows no one's seat
    player = await seen_as(interaction, table, perspective, seat)
    locale = interaction.locale if leader is None else table.row.locale
    replay = replay_cache(interaction.client).get(table_id)
    record = replay.record if replay is not None else await stored_record(host(interaction).storage, table_id)
    if index > len(record.actions):  # checked before any answer, so the refusal is the answer
        raise HostError("review_no_frame", index=index, last=len(record.actions))
    if replay is None:  # not rebuilt since the start (or pushed out of the cache): say we are on it first
        await interaction.response.defer()
        replay = await rebuilt(interaction, record)
    message = await asyncio.to_thread(viewer_message, replay, index, perspective, player, locale, leader, seat)
    if interaction.response.is_done():
        await interaction.edit_original_response(**message.edit())
    else:
        await interaction.response.edit_message(**message.edit())


class ReviewButton(LookBackItem, template=rf"gh:review:(?P<gid>{ID})"):
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


def leader_part(leader: int | None) -> str:
    return "" if leader is None else f":{leader}"


def leader_of(match: Any) -> int | None:
    return int(match["lead"]) if match["lead"] is not None else None


def seat_part(seat: int | None) -> str:
    return "" if seat is None else f":s{seat}"


def seat_of(match: Any) -> int | None:
    return int(match["seat"]) if match["seat"] is not None else None


class ReviewStep(LookBackItem,
                 template=rf"gh:rv:(?P<gid>{ID}):(?P<frame>{INDEX}):{PERSPECTIVE}:(?P<slot>[0-9]){LEADER}{SEAT_OF}"):
    """⏮ ◀ n/N ▶ ⏭ on the first row, −10 +10 and the deal (trick, turn) before and after on the second: each
    carries the frame it shows (``slot`` keeps two buttons to one frame apart, and says the row)."""

    def __init__(self, game_id: int, frame: int, perspective: Perspective, slot: int, leader: int | None = None,
                 label: str = "", disabled: bool = False, seat: int | None = None) -> None:
        super().__init__(discord.ui.Button(
            label=label or "·", style=discord.ButtonStyle.secondary, disabled=disabled, row=slot // STEPS_PER_ROW,
            custom_id=f"gh:rv:{game_id}:{frame}:{perspective.value}:{slot}{leader_part(leader)}{seat_part(seat)}"))
        self.game_id, self.frame, self.perspective, self.leader = game_id, frame, perspective, leader
        self.seat = seat

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: Any, match: Any) -> "ReviewStep":
        return cls(int(match["gid"]), int(match["frame"]), Perspective(match["p"]), int(match["slot"]),
                   leader_of(match), seat=seat_of(match))

    async def run(self, interaction: discord.Interaction) -> None:
        await show_frame(interaction, self.game_id, self.frame, self.perspective, self.leader, self.seat)


class SeekMenu(str, enum.Enum):
    """Which of the viewer's two seek menus (their custom_ids differ in one message)."""

    DEAL = "d"
    TURN = "t"


class ReviewSeek(LookBackItem,
                 template=rf"gh:rvk:(?P<gid>{ID}):{PERSPECTIVE}(?::(?P<menu>[dt]))?{LEADER}{SEAT_OF}"):
    """A seek menu (the deals, or the turns): each option's value is the frame it jumps to."""

    def __init__(self, game_id: int, perspective: Perspective, leader: int | None = None,
                 options: list[discord.SelectOption] | None = None, placeholder: str | None = None,
                 menu: SeekMenu = SeekMenu.DEAL, row: int = 2, seat: int | None = None) -> None:
        super().__init__(discord.ui.Select(
            custom_id=f"gh:rvk:{game_id}:{perspective.value}:{menu.value}{leader_part(leader)}{seat_part(seat)}",
            options=options or [], placeholder=placeholder, min_values=1, max_values=1, row=row))
        self.game_id, self.perspective, self.leader, self.seat = game_id, perspective, leader, seat

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: Any, match: Any) -> "ReviewSeek":
        return cls(int(match["gid"]), Perspective(match["p"]), leader_of(match), seat=seat_of(match))

    async def run(self, interaction: discord.Interaction) -> None:
        values = self.item.values  # type: ignore[attr-defined]  # item is a Select
        index = number(values[0], INDEX) if len(values) == 1 else None
        if index is None:
            raise HostError("review_bad_step")
        await show_frame(interaction, self.game_id, index, self.perspective, self.leader, self.seat)


class ReviewPerspective(LookBackItem, template=rf"gh:rvp:(?P<gid>{ID}):(?P<frame>{INDEX}){LEADER}{SEAT_OF}"):
    """The perspective menu: the same frame seen through other eyes."""

    def __init__(self, game_id: int, frame: int, leader: int | None = None,
                 options: list[discord.SelectOption] | None = None, placeholder: str | None = None,
                 row: int = 4, seat: int | None = None) -> None:
        super().__init__(discord.ui.Select(custom_id=f"gh:rvp:{game_id}:{frame}{leader_part(leader)}{seat_part(seat)}",
                                           options=options or [], placeholder=placeholder, min_values=1,
                                           max_values=1, row=row))
        self.game_id, self.frame, self.leader, self.seat = game_id, frame, leader, seat

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: Any, match: Any) -> "ReviewPerspective":
        return cls(int(match["gid"]), int(match["frame"]), leader_of(match), seat=seat_of(match))

    async def run(self, interaction: discord.Interaction) -> None:
        values = self.item.values  # type: ignore[attr-defined]  # item is a Select
        chosen = {p.value: p for p in Perspective}.get(values[0]) if len(values) == 1 else None
        if chosen is None:
            raise HostError("review_no_perspective")
        await show_frame(interaction, self.game_id, self.frame, chosen, self.leader, self.seat)


class ReviewShare(LookBackItem, template=rf"gh:rvsh:(?P<gid>{ID}):(?P<frame>{INDEX}):{PERSPECTIVE}"):
    """**Show the table** on a private viewer (issue 33, item 4): someone who played posts the review where the
    table played, at this frame, and leads it; everyone watches it edited in place."""

    def __init__(self, game_id: int, frame: int, perspective: Perspective, locale: object | None = None) -> None:
        super().__init__(discord.ui.Button(label=t("review.share", locale), emoji="📣",
                                           style=discord.ButtonStyle.primary, row=1,
                                           custom_id=f"gh:rvsh:{game_id}:{frame}:{perspective.value}"))
        self.game_id, self.frame, self.perspective = game_id, frame, perspective

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: Any, match: Any) -> "ReviewShare":
        return cls(int(match["gid"]), int(match["frame"]), Perspective(match["p"]), interaction.locale)

    async def run(self, interaction: discord.Interaction) -> None:
        await start_shared(interaction, self.game_id, self.frame, self.perspective)


async def start_shared(interaction: discord.Interaction, table_id: int, index: int, perspective: Perspective) -> None:
    """One public review per table (never flooding its thread): posted by someone who played, from the spectator's
    view (or every hand, where allowed), in the table's language; the clicker is told where."""
    table = await finished_table(interaction, table_id)
    if not any(s.user_id == interaction.user.id for s in table.seats):
        raise HostError("review_share_not_player", game_id=table_id)
    shared = _shared.setdefault(interaction.client, SharedReviews())
    standing = await shared.standing(interaction.client, table_id)
    if standing is not None:
        raise HostError("review_share_open", game_id=table_id, link=standing.link)
    perspective = Perspective.SPECTATOR if perspective is Perspective.MINE else perspective
    await seen_as(interaction, table, perspective)
    replay = replay_cache(interaction.client).get(table_id)
    record = replay.record if replay is not None else await stored_record(host(interaction).storage, table_id)
    if index > len(record.actions):
        raise HostError("review_no_frame", index=index, last=len(record.actions))
    private = table.place.by_token  # a DM: shared through this press (no "thinking…" to fill)
    await interaction.response.defer(ephemeral=True, thinking=not private)
    replay = replay or await rebuilt(interaction, record)
    locale = table.row.locale
    message = await asyncio.to_thread(viewer_message, replay, index, perspective, None, locale, interaction.user.id)
    content = t("review.shared_by", locale, player=literal.markdown(interaction.user.display_name))
    posted = await post_where_played(interaction, table, content, message)
    shared.add(table_id, channel_id=posted.channel.id, message_id=posted.id, link=posted.jump_url)
    # a server's "thinking…" is filled; in a DM (no "thinking…": the press updates the viewer) a message of its own
    await reply(interaction, t("review.shared", interaction.locale, link=posted.jump_url))


async def post_where_played(interaction: discord.Interaction, table: Table, content: str,
                            message: Outgoing) -> discord.Message:
    """The shared review sent to the table's thread (unarchived first when it was archived) or channel, as a
    table's writer sends (``review_shared.post_shared``)."""
    client, place = interaction.client, table.place
    review = replace(message, content=content)
    if place.by_token:  # the bot writes there only through the press's token
        return await interaction.followup.send(wait=True, **review.send())
    channel = client.get_channel(place.channel_id) or await client.fetch_channel(place.channel_id)
    if not isinstance(channel, discord.abc.Messageable):
        raise HostError("review_share_failed", game_id=table.id)
    posted = await post_shared(client, place.channel_id, place.guild_id, lambda: channel.send(**review.send()))
    if posted is None:
        raise HostError("review_share_failed", game_id=table.id)
    return posted

REVIEW_ITEMS = (ReviewButton, ReviewStep, ReviewSeek, ReviewPerspective, ReviewShare)
