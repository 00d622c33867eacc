"""One declared plug-in per game: every part a game brings, and every optional hook with its default, here.

A game is its ``GamePlugin``: the engine class (registered in ``engines``, which lists the games and stays free of
``bot``), the text/picture renderer (``bot/render/<game>.py``), the Discord controls (``cogs/games/<game>.py``; its
``/play <game>`` is generated from the engine's options model by ``cogs.play_command``), the heuristic bot with its
easy-level hooks (``bot/policies/<game>.py``), the determiniser of the strong bot
(``bot/policies/sampling/<game>.py``) and the catalogs: ``<locales>/{en,ja}/<game>.json`` and the rules
``<locales>/rules/<game>.{en,ja}.md``. The hooks each part must or may define are the fields of the ``*Hooks``
classes below: a field without a default is required, a field with one is optional and the default is what the host
does without it. Everything else reads a game's parts through ``engine_hooks``, ``render_hooks``,
``controls_hooks``, ``policy``, ``policy_hooks``, ``sampler_hooks`` — never by looking into the modules itself.

Parts load lazily (a worker process searching moves never imports Discord); ``check_plugins`` loads them all
and is run once when the bot, the demo or the check starts: a part that is missing or malformed stops it with a
``PluginError`` naming the game and the part.
"""
from __future__ import annotations

import dataclasses
import random
from dataclasses import dataclass
from importlib import import_module
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterator

from engines import GAMES, Engine, EngineError, Json, Result, View, engine_target, get_engine, register_engine

if TYPE_CHECKING:
    from .policies.seat_view import PlayoutView

LOCALES = Path(__file__).with_name("locales")
CATALOG_LANGUAGES = ("en", "ja")
MAX_ROLLOUT_STEPS = 2000


class PluginError(RuntimeError):
    """A game's plug-in is missing a part or a part is malformed; the message names the game and the part."""

    def __init__(self, game: str, part: str, problem: str) -> None:
        self.game, self.part = game, part
        super().__init__(f"game {game!r}: {part}: {problem}")


@dataclass(frozen=True)
class GamePlugin:
    """Where a game's parts live. Module names default to the conventional places; ``policy=None`` means bots
    move at random, ``sampler=None`` that the strong bot plays the heuristic (no search)."""

    name: str
    engine: str = ""  # "module:EngineClass"; default: the target engines registers under ``name``
    render: str = ""  # default bot.render.<name>
    controls: str = ""  # default cogs.games.<name>
    policy: str | None = ""  # default bot.policies.<name>
    sampler: str | None = ""  # default bot.policies.sampling.<name>
    locales: Path = LOCALES

    def __post_init__(self) -> None:
        if self.engine == "":
            object.__setattr__(self, "engine", engine_target(self.name))
        defaults = {"render": "bot.render.{}", "controls": "cogs.games.{}", "policy": "bot.policies.{}",
                    "sampler": "bot.policies.sampling.{}"}
        for field, pattern in defaults.items():
            if getattr(self, field) == "":
                object.__setattr__(self, field, pattern.format(self.name))

    def catalog_file(self, lang: str) -> Path:
        return self.locales / lang / f"{self.name}.json"

    def rules_file(self, lang: str) -> Path:
        return self.locales / "rules" / f"{self.name}.{lang}.md"


# ---- the hooks of each part: no default = required; a default = optional, and what the host does without it ----

@dataclass(frozen=True)
class EngineHooks:
    engine: Engine
    start_events: Callable[[Any], list] | None = None  # public events announcing the deal
    tournament_seats: tuple[int, int] | None = None  # table sizes a tournament uses; None = min..4
    # (options, players of the rematch in seat order, the previous Result) -> the rematch's options; None = the same
    rematch_options: Callable[[Json, list[str], Result], Json] | None = None
    # (final state) -> every seat's cards as its final board counts them (the Reveal's "held at the end");
    # None = each seat's hand as its own view shows it (``bot.reveal.held_at_end``)
    held_at_end: Callable[[Any], dict[str, list[str]]] | None = None
    # (state) -> the turn the game counts at that moment, as its board numbers it (the viewer's turn menu); None =
    # the game counts no turns (the viewer then lists each change of who moves)
    turn_number: Callable[[Any], int] | None = None


@dataclass(frozen=True)
class RenderHooks:
    board: Callable[..., Any]  # (view, names, locale) -> render.Board
    hand: Callable[..., str]  # (view, names, locale) -> text
    event: Callable[..., str | None]  # (event, names, locale) -> a line, or None for nothing to say
    card: Callable[[str], str]  # a card id as the players read it
    image: Callable[..., bytes] | None = None  # (public view, names, locale) -> PNG of the board
    image_alt: Callable[..., str] | None = None  # (public view, names, locale) -> what the picture shows, as text
    # (public view, names, locale) -> PNG of a moment looked back at (the viewer, the animated summary): every
    # seat's public state; None = ``image``
    review_image: Callable[..., bytes] | None = None
    error_field: Callable[..., Any] | None = None  # (key, value, locale) -> readable error field (card marks)
    rules_fields: Callable[..., dict[str, str]] | None = None  # (locale) -> fields the rules text is formatted with
    result_notes: Callable[..., list[str]] | None = None  # (public view, names, locale) -> lines explaining a result
    # (a seat's view) -> that seat's cards as the viewer's hands show them: its secret hand with the cards of it the
    # game shows openly; None = the view's ``hand`` (``bot.review.review_hand``)
    hand_cards: Callable[[Any], list[str]] | None = None
    # (public view, locale) -> each seat's score at that moment with its unit ("3 cards"), what its board counts
    # toward the result (the animated summary's caption); None = the caption shows no score
    caption_scores: Callable[..., dict[str, str]] | None = None


@dataclass(frozen=True)
class ControlsHooks:
    controls: Callable[..., list]  # (table, player, view, selection, locale) -> hand view items
    selection_notes: Callable[..., list[str]]  # (table, player, view, selection, locale) -> lines under the hand
    public_controls: Callable[..., list] | None = None  # (table, locale) -> buttons on the public turn message
    hand_image: Callable[..., bytes | None] | None = None  # (table, player, view, selection, locale) -> PNG
    click_actions: Callable[..., list] | None = None  # (table, player) -> one-click actions the engine does not list
    lobby_options: Callable[[Json], Json] | None = None  # the table options chosen in /play
    # (those that differ from the model's defaults) -> the options the lobby opens with, or BadOptions
    length_lines: Callable[..., list[str]] | None = None  # (options, people, bot levels, locale) -> the lobby's
    # lines on the match's length (the lengths offered with their expected minutes)
    quick_offered: Callable[..., bool] | None = None  # (options, people, bot levels) -> whether the lobby offers a
    # quick-start button (the table is expected to be long)
    quick_options: Callable[[Json], Json] | None = None  # the lobby's options -> the quick
    # game's (what the quick-start button deals)
    length_label: Callable[..., str | None] | None = None  # (options, people, bot levels, locale) -> the length
    # these options deal with its expected minutes, for the Start and quick-start buttons side by side; None = the
    # buttons say only Start and the quick game
    code_action: Callable[..., Any] | None = None  # (table, player, code) -> the action a button code that is no
    # index names (an action carried whole, e.g. Pile up's every minus card to hand out), or None
    selection_model: type | None = None  # the hand view's selection as a typed model (a ``cogs.selection.Selection``
    # subclass: read from the select values, carried in a custom_id); None = ``cogs.selection.Picks`` (chosen cards)


@dataclass(frozen=True)
class PolicyHooks:
    choose: Callable[..., Any]  # (view, legal, rng) -> one of legal
    easy_moves: Callable[[list], list] | None = None  # legal -> the moves an easy bot may pick at random; None = all
    easy_score: Callable[..., float] | None = None  # (view, action) -> higher is better: an easy bot's random move
    # comes from the better half by it; None = from all of them


@dataclass(frozen=True)
class SamplerHooks:
    sample: Callable[[View, random.Random], Any]  # (view, rng) -> a full state consistent with the view
    ROLLOUT_STEPS: int = MAX_ROLLOUT_STEPS  # playout steps before ``evaluate`` scores an unfinished game
    SEARCH_CANDIDATES: int = 6  # actions searched per decision: the normal choice and the next best by ``prior``
    SWITCH_Z: float = 1.0  # standard errors by which another candidate must beat the normal choice to be played
    MAX_PLAYOUTS: int | None = None  # the search stops here even with time left (None: at the time budget only)
    SEARCHED: bool = True  # False: the strong bot plays the heuristic (where searching measured no better); the
    # determiniser still serves bench.bots' oracle and seer
    evaluate: Callable[[Any, str], float] | None = None  # (state, me) -> score of an unfinished playout
    rollout_view: Callable[[Any, str], PlayoutView] | None = None  # (state, player) -> the few fields of the view
    # the heuristic reads, cheaper, for playouts; None = the engine's ``view``
    rollout_choose: Callable[..., Any] | None = None  # (state, player, legal, rng) -> a cheaper playout move
    rollout_done: Callable[[Any], bool] | None = None  # a point where the playout stops and ``evaluate`` scores
    rollout_legal: Callable[[Any, str], list] | None = None  # (state, player to act) -> the legal actions, cheaper;
    # None = the engine's ``legal_actions``
    rollout_apply: Callable[[Any, str, Any], Any] | None = None  # (state, player, an action rollout_legal listed)
    # -> apply it in place without checking it again; None = the engine's ``_apply``
    prior: Callable[[View, Any], float] | None = None  # (view, action) -> order of search candidates
    # (state, rng) -> reorder the secret draw pile(s) in place: bench.bots' ``seer`` (which is handed the true state)
    # uses it so that it knows the hidden hands but not the draws to come; no bot calls it
    shuffle_pile: Callable[[Any, random.Random], None] | None = None


def _hooks(kind: type, source: Any, game: str, part: str) -> Any:
    """The ``kind`` hooks read from ``source`` (a module or an engine): required ones must be there and callable
    (or, for non-callable hooks, not None); optional ones fall back to the field's default."""
    values = {}
    for field in dataclasses.fields(kind):
        if field.name == "engine":
            values["engine"] = source
            continue
        required = field.default is dataclasses.MISSING
        value = getattr(source, field.name, None)
        if value is None and required:
            raise PluginError(game, part, f"required hook {field.name!r} is missing")
        if value is None:
            continue
        if not _well_formed(field.name, value):
            raise PluginError(game, part, f"hook {field.name!r} is malformed: {value!r}")
        values[field.name] = tuple(value) if field.name == "tournament_seats" else value
    return kind(**values)


def _well_formed(name: str, value: Any) -> bool:
    """A hook is a callable, except the numbers (``ROLLOUT_STEPS``, ``SEARCH_CANDIDATES``, ``MAX_PLAYOUTS``,
    ``SWITCH_Z``, ``tournament_seats``) and the flag ``SEARCHED``."""
    if name in ("ROLLOUT_STEPS", "SEARCH_CANDIDATES", "MAX_PLAYOUTS"):
        return isinstance(value, int) and value > 0
    if name == "SWITCH_Z":
        return isinstance(value, (int, float)) and value >= 0
    if name == "SEARCHED":
        return isinstance(value, bool)
    if name == "tournament_seats":
        return isinstance(value, (tuple, list)) and len(value) == 2 and all(isinstance(v, int) for v in value)
    return callable(value)


# ---- the registry ------------------------------------------------------------------------------------------------

# The games are listed once, in ``engines`` (which cannot import ``bot``); each has its parts in the conventional
# places, so its plug-in is made from its name. Their order is that of the commands' choices and /play subcommands.
PLUGINS: dict[str, GamePlugin] = {name: GamePlugin(name) for name in GAMES}


def games() -> tuple[str, ...]:
    """The registered games, in registration order."""
    return tuple(PLUGINS)


def plugin(game: str) -> GamePlugin:
    try:
        return PLUGINS[game]
    except KeyError:
        raise PluginError(game, "plug-in", "no such game is registered (bot/games.py)") from None


def _module(game: str, part: str, name: str) -> Any:
    try:
        return import_module(name)
    except Exception as error:  # the module itself, or something it imports, does not load
        raise PluginError(game, part, f"module {name} does not import: {error!r}") from error


LOADED: dict[tuple[str, str], Any] = {}
"""(part, game) -> the part's hooks once loaded; a test may put its own hooks here (``monkeypatch.setitem``)."""


def _load(part: str, game: str, kind: type, name: str | None) -> Any:
    """The ``kind`` hooks of the part (module ``name``; the engine: the registered engine), loaded once; None for
    an optional part the plug-in does not declare."""
    key = (part, game)
    if key not in LOADED:
        if name is None:
            LOADED[key] = None
        else:
            source = get_engine(game) if part == "engine" else _module(game, part, name)
            LOADED[key] = _hooks(kind, source, game, part)
    return LOADED[key]


def engine_hooks(game: str) -> EngineHooks:
    return _load("engine", game, EngineHooks, plugin(game).engine)


def render_hooks(game: str) -> RenderHooks:
    return _load("render", game, RenderHooks, plugin(game).render)


def controls_hooks(game: str) -> ControlsHooks:
    return _load("controls", game, ControlsHooks, plugin(game).controls)


def policy_hooks(game: str) -> PolicyHooks | None:
    """The bot's hooks (heuristic, what the easy level may pick), or None when the game declares none."""
    return _load("policy", game, PolicyHooks, plugin(game).policy)


def policy(game: str) -> Callable[..., Any] | None:
    """The game's heuristic ``choose``, or None when it declares none (bots then move at random)."""
    hooks = policy_hooks(game)
    return None if hooks is None else hooks.choose


def sampler_hooks(game: str) -> SamplerHooks | None:
    """The strong bot's determiniser and playout hooks, or None when the game declares none."""
    return _load("sampler", game, SamplerHooks, plugin(game).sampler)


_LOADERS = (engine_hooks, render_hooks, controls_hooks, policy, sampler_hooks)


def catalog_files(lang: str) -> list[Path]:
    """The catalogs of games kept outside ``bot/locales`` (those inside are read with the rest of the folder)."""
    return [path for p in PLUGINS.values() if p.locales != LOCALES and (path := p.catalog_file(lang)).is_file()]


def check_plugin(game: str) -> None:
    """Load every part of ``game``; a missing or malformed part raises ``PluginError``."""
    declared = plugin(game)
    module_name, _, cls_name = declared.engine.partition(":")
    engine_cls = getattr(_module(game, "engine", module_name), cls_name, None)
    if not isinstance(engine_cls, type) or not issubclass(engine_cls, Engine):
        raise PluginError(game, "engine", f"{declared.engine} is not an engine class")
    try:
        registered_cls = type(get_engine(game))
    except EngineError as error:
        raise PluginError(game, "engine", "engines has no engine registered under this name") from error
    if registered_cls is not engine_cls:
        raise PluginError(game, "engine", f"engines registers {registered_cls.__name__}, "
                                          f"the plug-in declares {declared.engine}")
    for lang in CATALOG_LANGUAGES:
        for kind, path in (("catalog", declared.catalog_file(lang)), ("rules", declared.rules_file(lang))):
            if not path.is_file():
                raise PluginError(game, f"{kind} ({lang})", f"file {path.name} is missing in {path.parent}")
    for load in _LOADERS:
        load(game)


def check_plugins() -> None:
    """Every registered game, and every engine has a plug-in; run once at start-up."""
    for game in GAMES:
        if game not in PLUGINS:
            raise PluginError(game, "plug-in", "the engine is registered but the game has no plug-in (bot/games.py)")
    for game in PLUGINS:
        check_plugin(game)


def forget_loaded() -> None:
    """Drop every loaded part and the merged catalogs (the registry changed: a game was added or swapped)."""
    from .i18n import catalog

    LOADED.clear()
    get_engine.cache_clear()
    catalog.cache_clear()


def register(declared: GamePlugin) -> Callable[[], None]:
    """Add a game (its engine too, when engines does not know it yet); returns the function that removes it
    again (a test's sixth game)."""
    if declared.name in PLUGINS:
        raise PluginError(declared.name, "plug-in", "registered twice")
    forget_engine = register_engine(declared.name, declared.engine)
    PLUGINS[declared.name] = declared
    forget_loaded()

    def unregister() -> None:
        PLUGINS.pop(declared.name, None)
        forget_engine()
        forget_loaded()

    return unregister


def registered(declared: GamePlugin) -> Iterator[GamePlugin]:
    """A generator for a fixture: the game is registered while it is suspended."""
    unregister = register(declared)
    try:
        yield declared
    finally:
        unregister()
