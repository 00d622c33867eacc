"""Typed text outside the sample sweep, shown literally through Discord (the harness: discord.py's real objects,
only HTTP faked): a tournament's name (sign-up and standings titles, thread names, the round's announcement) and an
entrant's display name (round lines), ``/game kick``'s answer and ``/stats``' title. The reading of markdown is the
one of tests/test_literal_names.py."""
from __future__ import annotations

from .discord_harness import Harness
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
    alice = h.user(ALICE_ID, PERSON)
    r = await h.slash(alice, "tournament create", game="akuma", rounds=1, bots=3, name=CUP)
    signup = r.message
    await h.click(alice, signup, label="Join")
    assert CUP in shown(signup.payload) and not problems(signup.payload, [CUP, PERSON])
    started = await h.slash(alice, "tournament start")
    assert started.ephemeral and "has started" in started.messages[-1].text
    names = [c["name"] for c in h.server.channels.values() if c.get("parent_id") == str(h.channel_id)]
    assert names and all(name.startswith(CUP + " · ") for name in names), names  # shown as is: no backslash
    announcement = next(m for m in h.channel_messages() if "Round 1 of 1" in m.text)
    assert PERSON in shown(announcement.payload)
    for message in h.channel_messages():
        assert not problems(message.payload, [CUP, PERSON]), message.payload


async def test_kick_answer_and_stats_title_are_literal(h: Harness) -> None:
    alice, bob = h.user(ALICE_ID, "alice"), h.user(102, SNEAKY)
    r = await h.slash(alice, "play akuma", bots=1, start="host")
    await h.click(bob, r.message, label="Join")
    kicked = await h.slash(alice, "game kick", player=bob)
    answer = kicked.messages[-1].payload
    assert "## big" in shown(answer) and not problems(answer, ["## big"]), answer
    stats = await h.slash(bob, "stats")
    title = stats.messages[-1].payload
    assert "## big" in shown(title) and not problems(title, ["## big"]), title
