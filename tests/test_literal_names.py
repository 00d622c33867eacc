"""Hostile display names are shown literally (issue 32, item 2): every message kind of the sample sweep
(``bot/discord_sample.py``: lobby, thread, board with its picture's alt text, event and turn lines, timeout lines,
hand views, /game status, the result in the channel), in both languages, seated with names that try Discord's
markdown, mentions and invisible characters.

The check reads each request body as Discord would show it (``discord_shows``, a small model of Discord's markdown:
a backslash before ASCII punctuation is hidden and makes that character plain; code spans show their inside as is;
``@`` followed by a zero-width space is no mention). In text Discord renders as markdown (content, embed titles,
descriptions and fields), each name must appear verbatim and none of its characters may be live markup (a link,
heading, list, quote, emphasis, spoiler, code or mention marker). In text Discord shows as is (button and select
labels, placeholders, embed footers and authors, thread names, attachments' alt text), a name must appear verbatim
with no backslash added. Nowhere may a bidirectional override or a hidden character of a name remain, and a name
written right to left is isolated (FSI…PDI) so it cannot reorder the text around it.
"""
from __future__ import annotations

import re
import string
import unicodedata
from dataclasses import dataclass
from typing import Any, Iterator

import pytest

from bot.discord_sample import Sample, game_samples
from bot.i18n import LANGUAGES
from engines import GAMES, get_engine

FSI, PDI = "\u2068", "\u2069"
ZWSP = "\u200b"

# (what the member typed, what a reader must see): Discord display names are at most 32 characters.
HOSTILE = [
    ("[Nitro](https://evil.example/x)", "[Nitro](https://evil.example/x)"),
    ("# HUGE", "# HUGE"),
    ("## big ### bigger", "## big ### bigger"),
    ("-# small print", "-# small print"),
    ("- listed", "- listed"),
    ("* starred", "* starred"),
    ("1. first", "1. first"),
    ("> quoted", "> quoted"),
    (">>> all quoted", ">>> all quoted"),
    ("```fence```", "```fence```"),
    ("`code`", "`code`"),
    ("||spoiler||", "||spoiler||"),
    ("**bold** __under__ ~~gone~~ *it*", "**bold** __under__ ~~gone~~ *it*"),
    ("_it_ ***b*** x\\*", "_it_ ***b*** x\\*"),
    ("@everyone", "@everyone"),
    ("@here", "@here"),
    ("<@123> <@&2> <#1> <t:0:R>", "<@123> <@&2> <#1> <t:0:R>"),
    ("</help:1> <:e:1> <a:e:2>", "</help:1> <:e:1> <a:e:2>"),
    ("https://evil.example/free_nitro", "https://evil.example/free_nitro"),
    ("back\\slash\\", "back\\slash\\"),
    ("Bob\u200bby\u2060\ufeff", "Bobby"),
    ("\u202egnp.exe", "gnp.exe"),
    ("x\u2069\u2067evil\u200f\u202a", "xevil"),
    ("سارة ٣", "سارة ٣"),
    ("||" + "W" * 28 + "||", "||" + "W" * 28 + "||"),
    ("*_" * 16, "*_" * 16),  # 32 characters that all need a backslash: the longest escaped name
    ("ok\n▶ <@1>, your turn\r\n# x", "ok ▶ <@1>, your turn  # x"),  # a forged line break stays on the line
]
RIGHT_TO_LEFT = [shown for _, shown in HOSTILE if any(unicodedata.bidirectional(c) in ("R", "AL") for c in shown)]
# Characters no text may carry: bidirectional embeddings, overrides and isolates other than FSI…PDI, marks, and
# invisible characters (a zero-width space only right after "@", where discord.py's escape_mentions puts it).
HIDDEN = re.compile("[\u061c\u200b\u200e\u200f\u202a-\u202e\u2060-\u2064\u2066\u2067\ufeff]")

ASCII_PUNCTUATION = set(string.punctuation)
ALWAYS_MARKUP = set("*_~|`[]<")  # emphasis, strike, spoiler, code, masked link, mentions/timestamps/emoji
LINE_START_MARKUP = set("#->+")  # headings and subtext, lists, block quotes, at the start of a line
LINE_START = re.compile(r"\s*(?:(?:\d+\.|[-*+]|>{1,3})\s+)*[#-]*")  # a line's start (in list items and quotes too)
MENTION_WORDS = ("everyone", "here")


@dataclass
class Shown:
    """One character as Discord shows it; ``inert``: escaped or inside code, so it is text and never markup."""

    char: str
    inert: bool


def discord_shows(markdown: str) -> list[Shown]:
    """The characters Discord shows for ``markdown``: backslash escapes of ASCII punctuation removed (the character
    stays, inert), code spans' insides inert and as written, isolate marks (invisible) dropped."""
    shown: list[Shown] = []
    i = 0
    while i < len(markdown):
        char = markdown[i]
        if char == "\\" and i + 1 < len(markdown) and markdown[i + 1] in ASCII_PUNCTUATION:
            shown.append(Shown(markdown[i + 1], True))
            i += 2
        elif char == "`":
            ticks = len(markdown[i:]) - len(markdown[i:].lstrip("`"))
            close = re.compile(rf"(?<!`)`{{{ticks}}}(?!`)").search(markdown, i + ticks)
            if close is None:
                shown += [Shown("`", False)] * ticks
                i += ticks
            else:
                shown += [Shown(c, True) for c in markdown[i + ticks:close.start()]]
                i = close.end()
        elif char == "@" and markdown[i + 1:i + 2] == ZWSP:
            shown.append(Shown("@", True))
            i += 2
        elif char in (FSI, PDI):
            i += 1
        else:
            shown.append(Shown(char, False))
            i += 1
    return shown


def live_markup(shown: list[Shown], at: int) -> bool:
    """Whether the character at ``at`` is markup Discord would act on (not inert, and in a place where it counts)."""
    char = shown[at]
    if char.inert:
        return False
    text = "".join(s.char for s in shown)
    line_start = text.rfind("\n", 0, at) + 1
    line_prefix = text[line_start:at] if not any(s.inert for s in shown[line_start:at]) else "text"
    if char.char in ALWAYS_MARKUP:
        return True
    if char.char in LINE_START_MARKUP and LINE_START.fullmatch(line_prefix):
        return True
    if char.char == "." and re.fullmatch(r"\s*\d+", line_prefix) and text[at + 1:at + 2] == " ":
        return True
    if char.char == ":" and text[at + 1:at + 3] == "//" and re.search(r"[A-Za-z]$", line_prefix):
        return True  # an autolink's scheme
    return char.char == "@" and text[at + 1:].startswith(MENTION_WORDS)


def texts(body: Any, *, thread: bool) -> Iterator[tuple[str, bool]]:
    """Every text a person reads in a request body, with whether Discord renders it as markdown."""
    if thread:
        yield body["name"], False
        return
    data = body.get("data", body)
    if data.get("content"):
        yield data["content"], True
    for embed in data.get("embeds") or []:
        yield from ((embed[k], True) for k in ("title", "description") if embed.get(k))
        for embed_field in embed.get("fields") or []:
            yield embed_field["name"], True
            yield embed_field["value"], True
        yield from ((embed[k][part], False) for k, part in (("footer", "text"), ("author", "name")) if k in embed)
    for attachment in data.get("attachments") or []:
        if attachment.get("description"):
            yield attachment["description"], False
    yield from ((text, False) for text in component_texts(data.get("components") or []))


def component_texts(components: list[dict]) -> Iterator[str]:
    for component in components:
        yield from (component[k] for k in ("label", "placeholder") if component.get(k))
        for option in component.get("options") or []:
            yield from (option[k] for k in ("label", "description") if option.get(k))
        yield from component_texts(component.get("components") or [])


def problems_in_markdown(text: str, names: list[str]) -> Iterator[str]:
    shown = discord_shows(text)
    seen = "".join(s.char for s in shown)
    for name in names:
        for found in re.finditer(re.escape(name), seen):
            live = [shown[at].char for at in range(found.start(), found.end()) if live_markup(shown, at)]
            if live:
                yield f"{name!r} acts as markup ({''.join(live)!r}) in {text!r}"


def problems_in_plain(text: str, names: list[str]) -> Iterator[str]:
    rest = text.replace(FSI, "").replace(PDI, "")
    for name in names:
        rest = rest.replace(name, "")
    if re.search(r"\\[!-/:-@\[-`{-~]", rest):
        yield f"a backslash shows in plain text {text!r}"


def problems_anywhere(text: str) -> Iterator[str]:
    hidden = [f"U+{ord(m[0]):04X}" for m in HIDDEN.finditer(text) if not (m[0] == ZWSP and text[m.start() - 1] == "@")]
    if hidden:
        yield f"hidden characters {hidden} in {text!r}"
    for line in text.split("\n"):
        depth = 0
        for char in line:
            depth += (char == FSI) - (char == PDI)
            if depth < 0:
                yield f"a PDI closes more than was opened in {line!r}"
        if depth:
            yield f"an isolate left open in {line!r}"
    for name in RIGHT_TO_LEFT:
        for found in re.finditer(re.escape(name), text):
            if text[found.start() - 1:found.start()] != FSI or text[found.end():found.end() + 1] != PDI:
                yield f"right-to-left {name!r} not isolated in {text!r}"


def seat_groups(game: str) -> list[list[tuple[str, str]]]:
    seats = min(4, get_engine(game).max_players)
    return [HOSTILE[i:i + seats] for i in range(0, len(HOSTILE), seats)]


def test_hostile_names_fit_discord() -> None:
    assert all(len(typed) <= 32 for typed, _ in HOSTILE)
    assert any(len(typed) == 32 for typed, _ in HOSTILE)


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("game", GAMES)
async def test_every_message_kind_shows_hostile_names_literally(game: str, lang: str) -> None:
    problems: list[str] = []
    for group in seat_groups(game):
        samples: list[Sample] = await game_samples(game, lang, names=[typed for typed, _ in group], max_steps=40)
        names = [shown for _, shown in group]
        markdown_seen = plain_seen = ""
        for sample in samples:
            refused = sample.errors()
            problems += [f"{sample.what}: refused by Discord's rules: {refused}"] if refused else []
            for text, markdown in texts(sample.body, thread=sample.thread):
                found = problems_in_markdown(text, names) if markdown else problems_in_plain(text, names)
                problems += [f"{sample.what}: {p}" for p in [*found, *problems_anywhere(text)]]
                if markdown:
                    markdown_seen += "".join(s.char for s in discord_shows(text)) + "\n"
                else:
                    plain_seen += text.replace(FSI, "").replace(PDI, "") + "\n"
        problems += [f"{name!r} is never shown verbatim in markdown" for name in names if name not in markdown_seen]
        problems += [f"{name!r} is never shown verbatim in a label" for name in names[1:] if name not in plain_seen]
    unique = list(dict.fromkeys(problems))
    assert not unique, f"{len(unique)} problems, e.g.:\n" + "\n".join(unique[:12])
