"""Typed text outside the sample sweep, shown literally through Discord (the harness: discord.py's real objects,
only HTTP faked): a tournament's name (sign-up and standings titles, thread names, the round's announcement) and an
entrant's display name (round lines), ``/game kick``'s answer, ``/stats``' title, and a table played to the end
with its Rematch. The reading of markdown is the
one of tests/test_literal_names.py."""
from __future__ import annotations

import random

from . import ui_driver
from .discord_harness import Harness
from .discord_helpers import JOIN, START, only_table, organiser, says
from .test_discord_akuma import ALICE_ID
from .test_literal_names import discord_shows, problems_anywhere, problems_in_markdown, problems_in_plain, texts

CUP = "[Cup](https://evil.example/x) # HUGE ||x||"
PERSON = "**@everyone** <@1> `x`"
SNEAKY = "\u202e" + "## big"  # a right-to-left override, then a heading


def problems(payload: dict, names: list[str]) -> list[str]:
    found: list[str] = []
    for text, markdown in texts(payload, thread=False):
        found += problems_in_markdown(text, names) if markdown else problems_in_plain(text, names)
        found += problems_anywhere(text)
    return found


def shown(payload: dict) -> str:
    """Everything a reader sees in a message's markdown, escapes removed."""
    return "\n".join("".join(c.char for c in discord_shows(text)) for text, md in texts(payload, thread=False) if md)


async def test_a_tournament_s_name_and_its_entrants_names_are_literal(h: Harness) -> None:
    alice = await organiser(h, ALICE_ID, PERSON)
    r = await h.slash(alice, "tournament create", game="akuma", rounds=1, bots=3, name=CUP)
    signup = r.message
    await h.click(alice, signup, label=JOIN)
    assert CUP in shown(signup.payload) and not problems(signup.payload, [CUP, PERSON])
    started = await h.slash(alice, "tournament start")
    assert started.ephemeral and says(started.messages[-1].text, "tournament.done.start")
    names = [c["name"] for c in h.server.channels.values() if c.get("parent_id") == str(h.channel_id)]
    assert names and all(name.startswith(CUP + " · ") for name in names), names  # shown as is: no backslash
    announcement = next(m for m in h.channel_messages() if says(m.text, "tournament.round_started", round=1, rounds=1))
    assert f"<@{ALICE_ID}>" in shown(announcement.payload)  # a person as a mention: Discord shows the name
    for message in h.channel_messages():
        assert not problems(message.payload, [CUP, PERSON]), message.payload


async def test_kick_answer_and_stats_title_are_literal(h: Harness) -> None:
    alice, bob = h.user(ALICE_ID, "alice"), h.user(102, SNEAKY)
    r = await h.slash(alice, "play akuma", bots=1, start="host")
    await h.click(bob, r.message, label=JOIN)
    kicked = await h.slash(alice, "game kick", player=bob)
    answer = kicked.messages[-1].payload
    assert "## big" in shown(answer) and not problems(answer, ["## big"]), answer
    stats = await h.slash(bob, "stats")
    title = stats.messages[-1].payload
    assert "## big" in shown(title) and not problems(title, ["## big"]), title


async def test_a_played_table_and_its_rematch_show_hostile_names_literally(h: Harness) -> None:
    """Two people with hostile names play Rocca to the end through real clicks: every message stored (lobby,
    boards and their alt text, event and turn lines, hand views, the result) and the Rematch answer."""
    nitro, subtext = "[Nitro](https://evil.example/x)", "-# ~~bob~~ @here"
    people = {ALICE_ID: h.user(ALICE_ID, nitro), 102: h.user(102, subtext)}
    lobby = (await h.slash(people[ALICE_ID], "play rocca", bots=1, level="easy")).message
    await h.click(people[102], lobby, label=JOIN)
    await h.click(people[ALICE_ID], lobby, label=START)
    table = only_table(h)
    await ui_driver.play_to_the_end(h, table, people, random.Random(5))
    result = next(m for m in h.channel_messages() if says(str(m.components), "result.rematch"))
    await h.click(people[102], result, result.button(None, r"gh:rematch:\d+")["custom_id"])
    await h.settle()
    assert subtext in shown(h.message(result.id).payload)  # "… started a rematch"
    messages = [h.message(i) for i in sorted(h.server.messages)]
    assert nitro in "\n".join(shown(m.payload) for m in messages)
    for message in messages:
        assert not problems(message.payload, [nitro, subtext]), message.payload
