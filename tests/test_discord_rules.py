"""bot.discord_rules: for each rule one body Discord accepts and one it refuses, with Discord's error body."""
from __future__ import annotations

import discord
import pytest
from discord.http import handle_message_parameters

from bot.discord_rules import callback_errors, command_errors, message_errors
from bot.discord_rules.problems import error_lines


def row(*components: dict) -> dict:
    return {"type": 1, "components": list(components)}


def button(cid: str = "b", **extra) -> dict:
    return {"type": 2, "style": 1, "label": "Go", "custom_id": cid, **extra}


def select(cid: str = "s", n: int = 3, **extra) -> dict:
    options = [{"label": f"o{i}", "value": f"v{i}"} for i in range(n)]
    return {"type": 3, "custom_id": cid, "options": options, **extra}


def embed(**extra) -> dict:
    return {"title": "t", "description": "d", **extra}


def fields(n: int, name: str = "n", value: str = "v") -> list[dict]:
    return [{"name": name, "value": value} for _ in range(n)]


# rule: (accepted body, refused body, the error path Discord names); uploads are ["board.png"]
MESSAGE_RULES = {
    "content ≤ 2000": ({"content": "x" * 2000}, {"content": "x" * 2001}, "content"),
    # Discord's OpenAPI, MessageCreateRequest.nonce: an int64 or a string of at most 25 characters
    "nonce ≤ 25": ({"content": "x", "nonce": "1" * 25}, {"content": "x", "nonce": "1" * 26}, "nonce"),
    "≤ 10 embeds": ({"embeds": [embed()] * 10}, {"embeds": [embed()] * 11}, "embeds"),
    "title ≤ 256": ({"embeds": [embed(title="x" * 256)]}, {"embeds": [embed(title="x" * 257)]}, "embeds.0.title"),
    "description ≤ 4096": ({"embeds": [embed(description="x" * 4096)]},
                           {"embeds": [embed(description="x" * 4097)]}, "embeds.0.description"),
    "≤ 25 fields": ({"embeds": [embed(fields=fields(25))]}, {"embeds": [embed(fields=fields(26))]},
                    "embeds.0.fields"),
    "field name ≤ 256": ({"embeds": [embed(fields=fields(1, name="x" * 256))]},
                         {"embeds": [embed(fields=fields(1, name="x" * 257))]}, "embeds.0.fields.0.name"),
    "field name not empty": ({"embeds": [embed(fields=fields(1, name="x"))]},
                             {"embeds": [embed(fields=fields(1, name=""))]}, "embeds.0.fields.0.name"),
    "field value ≤ 1024": ({"embeds": [embed(fields=fields(1, value="x" * 1024))]},
                           {"embeds": [embed(fields=fields(1, value="x" * 1025))]}, "embeds.0.fields.0.value"),
    "field value not empty": ({"embeds": [embed(fields=fields(1, value="x"))]},
                              {"embeds": [embed(fields=fields(1, value=""))]}, "embeds.0.fields.0.value"),
    "footer ≤ 2048": ({"embeds": [embed(footer={"text": "x" * 2048})]},
                      {"embeds": [embed(footer={"text": "x" * 2049})]}, "embeds.0.footer.text"),
    "author ≤ 256": ({"embeds": [embed(author={"name": "x" * 256})]},
                     {"embeds": [embed(author={"name": "x" * 257})]}, "embeds.0.author.name"),
    "6000 across embeds": ({"embeds": [embed(title=None, description="x" * 3000)] * 2},
                           {"embeds": [embed(title=None, description="x" * 3000)] * 2
                            + [embed(title="x", description=None)]}, "embeds"),
    "≤ 5 rows": ({"components": [row(button(f"b{i}")) for i in range(5)]},
                 {"components": [row(button(f"b{i}")) for i in range(6)]}, "components"),
    "top level rows": ({"components": [row(button())]}, {"components": [button()]}, "components.0.type"),
    "≤ 5 buttons a row": ({"components": [row(*[button(f"b{i}") for i in range(5)])]},
                          {"components": [row(*[button(f"b{i}") for i in range(6)])]}, "components.0.components"),
    "select alone": ({"components": [row(select()), row(button())]},
                     {"components": [row(select(), button())]}, "components.0.components"),
    "link button has url": ({"components": [row({"type": 2, "style": 5, "label": "x", "url": "https://a.b"})]},
                            {"components": [row({"type": 2, "style": 5, "label": "x"})]},
                            "components.0.components.0.url"),
    "link button has no custom_id": (
        {"components": [row({"type": 2, "style": 5, "label": "x", "url": "https://a.b"})]},
        {"components": [row({"type": 2, "style": 5, "label": "x", "url": "https://a.b", "custom_id": "c"})]},
        "components.0.components.0.custom_id"),
    "button has custom_id": ({"components": [row(button())]},
                             {"components": [row({"type": 2, "style": 1, "label": "x"})]},
                             "components.0.components.0.custom_id"),
    "label ≤ 80": ({"components": [row(button(label="x" * 80))]}, {"components": [row(button(label="x" * 81))]},
                   "components.0.components.0.label"),
    "label or emoji": ({"components": [row(button(label=None, emoji={"name": "🃏"}))]},
                       {"components": [row(button(label=None))]}, "components.0.components.0"),
    "custom_id ≤ 100": ({"components": [row(button("x" * 100))]}, {"components": [row(button("x" * 101))]},
                        "components.0.components.0.custom_id"),
    "custom_id unique": ({"components": [row(button("a"), button("b"))]},
                         {"components": [row(button("a")), row(button("a"))]},
                         "components.1.components.0.custom_id"),
    "real unicode emoji": ({"components": [row(button(emoji={"name": "🃏"}))]},
                           {"components": [row(button(emoji={"name": "🂠"}))]},
                           "components.0.components.0.emoji.name"),
    "custom emoji needs id": ({"components": [row(button(emoji={"name": "party", "id": "123"}))]},
                              {"components": [row(button(emoji={"name": "party"}))]},
                              "components.0.components.0.emoji.name"),
    "select custom_id": ({"components": [row(select())]},
                         {"components": [row({k: v for k, v in select().items() if k != "custom_id"})]},
                         "components.0.components.0.custom_id"),
    "1..25 options": ({"components": [row(select(n=25, max_values=25))]},
                      {"components": [row(select(n=26))]}, "components.0.components.0.options"),
    "at least 1 option": ({"components": [row(select(n=1))]}, {"components": [row(select(n=0))]},
                          "components.0.components.0.options"),
    "option label ≤ 100": ({"components": [row(select(options=[{"label": "x" * 100, "value": "v"}]))]},
                           {"components": [row(select(options=[{"label": "x" * 101, "value": "v"}]))]},
                           "components.0.components.0.options.0.label"),
    "option value ≤ 100": ({"components": [row(select(options=[{"label": "l", "value": "x" * 100}]))]},
                           {"components": [row(select(options=[{"label": "l", "value": "x" * 101}]))]},
                           "components.0.components.0.options.0.value"),
    "option description ≤ 100": (
        {"components": [row(select(options=[{"label": "l", "value": "v", "description": "x" * 100}]))]},
        {"components": [row(select(options=[{"label": "l", "value": "v", "description": "x" * 101}]))]},
        "components.0.components.0.options.0.description"),
    "option emoji real": ({"components": [row(select(options=[{"label": "l", "value": "v",
                                                               "emoji": {"name": "🎴"}}]))]},
                          {"components": [row(select(options=[{"label": "l", "value": "v",
                                                               "emoji": {"name": "🂠"}}]))]},
                          "components.0.components.0.options.0.emoji.name"),
    "placeholder ≤ 150": ({"components": [row(select(placeholder="x" * 150))]},
                          {"components": [row(select(placeholder="x" * 151))]},
                          "components.0.components.0.placeholder"),
    "min ≤ max": ({"components": [row(select(min_values=2, max_values=2))]},
                  {"components": [row(select(min_values=3, max_values=2))]},
                  "components.0.components.0.min_values"),
    "max ≤ 25": ({"components": [row(select(n=25, max_values=25))]}, {"components": [row(select(max_values=26))]},
                 "components.0.components.0.max_values"),
    "min ≥ 0": ({"components": [row(select(min_values=0))]}, {"components": [row(select(min_values=-1))]},
                "components.0.components.0.min_values"),
    "max ≤ options": ({"components": [row(select(n=3, max_values=3))]},
                      {"components": [row(select(n=3, max_values=4))]}, "components.0.components.0.max_values"),
    "defaults ≤ max": ({"components": [row(select(options=[{"label": "a", "value": "a", "default": True},
                                                           {"label": "b", "value": "b"}]))]},
                       {"components": [row(select(options=[{"label": "a", "value": "a", "default": True},
                                                           {"label": "b", "value": "b", "default": True}]))]},
                       "components.0.components.0.options"),
    "unique option values": ({"components": [row(select(options=[{"label": "a", "value": "a"},
                                                                 {"label": "a", "value": "b"}]))]},
                             {"components": [row(select(options=[{"label": "a", "value": "a"},
                                                                 {"label": "b", "value": "a"}]))]},
                             "components.0.components.0.options.1.value"),
    "attachment is an upload": ({"attachments": [{"id": 0, "filename": "board.png"}]},
                                {"attachments": [{"id": 1, "filename": "other.png"}]}, "attachments.0.id"),
    "attachment:// names an attachment": (
        {"embeds": [embed(image={"url": "attachment://board.png"})]},
        {"embeds": [embed(image={"url": "attachment://hand.png"})]}, "embeds.0.image"),
    "allowed_mentions parse": ({"content": "x", "allowed_mentions": {"parse": ["users"]}},
                               {"content": "x", "allowed_mentions": {"parse": ["people"]}},
                               "allowed_mentions.parse.0"),
    "allowed_mentions exclusive": ({"content": "x", "allowed_mentions": {"parse": [], "users": ["1"]}},
                                   {"content": "x", "allowed_mentions": {"parse": ["users"], "users": ["1"]}},
                                   "allowed_mentions.users"),
    "allowed_mentions keys": ({"content": "x", "allowed_mentions": {"replied_user": False}},
                              {"content": "x", "allowed_mentions": {"everyone": False}},
                              "allowed_mentions.everyone"),
    "sendable flags": ({"content": "x", "flags": 4 | 4096}, {"content": "x", "flags": 2}, "flags"),
}


@pytest.mark.parametrize("rule", MESSAGE_RULES)
def test_message_rule(rule: str) -> None:
    good, bad, path = MESSAGE_RULES[rule]
    assert message_errors(good, ["board.png"], creating=True) is None
    answer = message_errors(bad, ["board.png"], creating=True)
    assert answer is not None and answer[0] == 400 and answer[1]["code"] == 50035
    assert answer[1]["message"] == "Invalid Form Body"
    assert any(line.startswith(path + ":") for line in error_lines(answer)), error_lines(answer)


def test_empty_message_is_refused_on_create_only() -> None:
    assert message_errors({"content": ""}, creating=True) == (400, {"code": 50006,
                                                                    "message": "Cannot send an empty message"})
    assert message_errors({"content": "hi"}, creating=True) is None
    assert message_errors({"components": []}, creating=False) is None
    assert message_errors({}, ["board.png"], creating=True) is None


def test_error_body_nests_by_path() -> None:
    answer = message_errors({"embeds": [embed(title="x" * 300)]}, creating=True)
    assert answer == (400, {"code": 50035, "message": "Invalid Form Body", "errors": {"embeds": {"0": {"title": {
        "_errors": [{"code": "BASE_TYPE_MAX_LENGTH", "message": "Must be 256 or fewer in length."}]}}}}})


def test_kept_attachments_of_an_edit_are_found() -> None:
    assert message_errors({"attachments": [{"id": "555"}], "embeds": [embed(image={"url": "attachment://b.png"})]},
                          creating=False, existing={"555": "b.png"}) is None
    assert message_errors({"attachments": [{"id": "556"}]}, creating=False, existing={"555": "b.png"}) is not None


def test_the_my_hand_button_of_the_old_release_is_refused() -> None:
    """The board's My hand button carried U+1F0A0 PLAYING CARD BACK, which is no emoji: Discord refused the board."""
    old = discord.ui.View(timeout=None)
    old.add_item(discord.ui.Button(label="My hand", emoji="🂠", style=discord.ButtonStyle.primary,
                                   custom_id="gh:hand:1"))
    answer = message_errors(handle_message_parameters(content="board", view=old).payload, creating=True)
    assert error_lines(answer) == ["components.0.components.0.emoji.name: COMPONENT_INVALID_EMOJI Invalid emoji"]


def test_the_my_hand_button_now_is_accepted() -> None:
    from cogs.controls import HandButton

    view = discord.ui.View(timeout=None)
    view.add_item(HandButton(1))
    assert message_errors(handle_message_parameters(content="board", view=view).payload, creating=True) is None


# ---------------------------------------------------------------- interaction callbacks
ALLOWED = {1: {1}, 2: {4, 5, 9, 10, 12}, 3: {4, 5, 6, 7, 9}, 4: {8}, 5: {4, 5, 6, 7}}
MODAL = {"title": "Name", "custom_id": "m", "components": [
    {"type": 1, "components": [{"type": 4, "custom_id": "n", "style": 1, "label": "Name"}]}]}
CALLBACK_DATA = {4: {"content": "x"}, 7: {"content": "x"}, 8: {"choices": []}, 9: MODAL}


@pytest.mark.parametrize("interaction_type", ALLOWED)
def test_callback_types_per_interaction_type(interaction_type: int) -> None:
    for callback in (1, 4, 5, 6, 7, 8, 9, 10, 12):
        body = {"type": callback, "data": CALLBACK_DATA.get(callback, {})}
        answer = callback_errors(interaction_type, body)
        assert (answer is None) == (callback in ALLOWED[interaction_type]), (interaction_type, callback, answer)
        if answer is not None:
            assert error_lines(answer)[0].startswith("type: ")


def test_callback_message_errors_sit_under_data() -> None:
    answer = callback_errors(2, {"type": 4, "data": {"content": "x" * 2001}})
    assert error_lines(answer) == ["data.content: BASE_TYPE_MAX_LENGTH Must be 2000 or fewer in length."]


def modal(**change) -> dict:
    text = {"type": 4, "custom_id": "n", "style": 1, "label": "Name", **change.pop("text", {})}
    return {**MODAL, "components": [{"type": 1, "components": [text]}], **change}


MODAL_RULES = {
    "title ≤ 45": (modal(title="x" * 45), modal(title="x" * 46), "data.title"),
    "1–5 rows": (modal(components=[row({"type": 4, "custom_id": f"n{i}", "style": 1, "label": "x"})
                                   for i in range(5)]),
                 modal(components=[]), "data.components"),
    "≤ 5 rows": (modal(), modal(components=[row({"type": 4, "custom_id": f"n{i}", "style": 1, "label": "x"})
                                            for i in range(6)]), "data.components"),
    "rows hold text inputs": (modal(), modal(components=[row(button())]), "data.components.0.components.0.type"),
    "label ≤ 45": (modal(text={"label": "x" * 45}), modal(text={"label": "x" * 46}),
                   "data.components.0.components.0.label"),
    "custom_id": (modal(text={"custom_id": "x" * 100}), modal(text={"custom_id": ""}),
                  "data.components.0.components.0.custom_id"),
    "max_length ≤ 4000": (modal(text={"max_length": 4000}), modal(text={"max_length": 4001}),
                          "data.components.0.components.0.max_length"),
    "min_length ≤ 4000": (modal(text={"min_length": 10, "max_length": 20}),
                          modal(text={"min_length": 4001}), "data.components.0.components.0.min_length"),
    "placeholder ≤ 100": (modal(text={"placeholder": "x" * 100}), modal(text={"placeholder": "x" * 101}),
                          "data.components.0.components.0.placeholder"),
    "label components": (modal(components=[{"type": 18, "label": "Name", "component": {
        "type": 4, "custom_id": "n", "style": 2}}]), modal(components=[{"type": 18, "label": "x" * 46, "component": {
            "type": 4, "custom_id": "n", "style": 2}}]), "data.components.0.label"),
}


@pytest.mark.parametrize("rule", MODAL_RULES)
def test_modal_rule(rule: str) -> None:
    good, bad, path = MODAL_RULES[rule]
    assert callback_errors(3, {"type": 9, "data": good}) is None
    lines = error_lines(callback_errors(3, {"type": 9, "data": bad}))
    assert any(line.startswith(path + ":") for line in lines), lines


def test_autocomplete_at_most_25_choices() -> None:
    choices = [{"name": f"c{i}", "value": f"v{i}"} for i in range(26)]
    assert callback_errors(4, {"type": 8, "data": {"choices": choices[:25]}}) is None
    assert error_lines(callback_errors(4, {"type": 8, "data": {"choices": choices}}))[0].startswith("data.choices:")
    bad_name = [{"name": "x" * 101, "value": "v"}]
    assert error_lines(callback_errors(4, {"type": 8, "data": {"choices": bad_name}}))[0].startswith(
        "data.choices.0.name:")


# ---------------------------------------------------------------- application commands
def command(**change) -> dict:
    return {"name": "play", "description": "Start a table", "type": 1, **change}


def option(name: str = "bots", kind: int = 4, **change) -> dict:
    return {"name": name, "description": "How many", "type": kind, **change}


COMMAND_RULES = {
    "≤ 100 commands": ([command(name=f"c{i}") for i in range(100)], [command(name=f"c{i}") for i in range(101)], ""),
    "name regex": ([command(name="ゲーム-1_x'")], [command(name="play game")], "0.name"),
    "name lowercase": ([command(name="play")], [command(name="Play")], "0.name"),
    "name ≤ 32": ([command(name="x" * 32)], [command(name="x" * 33)], "0.name"),
    "devanagari and thai": ([command(name="खेल"), command(name="เกม")], [command(name="♠")], "0.name"),
    "description 1–100": ([command(description="x" * 100)], [command(description="")], "0.description"),
    "description ≤ 100": ([command(description="x" * 100)], [command(description="x" * 101)], "0.description"),
    "valid locales": ([command(name_localizations={"ja": "あそぶ", "en-GB": "play"})],
                      [command(name_localizations={"jp": "あそぶ"})], "0.name_localizations.jp"),
    "localized name rule": ([command(name_localizations={"ja": "あそぶ"})],
                            [command(name_localizations={"ja": "あ そぶ"})], "0.name_localizations.ja"),
    "localized description": ([command(description_localizations={"ja": "x" * 100})],
                              [command(description_localizations={"ja": "x" * 101})],
                              "0.description_localizations.ja"),
    "≤ 25 options": ([command(options=[option(f"o{i}") for i in range(25)])],
                     [command(options=[option(f"o{i}") for i in range(26)])], "0.options"),
    "required first": ([command(options=[option("a", required=True), option("b")])],
                       [command(options=[option("a"), option("b", required=True)])], "0.options.1.required"),
    "≤ 25 choices": ([command(options=[option(choices=[{"name": f"c{i}", "value": i} for i in range(25)])])],
                     [command(options=[option(choices=[{"name": f"c{i}", "value": i} for i in range(26)])])],
                     "0.options.0.choices"),
    "choice name 1–100": ([command(options=[option(choices=[{"name": "x" * 100, "value": 1}])])],
                          [command(options=[option(choices=[{"name": "x" * 101, "value": 1}])])],
                          "0.options.0.choices.0.name"),
    "choice value type": ([command(options=[option(kind=3, choices=[{"name": "a", "value": "a"}])])],
                          [command(options=[option(kind=4, choices=[{"name": "a", "value": "a"}])])],
                          "0.options.0.choices.0.value"),
    "subcommands not mixed": ([command(options=[option("a", 1), option("b", 1)])],
                              [command(options=[option("a", 1), option("b", 4)])], "0.options"),
    "groups hold subcommands": ([command(options=[option("g", 2, options=[option("s", 1)])])],
                                [command(options=[option("g", 2, options=[option("s", 4)])])],
                                "0.options.0.options"),
    "no group in a group": ([command(options=[option("g", 2, options=[option("s", 1)])])],
                            [command(options=[option("g", 2, options=[option("h", 2, options=[option("s", 1)])])])],
                            "0.options.0.options.0.type"),
    "8000 per command": ([command(description="x" * 100, options=[
        option(f"o{i}", 3, description="x" * 100, choices=[{"name": "x" * 100, "value": f"{i}{j}"}
                                                           for j in range(2)]) for i in range(25)])],
        [command(description="x" * 100, options=[
            option(f"o{i}", 3, description="x" * 100, description_localizations={"ja": "x" * 100},
                   choices=[{"name": "x" * 100, "value": f"{i}{j}", "name_localizations": {"ja": "y" * 100}}
                            for j in range(3)]) for i in range(25)])], "0"),
}


@pytest.mark.parametrize("rule", COMMAND_RULES)
def test_command_rule(rule: str) -> None:
    good, bad, path = COMMAND_RULES[rule]
    assert command_errors(good) is None, error_lines(command_errors(good))
    lines = error_lines(command_errors(bad))
    assert any(line.startswith(path + ":") for line in lines), lines
