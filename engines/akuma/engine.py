"""The Akuma Trick engine (rules: docs/rules/akuma.md)."""
from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import Any, ClassVar

from pydantic import BaseModel

from engines import knowledge
from engines.base import Action, Engine, Event, Result
from engines.errors import IllegalAction
from engines.rng import Rng
from engines.seating import choose_start_player
from engines.streams import split, ticket

from . import rules
from .actions import AkumaAction, Play, Release, Steal, StopStealing
from .cards import CARDS_PER_PLAYER, colours_for, deck_for, hand_score, sort_cards
from .state import AkumaOptions, AkumaState, RowPlay
from .view import AkumaView, build_view


@lru_cache(maxsize=8192)
def _action(kind: type[Play | Release | Steal | StopStealing], *args: str) -> Action:
    """One shared (frozen) action per distinct move: the strong bot's playouts list millions of legal actions,
    and building and validating each again was about a twentieth of their time."""
    if kind is Steal:
        return Steal(victim=args[0])
    if kind is StopStealing:
        return StopStealing()
    assert kind is Play or kind is Release
    return kind(cards=list(args))


class AkumaEngine(Engine[AkumaState, AkumaAction, AkumaOptions, AkumaView]):
    name = "akuma"
    version = 1  # bump when a rules change plays stored games differently
    secret_events = frozenset({"stolen_card"})
    min_players = 3
    max_players = 6
    state_model = AkumaState
    action_model = AkumaAction
    options_model = AkumaOptions

    # ---- setup ---------------------------------------------------------------------
    def _new_game(self, players: list[str], rng: Rng, options: BaseModel, seed: int) -> AkumaState:
        assert isinstance(options, AkumaOptions)
        start = choose_start_player(players, rng, options.start_player)
        colours = colours_for(len(players))
        deck = deck_for(colours)
        rng.shuffle(deck)
        hands = {
            p: sort_cards(deck[i * CARDS_PER_PLAYER:(i + 1) * CARDS_PER_PLAYER]) for i, p in enumerate(players)
        }
        # Decision [D8]: with ``streams: per_seat`` every seat's steals draw from its own RNG, split off at the deal
        own = {p: split(rng) for p in players} if options.per_seat else None
        return AkumaState(
            players=players, seed=seed, options=options.model_dump(), rng=rng, colours=colours,
            hands=hands, current=start, trick_starter=start, start_player=start, own=own,
        )

    def start_events(self, state: AkumaState) -> list[Event]:
        """The public events announcing a new game (``new_game`` itself returns only the state)."""
        return [
            Event(type="game_started", data={
                "start_player": state.start_player, "colours": list(state.colours), "players": list(state.players),
            }),
            Event(type="trick_started", data={"first_player": state.trick_starter, "direction": state.direction}),
        ]

    # ---- public helpers (UIs use them too) -----------------------------------------------
    @staticmethod
    def last_rank(state: AkumaState) -> int | None:
        """Rank of the row's last card (a set's rank, a run's highest), None when the row is empty."""
        return rules.top_rank(state.row[-1].cards) if state.row else None

    @staticmethod
    def row_cards(state: AkumaState) -> list[str]:
        return [c for play in state.row for c in play.cards]

    def release_number(self, state: AkumaState) -> int:
        """What an Akuma release costs now (0 while the row is empty, when no release is allowed)."""
        return rules.release_number(self.row_cards(state))

    def forced_release(self, state: AkumaState, player: str) -> list[str] | None:
        """The only discard ``player`` may release with now (all non-zero cards when they fall short), else None."""
        if not state.row:
            return None
        return rules.forced_discard(state.hands[player], self.release_number(state))

    def check_release(self, state: AkumaState, player: str, cards: list[str]) -> list[str]:
        """The proposed discard, sorted low to high, if ``player`` may release with it now; else IllegalAction."""
        if state.steals_left:
            raise IllegalAction("akuma.steal_pending", steals_left=state.steals_left)
        if not state.row:
            raise IllegalAction("akuma.release_empty_row")
        self._check_own_cards(state, player, cards)
        return rules.check_discard(state.hands[player], cards, self.release_number(state))

    @staticmethod
    def _check_own_cards(state: AkumaState, player: str, cards: list[str]) -> None:
        if len(set(cards)) != len(cards):
            dup = next(c for c in cards if cards.count(c) > 1)
            raise IllegalAction("akuma.duplicate_card", card=dup)
        hand = state.hands[player]
        for c in cards:
            if c not in hand:
                raise IllegalAction("akuma.not_in_hand", card=c)

    @staticmethod
    def _victims(state: AkumaState, thief: str) -> list[str]:
        """Players a steal may target: any other player holding 2+ cards (a steal never empties a hand)."""
        return [p for p in state.players if p != thief and len(state.hands[p]) >= 2]

    def _neighbour(self, state: AkumaState, player: str) -> str:
        step = 1 if state.direction == "cw" else -1
        i = state.players.index(player)
        return state.players[(i + step) % len(state.players)]

    # ---- contract ----------------------------------------------------------------------
    def to_act(self, state: AkumaState) -> list[str]:
        return [] if state.over else [state.current]

    def legal_actions(self, state: AkumaState, player: str) -> list[Action]:
        if player not in self.to_act(state):
            return []
        if state.steals_left:
            return [*(_action(Steal, v) for v in self._victims(state, player)), _action(StopStealing)]
        hand = state.hands[player]
        actions: list[Action] = [
            _action(Play, *cs) for cs in rules.legal_plays(hand, self.last_rank(state), state.lock)
        ]
        if state.row:
            actions.extend(_action(Release, *cs) for cs in rules.all_discards(hand, self.release_number(state)))
        return actions

    def _apply(self, state: AkumaState, player: str, action: Any) -> list[Event]:
        handler = self._HANDLERS.get(type(action))
        if handler is None:
            raise IllegalAction("akuma.unknown_action")
        return handler(self, state, player, action)

    # ---- transitions ---------------------------------------------------------------------
    def _play(self, state: AkumaState, player: str, action: Play) -> list[Event]:
        cards = action.cards
        if state.steals_left:
            raise IllegalAction("akuma.steal_pending", steals_left=state.steals_left)
        self._check_own_cards(state, player, cards)
        cards = sort_cards(cards)
        kind = rules.check_play(cards, self.last_rank(state), state.lock)
        hand = state.hands[player]
        for c in cards:
            hand.remove(c)
            knowledge.shown(state.known, state.players, player, c)
        state.row.append(RowPlay(player=player, cards=cards, kind=kind))
        # Lock and reverse take effect at once; steals are decided next; then the turn passes on.
        reversed_ = rules.reverses(cards)
        if reversed_:
            state.direction = "ccw" if state.direction == "cw" else "cw"
        new_lock = rules.lock_of(cards)
        if new_lock is not None:
            state.lock = new_lock
        steals = rules.steal_count(cards)
        events = [Event(type="played", data={
            "player": player, "cards": cards, "kind": kind, "rank": rules.play_rank(cards),
            "reversed": reversed_, "direction": state.direction, "lock": new_lock, "steals": steals,
            "hand_size": len(hand),
        })]
        if not hand:
            return events + self._finish(state)
        if steals and self._victims(state, player):
            state.steals_left = steals
        else:
            self._pass_turn(state, player)
        return events

    def _steal(self, state: AkumaState, player: str, action: Steal) -> list[Event]:
        victim = action.victim
        if not state.steals_left:
            raise IllegalAction("akuma.no_steal_pending")
        if victim == player or victim not in state.players:
            raise IllegalAction("akuma.bad_victim", victim=victim)
        if len(state.hands[victim]) < 2:
            raise IllegalAction("akuma.victim_too_few_cards", victim=victim, hand_size=len(state.hands[victim]))
        victim_hand = state.hands[victim]
        rng = state.rng if state.own is None else ticket(state.own[player])
        card = victim_hand.pop(rng.randbelow(len(victim_hand)))
        state.hands[player] = sort_cards([*state.hands[player], card])
        knowledge.moved(state.known, state.players, victim, player, card)
        state.steals_left -= 1
        events = [
            Event(type="steal", data={"thief": player, "victim": victim, "steals_left": state.steals_left}),
            Event(type="stolen_card", visible_to=[player, victim],
                  data={"thief": player, "victim": victim, "card": card}),
        ]
        if state.steals_left == 0 or not self._victims(state, player):
            state.steals_left = 0
            self._pass_turn(state, player)
        return events

    def _stop_stealing(self, state: AkumaState, player: str, action: StopStealing) -> list[Event]:
        if not state.steals_left:
            raise IllegalAction("akuma.no_steal_pending")
        state.steals_left = 0
        self._pass_turn(state, player)
        return [Event(type="steals_stopped", data={"player": player})]

    def _release(self, state: AkumaState, player: str, action: Release) -> list[Event]:
        discard = self.check_release(state, player, action.cards)
        number = self.release_number(state)
        hand = state.hands[player]
        for c in discard:
            hand.remove(c)
            knowledge.shown(state.known, state.players, player, c)
        row = self.row_cards(state)
        state.discarded.extend([*row, *discard])
        state.row = []
        state.lock = None
        events = [Event(type="released", data={
            "player": player, "cards": discard, "release_number": number, "sum": sum(int(c[1:]) for c in discard),
            "row": row, "hand_size": len(hand),
        })]
        if not hand:
            return events + self._finish(state)
        state.current = state.trick_starter = self._neighbour(state, player)
        events.append(Event(type="trick_started", data={"first_player": state.current, "direction": state.direction}))
        return events

    def _pass_turn(self, state: AkumaState, player: str) -> None:
        state.current = self._neighbour(state, player)

    def _finish(self, state: AkumaState) -> list[Event]:
        state.over = True
        state.steals_left = 0
        res = self.result(state)
        assert res is not None
        return [Event(type="game_over", data={
            "ranking": res.ranking, "scores": res.scores,
            "hands": {p: list(h) for p, h in state.hands.items()},
        })]

    # ---- views and result ----------------------------------------------------------------
    def view(self, state: AkumaState, viewer: str | None) -> AkumaView:
        return build_view(self, state, viewer)

    _HANDLERS: ClassVar[dict[type[Action], Callable[..., list[Event]]]] = {
        Play: _play, Release: _release, Steal: _steal, StopStealing: _stop_stealing,
    }

    def held_at_end(self, state: AkumaState) -> dict[str, list[str]]:
        """Every seat's cards as the result counts them (its "Cards in hand"); the final view shows no hand."""
        return {p: list(state.hands[p]) for p in state.players}

    def result(self, state: AkumaState) -> Result | None:
        if not state.over:
            return None
        scores = {p: hand_score(state.hands[p]) for p in state.players}
        emptied = [p for p in state.players if not state.hands[p]]
        others = sorted(
            (p for p in state.players if state.hands[p]), key=lambda p: (scores[p], len(state.hands[p]))
        )
        ranking: list[list[str]] = []
        prev_key: tuple[int, int] | None = None
        for p in others:
            key = (scores[p], len(state.hands[p]))
            if key == prev_key:
                ranking[-1].append(p)
            else:
                ranking.append([p])
            prev_key = key
        if emptied:
            ranking.append(emptied)
        return Result(ranking=ranking, scores=scores)
