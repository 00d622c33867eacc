"""Whole tournaments through the Discord harness as an organiser and players would run them, on a clock the run moves
(issue 51's measure): people join by the button, the organiser starts it by the command; in every round one seated
person never presses (a no-show) and another drops by ``/tournament drop`` during their game; the others play every
move through their hand views; bots fill the field. A no-show presses **Seat me again** after being told, and is
seated again from the next round. Optionally the bot dies mid-round and a new one takes over the same database and
Discord. What a run measured and what people saw is its ``Run``: used by tests/test_discord_tournament_fields.py
(checks) and ``python -m bench.tournament_absent`` (figures)."""
from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

from bot.i18n import t
from bot.tournaments import Tournament
from bot.tournaments.models import EntrantStatus, TableStatus, TournamentStatus

from .discord_harness import Harness, HarnessUser
from .discord_helpers import TOURNAMENT_JOIN, Key, kill, lift_limits, organiser, says, start_harness
from .test_discord_output import kept_by_discord
from .test_discord_paused import manual_time
from .test_paused_tables import ManualClock
from .ui_driver import act

TIMER = 60  # seconds per decision at the tournament's tables
SEAT_ME_AGAIN = Key("tournament.button.back")
FIRST_PERSON = 201


@dataclass
class Field:
    game: str
    seats: tuple[int, int]
    entrants: int
    people: int  # persons among the entrants (the organiser is one); bots fill the rest
    locale: str = "en"
    format: str = "knockout"
    advance: int | None = 1
    rounds: int | None = None
    cut: int | None = None
    restart_in_round: int | None = None  # the bot dies in this round, after its no-show's seat went to a bot
    drops: bool = True  # a person drops during their game every round
    back_after: tuple[int, ...] | None = None  # the rounds after which the no-show presses Seat me again (None: all)

    @property
    def name(self) -> str:
        extra = "".join(f" {what}" for what, on in (("no drops", not self.drops), ("restart", self.restart_in_round))
                        if on)
        return f"{self.format} {self.game} {self.entrants} at {self.seats[0]}-{self.seats[1]} ({self.locale}){extra}"


@dataclass
class Run:
    field: Field
    tournament: Tournament
    waits: list[float] = field(default_factory=list)  # per round: clock seconds the round waited for the absent
    paused: int = 0  # tournament tables seen paused (never, the target)
    no_shows: dict[int, list[int]] = field(default_factory=dict)  # round -> the no-shows told
    told: dict[int, int] = field(default_factory=dict)  # person -> no-show messages that pinged them
    seated_while_away: list[tuple[int, int]] = field(default_factory=list)  # (round, person) seated though away
    came_back: dict[int, list[int]] = field(default_factory=dict)  # round -> the no-shows who pressed Seat me again
    back_not_seated: list[tuple[int, int]] = field(default_factory=list)  # (round, person) told "seated", yet not
    quotes: dict[str, str] = field(default_factory=dict)  # what the organiser and players saw
    final_text: str = ""
    byes: dict[int, int] = field(default_factory=dict)
    unplayed_finalists: list[int] = field(default_factory=list)


class FieldRunner:
    """Runs one ``Field`` to its end (or a cap of rounds), on harness ``h`` (a new one after a restart)."""

    def __init__(self, h: Harness, db: Path, spec: Field, seed: int = 1) -> None:
        self.h, self.db, self.spec = h, db, spec
        self.rng, self.seed = random.Random(seed), seed
        self.clock: ManualClock = manual_time(h)
        self.people: dict[int, HarnessUser] = {}
        self.absent: set[int] = set()  # who does not press this round
        self.restarted = False

    async def run(self) -> Run:
        spec, h = self.spec, self.h
        await lift_limits(h)
        alice = await organiser(h, FIRST_PERSON, "alice", permissions=_admin())
        await h.slash(alice, "config language", language=spec.locale)
        tournaments = h.bot.tournaments  # type: ignore[attr-defined]
        tournaments.create = partial(tournaments.create, seed=self.seed)  # the same draw every run
        options: dict[str, Any] = {"game": spec.game, "format": spec.format, "min_seats": spec.seats[0],
                                   "max_seats": spec.seats[1], "bots": spec.entrants - spec.people,
                                   "timer": TIMER, "break_minutes": 1, "bot_level": "easy"}
        options |= {k: v for k, v in (("advance", spec.advance), ("rounds", spec.rounds), ("cut", spec.cut)) if v}
        signup = (await h.slash(alice, "tournament create", **options)).message
        self.people[alice.id] = alice
        for i in range(1, spec.people):
            self.people[FIRST_PERSON + i] = h.user(FIRST_PERSON + i, f"p{i}", locale=_client(spec.locale))
        for user in self.people.values():
            await h.click(user, signup, label=TOURNAMENT_JOIN)
        await h.slash(alice, "tournament start")
        await h.settle()
        tn = next(iter(h.bot.tournaments._cache.values()))  # type: ignore[attr-defined]
        run = Run(spec, tn)
        run.quotes["sign-up"] = h.message(signup.id).text
        for _ in range(40):
            if tn.status != TournamentStatus.RUNNING:
                break
            tn = await self.play_round(run, tn)
        run.tournament = tn
        self.finish(run)
        return run

    async def play_round(self, run: Run, tn: Tournament) -> Tournament:
        h, number = self.h, tn.current_round
        seated = [u for tb in tn.round_tables(number) if tb.status != TableStatus.BYE for u in tb.players]
        everyone = {u for tb in tn.round_tables(number) for u in tb.players}
        stayed_away = set(run.no_shows.get(number - 1, [])) - set(run.came_back.get(number - 1, []))
        run.seated_while_away += [(number, u) for u in sorted(everyone & stayed_away)]
        run.back_not_seated += [(number, u) for u in run.came_back.get(number - 1, []) if u not in everyone
                                and tn.entrants[u].status != EntrantStatus.DROPPED]
        persons = [u for u in seated if u in self.people and u != FIRST_PERSON]
        self.rng.shuffle(persons)
        self.absent = set(persons[:1])  # one no-show a round
        dropper = persons[1] if len(persons) > 1 and self.spec.drops else None
        call = next((m.text for m in reversed(h.channel_messages()) if says(m.text, "tournament.round_started")
                     or says(m.text, "tournament.final_started")), "")
        run.quotes.setdefault("round 1 call", call)
        run.quotes[f"round {number} call"] = call
        if dropper is not None:  # drops during their game: plays it to its end, then is out
            r = await h.slash(self.people[dropper], "tournament drop", player=self.people[dropper])
            run.quotes.setdefault("drop answer", r.messages[-1].text)
        waited = 0.0
        for _ in range(3000):
            live = [tb for tb in tn.round_tables(number) if tb.status in (TableStatus.PENDING, TableStatus.RUNNING)]
            if not live:
                break
            moved = False
            for tb in live:
                if tb.game_id is None:
                    continue
                game = await h.bot.service.table(tb.game_id)  # type: ignore[attr-defined]
                if game.paused:
                    run.paused += 1
                due = [p for p in game.to_act() if not game.is_bot(p)]
                mover = next((self.people[u] for u in self.people if f"u{u}" in due and u not in self.absent),
                             None)
                if mover is not None:
                    await act(h, mover, game, self.rng)
                    moved = True
            if not moved:
                self.clock.advance(TIMER + 1)
                waited += TIMER + 1
            await h.settle()
            still = [tb for tb in tn.round_tables(number) if tb.status == TableStatus.RUNNING and tb.game_id]
            if not moved and still and self.spec.restart_in_round == number and not self.restarted:
                tn = await self.restart(run, still[0].game_id)  # the absent's timer ran out: the bot dies
                h = self.h
        run.waits.append(waited)
        await self.after_round(run, tn, number)
        return tn

    async def after_round(self, run: Run, tn: Tournament, number: int) -> None:
        """The round's no-shows are told (once, pinged) and press Seat me again; the pause ends by the organiser."""
        h = self.h
        openings = {t(key, lang, round=number, people="\0", count=1).split("\0")[0]
                    for lang in ("en", "ja") for key in ("tournament.no_shows", "tournament.no_shows_knockout",
                                                          "tournament.no_shows_out")}
        told = [m for m in h.channel_messages() if any(m.text.startswith(o) for o in openings)]
        for message in told:
            people = [int(u) for u in re.findall(r"<@(\d+)>", message.text)]
            run.no_shows.setdefault(number, []).extend(people)
            for uid in people:
                run.told[uid] = run.told.get(uid, 0) + 1
            offered = any(SEAT_ME_AGAIN.matches(c.get("label")) for c in message.components)
            run.quotes.setdefault("no-show message" if offered else "no-show message, out", message.text)
            back = offered and (self.spec.back_after is None or number in self.spec.back_after)
            for uid in people:
                if back and tn.status == TournamentStatus.RUNNING and uid in self.people:
                    r = await h.click(self.people[uid], message, label=SEAT_ME_AGAIN)
                    run.quotes.setdefault("seat me again answer", r.text)
                    run.came_back.setdefault(number, []).append(uid)
        if tn.status == TournamentStatus.RUNNING and tn.next_round_at is not None:
            await h.slash(self.people[FIRST_PERSON], "tournament next-round")
            await h.settle()

    async def restart(self, run: Run, game_id: int) -> Tournament:
        """The bot dies mid-round; a new one starts on the same database, Discord keeping what it had."""
        old = self.h
        await kill(old)
        self.h = h = await start_harness(self.db, discord_has=kept_by_discord(old))
        self.clock = manual_time(h)
        await organiser(h, FIRST_PERSON, "alice", permissions=_admin())
        self.people = {uid: h.user(uid, user.name, locale=user.locale, permissions=user.permissions,
                                   roles=user.roles) for uid, user in self.people.items()}
        await h.settle()
        tournament_id = await h.bot.tournaments.tournament_of_table(game_id)  # type: ignore[attr-defined]
        self.restarted = True
        run.quotes["after the restart"] = "the same tournament goes on"
        return await h.bot.tournaments.get(tournament_id)  # type: ignore[attr-defined]

    def finish(self, run: Run) -> None:
        tn, h = run.tournament, self.h
        final = next((m for m in h.channel_messages() if says(m.text, "tournament.finished")), None)
        run.final_text = final.text if final is not None else ""
        run.quotes["final standings"] = "\n".join(run.final_text.splitlines()[:6])
        start = tn.swiss_rounds
        for tb in tn.tables:
            if tb.round > start and tb.status == TableStatus.BYE:
                run.byes[tb.players[0]] = run.byes.get(tb.players[0], 0) + 1
        last = [tb for tb in tn.round_tables(tn.current_round) if tb.status != TableStatus.VOID]
        if len(last) == 1 and last[0].status == TableStatus.FINISHED and tn.current_round > start + 1:
            played = {u for tb in tn.tables if start < tb.round < tn.current_round and tb.status in
                      (TableStatus.FINISHED, TableStatus.CANCELLED) for u in tb.players}
            run.unplayed_finalists = [u for u in last[0].players if u not in played]

    def still_in_shown(self, run: Run) -> bool:
        still = {t("tournament.knockout_in_line", lang, name="", dropped="").strip(" •—") for lang in ("en", "ja")}
        return any(word in run.final_text for word in still)


def _admin() -> Any:
    import discord

    return discord.Permissions(manage_guild=True)


def _client(locale: str) -> str:
    return "ja" if locale == "ja" else "en-US"
