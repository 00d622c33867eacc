"""Japanese typography (issue 44): the whole ja catalog, the Japanese rules and quick starts, and the Japanese text
of whole games as the renderers write it use full-width punctuation — 、 between Japanese words and in lists, 。 at
the end of a Japanese sentence or heading, ： after a Japanese word —, no space after 。, ！ or ？ inside a line (nor
before 「 or （, nor inside 「第15手番」「288手目」), and no English control name where the Japanese one exists."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from bot.games import engine_hooks
from bot.i18n import catalog, join_list
from bot.render import Names, board, event_line, hand, ranking_lines
from bot.thinking import decide_here
from engines import GAMES, get_engine

ROOT = Path(__file__).resolve().parents[1]
JA = "\u3040-\u30ff\u3400-\u9fff\uff00-\uffef\u3000-\u303f"  # kana, kanji, full-width forms, CJK punctuation
# Not prose: placeholders, `code` (commands typed as they are), mentions and links.
PROTECTED = re.compile(r"\{[^{}]*\}|`[^`]*`|<[^<>]*>|https?://\S+")
SLIPS = {
    "ASCII comma next to Japanese (、)": re.compile(rf"(?<=[{JA}]),|,(?= ?[{JA}])"),
    "ASCII period after Japanese (。)": re.compile(rf"(?<=[{JA}])\.(?=\s|$|\*|」)"),
    "ASCII colon after Japanese (：)": re.compile(rf"(?<=[{JA}]):"),
    "a space after 。 inside a line": re.compile(r"[。！？](?:\*\*)? (?=\S)"),
    "a space after ： inside a line": re.compile(r"：(?:\*\*)? (?=\S)"),
    "a space before a full-width bracket": re.compile(r"(?<=\S) [（「]"),
    "a space between a number and its counter": re.compile(
        r"第 [\d_]+ ?(?=手番|トリック|勝負)|第[\d_]+ (?=手番|トリック|勝負)|(?<=[\d_]) (?=手目|手番|トリック|勝負)"),
}
SPACES = ("a space after 。 inside a line", "a space after ： inside a line", "a space before a full-width bracket",
          "a space between a number and its counter")


def slips(text: str) -> list[str]:
    plain = PROTECTED.sub("_", text)
    return [f"{kind}: …{plain[max(0, m.start() - 12):m.end() + 12]}…"
            for kind, pattern in SLIPS.items() for m in pattern.finditer(plain)]


def japanese_rules() -> list[Path]:
    files = sorted((ROOT / "bot" / "locales" / "rules").glob("*.ja.md"))
    return files + sorted((ROOT / "docs" / "rules").glob("*ja*"))


def test_the_checks_find_each_slip() -> None:
    """The patterns catch what they are meant to (and leave the correct forms alone)."""
    assert len(slips("**目的.** 赤, 青と白。 次に")) == 3
    assert len(slips("**決定:** 手札を見る")) == 1
    assert len(slips("**場札：** なし · **目的。** 赤。 🟢 次： 1")) == 4
    assert len(slips("出しました。 · 次 勝ちました！ 支払い 石 3/10 （スタート） 第 15 手番（288 手目）")) == 5
    assert slips("**目的。**赤、青と白。次に `/play x a:b, c` {a}, {b} 1. 名前 · 次 **場札：**なし") == []
    assert slips("第15手番（{n}手目） 石 3/10（スタート） 勝ちました！支払い") == []


def test_the_ja_catalog_uses_full_width_punctuation() -> None:
    found = [f"{key}: {slip}" for key, text in catalog("ja").items() for slip in slips(text)]
    assert found == []


@pytest.mark.parametrize("path", japanese_rules(), ids=lambda p: p.name)
def test_the_japanese_rules_use_full_width_punctuation(path: Path) -> None:
    found = [f"line {n}: {slip}" for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
             for slip in slips(line)]
    assert found == []


def english_controls() -> dict[str, str]:
    """English catalog texts that Japanese text might leave untranslated: short labels (at most three words, no
    placeholder) whose Japanese text differs, English → Japanese."""
    en, ja = catalog("en"), catalog("ja")
    return {text: ja[key] for key, text in en.items()
            if re.fullmatch(r"[A-Za-z][A-Za-z' ]{2,24}", text) and len(text.split()) <= 3 and ja.get(key) != text}


def test_japanese_text_names_controls_in_japanese() -> None:
    """A control named in bold or in 「」 in Japanese text is the Japanese label (``**My hand**`` was left in two
    games' rules)."""
    controls = english_controls()
    assert controls["My hand"] == catalog("ja")["board.my_hand"]
    texts = [(f"ja:{key}", text) for key, text in catalog("ja").items() if re.search(f"[{JA}]", text)]
    texts += [(path.name, path.read_text(encoding="utf-8")) for path in japanese_rules()]
    found = [f"{where}: {name!r} (→ {controls[name]!r})" for where, text in texts
             for name in re.findall(r"\*\*([^*]+)\*\*|「([^」]+)」", text) for name in name if name in controls]
    assert found == []


def whole_game_text(game: str, seats: int = 3, seed: int = 1) -> list[str]:
    """Every board, every seat's hand view and every event line of one normal-bot game in Japanese, and its
    ranking."""
    engine = get_engine(game)
    players = [f"p{i}" for i in range(seats)]
    names = Names({p: f"名前{i}" for i, p in enumerate(players)})
    state = engine.new_game(players, seed=seed)
    start_events = engine_hooks(game).start_events
    events = list(start_events(state)) if start_events else []
    texts: list[str] = []
    moves = 0
    while True:
        texts += [line for event in events if (line := event_line(game, event, names, "ja"))]
        texts.append(board(game, engine.view(state, None), names, "ja").text())
        texts += [hand(game, engine.view(state, p), names, "ja") for p in players]
        result = engine.result(state)
        if result is not None:
            return texts + ranking_lines(result.ranking, result.scores or {}, names, "ja")
        player = engine.to_act(state)[0]
        state, events = engine.apply(state, player, decide_here(engine, state, player, f"{seed}:{moves}", "normal"))
        moves += 1


@pytest.mark.parametrize("game", GAMES)
def test_lists_in_a_whole_japanese_game_use_the_japanese_separator(game: str) -> None:
    """Lists the renderers join (names, colours, sides, payments) read 名前0、名前1 in Japanese: no ", " anywhere
    in a whole game (the names here hold no comma)."""
    texts = whole_game_text(game)
    found = [text for text in texts if ", " in text]
    assert found == [], f"{len(found)} texts with ', ', the first: {found[0]!r}"
    assert json.dumps(texts, ensure_ascii=False).count("名前") > 10  # the game did render its players


@pytest.mark.parametrize("game", GAMES)
def test_a_whole_japanese_game_has_no_space_after_a_full_stop_or_colon(game: str) -> None:
    """Sentences the renderers run on in one line, and bold labels, read 「…しました。次に…」「**場札：**なし」: the
    catalog holds each line right, and the lines a renderer puts together keep it (``bot.i18n.sentences``)."""
    found = [slip for text in whole_game_text(game) for line in text.splitlines() for slip in slips(line)
             if slip.startswith(SPACES)]
    assert found == [], f"{len(found)} slips, the first: {found[:3]}"


def test_join_list_follows_the_language() -> None:
    assert join_list(["名前0", "名前1"], "ja") == "名前0、名前1"
    assert join_list(["alice", "bob"], "en") == "alice, bob"
    assert join_list([3, 5], "ja") == "3、5"


def test_a_players_placings_are_listed_in_the_readers_language() -> None:
    """``/stats``: the placings line lists each place with the language's separator."""
    from bot.tournaments.ratings import PlayerStats
    from bot.tournaments.text import stats_lines

    stats = PlayerStats(user_id=1, games=5, wins=2, placings={1: 2, 2: 3}, ratings={}, recent=[])
    placings = {lang: next(line for line in stats_lines(stats, lang) if line != stats_lines(stats, lang)[0])
                for lang in ("en", "ja")}
    assert placings["en"].count(", ") == 1 and placings["ja"].count("、") == 1 and ", " not in placings["ja"]
    assert slips(placings["ja"]) == []


def test_a_bots_steps_folded_into_one_line_keep_no_space_after_a_full_stop() -> None:
    """A bot's steps are folded into one board line with " · "; after a Japanese 。 it left 「…出しました。 · …」."""
    from cogs.outbox_fold import Line, folded

    steps = [Line("ボット5がQ♦を出しました。", bot="bot5"), Line("ボット5は積み上げられる石がありません。", bot="bot5")]
    assert folded(steps) == ["ボット5がQ♦を出しました。ボット5は積み上げられる石がありません。"]
    assert slips(folded(steps)[0]) == []
    assert folded([Line("Bot 5 plays Q♦.", bot="bot5"), Line("Bot 5 has no stone to build.", bot="bot5")]) == [
        "Bot 5 plays Q♦. · Bot 5 has no stone to build."]
