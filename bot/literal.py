"""Text a person typed (display names, tournament names) shown literally: never as markup, never hiding or
reordering the text around it.

``plain`` is for every place: it drops the invisible characters a name could use to hide or reorder text, and
isolates a right-to-left name. ``markdown`` is for text Discord renders as markdown (message content, embed titles,
descriptions and fields): ``plain`` and then every markup character escaped. Where Discord shows text as is
(button and select labels, placeholders, embed footers and author names, thread and channel names, attachments'
alt text, modal titles) a backslash would show, so those take ``plain`` only. Pictures draw names as pixels and take
``plain`` too.
"""
from __future__ import annotations

import re
import unicodedata

from discord.utils import escape_markdown, escape_mentions

# Removed, not isolated: the bidirectional embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069) and
# marks (U+200E, U+200F, U+061C) would let a name reverse or re-order the words after it, and the invisible ones
# (zero-width space U+200B, word joiner and invisible operators U+2060–U+2064, BOM U+FEFF) let two names look the
# same or hide where one ends. None of them is needed to write a name. Zero-width (non-)joiners U+200C/U+200D
# stay: emoji sequences and Persian or Indic spelling need them, and they cannot move or hide other text.
HIDDEN = re.compile("[\u061c\u200b\u200e\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]")
# Control characters (line breaks, tabs, escape sequences) and the Unicode line and paragraph separators become a
# space: a name stays on the line it is in and cannot start a line of its own that looks like the bot's.
BREAKS = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029]")
FSI, PDI = "\u2068", "\u2069"  # first strong isolate … pop directional isolate

# What discord.utils.escape_markdown leaves to us. It escapes * _ ~ | ` and backslashes everywhere, and a leading
# "#", "-" or "> ", but it takes a masked link "[text](url)" as one match and puts a single backslash before it,
# leaving the markup inside raw; so the brackets are escaped here one by one, before it sees the text. Also here:
# "<" (mentions <@id> <@&id> <#id>, timestamps <t:0>, emoji <:e:1>, commands </c:1>, <url>), the ":" of a URL's
# scheme (Discord links a bare https://… by itself) and the "." of a numbered list's "1." at a line's start.
OURS = re.compile(r"[\[\]<]|(?<=[A-Za-z]):(?=//)|^\s*\d+\.(?=\s)", re.MULTILINE)


def plain(text: str) -> str:
    """``text`` on one line without hidden or reordering characters; a right-to-left one is wrapped in FSI…PDI, so
    it reads in its own direction and cannot pull neighbouring numbers or punctuation into it."""
    shown = BREAKS.sub(" ", HIDDEN.sub("", text))
    if any(unicodedata.bidirectional(char) in ("R", "AL") for char in shown):
        return FSI + shown + PDI
    return shown


def markdown(text: str) -> str:
    """``text`` as Discord markdown that shows it literally: each markup character behind a backslash (Discord
    hides a backslash before ASCII punctuation and shows the character), and @everyone, @here and long-id mentions
    broken by discord.py's zero-width space."""
    shown = plain(text)
    parts, start = [], 0
    for found in OURS.finditer(shown):
        parts += [escape_markdown(shown[start:found.start()], ignore_links=False), found[0][:-1], "\\" + found[0][-1]]
        start = found.end()
    parts.append(escape_markdown(shown[start:], ignore_links=False))
    return escape_mentions("".join(parts))
