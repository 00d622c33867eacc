"""``python -m bot demo GAME``: a whole game with bot seats in the terminal, through the real
service and storage (a temporary SQLite file), printing what the public channel would show
and, marked as private, what each seat's hand view would show."""
from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Callable

from engines import get_engine

from . import render
from .games import render_hooks
from .i18n import join_list, t
from .levels import BotLevel
from .policies import check_level
from .replay import stored_record
from .scheduler import BotScheduler
from .service import GameService
from .storage import Storage
from .table import Table, Update, UpdateKind

PRIVATE = "🔒"


def names_of(table: Table, lang: str) -> render.Names:
    return render.seat_names(table.seats, lang, render.guarded)


class TerminalChannel:
    """A listener that prints updates the way the Discord channel and hand views would show them."""

    def __init__(self, lang: str, out: Callable[[str], None]) -> None:
        self.lang = lang
        self.out = lambda text: out(render.terminal_text(text))  # plain text: no Discord markup in a terminal

    async def __call__(self, update: Update) -> None:
        table, lang = update.table, self.lang
        names = names_of(table, lang)
        game = table.row.game
        if update.kind is UpdateKind.STARTED:
            self.out(t("demo.started", lang, game=render.game_title(game, lang),
                       players=join_list((names(p) for p in table.view(None).players), lang)))
        for ev in update.events:
            line = render.event_line(game, ev, names, lang)
            if line is None:
                continue
            if ev.visible_to is None:
                self.out(f"# {line}")
            else:
                who = join_list((names(p) for p in ev.visible_to), lang)
                self.out(f"  {PRIVATE} {t('demo.private_to', lang, players=who)}: {line}")
        if update.public_view is None:
            return
        if update.kind in (UpdateKind.STARTED, UpdateKind.ENDED):
            self.out(render.board(game, update.public_view, names, lang).text())
            self.write_image(table, update, names)
        notes = render_hooks(game).result_notes
        if update.kind is UpdateKind.ENDED and notes is not None:
            for line in notes(update.public_view, names, lang):  # why a result is as it is, as Discord says
                self.out(line)
        if update.kind is not UpdateKind.ENDED and update.table.version == update.version:
            for player in table.to_act():
                view = table.view(player)
                self.out(f"  {PRIVATE} {t('demo.hand_view', lang, player=names(player))}: "
                         + render.hand(game, view, names, lang).replace("\n", " / "))


    def write_image(self, table: Table, update: Update, names: render.Names) -> None:
        """Games with a board picture: write it next to the system's temp files and say where."""
        draw = render_hooks(table.row.game).image
        if draw is None or update.public_view is None:
            return
        path = Path(tempfile.gettempdir()) / f"gamehost-demo-{table.row.game}-{table.row.seed}-{update.kind.value}.png"
        path.write_bytes(draw(update.public_view, names.plain(), self.lang))
        self.out(t("demo.image_written", self.lang, path=str(path)))
        describe = render_hooks(table.row.game).image_alt
        if describe is not None:  # what Discord gives screen readers: here the only text of what the picture shows
            self.out(describe(update.public_view, names.plain(), self.lang))


def record_problem(path: str, lang: str) -> str | None:
    """Why a record cannot be written to ``path`` (a folder, or a folder that is not there), checked before the
    game is played; None when it can be tried."""
    target = Path(path)
    if target.is_dir() or not target.parent.is_dir():
        reason = t("demo.record_is_folder" if target.is_dir() else "demo.record_no_folder", lang,
                   folder=str(target.parent))
        return t("demo.record_unwritable", lang, path=path, reason=reason)
    return None


async def run_demo(game: str, players: int | None, seed: int, lang: str = "en",
                   out: Callable[[str], None] = print, level: str = BotLevel.NORMAL,
                   record: str | None = None) -> Table:
    """Bots of ``level`` play a whole game; they think on this loop (no worker pool), so a seed replays exactly.
    ``record``: a file to keep the game in as a record (``/game record``'s format), to replay or serve."""
    engine = get_engine(game)
    count = players or engine.min_players
    with tempfile.TemporaryDirectory() as folder:
        storage = await Storage.open(Path(folder) / "demo.db")
        try:
            service = GameService(storage)
            scheduler = BotScheduler(service, delay=0)
            service.subscribe(TerminalChannel(lang, out))
            table = await service.create_bot_table(game=game, players=count, seed=seed, channel_id=0,
                                                     levels=[check_level(level)])
            await scheduler.idle()
            await scheduler.close()
            if record is not None:
                kept = (await stored_record(storage, table.id)).model_copy(update={"lang": lang})  # the demo's
                Path(record).write_bytes(kept.dump())
                out(t("demo.recorded", lang, path=record))
        finally:
            await storage.close()
    return table
