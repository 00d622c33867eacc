"""A table in a group DM, where people use the bot installed to their accounts: the lobby (Join, Add bot, Start),
the board, My hand and the moves all carried by the presses' tokens; one person away for 20 minutes mid-game
finds the table waiting and catches up with one press. What each person-turn costs beside the same game in a server
channel is ``python -m bench.private_table_cost``'s figure."""
from __future__ import annotations

import random
import re

import pytest

from bot.place import PlaceKind
from bot.policies import choose_action
from engines import GAMES, get_engine

from .discord_harness import Harness
from .discord_helpers import JOIN, MY_HAND, START, board_message, only_table, says
from .test_discord_dm_table import channel_calls, hand_shown, tokens_age

ALICE_ID, BOB_ID = 101, 102


async def play_out(h: Harness, people: dict, channel: int, game: str, away_at: int | None = None) -> dict[str, int]:
    """Open a lobby in ``channel``, Bob joins, Alice starts; then each person's turn is one press on the board
    (My hand) and their decision (taken by the service). With ``away_at``, the person whose turn it is at that
    turn is away for 20 minutes first. Returns what it cost."""
    alice, bob = people[ALICE_ID], people[BOB_ID]
    engine = get_engine(game)
    options: dict[str, object] = {"deals": 1} if game == "twinpyramid" else {}
    if "start_player" in engine.options_model.model_fields:
        options["start"] = "host"
    bots = max(0, min(2, engine.max_players - 2))
    r = await h.slash(alice, f"play {game}", channel=channel, bots=bots, **options)
    lobby = r.message
    await h.click(bob, lobby, label=JOIN)
    await h.click(alice, lobby, label=START)
    table = only_table(h)
    rng, turns, presses, first_message = random.Random(11), 0, 2, len(h.server.messages)
    while table.status == "running":
        who = [people[int(p[1:])] for p in table.to_act()]
        assert who, table.to_act()
        person = who[0]
        player = f"u{person.id}"
        if turns == away_at:
            await away_twenty_minutes(h, table)
        r = await h.click(person, board_message(h, table), label=MY_HAND)
        assert hand_shown(r)
        presses += 1
        action = choose_action(engine, table.state, player, rng)
        with h._owning():
            await h.bot.service.act_as(table.id, player, action, table.version)
        await h.settle()
        turns += 1
        assert turns < 500
    ids = sorted(h.server.messages)[first_message:]
    public = [i for i in ids if not h.server.messages[i]["flags"] & 64]  # new public messages (hand views aside)
    pings = sum(len(pinged(c.json)) for c in h.calls if c.method == "POST" and c.json)
    return {"turns": turns, "presses": presses, "public messages": len(public), "pings": pings, "table": table.id}


def pinged(body: dict) -> set[str]:
    """Who a new message notifies: mentioned in its content and allowed to be."""
    allowed = {str(u) for u in (body.get("allowed_mentions") or {}).get("users") or []}
    return {u for u in re.findall(r"<@!?(\d+)>", body.get("content") or "") if u in allowed}


async def away_twenty_minutes(h: Harness, table) -> None:
    """Nobody presses for 20 minutes: the notice a little before the last token ends, then every token is dead."""
    box = h.bot.get_cog("TableCog").outbox(table.id)
    if table.place.kind is PlaceKind.PRIVATE:
        await box.wait_for_press()  # what its timer runs at about 13½ minutes
        await h.settle()
        assert says(board_message(h, table).text, "table.waiting_for_press") and table.row.deadline is None
        tokens_age(h, 20 * 60)


@pytest.mark.parametrize("game", GAMES)
async def test_a_group_dm_table_plays_every_game_with_one_person_away(h: Harness, game: str) -> None:
    people = {ALICE_ID: h.user(ALICE_ID, "alice"), BOB_ID: h.user(BOB_ID, "bob")}
    group = h.group_dm(*people.values())
    cost = await play_out(h, people, group, game, away_at=3)
    table = await h.bot.service.table(cost["table"])
    assert table.status == "finished" and table.place.kind is PlaceKind.PRIVATE
    assert any(says(m.text, "common.final_ranking") for m in h.server.channel_messages(group))
    assert channel_calls(h, group) == [] and not [c for c in h.calls if c.refused]
    followups = max(reply.followups for reply in h.server.replies.values())
    assert followups <= 5
    # Ratings belong to servers: the game is recorded (not asked again at each start), nobody is rated.
    assert table.id not in await h.bot.storage.ratings.unrecorded_games()
    assert await h.bot.storage.ratings.ratings(0, game, [ALICE_ID, BOB_ID]) == []
    print(f"\n{game} group DM: {cost}, most followups of one press {followups}")


async def test_outside_a_server_the_host_refusal_names_no_manage_server(h: Harness) -> None:
    """Nobody has Manage Server in a group DM: a refusal there names the host alone, and changes nothing."""
    alice, bob = h.user(ALICE_ID, "alice"), h.user(BOB_ID, "bob")
    group = h.group_dm(alice, bob)
    lobby = (await h.slash(alice, "play akuma", channel=group, bots=2)).message
    await h.click(bob, lobby, label=JOIN)
    await h.click(alice, lobby, label=START)
    table = only_table(h)
    seconds = table.row.turn_seconds
    for command, fields in (("game timer", {"seconds": 30}), ("game end", {})):
        r = await h.slash(bob, command, channel=group, **fields)
        assert r.ephemeral and says(r.text, "error.host_only") and not says(r.text, "error.host_or_admin_only")
    assert table.status == "running" and table.row.turn_seconds == seconds
