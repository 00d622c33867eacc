"""The knockout bracket as a picture (issue 43): knockouts of 4, 10 and 32 entrants played out with the real planner
and seating, in English and Japanese (bots named by the catalog, people with Latin, accented, Japanese and very long
names). The PNG decodes; every text it draws is at least 12 px tall once shown at phone width; the rounds are its
columns and each table a box listing its players; a long name is fitted with an ellipsis, whole characters only; a
name the font cannot draw stands as its number; who went on is marked."""
from __future__ import annotations

import io

import pytest
from PIL import Image

from bench.images import drawn_texts
from bot.i18n import t
from bot.render import bracket_image
from bot.render.shapes import PHONE_WIDTH, drawable
from bot.tournaments import Entrant, Tournament, TournamentTable, compute_standings, ranking_points
from bot.tournaments.bracket import BoxState, BracketRound, bracket
from bot.tournaments.knockout import plan, seat_round
from bot.tournaments.models import Format, TableStatus, TournamentStatus
from bot.tournaments.standings import knockout_field

PEOPLE = ["ann", "Bob", "Zoë", "山田太郎", "Maximilian-Alexander von Hohenberg-Schwangau", "x" * 32, "ゆき", "🎲🃏"]
SIZES = {4: (4, 4, 1), 10: (3, 4, 2), 32: (4, 4, 2)}  # entrants: (seats_min, seats_max, advance)


def knockout(count: int, locale: str, rounds_played: int | None = None) -> Tournament:
    """A knockout of ``count`` entrants (people first, bots filling up), played with the planner's seating: each
    finished table places its players in reverse seat order; ``rounds_played``: stop with that round still being
    played (None: to the end)."""
    low, high, advance = SIZES[count]
    tn = Tournament(1, 1, 1, 1, "akuma", Format.KNOCKOUT, 0, low, high, 0, advance=advance, status="running",
                    locale=locale)
    for seq in range(count):
        if seq < len(PEOPLE):
            tn.entrants[seq + 1] = Entrant(seq + 1, PEOPLE[seq], seq=seq)
        else:
            bot = seq - len(PEOPLE) + 1
            tn.entrants[-bot] = Entrant(-bot, t("common.bot_name", locale, number=bot), True, seq=seq)
    order = list(tn.entrants)
    plan_rounds = plan(count, low, high, advance)
    assert plan_rounds is not None
    tn.rounds = len(plan_rounds)
    for number in range(1, tn.rounds + 1):
        tn.current_round = number
        seated = seat_round(order, low, high, advance)
        assert seated is not None
        tables, byes = seated
        for players in tables:
            playing = number == rounds_played
            tn.tables.append(TournamentTable(len(tn.tables) + 1, number, 100 + len(tn.tables), players,
                                             "running" if playing else "finished",
                                             results={} if playing else ranking_points([[u] for u in players[::-1]])))
        for player in byes:
            tn.tables.append(TournamentTable(len(tn.tables) + 1, number, 0, [player], "bye",
                                             results={player: (1, 1.5)}))
        if number == rounds_played:
            return tn
        order = knockout_field(tn, number)
    tn.status = TournamentStatus.FINISHED
    return tn


def drawn(tn: Tournament) -> tuple[list[BracketRound], bytes, list[tuple[str, float]]]:
    rounds = bracket(tn, compute_standings(tn))
    with drawn_texts() as texts:
        png = bracket_image.render_png(rounds)
    return rounds, png, texts


@pytest.mark.parametrize("locale", ["en", "ja"])
@pytest.mark.parametrize("count", sorted(SIZES))
def test_the_bracket_decodes_and_reads_at_phone_width(count: int, locale: str) -> None:
    tn = knockout(count, locale)
    rounds, png, texts = drawn(tn)
    image = Image.open(io.BytesIO(png))
    image.load()
    width, height = image.size
    shrink = min(1.0, PHONE_WIDTH / width)
    # the project's measure of legibility (``shapes.LEGIBLE_PX``): a digit's ink; names are drawn at the same size
    assert min(h for text, h in texts if any(c.isdigit() for c in text)) * shrink >= 12, (count, locale)
    assert height * shrink <= 3000, (count, locale)  # long, but one picture scrolled through, not a strip
    assert [r.number for r in rounds] == list(range(1, tn.rounds + 1))  # every round a column, the final last
    assert rounds[-1].final and len(rounds[-1].boxes) == 1
    seated = [u for tb in tn.tables for u in tb.players]
    boxes = [box for r in rounds for box in r.boxes]
    assert sum(len(box.entries) for box in boxes) == len(seated)
    numbers = {text for text, _ in texts}
    assert {f"#{tb.number}" for tb in tn.tables if tb.status != "bye"} <= numbers  # each table's box, numbered
    for name in (e.name for e in tn.entrants.values()):
        if drawable(name) and len(name) <= 6:
            assert name in numbers, name  # a short name as typed
    for text in numbers:
        if text.endswith("…"):  # fitted: a whole-character prefix of a name
            assert any(e.name.startswith(text[:-1]) for e in tn.entrants.values()), text


def test_a_name_the_font_cannot_draw_stands_as_its_number() -> None:
    """Japanese names and the catalog's ボット names are drawn as written; a name of emoji (no font here has them)
    stands as a mark and the person's place in the standings."""
    tn = knockout(10, "ja")
    rows = compute_standings(tn)
    rounds, _, texts = drawn(tn)
    drawn_names = [text for text, _ in texts]
    assert "山田太郎" in drawn_names and "ゆき" in drawn_names
    assert not any("🎲" in text for text in drawn_names)
    dice = next(e for r in rounds for box in r.boxes for e in box.entries if e.name == "🎲🃏")
    assert dice.number == next(row.place for row in rows if row.user_id == 8)  # the place in the standings
    bot = next(e for r in rounds for box in r.boxes for e in box.entries if e.is_bot)
    assert bot.name == t("common.bot_name", "ja", number=bot.number) and bot.name in drawn_names


def test_who_went_on_is_marked_and_the_plan_shows_the_rounds_to_come() -> None:
    tn = knockout(32, "en", rounds_played=2)
    rounds, png, _ = drawn(tn)
    assert [r.number for r in rounds] == [1, 2, 3, 4] and rounds[-1].final
    first = rounds[0].boxes[0]
    table = tn.round_tables(1)[0]
    assert first.state is BoxState.DONE and [e.advanced for e in first.entries] == [True, True, False, False]
    assert {e.name for e in first.entries[:2]} == {tn.entrants[u].name for u in table.players[::-1][:2]}
    assert all(box.state is BoxState.PLAYING and not any(e.advanced for e in box.entries)
               for box in rounds[1].boxes)
    assert [(box.state, box.seats) for box in rounds[2].boxes] == [(BoxState.PLANNED, 4)] * 2
    assert Image.open(io.BytesIO(png)).size[0] == bracket_image.TWO_COLUMN_WIDTH


def test_a_cancelled_table_sends_on_its_best_seeds_and_a_bye_goes_on() -> None:
    SIZES[8] = (3, 4, 1)  # 8 at tables of 3-4, the winner going on: a bye in round 1
    try:
        tn = knockout(8, "en", rounds_played=1)
    finally:
        del SIZES[8]
    cancelled = tn.round_tables(1)[1]
    cancelled.status = TableStatus.CANCELLED
    rounds, _, texts = drawn(tn)
    box = next(b for b in rounds[0].boxes if b.table == cancelled.number)
    assert box.state is BoxState.CANCELLED and [e.advanced for e in box.entries] == [True, False, False]
    assert all(e.place is None for e in box.entries)  # no places: it did not end
    bye = next(b for b in rounds[0].boxes if b.state is BoxState.BYE)
    assert bye.table is None and [e.advanced for e in bye.entries] == [True]
    still_in = next(e for e in box.entries if e.advanced)
    assert not still_in.is_bot and still_in.number == 0  # still in: no place to stand for the name
    assert "0" not in {text for text, _ in texts}


def test_a_long_name_is_cut_by_whole_characters() -> None:
    from PIL import ImageDraw

    from bot.render.shapes import fitted

    draw = ImageDraw.Draw(Image.new("RGB", (10, 10)))
    accented = "Zoe\u0301" * 20  # e + a combining acute
    joined = "ab" + "\U0001f469\u200d\U0001f4bb" * 20  # woman + joiner + laptop
    for name in (accented, joined):
        for room in range(20, 400, 7):
            shown = fitted(draw, name, 20, room)
            assert shown.endswith("…") and name.startswith(shown[:-1])
            rest = name[len(shown) - 1:]
            assert not rest.startswith(("\u0301", "\u200d")), (room, shown)  # no mark or joiner cut from its letter
            assert not shown[:-1].endswith("\u200d"), (room, shown)
