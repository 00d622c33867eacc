"""Twin Pyramid's per-seat streams on the table (``streams: per_seat``, D19), both languages: the board names every
seat's own pile and counts them together, a rebuilt pile says whose, a 3 speaks of its player's own pile and its
order's labels give the top card to the player; a shared table's board and events are as before."""
from __future__ import annotations

import random

import pytest

from bot.i18n import t
from bot.policies import choose_action
from bot.render import Names
from bot.render import twinpyramid as R
from engines.rng import Rng
from engines.twinpyramid import TwinPyramidEngine
from engines.twinpyramid.state import OwnPile

from .engines.test_twinpyramid_support import make

ENG = TwinPyramidEngine()
LOCALES = ("en", "ja")
PER_SEAT = {"streams": "per_seat"}


def names_for(players: list[str]) -> Names:
    return Names({p: f"Player {p}" for p in players})


def own_pile_words(lang: str) -> str:
    return t("twinpyramid.board.own_pile", lang, count=0).replace("0", "")


@pytest.mark.parametrize("n", [2, 6])
def test_the_board_names_every_own_pile_and_a_rebuild_says_whose(n: int) -> None:
    players = [f"p{i}" for i in range(n)]
    names = names_for(players)
    shared = ENG.new_game(players, seed=n)
    for lang in LOCALES:
        text = "\n".join(R.board(ENG.view(shared, None), names, lang).lines)
        assert own_pile_words(lang) not in text
        view = ENG.view(shared, None)
        assert t("twinpyramid.board.top", lang, card=R.card(view.top), draw=view.draw_count,
                 discard=view.discard_count) in text
    state = ENG.new_game(players, seed=n, options=PER_SEAT)
    rng = random.Random(n)
    rebuilt = 0
    while (actors := ENG.to_act(state)) and rebuilt < 3:
        view = ENG.view(state, None)
        for lang in LOCALES:
            text = "\n".join(R.board(view, names, lang).lines)
            assert t("twinpyramid.board.top_own", lang, card=R.card(view.top), draw=view.draw_count,
                     discard=view.discard_count) in text
            for seat in view.table:
                line = next(line for line in text.splitlines() if f"**{names(seat.player)}**" in line)
                assert t("twinpyramid.board.own_pile", lang, count=seat.pile) in line
        state, events = ENG.apply(state, actors[0], choose_action(ENG, state, actors[0], rng))
        for ev in events:
            if ev.type == "reshuffled":
                rebuilt += 1
                for lang in LOCALES:
                    assert R.event(ev, names, lang) == t("twinpyramid.event.reshuffled_own", lang,
                                                         player=names(ev.data["player"]), count=ev.data["own_pile"])
    assert rebuilt > 0


def test_a_three_speaks_of_its_players_own_pile_and_gives_the_top_card_to_them() -> None:
    names = names_for(["p0", "p1", "p2"])
    state = make(3, hands={"p0": {"held": ["3H", "4D"]}}, top="5H", draw=["9C", "JD", "KS", "QH", "8S"],
                 fill_draw=False, options=PER_SEAT)
    state.own = {"p0": OwnPile(pile=["KS", "JD", "9C"], rng=Rng(state=1)),
                 "p1": OwnPile(pile=["QH"], rng=Rng(state=2)), "p2": OwnPile(pile=["8S"], rng=Rng(state=3))}
    state.draw = []
    state, _ = ENG.apply(state, "p0", {"type": "play", "card": "3H"})
    view = ENG.view(state, "p0")
    for lang in LOCALES:
        you = t("twinpyramid.you", lang)
        assert R.order_text(["9C", "JD", "KS"], view, names, lang) == f"{R.card('9C')}→{you} · {R.card('JD')} · " \
                                                                      f"{R.card('KS')}"
        assert t("twinpyramid.hand.order_three_own", lang, cards=R.cards(["9C", "JD", "KS"])) in R.hand(view, names,
                                                                                                       lang)
        board = "\n".join(R.board(ENG.view(state, None), names, lang).lines)
        assert t("twinpyramid.pending.order_three_own", lang, player=names("p0")) in board
    state, _ = ENG.apply(state, "p0", {"type": "order_three", "order": ["9C", "JD", "KS"]})
    waiting = ENG.view(state, "p0")
    assert waiting.peek == ["9C", "JD", "KS"]
    acting = waiting.model_copy(update={"to_act": ["p0"], "pending": None, "phase": "turn"})  # the line's place
    for lang in LOCALES:
        assert t("twinpyramid.hand.peek_own", lang, cards=R.cards(["9C", "JD", "KS"])) in R.hand(acting, names, lang)
