"""Board pictures for phones (issue 14, item 9): every game's picture, for seeded positions in both languages,
decodes as a PNG whose size reads at a phone's width; its alt text says what it shows within Discord's limit; it is
drawn from the spectator view only, which holds no secret; every text stays 12 px tall at 280 px width (the width a
400 px phone shows an embed's picture at, issue 44), and
Rocca's cards a move may be placed on are always drawn legible."""
from __future__ import annotations

import asyncio
import io
import random
from dataclasses import replace
from types import SimpleNamespace
from typing import Any, Iterator

import pytest
from PIL import Image, ImageChops

from bot import games, render
from bot.games import render_hooks
from bot.i18n import LANGUAGES
from bot.policies import choose_action
from bot.render.shapes import PHONE_WIDTH
from engines import GAMES, get_engine

from .engines.conformance import string_leaves
from .test_hidden_information import Secrets

PICTURED = [g for g in GAMES if render_hooks(g).image is not None]
PHONE = PHONE_WIDTH


def positions(game: str, seed: int, every: int = 7) -> Iterator[Any]:
    """States along a seeded bot game (at most seat count), every ``every`` moves and the final one."""
    engine = get_engine(game)
    count = engine.min_players + seed % (engine.max_players - engine.min_players + 1)
    state = engine.new_game([f"p{i}" for i in range(count)], seed=10 ** 12 + seed)  # a seed no view repeats
    rng = random.Random(seed)
    for step in range(400):
        actors = engine.to_act(state)
        if step % every == 0 or not actors:
            yield state
        if not actors:
            return
        state, _ = engine.apply(state, actors[0], choose_action(engine, state, actors[0], rng))


def test_the_pictured_games() -> None:
    assert {"pileup", "twinpyramid", "rocca", "diamondbox"} <= set(PICTURED)


@pytest.mark.parametrize("game", PICTURED)
def test_every_picture_decodes_and_reads_at_phone_width(game: str) -> None:
    engine, module = get_engine(game), render_hooks(game)
    for seed in (1, 2):
        for state in positions(game, seed):
            view = engine.view(state, None)
            names = render.Names({p: f"Player {p}" for p in state.players})
            for lang in LANGUAGES:
                assert module.image is not None
                image = Image.open(io.BytesIO(module.image(view, names, lang)))
                assert image.format == "PNG"
                width, height = image.size
                assert 100 <= width <= 1200, (game, image.size)  # a phone shows it ~280 px wide: not a poster
                assert height * PHONE / width <= 1000, (game, image.size)
                alt = module.image_alt(view, names, lang) if module.image_alt is not None else ""
                assert "{" not in alt and len(alt) <= 1024, (game, alt)


@pytest.mark.parametrize("game", PICTURED)
def test_pictures_are_drawn_from_the_spectator_view_which_holds_no_secret(game: str, monkeypatch) -> None:
    """The Discord layer hands the picture the spectator view; that view shows no player's secret cards."""
    from cogs import board

    engine = get_engine(game)
    state = list(positions(game, 3, every=25))[-2]
    secrets = Secrets(game, state)
    spectator = engine.view(state, None)
    assert not secrets.leaks(" ".join(string_leaves(spectator)), None)
    asked: list[str | None] = []
    seen: list[dict] = []

    def view(player: str | None) -> dict:
        asked.append(player)
        return engine.view(state, player)

    table = SimpleNamespace(row=SimpleNamespace(game=game, locale="en"), view=view,
                            seats=[SimpleNamespace(player=p, name=p, is_bot=True, user_id=None) for p in state.players])
    fake = replace(games.render_hooks(game), image=lambda v, names, locale: seen.append(v) or b"\x89PNG")
    monkeypatch.setitem(games.LOADED, ("render", game), fake)
    file = asyncio.run(board.board_image(table, "en"))
    assert asked == [None] and seen == [spectator]
    assert file is not None and file.filename == "board.png" and 0 < len(file.description or "") <= 1024


def test_rocca_draws_every_card_a_move_may_be_placed_on_labelled_and_legible() -> None:
    """Honest even when cut: in the last decisions of random games at every seat count, with and without Bon, every
    card a legal move (a turn's placement, a counter, a Bon chain, anyone's) can be placed on is drawn with its label
    12 px tall at 280 px wide, and so is every rank drawn; some of these towers are too wide and tall for one
    picture (``Canvas.split``: an overview without text above the parts at full size)."""
    from bench.images import drawn_texts, late_states
    from bot.render import rocca_image as RI
    from engines.rocca.actions import Bon, Place

    engine = get_engine("rocca")
    checked = split = 0
    for state in late_states("rocca", 24):  # per game: its last three decisions and its final board
        view = engine.view(state, None)
        label = {tc.card: tc.label for tc in view.tower}
        moves = [a for p in state.players for a in engine.legal_actions(state, p) if isinstance(a, (Place, Bon))]
        targets = {label[a.on] for a in moves}
        with drawn_texts() as texts:
            png = RI.render_png(view)
        shrink = min(1.0, PHONE / Image.open(io.BytesIO(png)).size[0])
        legible = {text for text, height in texts if height * shrink >= 12}
        assert targets <= legible, (targets - legible, view.to_act)
        assert min(height for _, height in texts) * shrink >= 12
        split += RI.Canvas(view.tower).split
        checked += bool(targets)
    assert checked >= 40 and split >= 20


PLAYERS = {"p0": "alice", "p1": "Bob the long-named builder of pyramids", "p2": "さくら", "p3": "dan", "p4": "eve",
           "p5": "fay"}


@pytest.mark.parametrize("game", PICTURED)
def test_every_text_of_the_largest_boards_is_12_px_tall_at_phone_width(game: str) -> None:
    """Issue 34 item 2, issue 44: card ranks, labels, coordinates and counts keep 12 px of ink at 280 px wide, on the
    largest boards of seeded games at most seats (the last decision and the final board), every game included: 24
    games for Rocca, whose towers grow both wide and tall (20 of them once found 10.7 px)."""
    from bench.images import largest_boards, smallest_glyph_at_phone

    names = render.Names(PLAYERS)
    games = 24 if game == "rocca" else 10
    checked = 0
    for view in largest_boards(game, games):
        for lang in LANGUAGES:
            assert smallest_glyph_at_phone(game, view, names, lang) >= 12, (game, lang)
            assert smallest_glyph_at_phone(game, view, names, lang, looked_back=True) >= 12, (game, lang)
        checked += 1
    assert checked == 2 * games


def test_twin_pyramid_draws_the_deciding_seat_under_its_name() -> None:
    """The picture shows the seat to act, named as written (Japanese too; shortened when long; its number when no
    font here has a character of the name, an emoji), and no other seat's name."""
    from bench.images import drawn_texts, largest_boards
    from bot.render.twinpyramid import image

    ranks = {"A", "J", "Q", "K"} | {str(n) for n in range(2, 11)}
    long_name = "Bob the long-named builder of pyramids and towers"
    shown = 0
    for view in largest_boards("twinpyramid", 3)[::2]:  # positions where someone decides
        acting = view.to_act[0]
        for name, expected in (("alice", {"alice"}), ("さくら", {"さくら"}), ("🎲", set()), (long_name, None)):
            names = render.Names({**{p: f"other {p}" for p in view.players}, acting: name})
            with drawn_texts() as texts:
                image(view, names, "en")
            number = str(view.players.index(acting) + 1)  # drawn instead of a name no font here has
            words = {text for text, _ in texts if text not in ranks | {number}}
            if expected is None:
                assert len(words) == 1 and (word := words.pop()).endswith("…") and long_name.startswith(word[:-1])
            else:
                assert words == expected, (name, texts)
            if not expected and expected is not None:  # the seat's number instead of a name the font cannot draw
                assert number in {text for text, _ in texts}
        shown += 1
    assert shown == 3


def test_twin_pyramids_picture_looked_back_at_shows_every_seat() -> None:
    """Issue 53: the viewer's and the animated summary's picture holds every seat's public state: a stone placed
    on any one seat, or one more card shown, changes the picture there — inside that seat's part of the strip
    under the big panel, and nowhere but there and in the big panel when that seat is the one drawn large."""
    from bench.images import largest_boards
    from bot.render.twinpyramid import review_image
    from bot.render.twinpyramid_image import MINI_H, PAD, focus_seat

    view = largest_boards("twinpyramid", 1)[0]
    names = render.Names({p: p for p in view.players})

    def drawn(v: Any) -> Image.Image:
        return Image.open(io.BytesIO(review_image(v, names, "en"))).convert("RGB")

    before = drawn(view)
    cell = (before.width - 2 * PAD) / len(view.table)
    for number, seat in enumerate(view.table):
        empty = next(rank for rank, stone in seat.stones.items() if stone is None)
        changed = [s.model_copy(update={"stones": {**s.stones, empty: "X1"}, "shown": [*s.shown, "KH"]})
                   if s.player == seat.player else s for s in view.table]
        difference = ImageChops.difference(before, drawn(view.model_copy(update={"table": changed})))
        top = before.height - MINI_H
        strip = difference.crop((0, top, before.width, before.height)).getbbox()
        assert strip is not None, seat.player  # its part of the strip changed, and no other seat's
        assert PAD + number * cell - 1 <= strip[0] and strip[2] <= PAD + (number + 1) * cell + 1, (seat.player, strip)
        above = difference.crop((0, 0, before.width, top)).getbbox()
        big = number == focus_seat(view, ended_first=True)  # the big panel changes for its seat only
        assert (above is not None) == big, seat.player


def test_names_in_japanese_and_with_accents_are_drawn_and_emoji_are_not() -> None:
    """A name is drawn in the default font when it can, else in the shipped Japanese font; an emoji in neither."""
    from bot.render.shapes import NAME_FONT_FILE, font, name_font

    assert NAME_FONT_FILE.is_file()
    assert name_font("alice", 20) is font(20)
    for name in ("さくら", "山田花子", "José Müller", "ボット1"):
        chosen = name_font(name, 20)
        assert chosen is not None and chosen is not font(20), name
    assert name_font("🎲", 20) is None and name_font("alice 🎲", 20) is None
