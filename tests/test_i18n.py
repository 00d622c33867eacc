"""Catalogs: the same keys and placeholders in every language; every key used exists."""
from __future__ import annotations

import re
import string
from importlib.util import find_spec
from pathlib import Path

from bot.games import games, plugin
from bot.i18n import LANGUAGES, catalog, language, rules_text, t

ROOT = Path(__file__).resolve().parents[1]


def placeholders(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def test_catalogs_have_the_same_keys_and_placeholders() -> None:
    base = catalog("en")
    for lang in LANGUAGES:
        other = catalog(lang)
        assert set(other) == set(base), f"{lang}: keys differ: {set(other) ^ set(base)}"
        for key, text in base.items():
            assert placeholders(other[key]) == placeholders(text), f"{lang}:{key} placeholders differ"


def check_literal_keys_exist(paths: list[Path]) -> None:
    keys = set(catalog("en"))
    used = set()
    for path in paths:
        used |= set(re.findall(r"""\bt\(\s*["']([a-z_]+\.[a-z0-9_.]+)["']""", path.read_text(encoding="utf-8")))
    missing = used - keys
    assert not missing, f"keys used but not in the catalog: {missing}"


def test_every_literal_key_used_in_code_exists() -> None:
    check_literal_keys_exist([path for folder in ("bot", "cogs") for path in (ROOT / folder).rglob("*.py")])


def test_locale_choice() -> None:
    assert language("ja") == "ja" and language("en-US") == "en" and language("fr") == "en" and language(None) == "en"
    assert t("game.akuma.name", "en-GB") == "Akuma Trick"


def test_every_game_has_rules_in_every_language() -> None:
    for game in games():
        for lang in LANGUAGES:
            assert "Decision" in rules_text(game, lang) or "決定" in rules_text(game, lang)


def _plural_specs(text: str) -> list[tuple[str, dict[str, str]]]:
    from bot.i18n import plural_forms

    found = []
    for _, name, spec, _ in string.Formatter().parse(text):
        forms = plural_forms(spec or "")
        if name and forms is not None:
            found.append((name, forms))
    return found


def test_plural_forms_follow_each_languages_cldr_categories() -> None:
    """English has one/other, Japanese only other (CLDR); every spec has 'other' and only the language's categories."""
    allowed = {"en": {"one", "other"}, "ja": {"other"}}
    for lang in LANGUAGES:
        for key, text in catalog(lang).items():
            for name, forms in _plural_specs(text):
                assert "other" in forms and set(forms) <= allowed[lang], f"{lang}:{key} {{{name}}} has {set(forms)}"
                assert all("#" in form for form in forms.values()), f"{lang}:{key}: a form without its number"


def test_no_english_plural_is_guessed() -> None:
    """No "card(s)" and no "{n} cards" (nor "{n} rated games") that would read "1 cards": a count before a plural
    noun, or before one word and a plural noun, carries its forms."""
    for key, text in catalog("en").items():
        assert "(s)" not in text, f"en:{key}: {text}"
        bare = re.findall(r"\{(count|cards|layers|left|seconds|games|wins|rounds|covered|columns)\} (?:[a-z]+ )?"
                          r"(?:card|layer|step|second|game|win|round|square|column|place|placement|stone"
                          r"|message|server|check)s\b", text)
        assert not bare, f"en:{key}: {{{bare[0]}}} before a plural noun without plural forms: {text}"


def test_one_and_many_read_right_in_both_languages() -> None:
    assert t("akuma.event.may_steal", "en", count=1) == "They may steal 1 card."
    assert t("akuma.event.may_steal", "en", count=2) == "They may steal 2 cards."
    assert t("pileup.board.column", "en", mark="A", layers="", count=1, cards=3).endswith("1 layer, 3 cards")
    assert "1" in t("akuma.event.may_steal", "ja", count=1) and "card" not in t("akuma.event.may_steal", "ja", count=1)
    assert t("table.time_warning", "en", players="@A", seconds=1).startswith("⏰ @A, 1 second left")


def test_controls_name_the_hosts_bots_as_the_board_does() -> None:
    """Buttons and selects take seat names from Table.names(locale): 「ボット1」 in Japanese, as on the board."""
    from bot.storage import GameRow, SeatRow
    from bot.table import Table

    seats = [SeatRow(0, "u7", "alice", 7), SeatRow(1, "bot1", "Bot 1", None, True)]
    table = Table(GameRow(id=1, guild_id=1, channel_id=2, game="akuma", options={}, seed=1, status="running",
                          host_id=7, seats=seats))
    assert table.names("ja") == {"u7": "alice", "bot1": t("common.bot_name", "ja", number=1)}
    assert table.names("ja")["bot1"] != "Bot 1" and table.names("en")["bot1"] == "Bot 1"
    for game in games():
        source = Path(find_spec(plugin(game).controls).origin).read_text(encoding="utf-8")
        assert "names()" not in source, f"{plugin(game).controls} names seats without the reader's language"


def test_japanese_text_uses_full_width_punctuation() -> None:
    """One style in Japanese: ：（）！？ full width (placeholders, `code` and command names excepted), no
    abbreviations."""
    protected = re.compile(r"\{[^{}]*\}|`[^`]*`|<[^<>]*>|https?://\S+")
    for key, text in catalog("ja").items():
        if key.startswith("app."):
            continue
        plain = protected.sub("", text)
        if re.search(r"[\u3040-\u30ff\u3400-\u9fff]", plain):
            assert not re.search(r"[:()!?]", plain), f"ja:{key} mixes half-width punctuation: {text}"
    assert "SP" not in t("twinpyramid.board.start_mark", "ja")


def test_compiled_texts_format_as_the_general_formatter_does() -> None:
    """Every catalog text, formatted through its parsed-once pieces, equals ``string.Formatter``'s own result
    (with the plural forms) for numbers, numbers as text and words in every field; a text the compiled path
    cannot take is left to the general formatter."""
    from bot.i18n import _compiled, _format, _formatter

    compiled = 0
    for lang in LANGUAGES:
        for key, text in catalog(lang).items():
            names = placeholders(text)
            if not names:
                continue
            compiled += _compiled(text) is not None
            for value in (0, 1, 2, 5, 21, 1.5, "3", "-1", "Aki", "<@12>"):
                fields = {name: value for name in names}
                try:
                    expected = _formatter(lang).format(text, **fields)
                except (ValueError, TypeError) as error:  # a spec that does not take this kind of value
                    try:
                        _format(lang, text, fields)
                    except type(error):
                        continue
                    raise AssertionError(
                        f"{lang}:{key} formatted {value!r}; the general formatter refused it") from error
                assert _format(lang, text, fields) == expected, f"{lang}:{key} with {value!r}"
    assert compiled > 100  # the fast path is the one taken
