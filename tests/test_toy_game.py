"""A sixth game needs only its plug-in (docs/adding-a-game.md): the toy game of ``tests/toy`` — defined here,
registered only while a test runs — passes the engine conformance suite, plays through the demo and the render
check, and its catalogs and code pass the i18n checks; all by calling those suites' own functions. A plug-in
that is missing a part stops the start-up check with the game and the part named."""
from __future__ import annotations

import io
from dataclasses import replace
from pathlib import Path
from typing import Callable, Iterator

import pytest

from bot import games
from bot.demo import run_demo
from bot.games import GamePlugin, PluginError, check_plugins
from bot.i18n import LANGUAGES, catalog, rules_text, t

from . import test_cli as cli_suite
from . import test_i18n as i18n_suite
from . import test_no_literals as literals_suite
from . import test_render_all_games as render_suite
from .engines import test_conformance as conformance_suite
from .toy import PLUGIN

TOY = Path(__file__).with_name("toy")


@pytest.fixture
def toy_game() -> Iterator[GamePlugin]:
    yield from games.registered(PLUGIN)


@pytest.fixture
def swap() -> Iterator[Callable[[str, GamePlugin | None], None]]:
    """``swap(game, plugin)`` replaces (None: removes) a game's plug-in until the test ends."""
    before = dict(games.PLUGINS)

    def replace_plugin(game: str, declared: GamePlugin | None) -> None:
        if declared is None:
            del games.PLUGINS[game]
        else:
            games.PLUGINS[game] = declared
        games.forget_loaded()

    yield replace_plugin
    games.PLUGINS.clear()
    games.PLUGINS.update(before)
    games.forget_loaded()


def test_toy_registers_only_inside_the_fixture(toy_game: GamePlugin) -> None:
    assert "toy" in games.games()
    check_plugins()
    assert games.policy("toy") is not None and games.sampler_hooks("toy") is None
    assert games.engine_hooks("toy").start_events is not None and games.render_hooks("toy").image is not None
    assert games.render_hooks("toy").caption_scores is None and games.engine_hooks("toy").held_at_end is None


def test_toy_is_gone_after_the_fixture() -> None:
    assert "toy" not in games.games() and "game.toy.name" not in catalog("en")


@pytest.mark.parametrize("check", ["test_random_playthroughs_end_and_never_leak", "test_replay_is_deterministic",
                                   "test_player_count_and_options_checked", "test_contract_attributes"])
def test_toy_passes_the_conformance_suite(toy_game: GamePlugin, check: str) -> None:
    getattr(conformance_suite, check)("toy")


def test_toy_renders_every_message_in_both_languages(toy_game: GamePlugin) -> None:
    render_suite.test_every_message_of_a_seeded_game_renders_in_both_languages("toy")


async def test_toy_plays_through_the_demo(toy_game: GamePlugin) -> None:
    for lang in LANGUAGES:
        lines: list[str] = []
        table = await run_demo("toy", None, seed=4, lang=lang, out=lines.append)
        assert table.row.game == "toy"
        cli_suite.check_demo_output("\n".join(lines))
        assert t("toy.event.dealt", lang, count=2) in "\n".join(lines)


def test_toy_passes_the_i18n_checks(toy_game: GamePlugin) -> None:
    assert "game.toy.name" in catalog("ja")
    i18n_suite.test_catalogs_have_the_same_keys_and_placeholders()
    i18n_suite.test_every_game_has_rules_in_every_language()
    i18n_suite.test_plural_forms_follow_each_languages_cldr_categories()
    i18n_suite.test_no_english_plural_is_guessed()
    i18n_suite.test_japanese_text_uses_full_width_punctuation()
    i18n_suite.test_controls_name_the_hosts_bots_as_the_board_does()
    i18n_suite.check_literal_keys_exist(sorted(TOY.glob("*.py")))
    assert "9" in rules_text("toy", "ja")  # the optional rules_fields hook fills the rules


def test_toy_has_no_literal_text() -> None:
    problems = [(path.name, found) for path in sorted(TOY.glob("*.py"))
                if (found := literals_suite.offending_literals(path))]
    assert not problems


def test_toy_bots_play_at_every_level(toy_game: GamePlugin) -> None:
    from bot.policies import choose_for_seat
    from engines import get_engine

    engine = get_engine("toy")
    state = engine.new_game(["a", "b"], seed=3)
    view, legal = engine.view(state, "a"), engine.legal_actions(state, "a")
    for level in ("easy", "normal", "strong"):  # no sampler: strong plays the heuristic
        assert choose_for_seat("toy", view, legal, "seed", level) in legal
    assert choose_for_seat("toy", view, legal, "seed") == min(legal, key=lambda a: int(a.card[1:]))


@pytest.mark.parametrize(("broken", "part", "problem"), [
    ({"render": "tests.toy.no_such_module"}, "render", "does not import"),
    ({"controls": "tests.toy.policy"}, "controls", "required hook 'controls' is missing"),
    ({"policy": "tests.toy.render"}, "policy", "required hook 'choose' is missing"),
    ({"engine": "tests.toy.render:board"}, "engine", "is not an engine class"),
    ({"locales": Path(__file__).parent}, "catalog (en)", "toy.json is missing"),
])
def test_a_broken_plugin_stops_the_start_up_check(toy_game: GamePlugin, swap: Callable, broken: dict, part: str,
                                                   problem: str, capsys: pytest.CaptureFixture[str]) -> None:
    swap("toy", replace(PLUGIN, **broken))
    with pytest.raises(PluginError) as raised:
        check_plugins()
    assert raised.value.game == "toy" and raised.value.part == part
    assert str(raised.value).startswith(f"game 'toy': {part}: ") and problem in str(raised.value)
    from bot.__main__ import main

    assert main(["demo", "akuma"]) == 2
    assert str(raised.value) in capsys.readouterr().err


def test_an_engine_without_a_plugin_stops_the_start_up_check(swap: Callable) -> None:
    swap("akuma", None)
    with pytest.raises(PluginError, match="game 'akuma': plug-in: the engine is registered but the game has no"):
        check_plugins()


async def test_toy_slash_command_is_localised(toy_game: GamePlugin, tmp_path: Path) -> None:
    """``/play toy`` joins the command tree through the plug-in, with catalog entries for every string."""
    from . import test_command_localisation as localisation_suite

    await localisation_suite.test_every_command_string_is_in_every_catalog(tmp_path)


@pytest.fixture
def toy_alone(toy_game: GamePlugin) -> Iterator[GamePlugin]:
    """The toy game registered and every other game's plug-in taken away until the test ends: whatever the
    review, the reveal or the animation needs of a game, they find in its plug-in or not at all."""
    before = dict(games.PLUGINS)
    games.PLUGINS.clear()
    games.PLUGINS["toy"] = PLUGIN
    games.forget_loaded()
    yield toy_game
    games.PLUGINS.clear()
    games.PLUGINS.update(before)
    games.forget_loaded()


async def test_toy_is_reviewed_revealed_and_animated_with_nothing_else_registered(
        toy_alone: GamePlugin, tmp_path: Path) -> None:
    """A finished toy game, seen through the viewer with every hand, revealed and drawn as a GIF, with only the
    toy's plug-in registered: its defaults (the view's hand, no score) serve where it declares no hook."""
    from PIL import Image, ImageSequence

    from bot.replay_show import animated_summary, record_names
    from bot.reveal import reveal_lines
    from bot.review import Perspective, SteppedReplay, frame_lines

    from .test_replay_hidden import finished_replay

    assert games.games() == ("toy",)
    replay = await finished_replay(tmp_path, "toy", seed=5)
    players = [p.player for p in replay.record.players]
    stepped = SteppedReplay(replay, every=2)
    for lang in LANGUAGES:
        names = record_names(replay.record, lang)
        dealt = frame_lines(stepped, 0, Perspective.ALL, None, lang, names)
        for player in players:  # every hand whole at the deal: its two cards
            hand = replay.state(0).hands[player]
            line = t("review.hand", lang, player=names(player), count=2, cards=" ".join(f"🂠{c[1:]}" for c in hand))
            assert f"🔒 {line}" in dealt
        last = frame_lines(stepped, len(stepped) - 1, Perspective.ALL, None, lang, names)
        assert t("common.game_over", lang) in last
        revealed = reveal_lines(replay, lang, names)
        assert revealed == [t("reveal.hands", lang), *(t("reveal.held", lang, player=names(p), count=0, cards="—")
                                                       for p in players)]
        gif = animated_summary(replay, lang)
        assert gif is not None
        with Image.open(io.BytesIO(gif)) as animation:
            frames = [frame.convert("RGB") for frame in ImageSequence.Iterator(animation)]
        assert len(frames) == len(replay) == len(players) * 2 + 1
        assert len({frame.tobytes() for frame in frames}) == len(frames)  # each moment its own picture
