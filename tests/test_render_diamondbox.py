"""Diamond Box text and pictures for many seeded states in both languages: boards, hand views, events, error
messages, the rules' card table, the board / preview / hand pictures."""
from __future__ import annotations

import io
import random
import re

import pytest
from PIL import Image

from bot import render
from bot.errors import user_message
from bot.i18n import LANGUAGES, catalog, rules_text
from bot.policies import choose_action
from bot.render import diamondbox as text
from bot.render import diamondbox_image as image
from engines import IllegalAction, get_engine
from engines.diamondbox.cards import cells_of, table

ENGINE = get_engine("diamondbox")
UNFILLED = re.compile(r"\{[a-z_]+\}")
NAMES = render.Names({"a": "Ann", "b": "Ben", "c": "Cy", "d": "Di"})


def games(count: int = 6):
    """(state, events) after every step of seeded bot games, 2–4 players, both turn options."""
    for seed in range(count):
        players = ["a", "b", "c", "d"][:2 + seed % 3]
        options = {"turns": "all"} if seed % 2 else {}
        state = ENGINE.new_game(players, seed=seed, options=options)
        rng = random.Random(seed)
        while actors := ENGINE.to_act(state):
            state, events = ENGINE.apply(state, actors[0], choose_action(ENGINE, state, actors[0], rng))
            yield state, events


@pytest.mark.parametrize("lang", LANGUAGES)
def test_boards_hands_and_events_render_for_many_states(lang: str) -> None:
    kinds = set()
    for state, events in games():
        board = render.board("diamondbox", ENGINE.view(state, None), NAMES, lang)
        body = board.text()
        assert not UNFILLED.search(body) and len(body) < 4096
        for p in state.order:
            hand = render.hand("diamondbox", ENGINE.view(state, p), NAMES, lang)
            assert not UNFILLED.search(hand)
            for c in state.hands[p]:
                assert text.card(c) in hand  # own cards in the own hand view only
            for q in state.order:
                if q != p:
                    assert all(text.card(c) not in hand for c in state.hands[q] if c not in state.hands[p])
        for ev in events:
            line = render.event_line("diamondbox", ev, NAMES, lang)
            if line is not None:
                assert not UNFILLED.search(line)
                kinds.add(ev.type)
    assert {"card_placed", "colour_chosen", "colour_choice_due", "passed", "bonus_turn", "drew_card"} <= kinds
    assert kinds & {"game_won", "game_drawn"}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_final_board_gives_the_ranking_once_with_the_cards_left(lang: str) -> None:
    """Issue 44: each place's line carries its cards left (no separate "cards left" list repeating the ranking)."""
    finished = 0
    for state, _events in games(4):
        result = ENGINE.result(state)
        if result is None:
            continue
        finished += 1
        body = render.board("diamondbox", ENGINE.view(state, None), NAMES, lang).text()
        assert body.count(catalog(lang)["common.final_ranking"]) == 1
        for group in result.ranking:
            count = result.scores[group[0]]
            place = next(line for line in body.splitlines() if NAMES(group[0]) in line and line[:1] in "🥇🥈🥉4")
            assert place.endswith(text.t("diamondbox.ranking_left", lang, count=count))
            assert sum(NAMES(group[0]) in line for line in body.splitlines()[body.splitlines().index(
                catalog(lang)["common.final_ranking"]):]) == 1  # named once after the heading
    assert finished >= 2


def test_the_board_names_the_designated_colour_the_last_card_and_the_turn() -> None:
    state, _ = next((s, e) for s, e in games(1) if s.current and len(s.placed) > 3)
    view = ENGINE.view(state, None)
    board = render.board("diamondbox", view, NAMES, "en")
    assert text.colour_name(state.designated, "en") in board.lines[0]
    last = state.placed[-1]
    width, height = (2, 3) if last.turn in (0, 180) else (3, 2)  # named by the columns and rows it covers
    assert (f"{text.card(last.card)} ↻{last.turn}° on columns {last.x} to {last.x + width - 1}, "
            f"rows {last.y} to {last.y + height - 1}") in board.text()
    assert NAMES(state.current) in board.footer


def test_every_engine_error_has_a_message_in_both_languages() -> None:
    codes = {"card_not_in_hand", "colour_choice_pending", "colour_not_allowed", "no_colour_choice",
             "same_as_other_turn", "turn_not_allowed", "unknown_action", "too_little_overlap", "diamonds_differ",
             "frame_colour_covered", "designated_colour_not_covered"}
    fields = {"card": "R04", "chooser": "a", "colour": "G", "choices": ["R", "Y"], "turn": 90, "turns": [0, 180],
              "covered": 3, "designated": "B"}
    for code in codes:
        for lang in LANGUAGES:
            assert f"error.diamondbox.{code}" in catalog(lang)
            message = user_message(IllegalAction(f"diamondbox.{code}", **fields), lang)
            assert not UNFILLED.search(message) and "diamondbox." not in message
    assert "🟦 blue" in user_message(IllegalAction("diamondbox.designated_colour_not_covered", designated="B"), "en")
    assert "🟥R04" in user_message(IllegalAction("diamondbox.card_not_in_hand", card="R04"), "en")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_rules_show_the_card_table_in_play(lang: str) -> None:
    rules = rules_text("diamondbox", lang)
    assert "{" not in rules
    for number, rows in table().patterns.items():
        assert f"`{number}` `{text.face(rows)}`" in rules
    assert "3.0%" in rules and ("Decision" in rules or "決定" in rules)


def test_pictures_are_pngs_of_the_right_size() -> None:
    for n, (state, _) in enumerate(games(4)):
        if n % 7:
            continue
        view = ENGINE.view(state, None)
        png = image.render_png(view)
        img = Image.open(io.BytesIO(png))
        b = view.bounds.model_dump()
        cols, rows = b["max_x"] - b["min_x"] + 1, b["max_y"] - b["min_y"] + 1
        assert img.width > cols * 16 and img.height > rows * 16
        own = ENGINE.view(state, state.order[0])
        if own.hand_faces:
            assert Image.open(io.BytesIO(image.hand_png(own.hand_faces))).width > 40
    view = ENGINE.view(ENGINE.new_game(["a", "b"], seed=1), None)
    assert image.preview_png(view, cells_of("Y10", 0), "Y10", 0, 0, 2, 3).startswith(b"\x89PNG")


def test_the_spots_picture_letters_every_spot_legibly_at_phone_width() -> None:
    """Issue 34 item 3: on the largest boards of seeded games (the last decision of each), every card of the seat to
    act, every page of its places: the picture draws each spot's letter once, and its smallest text (letters and
    coordinates) is at least 12 px tall once shown 280 px wide (issue 44)."""
    from bench.images import drawn_texts, largest_boards
    from bot.render.shapes import PHONE_WIDTH
    from cogs.games.diamondbox import PAGE, Choice, made, spots

    checked = 0
    for seed, view in enumerate(largest_boards("diamondbox", 6)[::2]):
        state = ENGINE.new_game([f"p{i}" for i in range(ENGINE.max_players)], seed=seed)
        rnd = random.Random(seed)  # the same game as largest_boards played: to its last decision
        while ENGINE.view(state, None) != view:
            actor = rnd.choice(ENGINE.to_act(state))
            state, _ = ENGINE.apply(state, actor, rnd.choice(ENGINE.legal_actions(state, actor)))
        player = ENGINE.to_act(state)[0]
        found = ENGINE.placements(state, player)
        for card in state.hands[player]:
            count = sum(1 for p in found if p.card == card)
            for page in range(max(1, -(-count // PAGE))):
                chosen = Choice(state.hands[player], found, [card, f"pg{page}"])
                with drawn_texts() as texts:
                    png = image.spots_png(view, spots(chosen), made(chosen))
                letters = [t for t, _ in texts if t.isalpha()]
                assert sorted(letters) == sorted(text.spot_label(i) for i in
                                                 range(page * PAGE, min(count, (page + 1) * PAGE)))
                width = Image.open(io.BytesIO(png)).width
                assert min(height for _, height in texts) * min(1.0, PHONE_WIDTH / width) >= 12, (seed, card, page)
                checked += bool(letters)
    assert checked >= 3


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_log_names_a_place_by_the_columns_and_rows_the_board_numbers(lang: str) -> None:
    from engines import Event

    placed = Event(type="card_placed", data={"player": "a", "card": "Y09", "turn": 90, "x": -1, "y": 3, "covered": 5})
    line = render.event_line("diamondbox", placed, NAMES, lang)
    assert line is not None and "(-1, 3)" not in line and "（-1, 3）" not in line
    assert {"en": "on columns -1 to 1, rows 3 to 4", "ja": "列-1〜1・行3〜4"}[lang] in line  # 3 wide, 2 tall at 90°
    assert [text.spot_label(i) for i in (0, 1, 25, 26, 27, 51, 52)] == ["A", "B", "Z", "AA", "AB", "AZ", "BA"]
