"""Know the length before you start (issue 34 item 1): the measured lengths file covers every game and seat count and
is what ``bench.lengths`` measures; the lobby shows the expected minutes for its seats and options, in both
languages, and follows the seats as they change; Twin Pyramid's length is a number of deals, the original's two
rounds one option away, and games stored by the engine before (``rounds`` or nothing) still replay."""
from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from bench.lengths import measure_all, same_figures
from bot.errors import HostError
from bot.lengths import DATA_FILE
from bot.policies import choose_action
from bot.replay import GameRecord, RecordAction, RecordSeat, rebuild, state_digest
from engines import GAMES, get_engine

from .discord_helpers import JOIN, LEAVE, Key, start_harness
from .test_discord_akuma import ALICE_ID

BOB_ID, CAROL_ID = 102, 103
ADD_NORMAL_BOT = Key("lobby.button.bot_level", level="normal")


def stored() -> dict:
    return json.loads(DATA_FILE.read_text(encoding="utf-8"))


def footer(h, message_id: int) -> str:
    return h.message(message_id).payload["embeds"][0]["footer"]["text"]


def minutes_from_file(game: str, people: int, bots: int, units: int = 1) -> int:
    """The model in bench/lengths.py's docstring, worked from the file by hand (normal bots)."""
    data = stored()
    entry = data["games"][game]["seats"][str(people + bots)]
    per_bot = data["bot_delay_s"] + entry["bot_think_s_per_decision"]
    seconds = entry["decisions_per_seat"] * units * (people * data["person_seconds_per_decision"] + bots * per_bot)
    return max(1, round(seconds / 60))


# ---- the data file ------------------------------------------------------------------------------


def test_the_file_holds_every_game_and_seat_count_with_its_command_and_seeds():
    data = stored()
    assert data["command"].startswith("python -m bench.lengths") and len(data["seeds"]) == 2
    assert data["person_seconds_per_decision"] == 8
    for game in GAMES:
        engine = get_engine(game)
        seats = data["games"][game]["seats"]
        assert set(seats) == {str(n) for n in range(engine.min_players, engine.max_players + 1)}, game
        for entry in seats.values():
            assert entry["decisions_per_seat"] > 1 and entry["bot_think_s_per_decision"] >= 0


def test_the_file_is_what_the_bench_measures_for_a_cheap_game():
    data = stored()
    first, last = data["seeds"]
    again = measure_all(last - first + 1, first, ["akuma"])
    assert same_figures({"games": {"akuma": data["games"]["akuma"]}}, again)
    again["games"]["akuma"]["seats"]["3"]["decisions_per_seat"] += 1
    assert not same_figures({"games": {"akuma": data["games"]["akuma"]}}, again)


# ---- the lobby ------------------------------------------------------------------------------------


async def test_the_lobby_shows_the_length_and_follows_the_seats(tmp_path: Path) -> None:
    h = await start_harness(tmp_path / "bot.db")
    try:
        alice, bob = h.user(ALICE_ID, "alice"), h.user(BOB_ID, "bob")
        lobby = (await h.slash(alice, "play pileup")).message
        # One seat of a game for 2 to 5: the missing seat is counted as a person.
        assert f"about {minutes_from_file('pileup', 2, 0)} minutes" in footer(h, lobby.id)
        await h.click(bob, lobby, label=JOIN)
        await h.click(alice, lobby, label=ADD_NORMAL_BOT)
        await h.settle()
        three = minutes_from_file("pileup", 2, 1)
        assert f"about {three} minutes" in footer(h, lobby.id)
        await h.click(h.user(CAROL_ID, "carol"), lobby, label=JOIN)
        await h.settle()
        four = minutes_from_file("pileup", 3, 1)
        assert four != three and f"about {four} minutes" in footer(h, lobby.id)
        await h.click(h.user(CAROL_ID, "carol"), lobby, label=LEAVE)
        await h.settle()
        assert f"about {three} minutes" in footer(h, lobby.id)
    finally:
        await h.close()


async def test_twin_pyramid_lobbies_show_the_length_of_their_deals_or_rounds(tmp_path: Path) -> None:
    h = await start_harness(tmp_path / "bot.db")
    try:
        alice = h.user(ALICE_ID, "alice")
        lengths = []
        for options, stored, units in (({"deals": 1}, {"deals": 1}, 1), ({}, {}, 3),
                                       ({"rounds": 2}, {"rounds": 2}, 6)):
            r = await h.slash(alice, "play twinpyramid", bots=2, **options)
            lengths.append(minutes_from_file("twinpyramid", 1, 2, units))
            assert f"about {lengths[-1]} minutes" in footer(h, r.message.id)
            table = (await h.bot.service.tables_in_channel(h.channel_id))[-1]
            assert table.row.options == stored  # what /play chose (no length: the default at Start, D17)
            await h.bot.service.end(table.id, ALICE_ID, is_admin=True)
        assert lengths[0] < lengths[1] < lengths[2]
    finally:
        await h.close()


async def test_the_lobby_shows_the_length_in_japanese(tmp_path: Path) -> None:
    h = await start_harness(tmp_path / "bot.db")
    try:
        await h.bot.storage.set_guild_language(h.guild_id, "ja")
        r = await h.slash(h.user(ALICE_ID, "alice"), "play akuma", bots=2)
        assert f"約{minutes_from_file('akuma', 1, 2)}分" in footer(h, r.message.id)
    finally:
        await h.close()


# ---- Twin Pyramid's stored games ------------------------------------------------------------------


def bot_match(options: dict, version: int, players: int = 2, seed: int = 5) -> tuple[list[RecordAction], str, int]:
    """A whole match with bots as engine ``version`` played it (its options as that version read them): its log,
    its final state's digest and its deals."""
    engine = get_engine("twinpyramid")
    names = [f"p{i}" for i in range(players)]
    state = engine.new_game(names, seed=seed, options=engine.stored_options(options, version))
    rng, log = random.Random(seed), []
    while engine.result(state) is None:
        player = engine.to_act(state)[0]
        action = choose_action(engine, state, player, rng)
        log.append(RecordAction(seq=len(log) + 1, player=player, action=action.model_dump(mode="json"), time=0.0))
        state, _ = engine.apply(state, player, action)
    return log, state_digest(state), state.deals_total


def record(options: dict, version: int, log: list[RecordAction], digest: str, players: int = 2) -> GameRecord:
    return GameRecord(table=1, game="twinpyramid", engine_version=version, seed=5, options=options,
                      players=[RecordSeat(seat=i, player=f"p{i}", name=f"p{i}", bot=True) for i in range(players)],
                      actions=log, final_state_sha256=digest)


def test_a_default_game_of_version_1_replays_as_the_original_two_rounds():
    log, digest, deals = bot_match({}, 1)  # version 1 played options {} as two rounds
    assert deals == 4
    replay = rebuild(record({}, 1, log, digest))
    assert len(replay) == len(log) + 1 and replay.frames[-1].state.deals_total == 4
    with pytest.raises(HostError) as refused:  # the same options under today's version are one deal
        rebuild(record({}, 2, log, digest))
    assert refused.value.code == "replay_mismatch"


@pytest.mark.parametrize("version", [1, 2, 3])
def test_stored_rounds_replay_in_every_version(version: int):
    log, digest, deals = bot_match({"rounds": 1}, version)
    assert deals == 2
    assert len(rebuild(record({"rounds": 1}, version, log, digest))) == len(log) + 1


@pytest.mark.parametrize("version", [2, 3])
def test_deals_replay_and_count_deals(version: int):
    log, digest, deals = bot_match({"deals": 3}, version)
    assert deals == 3 and len(rebuild(record({"deals": 3}, version, log, digest))) == len(log) + 1
