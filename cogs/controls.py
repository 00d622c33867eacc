"""Persistent controls and the hand view (the ephemeral message with a player's secret hand).

``ActButton`` (``gh:do:<table>:<version>:<seat>.<index>``) plays the action at ``index`` in ``button_actions`` of
the seat's player at that version (one encoding for every game: the version check makes a stale index harmless, and
the list is the same for the same state; only that seat's player may click it). ``PickSelect``
(``gh:pick:<table>:<version>:<part>:<carry>``) only changes what is selected and redraws the hand. Each game has a
controls module (its plug-in's ``controls``, ``cogs/games/<game>.py``) with the hooks of
``bot.games.ControlsHooks``: ``controls`` (buttons made by ``Actions``) and ``selection_notes``; optionally
``lobby_options`` (``/play``'s options checked before a lobby opens), ``public_controls`` for buttons that belong on
the public turn message (a dice roll everyone should see), ``hand_image``, ``click_actions`` (one-click actions the
engine accepts but does not list, appended to ``button_actions``) and ``code_action`` (an action carried whole in a
button code ``<seat>.<letters>``, when its choices are too many to list: Pile up's triple). A select the move needs
that offers one option is chosen for the player (``single(..., chosen_when_alone=True)``, ``auto_chosen``).
"""
from __future__ import annotations

import asyncio
import io
from typing import Any, Callable, Sequence

import discord

from bot import render
from bot.acknowledge import Acknowledgement
from bot.discord_rules.limits import BUTTON_LABEL, CUSTOM_ID, MESSAGE_CONTENT, SELECT_OPTIONS
from bot.errors import HostError
from bot.games import ControlsHooks
from bot.i18n import t
from bot.replies import Attachments, answer_hand
from bot.storage import GameStatus
from bot.table import Table
from engines import Action, EngineError, Event, Json, NotYourTurn, View

from .action_codes import action_of, button_actions, for_another_seat, game_module
from .common import GameItem, deadline_mark, host, names_for, select_values
from .custom_ids import ID, INDEX, PART, SEAT, TEXT, VERSION
from .live_hands import live_hands
from .private_table import adopt_board
from .selection import Picks, Selection, decode_carry, pick_custom_id

VERSIONED = rf"(?P<gid>{ID}):(?P<ver>{VERSION})"
# ``<seat>.<index>``, ``<seat>.<letters>`` (a ``code_action``), or a disabled button's ``-<n>`` / ``!``
CODE = rf"(?P<code>{SEAT}\.(?:{INDEX}|[A-Za-z]{TEXT}*)|-{INDEX}|!)"


def single(select: "PickSelect", *, chosen_when_alone: bool = False) -> "PickSelect":
    """A PickSelect that takes one value (a move, a suit, a card to give); ``chosen_when_alone``: a choice the move
    needs, so when it offers one option the hand view chooses it for the player (``auto_chosen``). Never for an
    optional choice (a further card to add), which the player could then not leave out."""
    select.item.max_values = 1  # type: ignore[attr-defined]  # item is a Select
    select.chosen_when_alone = chosen_when_alone
    return select


class Actions:
    """Makes a hand's action buttons: each carries its action's index in ``button_actions``."""

    def __init__(self, table: Table, player: str) -> None:
        self.table, self.player = table, player
        self.all = button_actions(table, player)
        seat = table.seat_of(player)
        self.seat = seat.seat if seat is not None else -1
        self._blanks = 0

    def find(self, wanted: Callable[[Action], bool]) -> Action | None:
        """The first of the actions that ``wanted`` accepts (e.g. a selection's cards in any order)."""
        return next((a for a in self.all if wanted(a)), None)

    def index(self, action: Action | Json | None) -> int | None:
        if isinstance(action, dict):
            try:
                action = self.table.engine.parse_action(action)
            except EngineError:
                return None
        return self.all.index(action) if action is not None and action in self.all else None

    def button(self, action: Action | Json | None, label: str,
               style: discord.ButtonStyle = discord.ButtonStyle.primary, *, disabled: bool = False,
               row: int | None = None) -> "ActButton":
        """A button sending ``action``; disabled when there is none (still to choose) or it is not legal now."""
        index = self.index(action)
        if index is None:
            self._blanks += 1  # custom ids are unique within a message
            code, disabled = f"-{self._blanks}", True
        else:
            code = f"{self.seat}.{index}"
        return ActButton(self.table.id, self.table.version, code, label, style, disabled, row)


class HandView(discord.ui.View):
    """A hand view's controls, with what to do once Discord took the message: the notices to acknowledge, the
    drawing the live hand views keep current, and the pictures to attach."""

    notices_shown: tuple[Table, str, int | None] | None = None
    drawn: tuple[Table, int] | None = None
    hand_files: list[discord.File] | None = None

    def __init__(self, *, timeout: float | None = 180.0) -> None:
        super().__init__(timeout=timeout)
        # Per view, not a class attribute, so no view can change another's.
        self.selection: list[str] = []  # what the controls show chosen (one-choice selects included)


async def hand_message(interaction: discord.Interaction, table: Table, notes: str | None = None, *,
                       selection: list[str] | None = None, note: str | None = None) -> tuple[str, HandView]:
    """The text and controls of the clicking user's hand view (their own view only)."""
    # A person whose seat a bot plays (away, left, or the table paused) still sees their own hand.
    seat = next((s for s in table.seats if s.user_id == interaction.user.id), None)
    if seat is None:
        raise HostError("not_seated")
    if table.state is None:  # a lobby (a forged My hand or hand control): nothing dealt yet
        raise HostError("not_started")
    notices, up_to = await host(interaction).service.peek_notices(table, seat.player)
    content, ui = hand_content(table, seat.player, interaction.locale, notices=notices, selection=selection,
                               note=note, shown_notes=None if notices else notes)
    ui.notices_shown = (table, seat.player, up_to)  # acknowledged once delivered
    ui.drawn = (table, table.version)  # kept current by the live hand views
    files = await asyncio.to_thread(hand_files, table, seat.player, ui.selection, interaction.locale)
    if files is not None:
        ui.hand_files = files
    return content, ui


def hand_content(table: Table, player: str, locale: object | None, *, notices: Sequence[Event] = (),
                 selection: list[str] | None = None, note: str | None = None,
                 shown_notes: str | None = None) -> tuple[str, HandView]:
    """The hand view's text and controls for ``player`` of a dealt table (no I/O); ``shown_notes``: the private
    notes a redrawn view showed already (they stay until the player answers)."""
    names = names_for(table, locale)
    view = table.view(player)
    lines = [note] if note else []
    lines.append(t("hand.header", locale, game=t(f"game.{table.row.game}.name", locale), id=table.id))
    lines += ["🔒 " + line for n in notices if (line := render.event_line(table.row.game, n, names, locale))]
    lines += [shown_notes] if shown_notes else []
    lines.append(render.hand(table.row.game, view, names, locale))
    ui = HandView(timeout=None)
    if table.status is GameStatus.RUNNING and table.is_bot(player):  # nothing to play here: only the way back
        lines.append(t("hand.paused" if table.paused else "hand.bot_plays", locale))
        ui.add_item(BackButton(table.id, locale, resume=table.paused))
        ui.add_item(RefreshButton(table.id, locale))
        return "\n".join(lines)[:MESSAGE_CONTENT], ui
    may_act = table.status is GameStatus.RUNNING and (
        player in table.to_act() or table.engine.out_of_turn_actions(table.state, player))
    if may_act and player in table.to_act() and (clock := deadline_mark(table)) is not None:
        lines.append(t("hand.deadline", locale, deadline=clock))
    if may_act:
        module = game_module(table.row.game)
        ui.selection, items = auto_chosen(module, table, player, view, list(selection or []), locale)
        lines += module.selection_notes(table, player, view, ui.selection, locale)
        for item in items:
            ui.add_item(item)
    elif table.status is GameStatus.RUNNING:
        lines.append(t("hand.waiting", locale))
    if table.status is GameStatus.RUNNING:  # a finished table's hand view keeps no control
        ui.add_item(RefreshButton(table.id, locale))
    return "\n".join(lines)[:MESSAGE_CONTENT], ui


def auto_chosen(module: ControlsHooks, table: Table, player: str, view: View, selection: list[str],
                locale: object | None) -> tuple[list[str], list[discord.ui.Item]]:
    """The game's controls for ``selection``, with every needed one-choice select (a ``PickSelect`` made by
    ``single(..., chosen_when_alone=True)`` that offers exactly one option) chosen for the player: the selection
    grows by that option and the controls are drawn again, so its button is ready at once. Returns the selection
    the controls show and the controls."""
    items = module.controls(table, player, view, selection, locale)
    for _ in range(3):  # a choice may reveal the next one-choice select (a few levels at most)
        sole = [select.item.options[0].value for select in items  # type: ignore[attr-defined]  # item is a Select
                if isinstance(select, PickSelect) and select.chosen_when_alone
                and len(select.item.options) == 1  # type: ignore[attr-defined]  # same
                and not select.item.options[0].default]  # type: ignore[attr-defined]  # same
        sole = [value for value in sole if value not in selection and value != "?"]
        if not sole:
            break
        selection = [*selection, *sole]
        items = module.controls(table, player, view, selection, locale)
    return selection, items


def hand_files(table: Table, player: str, selection: list[str], locale: object | None) -> list[discord.File] | None:
    """The hand picture of games that draw one (``hand_image``: a picture of the hand / a preview), else None."""
    draw = game_module(table.row.game).hand_image
    if draw is None or table.status is not GameStatus.RUNNING:
        return None
    png = draw(table, player, table.view(player), selection, locale)
    return [discord.File(io.BytesIO(png), filename="hand.png")] if png else []


def redraw_files(view: discord.ui.View) -> Attachments:
    """The hand picture of games that draw one (``hand_image``), as an edit's ``attachments``; nothing for other
    games."""
    files = getattr(view, "hand_files", None)
    return {} if files is None else {"attachments": files}


async def redraw_hand(interaction: discord.Interaction, content: str, view: discord.ui.View) -> None:
    """Redraw the clicker's own ephemeral hand view; a hand control anywhere else (forged onto a public message)
    answers with a new ephemeral message, so a hand never replaces a public message."""
    in_place = interaction.message is not None and interaction.message.flags.ephemeral
    shows = await answer_hand(interaction, content, view, getattr(view, "hand_files", None), in_place=in_place)
    await _notices_delivered(interaction, view, content, live=shows)


async def show_hand(interaction: discord.Interaction, table: Table, *, note: str | None = None) -> None:
    content, view = await hand_message(interaction, table, note=note)
    shows = await answer_hand(interaction, content, view, view.hand_files, in_place=False)
    await _notices_delivered(interaction, view, content, live=shows)


def hand_acknowledgement(interaction: discord.Interaction) -> Acknowledgement:
    """A hand control's deferral: its answer edits the clicker's own ephemeral view in place, or (on a public
    message: My hand) is a new ephemeral message."""
    mine = interaction.message is not None and interaction.message.flags.ephemeral
    return Acknowledgement.UPDATE if mine else Acknowledgement.EPHEMERAL_REPLY


async def _notices_delivered(interaction: discord.Interaction, view: discord.ui.View, content: str, *,
                             live: bool = True) -> None:
    """Private notes ("you drew …") are removed only once Discord took the message that shows them; from then on
    the view redraws itself when the table changes (``live``: when the interaction's original response is it)."""
    shown = getattr(view, "notices_shown", None)
    if shown is not None:
        await host(interaction).service.ack_notices(*shown)
    drawn: tuple[Table, int] | None = getattr(view, "drawn", None)
    hands = live_hands(interaction.client)
    if live and drawn is not None and hands is not None:
        hands.remember(interaction, *drawn, content)


class ActButton(GameItem, template=rf"gh:do:{VERSIONED}:{CODE}"):
    def __init__(self, game_id: int, version: int, code: str, label: str,
                 style: discord.ButtonStyle = discord.ButtonStyle.primary, disabled: bool = False,
                 row: int | None = None) -> None:
        custom_id = f"gh:do:{game_id}:{version}:{code}"
        if len(custom_id) > CUSTOM_ID:  # Discord's limit; such a choice cannot be sent from a button
            custom_id, disabled = f"gh:do:{game_id}:{version}:!", True
        super().__init__(discord.ui.Button(label=label[:BUTTON_LABEL], style=style, custom_id=custom_id,
                                           disabled=disabled, row=row))
        self.game_id, self.version, self.code = game_id, version, code

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: Any, match: Any) -> "ActButton":
        return cls(int(match["gid"]), int(match["ver"]), match["code"], getattr(item, "label", None) or "?")

    async def run(self, interaction: discord.Interaction) -> None:
        service = host(interaction).service
        table = await service.table(self.game_id)
        if table.paused:  # a control drawn before the table paused
            raise HostError("table_paused")
        seat = table.seat_of_user(interaction.user.id)
        if seat is None:  # a control drawn before a bot took the clicker's seat, or not theirs at all
            away = table.status is GameStatus.RUNNING and any(s.user_id == interaction.user.id for s in table.seats)
            raise HostError("bot_plays_seat" if away else "not_seated")
        if table.status is GameStatus.RUNNING and self.version != table.version:
            await show_hand(interaction, table, note="⚠️ " + t("error.stale", interaction.locale))
            return
        action: Action | Json | None = action_of(table, seat.player, self.code)
        if action is None:
            if table.status is GameStatus.RUNNING and for_another_seat(table, seat.player, self.code):
                raise NotYourTurn()
            action = {"type": "?"}  # a forged or unknown code: refused as an action that makes no sense
        await service.act(self.game_id, interaction.user.id, action, self.version)
        interaction.extras["committed"] = "move"  # from here on, a failed answer must not say "nothing changed"
        if interaction.message is not None and interaction.message.flags.ephemeral:
            content, view = await hand_message(interaction, table)
            await redraw_hand(interaction, content, view)
        elif not interaction.response.is_done():  # a public button (e.g. a dice roll): the channel shows the
            await interaction.response.defer()  # outcome through the table's listener

    def acknowledgement(self, interaction: discord.Interaction) -> Acknowledgement:
        return Acknowledgement.UPDATE  # in place on a hand view; on a public button only the deferral


class PickSelect(GameItem, template=rf"gh:pick:{VERSIONED}:(?P<part>{PART}):(?P<carry>{TEXT}*)"):
    """A multi-select of cards; choosing only redraws the hand with that selection.

    A hand longer than one select's 25 options is split over several selects (``part``); each
    carries in its ``custom_id`` what is selected in the others, so no selection is lost.
    """

    chosen_when_alone = False  # see ``single``

    def __init__(self, game_id: int, version: int, options: list[discord.SelectOption] | None = None,
                 placeholder: str | None = None, part: int = 0, carry: Selection | None = None,
                 row: int | None = None, *, carried: str | None = None) -> None:
        """``carry``: what the other selects show chosen (the game's selection model); ``carried``: that carry as
        read back from a clicked custom_id, decoded once the table (and so the game) is known."""
        options = (options or [discord.SelectOption(label="?", value="?")])[:SELECT_OPTIONS]
        if carried is None:  # drawn by a game's controls: refused if its carry does not fit
            carried = carry.encode() if carry is not None else ""
            custom_id = pick_custom_id(game_id, version, part, carried)
        else:  # read back from a click
            custom_id = f"gh:pick:{game_id}:{version}:{part}:{carried}"
        super().__init__(discord.ui.Select(custom_id=custom_id, options=options, min_values=0,
                                           max_values=len(options), placeholder=placeholder, row=row))
        self.game_id, self.version, self.carried = game_id, version, carried
        self.carry = carry  # as drawn (None when read back from a click: ``run`` decodes ``carried``)

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: Any, match: Any) -> "PickSelect":
        return cls(int(match["gid"]), int(match["ver"]), list(getattr(item, "options", [])) or None,
                   getattr(item, "placeholder", None), int(match["part"]), carried=match["carry"])

    def acknowledgement(self, interaction: discord.Interaction) -> Acknowledgement:
        return hand_acknowledgement(interaction)

    async def run(self, interaction: discord.Interaction) -> None:
        table = await host(interaction).service.table(self.game_id)
        if table.status is GameStatus.RUNNING and self.version != table.version:
            await show_hand(interaction, table, note="⚠️ " + t("error.stale", interaction.locale))
            return
        offered = {option.value for option in self.item.options}  # type: ignore[attr-defined]  # item is a Select
        values = [v for v in select_values(interaction) if v in offered]  # only values this select offers
        carry = decode_carry(table.row.game, self.carried)
        content, view = await hand_message(interaction, table, selection=carry.values() + values)
        await redraw_hand(interaction, content, view)


def card_selects(game_id: int, version: int, hand: list[str], selection: list[str], label: Any,
                 placeholder: str, model: type[Selection] = Picks) -> list[PickSelect]:
    """One select per 25 cards of the hand, the current selection marked as default; each carries what the others
    show chosen as the game's selection ``model``."""
    parts = [hand[i:i + SELECT_OPTIONS] for i in range(0, len(hand), SELECT_OPTIONS)] or [[]]
    selects = []
    for part, cards in enumerate(parts[:3]):
        options = [discord.SelectOption(label=label(c), value=c, default=c in selection) for c in cards]
        carry = model.of([c for c in selection if c not in cards])
        selects.append(PickSelect(game_id, version, options, placeholder, part, carry, row=part))
    return selects


class HandButton(GameItem, template=rf"gh:hand:(?P<gid>{ID})"):
    """The public **My hand** button: answers with the clicking player's own hand, ephemerally."""

    def __init__(self, game_id: int, locale: object | None = None) -> None:
        super().__init__(discord.ui.Button(label=t("board.my_hand", locale), emoji="🃏",
                                           style=discord.ButtonStyle.primary, custom_id=f"gh:hand:{game_id}"))
        self.game_id = game_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: Any, match: Any) -> "HandButton":
        return cls(int(match["gid"]), interaction.locale)

    def acknowledgement(self, interaction: discord.Interaction) -> Acknowledgement:
        return hand_acknowledgement(interaction)

    async def run(self, interaction: discord.Interaction) -> None:
        table = await host(interaction).service.table(self.game_id)
        await adopt_board(interaction, table)  # a DM's board no live token edits: this press's token takes it
        await show_hand(interaction, table)


class RefreshButton(GameItem, template=rf"gh:refresh:(?P<gid>{ID})"):
    note: str | None = None  # a line above the hand (``cogs.stale_hand``: why this view was drawn again)

    def __init__(self, game_id: int, locale: object | None = None) -> None:
        super().__init__(discord.ui.Button(label=t("hand.refresh", locale), emoji="🔄",
                                           style=discord.ButtonStyle.secondary, custom_id=f"gh:refresh:{game_id}",
                                           row=4))
        self.game_id = game_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: Any, match: Any) -> "RefreshButton":
        return cls(int(match["gid"]), interaction.locale)

    def acknowledgement(self, interaction: discord.Interaction) -> Acknowledgement:
        return hand_acknowledgement(interaction)

    async def run(self, interaction: discord.Interaction) -> None:
        table = await host(interaction).service.table(self.game_id)
        content, view = await hand_message(interaction, table, note=self.note)
        await redraw_hand(interaction, content, view)


class BackButton(GameItem, template=rf"gh:back:(?P<gid>{ID})"):
    """**I'm back**: a player whose seat a bot was playing takes it back (labelled **Resume** at a paused table,
    which it resumes)."""

    def __init__(self, game_id: int, locale: object | None = None, *, resume: bool = False) -> None:
        super().__init__(discord.ui.Button(label=t("table.resume" if resume else "table.im_back", locale),
                                           emoji="▶️" if resume else "👋", style=discord.ButtonStyle.success,
                                           custom_id=f"gh:back:{game_id}"))
        self.game_id = game_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: Any, match: Any) -> "BackButton":
        return cls(int(match["gid"]), interaction.locale)

    def acknowledgement(self, interaction: discord.Interaction) -> Acknowledgement:
        return hand_acknowledgement(interaction)

    async def run(self, interaction: discord.Interaction) -> None:
        service = host(interaction).service
        await adopt_board(interaction, await service.table(self.game_id))  # (as My hand: a DM's board comes back)
        await service.come_back(self.game_id, interaction.user.id)
        interaction.extras["committed"] = "back"
        await show_hand(interaction, await service.table(self.game_id))


PERSISTENT_ITEMS = (ActButton, PickSelect, HandButton, RefreshButton, BackButton)
