"""Showing a rebuilt game (``bot.replay``): played back in the terminal from one seat or as a spectator
(``python -m bot replay FILE``), and its animated summary (a GIF of the board pictures, for the games that draw
one). A seat's playback shows what that seat saw at each moment: the public board, the public events, its own
private events and its own hand — never another seat's hidden cards."""
from __future__ import annotations

from typing import Callable

from . import render, replay_gif
from .games import render_hooks
from .i18n import join_list, t
from .replay import GameRecord, Rebuilt, Replay
from .replay_gif import GIF_MAX_FRAMES
from .storage import SeatRow

PRIVATE = "🔒"
NAME_PRINTED = 64  # characters of a seat's name the terminal prints (a record's names are whatever its file says)


def printed_name(name: str) -> str:
    """A seat's name as the terminal prints it: as typed, at most ``NAME_PRINTED`` characters (then "…")."""
    return render.guarded(name if len(name) <= NAME_PRINTED else name[:NAME_PRINTED - 1] + "…")


def record_names(record: GameRecord, locale: object | None,
                 shown: Callable[[str], str] = render.as_written) -> render.Names:
    """The seats' names as the table showed them (the host's bots as "Bot 1" in the reader's language); ``shown``:
    how a name enters the text (``literal.markdown`` in a Discord message, as written in the terminal)."""
    seats = [SeatRow(p.seat, p.player, p.name, None, p.bot) for p in record.players]
    return render.seat_names(seats, locale, shown)


def play_back(replay: Replay, viewer: str | None, lang: str, out: Callable[[str], None] = print) -> None:
    """Every frame as the demo prints a game (``frame_lines``), after a line saying whose view it is; plain text
    (``render.terminal_text``: no Discord markup), the names as typed."""
    record = replay.record
    names = record_names(record, lang, printed_name)
    who = names(viewer) if viewer is not None else t("replay.spectator", lang)
    out(render.terminal_text(t("replay.started", lang, id=record.table, game=render.game_title(record.game, lang),
                               players=join_list((names(p.player) for p in record.players), lang), viewer=who)))
    for index in range(len(replay)):
        for line in frame_lines(replay, index, viewer, lang, names):
            out(render.terminal_text(line))


def frame_lines(replay: Replay, index: int, viewer: str | None, lang: str, names: render.Names) -> list[str]:
    """What ``viewer`` (None: a spectator) saw at frame ``index``: who moved, the events shown to them, the board
    at the deal and at the end, and — for a seat — its own hand whenever it was that seat's turn."""
    game, frame, last = replay.record.game, replay.frames[index], len(replay) - 1
    lines = []
    if frame.action is not None:
        lines.append(t("replay.step", lang, index=index, total=last, player=names(frame.action.player)))
    for event in replay.events_seen(index, viewer):
        line = render.event_line(game, event, names, lang)
        if line is not None:
            lines.append(f"# {line}" if event.visible_to is None else f"  {PRIVATE} {line}")
    if index in (0, last):
        lines.append(render.board(game, replay.view(index, None), names, lang).text())
    notes = render_hooks(game).result_notes
    if index == last and notes is not None:  # (an unfinished game's notes are none)
        lines.extend(notes(replay.view(index, None), names, lang))  # why a result is as it is, as Discord says
    if viewer is not None and index != last and viewer in replay.engine.to_act(frame.state):
        hand = render.hand(game, replay.view(index, viewer), names, lang)
        lines.append(f"  {PRIVATE} {t('demo.hand_view', lang, player=names(viewer))}: " + hand.replace("\n", " / "))
    return lines


def animated_summary(replay: Rebuilt, lang: str, most: int = GIF_MAX_FRAMES) -> bytes | None:
    """The game as an animated GIF of its public board pictures (``bot.replay_gif``), or None for a game that
    draws no board picture."""
    return replay_gif.animated_summary(replay, record_names(replay.record, lang), lang, most)
