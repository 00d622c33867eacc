"""Diamond Box's board where you decide (issue 34, item 3), through Discord: discord.py's real objects fed raw gateway
payloads, only HTTP faked. The hand view's picture is the centre with the chosen card's spots lettered; its buttons
and select name the same spots by the same letters, short enough for a phone, in English and Japanese; the letters
stay with their places across a page change; the picture reads at 280 px (issue 44) and shows nothing of another
seat's hand; the log names the place by the columns and rows the board picture numbers.
"""
from __future__ import annotations

import io
import re

import pytest
from PIL import Image

from bench.images import drawn_texts
from bot.render.diamondbox import spot_label
from bot.render.shapes import PHONE_WIDTH
from engines.diamondbox.cards import size_at

from .discord_harness import Harness
from .discord_helpers import my_hand, public_mark, public_since, select_with
from .test_discord_diamondbox import ALICE, ENGINE, make, open_table

PHONE = PHONE_WIDTH
BUTTON_MAX = 25  # characters a button label keeps on a phone
LETTERS = re.compile(r"[A-Z]{1,2}")
FIELD = [("R10", x, y) for x in range(0, 12, 2) for y in range(0, 9, 3)]  # a wide blank red field: many places
SPLIT = {"en": " · ", "ja": "・"}  # how a select option's parts are joined


def spot_options(hand) -> dict[str, str]:
    """The placement select's options on the page shown: value → the spot letter it starts with."""
    out = {}
    for c in hand.components:
        for o in c.get("options", []) if c.get("type") == 3 else []:
            if o["value"].startswith("@"):
                out[o["value"]] = o["label"].split(SPLIT["ja" if "・" in o["label"] else "en"])[0]
    return out


def spot_buttons(hand) -> dict[str, str]:
    """The quick place buttons (the primary ones): label → the spot letter it starts with."""
    return {c["label"]: c["label"].split(" ")[0] for c in hand.components if c.get("type") == 2 and c.get("style") == 1}


def drawn_letters(texts: list[tuple[str, float]]) -> list[str]:
    return [text for text, _ in texts if LETTERS.fullmatch(text)]


def smallest_at_phone(texts: list[tuple[str, float]], png: bytes) -> float:
    width = Image.open(io.BytesIO(png)).size[0]
    return min(height for _, height in texts) * min(1.0, PHONE / width)


async def choose(h: Harness, user, hand, table, value: str) -> list[tuple[str, float]]:
    """Choose a select value; returns the texts the redrawn hand picture drew."""
    with drawn_texts() as texts:
        if not value.startswith(("@", "pg")):  # a card
            await h.select(user, hand, rf"gh:pick:{table.id}:\d+:0:.*", [value])
        else:
            await h.select(user, hand, select_with(hand, value), [value])
    return texts


@pytest.mark.parametrize("lang", ["en", "ja"])
async def test_the_picture_letters_each_spot_and_the_controls_name_them_so(h: Harness, lang: str) -> None:
    alice = h.user(101, "alice", locale=lang)
    table = await open_table(h, alice, bots=1, turns="all")
    make(table, {ALICE: ["Y10", "B10"], "bot1": ["G10"]}, FIELD, designated="R", turns="all")
    places = [p for p in ENGINE.placements(table.state, ALICE) if p.card == "Y10"]  # best first, as offered
    letter_of = {f"@{p.card}_{p.turn}_{p.x}_{p.y}": spot_label(i) for i, p in enumerate(places)}
    hand = await my_hand(h, alice, table)
    for page, value in enumerate(["Y10", "pg1"]):
        texts = await choose(h, alice, hand, table, value)
        options, buttons = spot_options(hand), spot_buttons(hand)
        assert len(options) == 23 and options == {v: letter_of[v] for v in options}  # each spot by its own letter
        assert sorted(drawn_letters(texts)) == sorted(options.values())  # the picture letters exactly those spots
        assert page == 0 or options[next(iter(options))] == "X"  # page 2 goes on where page 1 stopped (A…W)
        assert buttons and set(buttons.values()) <= set(options.values())  # the buttons name spots shown
        labels = [c["label"] for c in hand.components if c.get("type") == 2]
        assert all(len(label) <= BUTTON_MAX for label in labels), labels  # every button of the hand view
        assert smallest_at_phone(texts, hand.files["hand.png"]) >= 12
    # choosing a spot in the list keeps its letter; the Place button names it, the picture draws it once
    value, letter = next(iter(spot_options(hand).items()))
    texts = await choose(h, alice, hand, table, value)
    assert drawn_letters(texts).count(letter) == 1 and spot_options(hand)[value] == letter
    place = next(c["label"] for c in hand.components if c.get("type") == 2 and c.get("style") == 3)
    assert letter in place.split() and len(place) <= BUTTON_MAX, place
    # a quick button plays its spot, and the log names it by the columns and rows it covers
    label = next(iter(spot_buttons(hand)))
    chosen = places[[spot_label(i) for i in range(len(places))].index(spot_buttons(hand)[label])]
    before = public_mark(h)
    await h.click(alice, hand, label=label)
    assert table.state.placed[-1].x == chosen.x and table.state.placed[-1].y == chosen.y
    width, height = size_at(chosen.turn)
    columns = (chosen.x, chosen.x + width - 1)
    rows = (chosen.y, chosen.y + height - 1)
    expected = {"en": f"on columns {columns[0]} to {columns[1]}, rows {rows[0]} to {rows[1]}",
                "ja": f"列{columns[0]}〜{columns[1]}・行{rows[0]}〜{rows[1]}"}[table.row.locale[:2]]
    assert expected in public_since(h, before)  # the public log speaks the table's language


async def test_the_hand_picture_shows_only_the_seats_own_hand_and_the_public_centre(h: Harness) -> None:
    """Other seats' hands and piles change nothing in Alice's picture; her own card's spots do."""
    alice = h.user(101, "alice")
    table = await open_table(h, alice, bots=1, turns="all")
    pictures = []
    for mine, theirs in ((["Y10", "B10"], ["G10", "P10"]), (["Y10", "B10"], ["B01", "Y04", "P10"]),
                         (["Y01", "Y10"], ["G10"])):
        make(table, {ALICE: mine, "bot1": theirs}, FIELD, designated="R", turns="all", piles={"bot1": theirs})
        hand = await my_hand(h, alice, table)
        await choose(h, alice, hand, table, mine[0])
        pictures.append(hand.files["hand.png"])
    assert pictures[0] == pictures[1]  # another seat's cards: not in the picture
    assert pictures[0] != pictures[2]  # the seat's own chosen card: its spots are
