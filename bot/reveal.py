"""The reveal at the end of a game (issue 33, item 3; issue 42, item 1): what each seat held when the game ended,
as the final board counts it, then the private events the rules kept secret during play.

A seat's hand is read from the final *state*, never from the final view: a view hides what the scoring step
counts (Akuma's view shows no hand once the game is over, Twin Pyramid's no held card of a revealed hand, and a
view's ``hand`` leaves out Pile up's revealed cards), while the board's counts are those of the state. Each game
says which of its cards count as held at the end, the cards its board counts, through its plug-in (the engine's
``held_at_end``; without one, each seat's hand as its own view shows it)."""
from __future__ import annotations

from typing import Any

from engines import get_engine

from . import render
from .games import engine_hooks, render_hooks
from .i18n import join_list, t
from .replay import Rebuilt


def held_at_end(game: str, final_state: Any) -> dict[str, list[str]]:
    """Every seat's cards at the end of the game, as its final board counts them."""
    held = engine_hooks(game).held_at_end
    if held is not None:
        return held(final_state)
    engine = get_engine(game)
    return {p: list(engine.view(final_state, p).hand or []) for p in final_state.players}


def reveal_lines(replay: Rebuilt, lang: str, names: render.Names) -> list[str]:
    """What each seat held when the game ended, then the private events the rules kept secret during play (the
    engine's ``secret_events``), each with its step and who saw it."""
    game = replay.record.game
    card = render_hooks(game).card
    held = held_at_end(game, replay.state(len(replay) - 1))
    lines = [t("reveal.hands", lang)]
    for seat in replay.record.players:
        cards = held.get(seat.player, [])
        lines.append(t("reveal.held", lang, player=names(seat.player), count=len(cards),
                       cards=" ".join(card(c) for c in cards) or "—"))  # no trailing space after "0 cards"
    kept_secret = get_engine(game).secret_events
    secret = [(index, event) for index in range(len(replay)) for event in replay.frame_events(index)
              if event.visible_to and event.type in kept_secret]
    if secret:
        lines += ["", t("reveal.secrets", lang)]
    for index, event in secret:
        line = render.event_line(game, event, names, lang)
        if line is not None:
            players = join_list((names(p) for p in event.visible_to or ()), lang)
            lines.append(t("reveal.secret", lang, index=index, players=players, line=line))
    return lines
