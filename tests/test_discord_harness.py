"""Tests of the Discord harness itself, against a tiny sample bot defined here (not the real cogs)."""
from __future__ import annotations

import asyncio
import io

import discord
import pytest
from discord import app_commands
from discord.ext import commands

from .discord_harness import Harness, HarnessError
from .discord_harness_http import DeprecatedRequest

JOINS: list[tuple[int, int]] = []


class JoinButton(discord.ui.DynamicItem[discord.ui.Button], template=r"lobby:(?P<table>\d+):join"):
    """A persistent button: found again from its raw custom_id after a restart."""

    def __init__(self, table: int):
        super().__init__(discord.ui.Button(label="Join", style=discord.ButtonStyle.green,
                                           custom_id=f"lobby:{table}:join"))
        self.table = table

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(int(match["table"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        JOINS.append((self.table, interaction.user.id))
        await interaction.response.send_message(f"joined table {self.table}", ephemeral=True)


class FruitView(discord.ui.View):
    @discord.ui.select(custom_id="fruit", placeholder="Fruit", options=[
        discord.SelectOption(label="Apple", value="apple"), discord.SelectOption(label="Pear", value="pear")])
    async def fruit(self, interaction: discord.Interaction, select: discord.ui.Select) -> None:
        select.disabled = True
        await interaction.response.edit_message(content=f"You picked {select.values[0]}", view=self)

    @discord.ui.button(label="Rename", custom_id="rename")
    async def rename(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        await interaction.response.send_modal(NameModal())

    @discord.ui.button(label="Boom", custom_id="boom")
    async def boom(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        raise ZeroDivisionError("view crash")


class ConfirmView(discord.ui.View):
    value = None

    @discord.ui.button(label="Yes")
    async def yes(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        self.value = True
        await interaction.response.defer()
        self.stop()


class NameModal(discord.ui.Modal, title="Rename"):
    name = discord.ui.TextInput(label="Name", custom_id="name")

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"renamed to {self.name.value}")


class Sample(commands.Cog):
    play = app_commands.Group(name="play", description="Open a lobby")
    game = app_commands.Group(name="game", description="Game admin")
    config = app_commands.Group(name="config", description="Settings", parent=game)

    def __init__(self, bot: commands.Bot):
        self.bot = bot

    @app_commands.command(name="hand", description="Your hand")
    async def hand(self, interaction: discord.Interaction) -> None:
        text = "あなたの手札" if interaction.locale is discord.Locale.japanese else "Your hand"
        await interaction.response.send_message(text, ephemeral=True)

    @app_commands.command(name="announce", description="Say it twice")
    async def announce(self, interaction: discord.Interaction, text: str) -> None:
        await interaction.response.send_message(f"announcing {text}")
        await interaction.channel.send(f"{interaction.user.mention} says {text}",
                                       file=discord.File(io.BytesIO(b"\x89PNG..."), "board.png"))

    @play.command(name="akuma", description="Akuma Trick")
    async def akuma(self, interaction: discord.Interaction, seats: app_commands.Range[int, 3, 5] = 4) -> None:
        view = discord.ui.View(timeout=None).add_item(JoinButton(table=seats * 100))
        await interaction.response.send_message(f"Akuma lobby for {seats}", view=view)

    @game.command(name="status", description="Status")
    async def status(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"perms={interaction.permissions.manage_guild}", ephemeral=True)

    @config.command(name="set", description="Set a value")
    @app_commands.choices(key=[app_commands.Choice(name="Timer", value="timer"),
                               app_commands.Choice(name="Language", value="lang")])
    async def config_set(self, interaction: discord.Interaction, key: str, value: int,
                         who: discord.Member | None = None) -> None:
        target = who.display_name if who else "-"
        await interaction.response.send_message(f"{key}={value} for {target}")

    @app_commands.command(name="pick", description="Pick a fruit")
    async def pick(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message("Pick one", view=FruitView(), ephemeral=True)

    @app_commands.command(name="slow", description="Think first")
    async def slow(self, interaction: discord.Interaction, private: bool = False) -> None:
        await interaction.response.defer(thinking=True, ephemeral=private)
        await asyncio.sleep(0.01)
        await interaction.edit_original_response(content="done thinking")
        await interaction.followup.send("and one more", ephemeral=True)

    @app_commands.command(name="legacy", description="Think, then a followup")
    async def legacy(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(thinking=True)
        await interaction.followup.send("done thinking")

    @app_commands.command(name="rename", description="Rename")
    async def rename(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_modal(NameModal())

    @app_commands.command(name="find", description="Autocomplete a game")
    async def find(self, interaction: discord.Interaction, game: str) -> None:
        await interaction.response.send_message(f"found {game}", ephemeral=True)

    @find.autocomplete("game")
    async def find_game(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        games = ["akuma", "pileup", "rocca"]
        return [app_commands.Choice(name=g.title(), value=g) for g in games if g.startswith(current)]

    @app_commands.command(name="confirm", description="Wait for a click, under a turn timer")
    async def confirm(self, interaction: discord.Interaction) -> None:
        view = ConfirmView()
        await interaction.response.send_message("Sure?", view=view)
        await asyncio.sleep(0.05)  # parks only after some work
        asyncio.get_running_loop().create_task(self._turn_timer(interaction.channel))
        await view.wait()
        await interaction.followup.send(f"confirmed={view.value}")

    async def _turn_timer(self, channel) -> None:
        await asyncio.sleep(60)
        await channel.send("time is up")

    @app_commands.command(name="hang", description="Answer, then hang on something nobody sets")
    async def hang(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message("hanging")
        await asyncio.Event().wait()

    @app_commands.command(name="busy", description="Answer, then write 40 times, 10 ms apart")
    async def busy(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message("working")
        for n in range(40):
            await asyncio.sleep(0.01)
            await interaction.channel.send(f"step {n}")

    @app_commands.command(name="crash", description="Crash")
    async def crash(self, interaction: discord.Interaction) -> None:
        raise RuntimeError("handler crash")

    @app_commands.command(name="silent", description="Forget to answer")
    async def silent(self, interaction: discord.Interaction) -> None:
        asyncio.get_running_loop().create_task(self._fail_later())

    async def _fail_later(self) -> None:
        await asyncio.sleep(0.01)
        raise KeyError("background task crash")

    @app_commands.command(name="thread", description="Open a thread")
    async def thread(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message("table opened")
        message = await interaction.original_response()
        thread = await message.create_thread(name="table-1")
        await thread.send("welcome")
        await interaction.followup.send(f"thread {interaction.guild.get_thread(thread.id).name}", ephemeral=True)

    @app_commands.command(name="emojis", description="Uses a route the fake Discord lacks")
    async def emojis(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer()
        try:
            await interaction.guild.fetch_emojis()
        except discord.NotFound:
            pass  # swallowing the failure must not hide the unknown route
        await interaction.followup.send("ok")


class SampleBot(commands.Bot):
    def __init__(self, intents: discord.Intents | None = None) -> None:
        super().__init__(command_prefix="!", intents=intents if intents is not None else discord.Intents.default())
        self.ready_seen = False

    async def setup_hook(self) -> None:
        await self.add_cog(Sample(self))
        self.add_dynamic_items(JoinButton)

    async def on_ready(self) -> None:
        self.ready_seen = True


@pytest.fixture
async def h():
    async with Harness(SampleBot()) as harness:
        yield harness


@pytest.fixture
def alice(h: Harness):
    return h.user(101, "alice")


def callback_call(reply):
    return next(c for c in reply.calls if c.route.endswith("/callback"))


async def test_ready_state_is_built_from_gateway_payloads(h: Harness) -> None:
    assert h.bot.ready_seen and h.bot.is_ready()
    assert h.guild.me.id == h.bot.user.id and h.channel("games").name == "games"
    assert [c.route for c in h.calls] == ["GET /users/@me", "GET /oauth2/applications/@me"]


async def test_members_are_cached_when_the_bot_has_the_members_intent() -> None:
    async with Harness(SampleBot(discord.Intents.default() | discord.Intents(members=True))) as h:
        h.user(101, "alice")
        assert h.guild.get_member(101).name == "alice" and h.guild.chunked


async def test_a_crash_in_an_event_listener_fails_startup() -> None:
    class Fragile(SampleBot):
        async def on_ready(self) -> None:
            raise LookupError("listener crash")

    harness = Harness(Fragile())
    with pytest.raises(HarnessError, match="listener crash"):
        await harness.start()
    await harness.close()


async def test_slash_replies_ephemerally_in_the_users_locale(h: Harness) -> None:
    yuki = h.user(102, "yuki", locale="ja")
    r = await h.slash(yuki, "hand")
    assert r.type == "message" and r.ephemeral and r.content == "あなたの手札"
    assert callback_call(r).json == {"type": 4, "data": {"content": "あなたの手札", "flags": 64, "tts": False}}
    assert h.channel_messages() == []  # nothing public


async def test_public_reply_and_channel_send(h: Harness, alice) -> None:
    r = await h.slash(alice, "announce", text="hello")
    assert not r.ephemeral and r.content == "announcing hello"
    public = h.channel_messages()
    assert [m.content for m in public] == ["announcing hello", "<@101> says hello"]
    assert public[1].files == {"board.png": b"\x89PNG..."} and public[1].payload["mentions"][0]["id"] == "101"
    post = next(c for c in r.calls if c.route == "POST /channels/{channel_id}/messages")
    assert post.files == {"board.png": b"\x89PNG..."} and post.json["content"] == "<@101> says hello"
    assert r.new_messages == public


async def test_subcommands_and_groups_with_options(h: Harness, alice) -> None:
    r = await h.slash(alice, "play akuma", seats=3)
    assert r.content == "Akuma lobby for 3" and r.button("Join")[1]["custom_id"] == "lobby:300:join"
    bob = h.user(102, "bob", permissions=discord.Permissions.all())
    assert (await h.slash(bob, "game status")).content == "perms=True"
    assert (await h.slash(alice, "game status")).content == "perms=False"
    r = await h.slash(alice, "game config set", key="Language", value=7, who=bob)
    assert r.content == "lang=7 for bob"
    with pytest.raises(HarnessError, match="outside"):
        await h.slash(alice, "play akuma", seats=9)  # Discord's client enforces the range
    with pytest.raises(HarnessError, match="is a group"):
        await h.slash(alice, "game")


async def test_dynamic_button_is_found_from_raw_custom_id_after_restart(h: Harness, alice) -> None:
    JOINS.clear()
    lobby = (await h.slash(alice, "play akuma", seats=5)).message
    r = await h.click(alice, lobby, label="Join")
    assert r.ephemeral and r.content == "joined table 500" and JOINS == [(500, 101)]
    old_payload = lobby.payload
    await h.close()  # the old bot is gone

    async with Harness(SampleBot()) as h2:  # the restarted bot knows nothing but its setup_hook
        assert h2.bot._connection._view_store.persistent_views == []
        restored = h2.adopt(old_payload)
        r2 = await h2.click(h2.user(103, "carol"), restored, custom_id=r"lobby:\d+:join")
        assert r2.content == "joined table 500" and JOINS[-1] == (500, 103)


async def test_string_select_then_edit_message_on_an_ephemeral_message(h: Harness, alice) -> None:
    r = await h.slash(alice, "pick")
    assert r.ephemeral and r.select("fruit")[1]["options"][1]["value"] == "pear"
    with pytest.raises(HarnessError, match="would not send"):
        await h.select(alice, r.message, "fruit", ["banana"])
    with pytest.raises(HarnessError, match="cannot see"):
        await h.select(h.user(102, "bob"), r.message, "fruit", ["pear"])
    r2 = await h.select(alice, r.message, "fruit", ["pear"])
    assert r2.type == "update" and r2.message.id == r.message.id
    assert r.message.content == "You picked pear" and r.message.select("fruit")["disabled"] is True
    assert callback_call(r2).json["type"] == 7


async def test_deferred_response_then_followups(h: Harness, alice) -> None:
    r = await h.slash(alice, "slow", private=True)
    assert r.type == "deferred" and callback_call(r).json == {"type": 5, "data": {"flags": 64}}
    first, second = r.messages
    assert first.content == "done thinking" and first.ephemeral and not first.loading  # filled the "thinking…"
    assert second.content == "and one more" and second.ephemeral
    r = await h.slash(alice, "slow")
    assert not r.ephemeral and [m.content for m in h.channel_messages()] == ["done thinking"]


async def test_a_followup_filling_a_deferred_response_is_flagged(h: Harness, alice) -> None:
    """Discord's docs: after a deferred response the answer edits the original; the edge accepts a followup there
    (as Discord does) and the harness reports it."""
    with h.expect_errors(DeprecatedRequest) as caught:
        r = await h.slash(alice, "legacy")
    assert r.messages[0].content == "done thinking"
    assert any("edits the original response" in str(e) for e in caught)


async def test_modal_submit(h: Harness, alice) -> None:
    r = await h.slash(alice, "rename")
    assert r.type == "modal" and r.modal["title"] == "Rename"
    with pytest.raises(HarnessError, match="required"):
        await h.submit(alice, r, {})
    assert (await h.submit(alice, r, {"name": "Akuma"})).content == "renamed to Akuma"
    picker = (await h.slash(alice, "pick")).message
    opened = await h.click(alice, picker, label="Rename")  # a modal opened from a button
    submitted = await h.submit(alice, opened, {"name": "Rocca"})
    assert submitted.content == "renamed to Rocca" and submitted.source_message_id == picker.id


async def test_autocomplete_offers_choices(h: Harness, alice) -> None:
    assert await h.autocomplete(alice, "find", focused="game", game="r") == [{"name": "Rocca", "value": "rocca"}]
    assert (await h.slash(alice, "find", game="pileup")).content == "found pileup"


async def test_thread_creation_reaches_the_guild_cache(h: Harness, alice) -> None:
    r = await h.slash(alice, "thread")
    thread = h.guild.get_thread(r.message.id)  # a message's thread shares its id
    assert thread is not None and r.messages[-1].content == "thread table-1"
    assert [m.content for m in h.channel_messages(thread.id)] == ["welcome"]


async def test_settle_does_not_wait_for_the_user_or_a_turn_timer(h: Harness, alice) -> None:
    r = await h.slash(alice, "confirm")  # returns although the command awaits view.wait() and a 60 s timer runs
    assert r.content == "Sure?" and r.messages == [r.message]
    click = await h.click(alice, r.message, label="Yes")  # auto-generated custom_id, found by label
    assert click.type == "deferred_update" and [m.content for m in r.messages] == ["Sure?", "confirmed=True"]


async def test_a_hung_handler_times_out_settle() -> None:
    async with Harness(SampleBot(), settle_timeout=0.2) as h:
        with pytest.raises(HarnessError, match=r"(?s)settle\(\): nothing moved for 0.2 s.*CommandTree-invoker"):
            await h.slash(h.user(101, "alice"), "hang")


async def test_a_handler_that_keeps_moving_settles_however_long_it_takes() -> None:
    """Slow is not stuck: 40 writes take longer than ``settle_timeout``, and each resets it (a loaded machine)."""
    async with Harness(SampleBot(), settle_timeout=0.2) as h:
        began = asyncio.get_running_loop().time()
        await h.slash(h.user(101, "alice"), "busy")
        assert asyncio.get_running_loop().time() - began > 0.4  # twice the timeout, at least
        assert [m.content for m in h.channel_messages()][-1] == "step 39"


async def test_exception_in_a_command_fails_the_test(h: Harness, alice) -> None:
    with pytest.raises(HarnessError, match="handler crash") as failure:
        await h.slash(alice, "crash")
    assert isinstance(failure.value.__cause__, app_commands.CommandInvokeError)
    with h.expect_errors(RuntimeError) as caught:
        await h.slash(alice, "crash", expect_response=False)
    assert str(caught[0].original) == "handler crash"


async def test_exceptions_in_views_and_tasks_are_caught(h: Harness, alice) -> None:
    r = await h.slash(alice, "pick")
    with h.expect_errors(ZeroDivisionError):
        await h.click(alice, r.message, "boom", expect_response=False)
    with pytest.raises(HarnessError, match="background task crash"):
        await h.slash(alice, "silent", expect_response=False)


async def test_unanswered_interaction_and_unknown_route_fail(h: Harness, alice) -> None:
    with pytest.raises(HarnessError, match=r"(?s)background task crash.*got no response"):
        await h.slash(alice, "silent")  # both failures are reported together
    with pytest.raises(HarnessError, match=r"GET /guilds/.*/emojis"):
        await h.slash(alice, "emojis")
    assert h.calls[-1].route == "POST /webhooks/{app_id}/{token}" and h.channel_messages()[-1].content == "ok"


async def test_custom_route_can_inject_a_discord_error(h: Harness, alice) -> None:
    h.server.route("POST", "/channels/{channel_id}/messages", lambda call, p: (403, {"message": "Missing Access",
                                                                                     "code": 50001}))
    with h.expect_errors(discord.Forbidden):
        await h.slash(alice, "announce", text="x")
    assert h.channel_messages()[0].content == "announcing x"


async def test_an_abandoned_bot_runs_none_of_its_timers() -> None:
    """A killed process does nothing afterwards: timers its bot armed (``call_later``, ``call_soon``) are cancelled
    with its tasks; the test's own are not."""
    h = await Harness(SampleBot()).start()
    fired: list[str] = []
    loop = asyncio.get_running_loop()
    with h._owning():  # as the bot's own code arms them
        loop.call_later(0.1, fired.append, "bot timer")
        loop.call_soon(fired.append, "bot callback")
    loop.call_later(0.1, fired.append, "test timer")
    await h.abandon()
    await asyncio.sleep(0.3)
    assert fired == ["test timer"]
