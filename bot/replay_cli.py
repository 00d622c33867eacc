"""``python -m bot replay FILE [--seat N] [--lang ja] [--gif OUT]``: a game record (``/game record``) rebuilt by
the engine, checked against its final state, and played back in the terminal from one seat (default: a
spectator); ``--gif`` also writes its animated summary."""
from __future__ import annotations

import signal
import sys
from pathlib import Path
from typing import Callable

from .errors import HostError, user_message
from .i18n import t
from .replay import GameRecord, rebuild
from .replay_gif import summary_frames
from .replay_show import animated_summary, play_back


def run_replay(file: str, seat: int | None, lang: str, gif: str | None,
               out: Callable[[str], None] = print) -> int:
    """0 once played back; 2 with the reason on stderr for a file that is no record or does not replay."""
    if hasattr(signal, "SIGPIPE"):  # `python -m bot replay game.json | head` ends quietly
        signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    try:
        data = Path(file).read_bytes()
    except OSError as error:
        print(t("replay.file_unreadable", lang, path=file, reason=error.strerror or str(error)), file=sys.stderr)
        return 2
    try:
        record = GameRecord.read(data)
        viewer = record.seat_player(seat)
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
            Path(gif).write_bytes(picture)
            out(t("replay.gif_written", lang, path=gif, size=round(len(picture) / 1024),
                  frames=len(summary_frames(len(replay)))))
    return 0
