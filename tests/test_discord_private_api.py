"""discord.py names bot/client.py relies on.

``on_interaction`` answers a component or modal that nothing will handle. discord.py (2.7) keeps the open modals
and the dynamic items' templates only in the connection's private view store (``Client._connection._view_store``:
``_modals`` by custom_id, ``_dynamic_items`` by compiled template) and has no public getter for either, so the bot
reads them. These tests pin that shape: an upgrade that renames or reshapes them fails here, naming what changed,
instead of every unknown control going unanswered in production.

The option check (``_bad_option``) uses the public ``Interaction.command`` and ``Interaction.namespace``; its
tests forge what Discord's client never sends (a value outside a range or outside the choices)."""
from __future__ import annotations

import re
from typing import Any

import discord

from bot.i18n import t

from .discord_harness import Harness
from .discord_harness_payloads import build_options, find_command

ALICE_ID = 101


def changed(name: str) -> str:
    return (f"discord.py {discord.__version__} changed the private {name} that bot/client.py's on_interaction "
            "reads: update on_interaction (and this test) to what discord.py keeps now")


def view_store(h: Harness) -> Any:
    state = getattr(h.bot, "_connection", None)
    assert state is not None, changed("Client._connection")
    store = getattr(state, "_view_store", None)
    assert store is not None, changed("ConnectionState._view_store")
    return store


async def test_the_view_store_keeps_open_modals_by_custom_id(h: Harness) -> None:
    store = view_store(h)
    modals = getattr(store, "_modals", None)
    assert isinstance(modals, dict), changed("ViewStore._modals (a dict)")
    modal = discord.ui.Modal(title="Probe", custom_id="gh:probe:modal")
    modal.add_item(discord.ui.TextInput(label="Probe"))
    store.add_view(modal)  # what Interaction.response.send_modal does with the modal it sends
    assert modals.get("gh:probe:modal") is modal, changed("ViewStore._modals (custom_id -> open modal)")
    store.remove_view(modal)
    assert "gh:probe:modal" not in modals, changed("ViewStore._modals (a closed modal leaves it)")


class Probe(discord.ui.DynamicItem[discord.ui.Button], template=r"gh:probe:(?P<n>[0-9]+)"):
    def __init__(self, n: int) -> None:
        super().__init__(discord.ui.Button(label="Probe", custom_id=f"gh:probe:{n}"))


async def test_the_view_store_keeps_dynamic_item_templates(h: Harness) -> None:
    store = view_store(h)
    templates = getattr(store, "_dynamic_items", None)
    assert isinstance(templates, dict), changed("ViewStore._dynamic_items (a dict)")
    assert templates and all(isinstance(p, re.Pattern) for p in templates), \
        changed("ViewStore._dynamic_items (compiled templates of the bot's controls as keys)")
    h.bot.add_dynamic_items(Probe)
    matching = [item for pattern, item in templates.items() if pattern.fullmatch("gh:probe:7")]
    assert matching == [Probe], changed("ViewStore._dynamic_items (template -> DynamicItem class)")
    h.bot.remove_dynamic_items(Probe)
    assert not any(pattern.fullmatch("gh:probe:7") for pattern in templates)


def forged(h: Harness, user: Any, path: str, valid: dict[str, Any], name: str, value: Any) -> dict:
    """The data of ``/path`` built from ``valid`` options, then option ``name`` set to ``value``."""
    data = build_options(h, user, path, valid)
    options = data["options"]
    while options and options[0]["type"] in (1, 2):  # into the subcommand
        options = options[0]["options"]
    option = next(o for o in options if o["name"] == name)
    option["value"] = value
    return data


async def test_an_option_outside_its_range_is_refused_and_nothing_is_created(h: Harness) -> None:
    alice = h.user(ALICE_ID, "alice")
    rounds = next(p for p in find_command(h, "play twinpyramid")[1].parameters if p.name == "rounds")
    assert rounds.max_value is not None  # only this check stands between a forged value and the engine
    data = forged(h, alice, "play twinpyramid", {"rounds": 2}, rounds.display_name, int(rounds.max_value) + 1)
    r = await h._interact(alice, 2, data, h.channel_id, None, True)
    reason = f"{'' if rounds.min_value is None else rounds.min_value}–{rounds.max_value}"
    assert r.ephemeral and r.text == "⚠️ " + t("error.bad_options", "en", option=rounds.display_name, reason=reason)
    assert not h.bot.service._tables  # type: ignore[attr-defined]


async def test_an_option_outside_its_choices_is_refused_and_a_valid_one_is_taken(h: Harness) -> None:
    alice = h.user(ALICE_ID, "alice")
    start = next(p for p in find_command(h, "play akuma")[1].parameters if p.name == "start")
    assert start.choices
    data = forged(h, alice, "play akuma", {"start": "host"}, start.display_name, "sideways")
    r = await h._interact(alice, 2, data, h.channel_id, None, True)
    reason = ", ".join(str(c.value) for c in start.choices)
    assert r.ephemeral and r.text == "⚠️ " + t("error.bad_options", "en", option=start.display_name, reason=reason)
    assert not h.bot.service._tables  # type: ignore[attr-defined]
    await h.slash(alice, "play akuma", bots=1, start="host")
    (table,) = h.bot.service._tables.values()  # type: ignore[attr-defined]
    assert [s.is_bot for s in table.seats] == [False, True]
