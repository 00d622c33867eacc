"""Tournament controls beyond sign-up: reading a ``/tournament set-result`` ranking against a table's players, and
the confirmation ``/tournament next-round`` asks for while tables are still playing (its buttons name the round they
move on from, so a repeat does nothing)."""
from __future__ import annotations

from typing import Any

import discord

from bot.i18n import LANGUAGES, join_list, t
from bot.tournaments import Tournament, TournamentService, TournamentTable
from bot.tournaments.models import LIVE_TABLE_STATES
from bot.tournaments.ranking import parse as parse_places
from bot.tournaments.ranking import resolve as resolve_places

from .common import NO_MENTIONS, GameItem, check_server, host
from .custom_ids import ID, ROUND
from .limits import organises_all


def tournaments(interaction: discord.Interaction) -> TournamentService:
    return host(interaction).tournaments


def ranking_names(guild: discord.Guild | None, tournament: Tournament, players: list[int]) -> dict[int, list[str]]:
    """Each player's names a ranking may use: the entrant's name as the standings show it, and for a person their
    current names on the server."""
    names = {}
    for uid in players:
        entrant = tournament.entrants[uid]
        member = guild.get_member(uid) if guild is not None and not entrant.is_bot else None
        names[uid] = [entrant.name] + ([member.display_name, member.name] if member is not None else [])
        if entrant.is_bot:  # a bot by its name in any language ("Bot 2" on a Japanese server too)
            names[uid] += [t("common.bot_name", lang, number=-uid) for lang in LANGUAGES]
    return names


def parse_ranking(text: str, tournament: Tournament, table: TournamentTable,
                  guild: discord.Guild | None = None) -> list[list[int]]:
    """``"@Ann > Bob = 3 > \"Bot 2\""``: places best first separated by ``>``, ties by ``=``; a player is a
    mention, a seat number or a name (see ``bot.tournaments.ranking``)."""
    assert table.game_id is not None
    places = parse_places(text, len(table.players))
    return resolve_places(places, table.players, ranking_names(guild, tournament, table.players), table.game_id)


def live_tables(tournament: Tournament) -> list[TournamentTable]:
    """The tables of the current round still being opened or played."""
    return [tb for tb in tournament.round_tables(tournament.current_round) if tb.status in LIVE_TABLE_STATES]


def next_round_question(tournament: Tournament, locale: object | None) -> str:
    """What moving on now would do: which tables are cancelled (they score nothing, for nobody's opponents)."""
    tables = live_tables(tournament)
    where = join_list((f"<#{tb.channel_id}>" if tb.channel_id else f"#{tb.number}" for tb in tables), locale)
    last = tournament.current_round >= tournament.total_rounds
    then = (t("tournament.next_round_then_finish", locale) if last
            else t("tournament.next_round_then_round", locale, next=tournament.current_round + 1))
    key = "tournament.next_round_confirm_knockout" if tournament.knockout_stage else "tournament.next_round_confirm"
    return t(key, locale, round=tournament.current_round, count=len(tables), tables=where, then=then)


class NextRoundButton(GameItem, template=rf"gh:tnr:(?P<tid>{ID}):(?P<round>{ROUND}):(?P<op>go|stay)"):
    """Confirm (go) or call off (stay) moving on from a round still being played; the round is in the button, so a
    second click, or a confirmation left open after the tournament moved on, does nothing."""

    def __init__(self, tournament_id: int, round_number: int, op: str, locale: object | None = None) -> None:
        style = discord.ButtonStyle.danger if op == "go" else discord.ButtonStyle.secondary
        super().__init__(discord.ui.Button(label=t(f"tournament.button.next_{op}", locale), style=style,
                                           custom_id=f"gh:tnr:{tournament_id}:{round_number}:{op}"))
        self.tournament_id, self.round, self.op = tournament_id, round_number, op

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item,
                             match: Any) -> "NextRoundButton":
        return cls(int(match["tid"]), int(match["round"]), match["op"], interaction.locale)

    async def check_where(self, interaction: discord.Interaction) -> None:
        check_server(interaction, (await tournaments(interaction).get(self.tournament_id)).guild_id)

    async def run(self, interaction: discord.Interaction) -> None:
        locale = interaction.locale
        if self.op == "stay":
            text = t("tournament.next_round_kept", locale, round=self.round)
        elif await tournaments(interaction).next_round(self.tournament_id, interaction.user.id,
                                                       organises_all=await organises_all(interaction),
                                                       from_round=self.round):
            text = t("tournament.done.next_round", locale)
        else:
            text = t("tournament.next_round_moved_on", locale, round=self.round)
        await interaction.response.edit_message(content=text, view=None, allowed_mentions=NO_MENTIONS)


def next_round_view(tournament: Tournament, locale: object | None) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for op in ("go", "stay"):
        view.add_item(NextRoundButton(tournament.id, tournament.current_round, op, locale))
    return view
