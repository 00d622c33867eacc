"""Every message of a seeded game of each kind renders in both languages: the board (public view), each
seat's hand view, and every public and private event — no missing key, no unfilled placeholder, and the
Japanese text is Japanese."""
from __future__ import annotations

import random
import re

import pytest

from bot import render
from bot.i18n import LANGUAGES
from engines import GAMES, get_engine

JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")
UNFILLED = re.compile(r"\{[a-z_]+\}")


def check(text: str | None, lang: str, what: str) -> None:
    if text is None:
        return
    assert not UNFILLED.search(text), f"{what}: unfilled placeholder in {text!r}"
    if lang == "ja" and text.strip():
        assert JAPANESE.search(text) or not re.search(r"[A-Za-z]{4,} [a-z]{3,}", text), f"{what} not Japanese: {text!r}"


@pytest.mark.parametrize("game", GAMES)
def test_every_message_of_a_seeded_game_renders_in_both_languages(game: str) -> None:
    engine = get_engine(game)
    rnd = random.Random(11)
    players = [f"bot{i + 1}" for i in range(min(4, engine.max_players))]
    names = render.Names({p: f"Bot {i + 1}" for i, p in enumerate(players)})
    state = engine.new_game(players, seed=11)
    events_seen = 0
    steps = 0
    while actors := engine.to_act(state):
        for lang in LANGUAGES:
            board = render.board(game, engine.view(state, None), names, lang)
            check(board.text(), lang, f"{game} board")
            for p in players:
                check(render.hand(game, engine.view(state, p), names, lang), lang, f"{game} hand")
        player = rnd.choice(actors)
        state, events = engine.apply(state, player, rnd.choice(engine.legal_actions(state, player)))
        for ev in events:
            events_seen += 1
            for lang in LANGUAGES:
                check(render.event_line(game, ev, names, lang), lang, f"{game} event {ev.type}")
        steps += 1
        if steps > 400:  # long games: the first 400 steps cover every kind of message many times
            break
    for lang in LANGUAGES:
        check(render.board(game, engine.view(state, None), names, lang).text(), lang, f"{game} final board")
    assert events_seen > 0


def test_akuma_reminds_a_steal_victim_where_its_card_went_and_nobody_else() -> None:
    from bot.render import Names
    from bot.render import akuma as akuma_text
    from engines.akuma import Play, Steal

    engine = get_engine("akuma")
    names = Names({"p0": "Ann", "p1": "Bo", "p2": "Cy"})
    state = engine.new_game(["p0", "p1", "p2"], seed=1)
    state.hands = {"p0": ["Y2", "G9"], "p1": ["Y7", "Y8", "Y9"], "p2": ["G2", "G3"]}
    state.current = state.trick_starter = "p0"
    state, _ = engine.apply(state, "p0", Play(cards=["Y2"]))
    state, events = engine.apply(state, "p0", Steal(victim="p1"))
    card = akuma_text.cards([events[1].data["card"]])
    lines = {lang: render.hand("akuma", engine.view(state, "p1"), names, lang).splitlines()[-1] for lang in LANGUAGES}
    assert lines["en"] == f"Still in Ann's hand, taken from you by a steal: {card}"
    assert lines["ja"] == f"Annにスティールされ、まだその手札にあるカード：{card}"
    for lang in LANGUAGES:
        assert card not in render.hand("akuma", engine.view(state, "p2"), names, lang)


def test_akuma_says_lower_is_better_beside_its_scores_and_shows_the_running_score() -> None:
    """Issue 34 item 5: the hand view shows what the hand would score now (the engine's own count), and the final
    board says that a lower score is better, in both languages (the game-over line above it repeats no ranking)."""
    import random as _random

    from bot import render as _render
    from bot.i18n import t as _t
    from bot.render import akuma as AK
    from engines import get_engine as _get_engine
    from engines.akuma.cards import hand_score

    engine = _get_engine("akuma")
    state = engine.new_game(["p0", "p1", "p2"], seed=5)
    names = _render.Names({"p0": "alice", "p1": "bob", "p2": "carol"})
    for lang in ("en", "ja"):
        own = engine.view(state, "p0")
        assert _t("akuma.hand.score", lang, score=hand_score(state.hands["p0"])) in AK.hand(own, names, lang)
    rng = _random.Random(5)
    events = []
    while actors := engine.to_act(state):
        state, new = engine.apply(state, actors[0], rng.choice(engine.legal_actions(state, actors[0])))
        events += new
    over = next(ev for ev in events if ev.type == "game_over")
    for lang in ("en", "ja"):
        assert _t("akuma.result.lower_is_better", lang) in AK.board(engine.view(state, None), names, lang).text()
        assert _t("akuma.result.lower_is_better", lang) not in (AK.event(over, names, lang) or "")  # on the board
        assert _t("akuma.hand.score", lang, score=0).split("0")[0] not in AK.hand(engine.view(state, "p0"), names, lang)
