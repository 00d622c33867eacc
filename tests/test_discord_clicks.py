"""Fewer clicks (issue 14, item 5), through the harness on the strict edge: a select with one needed option is
chosen for the player, the commonest moves are buttons, Pile up's triple is one decision, and the generic UI
driver (``tests/ui_driver.py``) reaches its target the way a person would, counting every click."""
from __future__ import annotations

import random
import re

from bench.table_feel import count_clicks
from bot.policies import choose_action
from engines.pileup import GiveAll, Play

from . import ui_driver
from .discord_harness import Harness
from .discord_helpers import START, Key, action_button, line, my_hand, only_table, says, set_state
from .engines.test_pileup_support import table as pileup_state
from .test_discord_diamondbox import make as diamondbox_state
from .test_discord_pileup import roll_publicly

ALICE_ID = 101
ALICE = f"u{ALICE_ID}"
SEATS = [ALICE, "bot1", "bot2"]
PLACE_COVERS = "diamondbox.button.place_covers"  # a quick place button: "{spot} {turn} · covers {covered}"


async def open_table(h: Harness, alice, game: str, bots: int = 2):
    r = await h.slash(alice, f"play {game}", bots=bots)
    await h.click(alice, r.message, label=START)
    return only_table(h)


def counting(h: Harness) -> list[int]:
    """Counts every click and select from now on (as ``python -m bench.table_feel`` does)."""
    return count_clicks(h)


def selects(hand) -> list[dict]:
    return [c for c in hand.components if c.get("type") == 3]


async def test_one_card_plays_are_buttons_after_the_roll(h: Harness) -> None:
    """Pile up: every one-card play is a button beside the selects: a typical play is one click."""
    alice = h.user(ALICE_ID, "alice")
    table = await open_table(h, alice, "pileup")
    set_state(table, pileup_state(SEATS, hands={ALICE: ["R3a", "B5a", "B5b", "G6a"], "bot1": ["G2a"],
                                               "bot2": ["Y2a"]}, pile=["R1a"], phase="play", dice=[3, 5, 1]))
    hand = await my_hand(h, alice, table)
    labels = [c["label"] for c in hand.components if c.get("type") == 2 and not c.get("disabled")]
    safe = line("pileup.outcome_short.safe")
    assert Key("pileup.button.play", cards="🟥●3", column=3, outcome=safe).texts & set(labels)
    assert Key("pileup.button.play", cards="🟦■5", column=5, outcome=safe).texts & set(labels)
    assert len(selects(hand)) == 1  # the value select stays for longer plays (two blue 5s)
    await h.click(alice, hand, action_button(hand, table, ALICE, Play(value=3, cards=("R3a",), stacked=(False,))))
    assert table.state.columns[2].layers == [["R3a"]]


async def test_the_only_first_card_is_chosen_for_the_player_but_a_further_card_is_not(h: Harness) -> None:
    """One rolled value fits and one card kind: it is chosen already (Play is ready); adding the identical copy
    stays the player's choice."""
    alice = h.user(ALICE_ID, "alice")
    table = await open_table(h, alice, "pileup")
    set_state(table, pileup_state(SEATS, hands={ALICE: ["R3a", "R3b"], "bot1": ["G2a"], "bot2": ["Y2a"]},
                                  pile=["R1a"], phase="play", dice=[3, 4, 1]))
    hand = await my_hand(h, alice, table)
    assert says(hand.text, "pileup.note.play", cards="🟥●3", column=3,
                     outcome=line("pileup.outcome.safe", column=3, layers=1)), hand.text
    one = Play(value=3, cards=("R3a",), stacked=(False,))
    action_button(hand, table, ALICE, one)  # ready at once
    further = [o["value"] for s in selects(hand) for o in s["options"]]
    assert further and not any(o.get("default") for s in selects(hand) for o in s["options"])
    await h.click(alice, hand, action_button(hand, table, ALICE, one))
    assert table.state.columns[2].layers == [["R3a"]] and "R3b" in table.state.hands[ALICE]


async def test_the_driver_hands_out_a_triple_in_one_decision(h: Harness) -> None:
    """The policy gives one card at a time; the driver (and a person) hands them all out with one button after
    choosing each player's cards: two selects and a click after the hand view is open."""
    alice = h.user(ALICE_ID, "alice")
    table = await open_table(h, alice, "pileup")
    set_state(table, pileup_state(SEATS, hands={ALICE: ["R1a"], "bot1": ["G2a"], "bot2": ["G5a"]},
                                  minus={ALICE: ["B3a", "K2a", "Y6a", "W4a", "G1a"]}, pile=["R5a"], rolls=(1, 1, 1)))
    await roll_publicly(h, alice, table)
    assert table.state.phase == "give"
    count = counting(h)
    acted = await ui_driver.act(h, alice, table, random.Random(1))
    assert acted.action["type"] == "give_all" and len(acted.action["cards"]) == 3
    assert count[0] - 1 == 3  # two selects (Bot 1 gets two cards, Bot 2 one) and Hand out
    assert len(table.state.minus[ALICE]) == 2 and table.state.phase != "give"


MINUS = ["B3a", "K2a", "Y6a", "W4a", "G1a", "R2a", "B5a", "K6a", "Y1a", "W2a", "G3a", "R4a", "B6a", "K1a"]


async def test_the_driver_hands_out_the_policys_cards_in_its_order(h: Harness) -> None:
    """Each player receives the cards in the order they are handed out, so only the policy's order in each select
    reaches the state its gives lead to: the driver chooses them in that order, still in one select each."""
    alice = h.user(ALICE_ID, "alice")
    table = await open_table(h, alice, "pileup")
    set_state(table, pileup_state(SEATS, hands={ALICE: ["R1a"], "bot1": ["G2a"], "bot2": ["G5a"]},
                                  minus={ALICE: MINUS[:8]}, pile=["R5a"], rolls=(2, 2, 2)))
    await roll_publicly(h, alice, table)
    assert table.state.phase == "give" and table.state.give_left == 6
    rng = random.Random(3)
    policy = random.Random()
    policy.setstate(rng.getstate())
    target = ui_driver.Target.of(choose_action(table.engine, table.state, ALICE, policy))
    target.extend(table, ALICE, policy)  # what the policy's gives lead to, as the driver works it out
    before = table.state.model_copy(deep=True)
    count = counting(h)
    acted = await ui_driver.act(h, alice, table, rng)
    assert acted.action["type"] == "give_all" and count[0] - 1 == 3  # two selects of three cards and Hand out
    handed, _ = table.engine.apply(before, ALICE, GiveAll(cards=tuple(acted.action["cards"])))
    assert handed == target.goals[-1]  # then the bots played on


async def test_the_driver_completes_a_hand_out_too_large_to_search(h: Harness) -> None:
    """Twelve cards, six for each other player: too many ways to search for the policy's split, yet the driver
    fills each select in one interaction and hands them out."""
    alice = h.user(ALICE_ID, "alice")
    table = await open_table(h, alice, "pileup")
    set_state(table, pileup_state(SEATS, hands={ALICE: ["R1a"], "bot1": ["G2a"], "bot2": ["G5a"]},
                                  minus={ALICE: list(MINUS)}, pile=["R5a"], rolls=(4, 4, 4)))
    await roll_publicly(h, alice, table)
    assert table.state.phase == "give" and table.state.give_left == 12
    count = counting(h)
    acted = await ui_driver.act(h, alice, table, random.Random(1))
    assert acted.action["type"] == "give_all" and len(acted.action["cards"]) == 12
    assert count[0] - 1 == 3  # two selects of six cards and Hand out
    assert len(table.state.minus[ALICE]) == 2 and table.state.phase != "give"


async def test_diamondbox_best_places_are_buttons_once_the_card_is_chosen(h: Harness) -> None:
    alice = h.user(ALICE_ID, "alice")
    table = await open_table(h, alice, "diamondbox", bots=1)
    diamondbox_state(table, {ALICE: ["Y10", "B10", "P10"], "bot1": ["G10", "B10"]},
                     [("R10", 0, 0), ("G10", 0, 1)], designated="R")
    hand = await my_hand(h, alice, table)
    await h.select(alice, hand, rf"gh:pick:{table.id}:\d+:0:.*", ["Y10"])
    quick = [c for c in hand.components if c.get("type") == 2 and says(c.get("label", ""), PLACE_COVERS)]
    assert 1 <= len(quick) <= 5 and all(not c.get("disabled") for c in quick)
    covers = [int(re.findall(r"\d+", c["label"])[-1]) for c in quick]  # {covered}: the label's last number
    assert covers == sorted(covers, reverse=True)  # best first
    version = table.version
    await h.click(alice, hand, quick[0]["custom_id"])
    assert table.version > version and "Y10" not in table.state.hands[ALICE]


async def test_diamondbox_a_last_card_is_chosen_for_the_player(h: Harness) -> None:
    alice = h.user(ALICE_ID, "alice")
    table = await open_table(h, alice, "diamondbox", bots=1)
    diamondbox_state(table, {ALICE: ["Y10"], "bot1": ["G10", "B10"]}, [("R10", 0, 0), ("G10", 0, 1)],
                     designated="R")
    hand = await my_hand(h, alice, table)
    card = selects(hand)[0]
    assert [o.get("default") for o in card["options"]] == [True]  # the only card, chosen
    assert len(selects(hand)) == 2  # its places are offered at once
    assert any(says(c.get("label", ""), PLACE_COVERS) for c in hand.components if c.get("type") == 2)


async def test_the_driver_plays_twin_pyramid_turns_without_wandering(h: Harness) -> None:
    """Twin Pyramid's action select carries indices, not cards: the driver reads what each option leads to and
    never presses a random rearrangement step instead of its move (it once took up to 20 clicks a turn)."""
    alice = h.user(ALICE_ID, "alice")
    table = await open_table(h, alice, "twinpyramid", bots=2)
    rng = random.Random(5)
    moves = 0
    for _ in range(12):
        if table.status != "running" or table.user_ids_to_act() != [ALICE_ID]:
            break
        probe = random.Random()
        probe.setstate(rng.getstate())
        wanted = choose_action(table.engine, table.state, ALICE, probe)  # the driver's own first draw
        count = counting(h)
        acted = await ui_driver.act(h, alice, table, rng)
        if wanted.type == "rearrange":
            assert acted.action["type"] == "rearrange_step", acted.action
        else:
            assert acted.action == wanted.model_dump(mode="json"), (wanted, acted.action)
        assert count[0] - 1 <= 2, (wanted, acted.action)
        moves += 1
        await h.settle()
    assert moves >= 3


async def test_the_driver_completes_a_hand_out_from_more_cards_than_a_select_lists(h: Harness) -> None:
    """43 minus cards: a select lists 25 of them, so the policy's cards may not be offered (a crash-safety run got
    stuck here); the driver then fills each select with offered cards, as a person would, and hands them out."""
    many = ["Y3a", "Y3b", "G3c", "R1b", "R1c", "B1c", "W1a", "G4a", "B4b", "B4a", "Y4c", "Y4a", "G4b", "R4b", "G2c",
            "K2a", "W2a", "G2a", "Y2a", "Y2c", "Y2b", "R4a", "K4a", "R4c", "R2a", "R2b", "R2c", "B2a", "G6b", "G6c",
            "B6a", "R3b", "R3c", "G3a", "B3a", "G3b", "W5a", "W3a", "Y1c", "G1b", "G1a", "G1c", "B1a"]
    alice = h.user(ALICE_ID, "alice")
    table = await open_table(h, alice, "pileup")
    set_state(table, pileup_state(SEATS, hands={ALICE: ["B5c"], "bot1": ["G2b"], "bot2": ["G5b"]},
                                  minus={ALICE: many}, pile=["R5a"], rolls=(3, 3, 3)))
    await roll_publicly(h, alice, table)
    assert table.state.phase == "give" and table.state.give_left == 9
    acted = await ui_driver.act(h, alice, table, random.Random(0))
    assert acted.action["type"] == "give_all" and len(acted.action["cards"]) == 9
    assert len(table.state.minus[ALICE]) == len(many) - 9 and table.state.phase != "give"
