"""What a replay page shows (issue 56): the frame the Discord viewer shows at that step (``bot.review``: the board
lines, what happened, the hand a seat link may see), its board picture, the steps to go to (the viewer's own
⏮ ◀ ▶ ⏭, the deal, trick or turn before and after, a seat's own turns, its two menus as lists), and at the last
step the reveal (``bot.reveal``) where Discord's Reveal would show it. Nothing here knows HTTP: ``replay_page`` returns
the fields the template fills, every name people typed entering as text (escaped by the template, never markup)."""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from markupsafe import Markup, escape

from engines import get_engine

from .. import render
from ..games import render_hooks
from ..i18n import LANGUAGES, join_list, t
from ..replay_show import printed_name, record_names
from ..reveal import reveal_lines
from ..review import PRIVATE, Perspective, SteppedReplay, frame_lines
from ..review_seek import menus, point_label

BOLD = re.compile(r"\*\*(.+?)\*\*")
CODE = re.compile(r"`([^`]+)`")
_UNGUARD = str.maketrans({"\ue000": "*", "\ue001": "`"})
# the viewer's step labels and what a screen reader says for each
STEP_NAMES = {"⏮": "web.step.first", "◀": "web.step.previous", "▶": "web.step.next", "⏭": "web.step.last",
              "−10": "web.step.back10", "+10": "web.step.forward10"}
REL = {"⏮": "first", "◀": "prev", "▶": "next", "⏭": "last"}


def html_line(line: str) -> Markup:
    """A line written for Discord as HTML: escaped first, then the catalog's **bold** and `code` as tags; the
    names (entered through ``render.guarded``) come out as typed, their ``*`` and ``` ` ``` never read as marks."""
    text = str(escape(line))
    text = CODE.sub(r"<code>\1</code>", BOLD.sub(r"<strong>\1</strong>", text))
    return Markup(text.translate(_UNGUARD))  # escaped above; only our own tags added


@dataclass(frozen=True)
class Link:
    label: str
    href: str
    enabled: bool = True
    name: str = ""  # what a screen reader says, when the label is a mark
    rel: str = ""  # first / prev / next / last: the keyboard's arrows follow these
    current: bool = False


@dataclass(frozen=True)
class SeekList:
    """One of the viewer's menus as a list of links: what it jumps to, and its options."""

    label: str
    links: list[Link]


@dataclass(frozen=True)
class Opened:
    """A replay a link opens: whose eyes (``player``: the seat of a seat link), the page's default language, and
    whether the reveal may be shown at the end (as Discord's Reveal would: not while a tournament round plays)."""

    replay: SteppedReplay
    player: str | None
    lang: str
    reveal: bool
    base: str  # the page's path without its step: /r/<token>


@dataclass
class ReplayPage:
    lang: str
    title: str
    heading: str
    step: int
    last: int
    perspective: str
    warning: str | None
    lines: list[Markup]
    picture: str | None
    picture_alt: str
    steps: list[Link]
    seek: list[SeekList]
    languages: list[Link]
    reveal: list[Markup] = field(default_factory=list)
    reveal_title: str = ""
    preview_title: str = ""
    preview_text: str = ""
    preview_image: str | None = None
    text: dict[str, str] = field(default_factory=dict)


def told_to_seat(lines: list[str], seat: str, lang: str) -> list[str]:
    """A seat's page is read by anyone with its link: what the game told that seat, in its own words ("You drew
    …"), is said as told to the seat, by name. A frame's events come first, up to its first blank line (then the
    board, then the hand, ``bot.review.frame_lines``)."""
    told, events = [], True
    for line in lines:
        events = events and bool(line)
        if events and line.startswith(f"{PRIVATE} "):
            line = f"{PRIVATE} " + t("web.seat_told", lang, player=seat, line=line.removeprefix(f"{PRIVATE} "))
        told.append(line)
    return told


def step_href(opened: Opened, step: int, lang: str) -> str:
    return f"{opened.base}/{step}?lang={lang}"


def picture_href(opened: Opened, step: int, lang: str) -> str:
    return f"{opened.base}/{step}/board.png?lang={lang}"


def preview(opened: Opened, lang: str, names: render.Names) -> tuple[str, str]:
    """The link preview's title and text: only what the spectator's view shows once the game is over (the game,
    the table, who played, who won)."""
    replay = opened.replay
    record = replay.record
    title = t("web.preview_title", lang, game=render.game_title(record.game, lang), id=record.table)
    players = join_list((names(p.player) for p in record.players), lang)
    result = get_engine(record.game).result(replay.final)
    if result is None or not result.ranking:
        return title, t("web.preview_players", lang, players=players, steps=len(replay) - 1)
    winners = join_list((names(p) for p in result.ranking[0]), lang)
    return title, t("web.preview_result", lang, players=players, winners=winners, steps=len(replay) - 1)


def replay_page(opened: Opened, index: int, lang: str, origin: str) -> ReplayPage:
    """The page at step ``index`` (0..last, checked by the caller) in ``lang``; ``origin``: the site's address,
    for the preview's picture (link previews need an absolute address)."""
    replay = opened.replay
    record, last = replay.record, len(replay) - 1
    names = record_names(record, lang, printed_name)
    perspective = Perspective.SPECTATOR if opened.player is None else Perspective.MINE
    lines = frame_lines(replay, index, perspective, opened.player, lang, names)
    if opened.player is not None:
        lines = told_to_seat(lines, names(opened.player), lang)
    shown = menus(replay, index, lang, opened.player)
    steps = []
    for step in shown.steps:
        name = STEP_NAMES.get(step.label)
        if name is None and not step.enabled and step.target == index:  # the viewer's counter, n/N
            steps.append(Link(step.label, "", enabled=False, current=True))
            continue
        steps.append(Link(step.label, step_href(opened, step.target, lang) if step.enabled else "", step.enabled,
                          t(name, lang) if name else "", REL.get(step.label, "")))
    seek = []  # the viewer's two menus, as lists of links: the parts (deals, pages of turns), the turns and moves
    for menu, kind, points in (("seek_by", shown.part_kind, shown.parts), ("seek_near", shown.turn_kind, shown.turns)):
        if kind is None or not points:
            continue
        current = max((p.frame for p in points if p.frame <= index), default=-1)
        seek.append(SeekList(t(f"review.{menu}.{kind.value}", lang), [
            Link(point_label(p, kind, lang, names.plain()(p.player) if p.player else None, shown.turn_kind),
                 step_href(opened, p.frame, lang), current=p.frame == current) for p in points]))
    draw, describe = render_hooks(record.game).image, render_hooks(record.game).image_alt
    public = replay.view(index, None) if draw is not None else None
    title = render.game_title(record.game, lang)
    preview_title, preview_text = preview(opened, lang, names.plain())
    page = ReplayPage(
        lang=lang, step=index, last=last,
        title=t("web.title", lang, game=title, id=record.table, index=index, total=last),
        heading=t("web.heading", lang, game=title, id=record.table),
        perspective=(t("review.perspective.s", lang) if opened.player is None
                     else t("web.seat_of", lang, player=names.plain()(opened.player))),
        warning=None if opened.player is None else t("web.seat_warning", lang, player=names.plain()(opened.player)),
        lines=[html_line(line) for line in lines],
        picture=picture_href(opened, index, lang) if draw is not None else None,
        picture_alt=(describe(public, names.plain(), lang) if describe is not None and public is not None
                     else t("web.picture_alt", lang, game=title, index=index)),
        steps=steps, seek=seek,
        languages=[Link(t(f"web.language.{code}", code), step_href(opened, index, code), current=code == lang)
                   for code in LANGUAGES],
        preview_title=preview_title, preview_text=preview_text,
        preview_image=f"{origin}{picture_href(opened, last, lang)}" if draw is not None else None,
        text={key: t(f"web.{key}", lang) for key in ("steps", "languages", "moves", "keys")})
    if index == last and opened.reveal:
        page.reveal_title = t("reveal.title", lang, id=record.table, game=title)
        page.reveal = [html_line(line) for line in reveal_lines(replay, lang, names)]
    return page


def board_picture(opened: Opened, index: int, lang: str) -> bytes | None:
    """The public board's picture at step ``index`` (the same as the Discord viewer's), or None for a game that
    draws none."""
    replay = opened.replay
    draw = render_hooks(replay.record.game).image
    if draw is None:
        return None
    names = record_names(replay.record, lang).plain()
    return draw(replay.view(index, None), names, lang)
