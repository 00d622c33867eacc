"""The engine contract every game follows (see docs/engine-contract.md, "Engine contract").

A game is a state model, a discriminated union of actions, a pure transition and a
per-player view. Subclasses implement the ``_``-prefixed hooks; the public methods here
add what is the same for every game: turn checks, copying (so ``apply`` never mutates
its input; ``apply_in_place`` is for the one owner of a state), JSON dump/load and action parsing.
"""
from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any, ClassVar, Generic, TypeVar

from pydantic import (
    BaseModel,
    ConfigDict,
    SerializerFunctionWrapHandler,
    TypeAdapter,
    ValidationError,
    model_serializer,
    model_validator,
)

from .errors import BadAction, BadOptions, IllegalAction, NotYourTurn
from .json_value import Json
from .rng import Rng


class Action(BaseModel):
    """Base of every action; each game's actions add a ``type: Literal[...]`` field."""

    model_config = ConfigDict(frozen=True, extra="forbid")


class Event(BaseModel):
    """Something that happened. ``visible_to=None`` is public; otherwise only those players see it.

    ``type`` is stable (renderers key their text on ``<game>.<type>``); ``data`` is JSON-safe.
    """

    type: str
    visible_to: list[str] | None = None
    data: dict[str, Any] = {}  # each game's shapes: bot/render/*_event_shapes.py (not JsonValue: it would validate)


class Result(BaseModel):
    ranking: list[list[str]]  # places in order; players sharing a place are tied
    scores: dict[str, int | float] = {}


class Shape(BaseModel):
    """A frozen part of a view whose JSON shape leaves out the keys named in ``omit_when_none`` while they are
    ``None`` (and reads them back as ``None`` when absent) — the shape the untyped views had."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    omit_when_none: ClassVar[frozenset[str]] = frozenset()

    @model_validator(mode="before")
    @classmethod
    def _absent_is_none(cls, data: Any) -> Any:
        if isinstance(data, dict) and cls.omit_when_none:
            data = {**{key: None for key in cls.omit_when_none}, **data}
        return data

    @model_serializer(mode="wrap")
    def _omit_absent(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        data: dict[str, Any] = handler(self)
        for key in self.omit_when_none:
            if key in data and data[key] is None:
                del data[key]
        return data


class View(Shape):
    """What one viewer (a seat, or ``None`` for a spectator) may see; each game subclasses it in its ``view.py``.

    Frozen and without defaults: every field is given by the game's ``build_view``. ``viewer`` and ``hand`` are
    ``None`` for a spectator; ``hand`` is the viewer's secret cards (the hidden-information checks read it);
    ``over`` is true once the game ended, and ``result`` is then the engine's result.

    ``model_dump`` / ``model_dump_json`` give the view's JSON shape (see ``Shape``: a spectator's view has no
    ``hand`` key). Views pickle, so they cross process boundaries as they are; the bots read the typed
    view too (``bot/policies/seat_view.py``).
    """

    omit_when_none: ClassVar[frozenset[str]] = frozenset({"viewer", "hand"})

    game: str
    players: list[str]
    to_act: list[str]
    viewer: str | None
    hand: list[str] | None
    over: bool
    result: Result | None


S = TypeVar("S", bound="GameState")
A = TypeVar("A", bound=Action)
O = TypeVar("O", bound=BaseModel)  # noqa: E741  # the options type, named like S, A and V
V = TypeVar("V", bound=View)


class GameState(BaseModel):
    """Fields every game state has. ``rng`` is secret: never put it in a view."""

    game: str
    players: list[str]
    seed: int
    options: dict[str, Any] = {}  # the options model's dump, kept unvalidated (a state's digest is of its dump)
    rng: Rng


class Engine(ABC, Generic[S, A, O, V]):
    """Generic over the game's state, action (union), options and view types, so ``engine.view(...)`` is typed
    per game (``class AkumaEngine(Engine[AkumaState, AkumaAction, AkumaOptions, AkumaView])``)."""

    name: ClassVar[str]
    # The rules' version: bump it with any change that makes the same seed, options and actions play differently
    # (a stored game records the version that played it; a replay refuses a game of another version).
    version: ClassVar[int]
    # Types of private events the rules keep secret during play that the reveal at the end may show to everyone
    # (Rocca's Queen passes, Akuma's steals); a player's own draws are not among them.
    secret_events: ClassVar[frozenset[str]] = frozenset()
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    state_model: ClassVar[type[GameState]]
    action_model: ClassVar[Any]  # the Annotated discriminated union of this game's actions
    options_model: ClassVar[type[BaseModel]]
    # Earlier versions whose stored games this one still replays, once ``stored_options`` has read their options
    # (an options change that gave stored options another meaning, the rules being the same).
    replays_versions: ClassVar[frozenset[int]] = frozenset()

    def __init__(self) -> None:
        self._action_adapter: TypeAdapter[Any] = TypeAdapter(self.action_model)

    # ---- what subclasses implement -------------------------------------------------
    @abstractmethod
    def _new_game(self, players: list[str], rng: Rng, options: BaseModel, seed: int) -> GameState: ...

    @abstractmethod
    def to_act(self, state: Any) -> list[str]: ...

    @abstractmethod
    def legal_actions(self, state: Any, player: str) -> list[Action]: ...

    @abstractmethod
    def _apply(self, state: Any, player: str, action: Any) -> list[Event]:
        """Mutate ``state`` (a private copy, or the owner's own state: ``apply_in_place``) or raise IllegalAction;
        return events."""

    @abstractmethod
    def view(self, state: S, viewer: str | None) -> V: ...

    @abstractmethod
    def result(self, state: Any) -> Result | None: ...

    # ---- the same for every game ------------------------------------------------
    def parse_options(self, options: Json | None) -> BaseModel:
        try:
            return self.options_model.model_validate(options or {})
        except ValidationError as exc:
            err = exc.errors()[0]
            raise BadOptions(option=".".join(str(p) for p in err["loc"]) or "?", reason=err["msg"]) from None

    def new_game(self, players: list[str], seed: int, options: Json | None = None) -> Any:
        if len(set(players)) != len(players):
            raise BadOptions(option="players", reason="duplicate player")
        if not self.min_players <= len(players) <= self.max_players:
            raise BadOptions(
                "bad_player_count", count=len(players), min=self.min_players, max=self.max_players
            )
        opts = self.parse_options(options)
        return self._new_game(list(players), Rng.from_seed(seed), opts, seed)

    def stored_options(self, options: Json, version: int) -> Json:
        """The options of a game that ``version`` of this engine dealt, as this version reads them."""
        return options

    def length_units(self, options: Json, players: int) -> int:
        """How many of the units a game's length is measured in (``bench/lengths.py``) a table with these options
        plays: one whole game, unless the game says otherwise (Twin Pyramid: its deals)."""
        return 1

    def out_of_turn_actions(self, state: Any, player: str) -> list[Action]:
        """Actions a seated player may take while not named by ``to_act`` (Rocca's Bon can be called by anyone
        at any time). They are kept out of ``to_act`` because listing who could take them would reveal who holds
        the cards for them. Most games have none."""
        return []

    def _checked(self, state: Any, player: str, action: Action | Json) -> Action:
        """The action as a model, once ``player`` may take an action now (else BadAction / NotYourTurn; nothing
        changes)."""
        if isinstance(action, dict):
            action = self.parse_action(action)
        if player not in self.to_act(state) and not (
                player in state.players and action in self.out_of_turn_actions(state, player)):
            if player not in state.players:
                raise NotYourTurn("not_seated")
            if self.result(state) is not None:
                raise NotYourTurn("game_over")
            raise NotYourTurn()
        return action

    def apply(self, state: Any, player: str, action: Action | Json) -> tuple[Any, list[Event]]:
        action = self._checked(state, player, action)
        # A private copy for the transition: a dump/validate round trip is ~4x faster than deepcopy here.
        new_state = type(state).model_validate(state.model_dump())
        events = self._apply(new_state, player, action)
        return new_state, events

    def apply_in_place(self, state: Any, player: str, action: Action | Json) -> list[Event]:
        """``apply`` without its private copy: ``state`` itself becomes the state after the action. Only for the
        state's one owner (the game service's table), on two conditions: nothing else holds ``state`` or a part
        of it (what this returns, and views, results and legal actions built from it, share no mutable object
        with it: ``tests/engines/conformance.py`` checks), and on any error the owner discards ``state`` (a
        transition may refuse after changing part of it) and takes back the state it stored last."""
        return self._apply(state, player, self._checked(state, player, action))

    def dump(self, state: Any) -> str:
        return state.model_dump_json()

    def load(self, text: str | bytes) -> Any:
        return self.state_model.model_validate_json(text)

    def parse_action(self, data: Json) -> Action:
        try:
            return self._action_adapter.validate_python(data)
        except ValidationError:
            raise BadAction() from None

    def is_legal(self, state: Any, player: str, action: Action) -> bool:
        """True when ``apply`` would accept the action (used by UIs; never mutates)."""
        try:
            self.apply(state, player, action)
        except (IllegalAction, NotYourTurn):
            return False
        return True
