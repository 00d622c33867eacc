"""``python -m bot replay FILE [--seat N] [--lang ja] [--gif OUT]``: a game record (``/game record``) rebuilt by
the engine, checked against its final state, and played back in the terminal from one seat (default: a
spectator); ``--gif`` also writes its animated summary."""
from __future__ import annotations

import asyncio
import signal
import sys
from pathlib import Path
from typing import Callable

from .errors import HostError, user_message
from .i18n import t
from .replay import GameRecord, rebuild
from .replay_gif import summary_frames
from .replay_show import animated_summary, play_back

MAX_RECORD_BYTES = 16 * 1024 * 1024  # a record is kilobytes (the longest game allowed: a few MiB); more is no record


def refuse(line: str) -> int:
    print(line, file=sys.stderr)
    return 2


def read_record(file: str, lang: str) -> bytes | str:
    """The file's bytes, or the line refusing it: unreadable, or larger than ``MAX_RECORD_BYTES`` (at most one
    byte more is read, whatever the file's size, or a device that never ends)."""
    try:
        with open(file, "rb") as stream:
            data = stream.read(MAX_RECORD_BYTES + 1)
    except OSError as error:
        return t("replay.file_unreadable", lang, path=file, reason=error.strerror or str(error))
    if len(data) > MAX_RECORD_BYTES:
        return t("replay.file_too_large", lang, path=file, limit=MAX_RECORD_BYTES // (1024 * 1024))
    return data


def gif_problem(gif: str, lang: str) -> str | None:
    """Why the animated summary cannot be written to ``gif`` (a folder that is not there, a directory), checked
    before the game is played back; None when it can be tried."""
    path = Path(gif)
    if path.is_dir():
        return t("replay.gif_is_folder", lang, path=gif)
    if not path.parent.is_dir():
        return t("replay.gif_no_folder", lang, path=gif, folder=str(path.parent))
    return None


def serve_until_stopped(record: GameRecord, lang: str, port: int, seat: int | None,
                        out: Callable[[str], None]) -> int:
    """``--serve``: the replay pages on 127.0.0.1 until Ctrl-C (a port already taken: said, exit 2)."""
    from .web.serve_file import serve_record

    try:
        asyncio.run(serve_record(record, lang, port, seat, out))
    except KeyboardInterrupt:
        pass
    except OSError as error:
        return refuse(t("replay.port_taken", lang, port=port, reason=error.strerror or str(error)))
    return 0


def run_replay(file: str, seat: int | None, asked: str | None, gif: str | None,
               out: Callable[[str], None] = print, *, serve: bool = False, port: int = 0) -> int:
    """0 once played back (or served until Ctrl-C, with ``serve``); 2 with the reason on stderr for a file that is
    no record or does not replay, and for a ``gif`` path that cannot be written. ``asked``: ``--lang``; without
    it, the record's own language (the table's), else English."""
    if hasattr(signal, "SIGPIPE"):  # `python -m bot replay game.json | head` ends quietly
        signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    lang = asked or "en"  # until the record is read
    problem = gif_problem(gif, lang) if gif is not None else None
    if problem is not None:
        return refuse(problem)
    data = read_record(file, lang)
    if isinstance(data, str):
        return refuse(data)
    try:
        record = GameRecord.read(data)
        lang = record.language(asked)
        viewer = record.seat_player(seat)
        if serve:
            return serve_until_stopped(record, lang, port, seat, out)
        replay = rebuild(record)
    except HostError as error:
        print(user_message(error, lang), file=sys.stderr)
        return 2
    play_back(replay, viewer, lang, out)
    out(t("replay.verified", lang, count=len(record.actions)))
    if gif is not None:
        picture = animated_summary(replay, lang)
        if picture is None:
            out(t("replay.no_gif", lang))
        else:
            try:
                Path(gif).write_bytes(picture)
            except OSError as error:
                return refuse(t("replay.gif_unwritable", lang, path=gif, reason=error.strerror or str(error)))
            out(t("replay.gif_written", lang, path=gif, size=round(len(picture) / 1024),
                  frames=len(summary_frames(replay))))
    return 0
