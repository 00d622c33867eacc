"""Same-deal tournaments (issue 55): ``deal: same`` is a row of ``formats.FORMATS`` for a Swiss and a round robin,
stored with the tournament on both backends; the formats without such a row are refused at creation, and the
refusal changes nothing."""
from __future__ import annotations

import json

import pytest

from bot.errors import HostError
from bot.scheduler import bot_key
from bot.tournaments.formats import rules_of
from bot.tournaments.models import Deal, Format
from bot.tournaments.settings import TournamentSettings

from .test_tournament_service import ORGANISER, Host


@pytest.mark.parametrize("format", ["swiss", "roundrobin"])
async def test_a_same_deal_tournament_is_stored_with_its_deal(db_url: str, format: str) -> None:
    host = await Host.open(db_url)
    tn = await host.tournaments.create(game="pileup", guild_id=5, channel_id=50, creator_id=ORGANISER, seed=5,
                                       format=format, deal="same")
    assert tn.deal is Deal.SAME and rules_of(tn).same_deal
    stored = await host.storage.tournaments.load(tn.id)
    assert stored is not None and stored.deal is Deal.SAME and rules_of(stored).same_deal
    own = await host.tournaments.create(game="pileup", guild_id=5, channel_id=50, creator_id=ORGANISER, seed=6,
                                        format=format)
    assert own.deal is Deal.OWN and not rules_of(own).same_deal
    await host.close()


@pytest.mark.parametrize("format", ["knockout", "swiss_knockout"])
def test_a_knockout_is_not_a_same_deal_tournament(format: str) -> None:
    settings = TournamentSettings(game="pileup", format=Format(format), deal=Deal.SAME, advance=1, cut=4)
    with pytest.raises(HostError) as err:
        settings.check()
    assert err.value.code == "tournament.same_deal_formats"
    TournamentSettings(game="pileup", format=Format(format), advance=1, cut=4 if "swiss" in format else None).check()


def seats_for_players(value: object, seat_of: dict[str, str]) -> object:
    """``value`` (a state's JSON) with every player id, as a value or a key, replaced by its seat's name."""
    if isinstance(value, dict):
        return {seat_of.get(k, k): seats_for_players(v, seat_of) for k, v in value.items()}
    if isinstance(value, list):
        return [seats_for_players(v, seat_of) for v in value]
    return seat_of.get(value, value) if isinstance(value, str) else value


@pytest.mark.parametrize("game", ["pileup", "rocca", "akuma", "diamondbox"])
async def test_every_table_of_a_same_deal_round_is_dealt_alike(db_url: str, game: str) -> None:
    """Held before their first move, the round's tables have one seed, per-seat streams, and the same state seat
    for seat (the players' ids aside); an own-deal tournament's tables each have their own."""
    host = await Host.open(db_url, allow=lambda game_id: False)
    size = {"akuma": 3, "diamondbox": 2}.get(game, 2)
    states = {}
    for deal in ("same", "own"):
        tn = await host.tournaments.create(game=game, guild_id=5, channel_id=50, creator_id=ORGANISER, seed=9,
                                           seats_min=size, seats_max=size, rounds=1, deal=deal)
        await host.tournaments.add_bots(tn.id, ORGANISER, 3 * size)
        await host.tournaments.start(tn.id, ORGANISER)
        await host.idle()
        tables = [await host.games.table(t.game_id) for t in tn.round_tables(1)]
        assert len(tables) == 3 and all(t.game_id for t in tn.round_tables(1))
        states[deal] = [seats_for_players(json.loads(t.engine.dump(t.state)),
                                          {s.player: f"seat{s.seat}" for s in t.seats}) for t in tables]
        seeds = {t.row.seed for t in tables}
        keys = {bot_key(t, s.player) for t in tables for s in t.seats if s.seat == 1}
        if deal == "same":  # the bot in seat 1 is one bot at every table: seeded by its seat, not its id
            assert len(seeds) == 1 and all(t.row.options.get("streams") == "per_seat" for t in tables)
            assert keys == {"seat1"}
        else:
            assert len(seeds) == 3 and not any("streams" in t.row.options for t in tables)
            assert len(keys) == 3 and all(k.startswith("bot") for k in keys)
    assert states["same"][0] == states["same"][1] == states["same"][2]
    assert states["own"][0] != states["own"][1]
    await host.close()


def test_a_same_deal_round_plays_on_and_a_replayed_table_gets_a_deal_of_its_own() -> None:
    from bot.tournaments.models import Tournament, TournamentTable
    from bot.tournaments.running import RoundRunner

    tn = Tournament(id=1, guild_id=5, channel_id=50, creator_id=ORGANISER, game="pileup", format=Format.SWISS,
                    rounds=2, seats_min=2, seats_max=2, seed=4, deal=Deal.SAME)
    first, second = TournamentTable(0, 1, 1, [1, 2]), TournamentTable(0, 1, 2, [3, 4])
    replayed = TournamentTable(0, 1, 2, [3, 4], attempt=1)
    assert RoundRunner.table_deal(tn, first) == RoundRunner.table_deal(tn, second)
    assert RoundRunner.table_deal(tn, replayed)[0] != RoundRunner.table_deal(tn, first)[0]
    assert RoundRunner.table_deal(tn, TournamentTable(0, 2, 1, [1, 2]))[0] != RoundRunner.table_deal(tn, first)[0]
    tn.deal = Deal.OWN
    assert RoundRunner.table_deal(tn, first)[0] != RoundRunner.table_deal(tn, second)[0]
    assert "streams" not in RoundRunner.table_deal(tn, first)[1]


def test_every_game_takes_same_deal_rounds_and_one_without_per_seat_streams_is_refused(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Every registered game has per-seat streams (Twin Pyramid since D19), so each takes ``deal: same``; a game
    whose options have no ``streams`` (one shared pile: a seat's play would shift the others' draws) is refused."""
    from pydantic import BaseModel

    from engines import GAMES, get_engine

    for game in GAMES:
        TournamentSettings(game=game, deal=Deal.SAME).check()

    class SharedPileOnly(BaseModel):
        pass
    monkeypatch.setattr(type(get_engine("rocca")), "options_model", SharedPileOnly)
    with pytest.raises(HostError) as err:
        TournamentSettings(game="rocca", deal=Deal.SAME).check()
    assert err.value.code == "tournament.same_deal_game"
    TournamentSettings(game="rocca").check()
