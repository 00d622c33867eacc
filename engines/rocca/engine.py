"""The Rocca Card Tower engine (rules: docs/rules/rocca.md)."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

from pydantic import BaseModel

from engines import knowledge
from engines.base import Action, Engine, Event, Result
from engines.errors import IllegalAction
from engines.json_value import Json
from engines.rng import Rng
from engines.seating import choose_start_player
from engines.streams import cut

from . import cards as C
from . import rules as M
from .actions import Accept, Bon, DeclareOne, Draw, Give, Place, RoccaAction
from .state import DECLINES_KEPT, Declined, Pending, RoccaOptions, RoccaState
from .tower import TowerIndex, card_label, put, start_tower
from .view import RoccaView, build_view

DRAW_PER_CARD = {"J": 1, "K": 2}


class RoccaEngine(Engine[RoccaState, RoccaAction, RoccaOptions, RoccaView]):
    name = "rocca"
    version = 1  # bump when a rules change plays stored games differently
    secret_events = frozenset({"card_passed"})
    min_players = 2
    max_players = 6
    state_model = RoccaState
    action_model = RoccaAction
    options_model = RoccaOptions

    # ---- setup ---------------------------------------------------------------------------
    def _new_game(self, players: list[str], rng: Rng, options: BaseModel, seed: int) -> RoccaState:
        assert isinstance(options, RoccaOptions)
        start = choose_start_player(players, rng, options.start_player)
        deck = C.full_deck()
        rng.shuffle(deck)
        hands = {p: C.sort_cards(deck.pop() for _ in range(C.CARDS_PER_PLAYER)) for p in players}
        while True:
            start_card = deck.pop()
            if C.can_start(start_card):
                break
            deck.append(start_card)  # shuffled back, another one turned up
            rng.shuffle(deck)
        tower, columns = start_tower(start_card)
        own = None
        if options.per_seat:  # Decision [D9]: the pile dealt out as every seat's own, the top card to the first seat
            own = {p: pile[::-1] for p, pile in cut(deck[::-1], players).items()}
            deck = []
        return RoccaState(players=players, seed=seed, options=options.model_dump(), rng=rng, hands=hands,
                          deck=deck, tower=tower, columns=columns, turn=start, start_player=start, own=own)

    def start_events(self, state: RoccaState) -> list[Event]:
        """The public event announcing a new game (``new_game`` itself returns only the state)."""
        return [Event(type="game_started", data={
            "players": list(state.players), "start_player": state.start_player,
            "start_card": state.tower[0].card, "bon": bool(state.options.get("bon")),
        })]

    def rematch_options(self, options: Json, players: list[str], previous: Result) -> Json:
        """The options of a rematch at the same table: the same, except that the worst player of the previous
        game starts (Decision [D8], ``rules.rematch_start_player``), as a seat index of ``players``."""
        return {**options, "start_player": players.index(M.rematch_start_player(players, previous.ranking))}

    # ---- who acts, what they may do -------------------------------------------------------------
    def to_act(self, state: RoccaState) -> list[str]:
        if state.over:
            return []
        if state.pending is not None:
            return [state.pending.player]
        return [state.turn]

    def out_of_turn_actions(self, state: RoccaState, player: str) -> list[Action]:
        """Bon (option ``bon``): any seated player other than the one deciding may call it when it fits.

        Kept out of ``to_act`` on purpose: listing who could call Bon would tell everyone who holds the cards.
        """
        if state.over or player in self.to_act(state) or player not in state.hands:
            return []
        return list(M.bon_options(state, TowerIndex(state), player))

    def legal_actions(self, state: RoccaState, player: str) -> list[Action]:
        if player not in self.to_act(state):
            return self.out_of_turn_actions(state, player)
        ix = TowerIndex(state)
        pending = state.pending
        out: list[Action] = []
        if self._may_declare_one(state, player):
            out.append(DeclareOne())
        if pending is None:
            if player == state.turn:
                out += M.turn_placements(state, ix, player)
                if state.pile_of(player):
                    out.append(Draw())
            out += M.bon_options(state, ix, player)
        elif pending.kind == "q_give":
            receivers = [pending.partner] if pending.partner else self._others(state, player)
            out += [Give(card=c, to=r) for c in state.hands[player] for r in receivers]
        else:
            out.append(Accept())
            out += M.counter_placements(state, ix, pending)
        return out

    # ---- transitions ------------------------------------------------------------------------------
    def _apply(self, state: RoccaState, player: str, action: Any) -> list[Event]:
        events: list[Event] = []
        if not isinstance(action, (DeclareOne, Bon)):
            self._check_turn_action(state, player, action)
        handler = self._HANDLERS.get(type(action))
        if handler is None:
            raise IllegalAction("rocca.not_now", action=getattr(action, "type", "?"))
        handler(self, state, player, action, events)
        return events

    @staticmethod
    def _check_turn_action(state: RoccaState, player: str, action: Action) -> None:
        """What every action but DeclareOne and Bon needs: the turn player's turn, or the pending decision's."""
        if state.pending is None:
            if player != state.turn:
                raise IllegalAction("rocca.only_bon_out_of_turn")
        elif state.pending.kind == "q_give" and not isinstance(action, Give):
            raise IllegalAction("rocca.give_a_card", count=state.pending.count - state.pending.given)

    def _on_declare_one(self, state: RoccaState, player: str, action: DeclareOne, events: list[Event]) -> None:
        if not self._may_declare_one(state, player):
            raise IllegalAction("rocca.cannot_declare_one", cards=len(state.hands[player]))
        state.one_declared.append(player)
        events.append(Event(type="one_declared", data={"player": player}))

    def _on_bon(self, state: RoccaState, player: str, action: Bon, events: list[Event]) -> None:
        if action not in M.bon_options(state, TowerIndex(state), player):
            raise IllegalAction("rocca.bad_bon", on=action.on)
        self._bon(state, player, action, events)

    def _on_place(self, state: RoccaState, player: str, action: Place, events: list[Event]) -> None:
        ix = TowerIndex(state)
        if state.pending is None:
            M.check_turn_place(state, ix, player, action)
        else:
            M.check_counter_place(state, ix, state.pending, action)
        self._place(state, ix, player, action, events)

    def _on_draw(self, state: RoccaState, player: str, action: Draw, events: list[Event]) -> None:
        if state.pending is not None:
            raise IllegalAction("rocca.not_now", action=action.type)
        if not state.pile_of(player):
            raise IllegalAction("rocca.pile_empty") if state.own is None else IllegalAction("rocca.own_pile_empty")
        self._declined(state, player, Declined(tower=len(state.tower)))
        self._draw(state, player, 1, events)
        self._start_turn(state, self._next(state, player), events)

    def _on_accept(self, state: RoccaState, player: str, action: Accept, events: list[Event]) -> None:
        if state.pending is None:
            raise IllegalAction("rocca.not_now", action=action.type)
        self._accept(state, player, state.pending, events)

    def _on_give(self, state: RoccaState, player: str, action: Give, events: list[Event]) -> None:
        if state.pending is None or state.pending.kind != "q_give":
            raise IllegalAction("rocca.not_now", action=action.type)
        self._give(state, player, state.pending, action, events)

    def _place(self, state: RoccaState, ix: TowerIndex, player: str, action: Place, events: list[Event]) -> None:
        base = ix.card(action.on)
        assert base is not None
        state.hands[player].remove(action.card)
        knowledge.shown(state.known, state.players, player, action.card)
        tc = put(state, player, action.card, base, action.side, action.suit, action.bend)
        events.append(Event(type="placed", data={
            "player": player, "card": action.card, "on": action.on, "side": action.side,
            "label": card_label(tc), "on_label": card_label(base), "suit": action.suit, "bend": action.bend,
            "cards_left": len(state.hands[player]),
        }))
        if action.bend is not None:
            events.append(Event(type="tower_bent", data={"player": player, "joker": action.card,
                                                         "suit": action.suit, "bend": action.bend}))
        if self._after_hand_shrank(state, player, events):
            return
        pending = state.pending
        if pending is not None and pending.kind == "draw_chain":
            per = DRAW_PER_CARD[pending.rank]
            self._chain(state, player, pending.rank, pending.count + per, action.card, events)
        elif pending is not None and pending.kind == "q_answer":
            state.pending = Pending(kind="q_give", player=player, rank="Q", count=pending.count,
                                    card=action.card, partner=pending.partner)
            events.append(Event(type="q_countered", data={"player": player, "to": pending.partner,
                                                          "count": pending.count}))
        else:
            self._effect(state, player, C.rank(action.card), action.card, events)

    def _bon(self, state: RoccaState, player: str, action: Bon, events: list[Event]) -> None:
        labels = []
        for card, on in M.bon_placements(action):
            base = next(tc for tc in state.tower if tc.card == on)
            state.hands[player].remove(card)
            knowledge.shown(state.known, state.players, player, card)
            labels.append(card_label(put(state, player, card, base, M.bon_side(C.rank(card) or ""))))
        interrupted = state.turn
        events.append(Event(type="bon", data={"player": player, "on": action.on, "cards": list(action.cards),
                                              "labels": labels, "interrupted": interrupted,
                                              "cards_left": len(state.hands[player])}))
        if self._after_hand_shrank(state, player, events, one_needed=False):
            return
        self._effect(state, player, C.rank(action.cards[-1]), action.cards[-1], events)

    def _effect(self, state: RoccaState, player: str, rank: str | None, card: str, events: list[Event]) -> None:
        """The placed card's one special effect, then whoever plays next."""
        if rank == "0":
            if len(state.players) > 2:
                state.direction = -state.direction
                events.append(Event(type="reversed", data={"player": player, "direction": state.direction}))
            self._start_turn(state, self._next(state, player), events)
        elif rank == "A":
            events.append(Event(type="again", data={"player": player}))
            self._start_turn(state, player, events)
        elif rank in DRAW_PER_CARD:
            self._chain(state, player, rank, DRAW_PER_CARD[rank], card, events)
        elif rank == "Q":
            state.pending = Pending(kind="q_give", player=player, rank="Q", count=1, card=card)
        else:
            self._start_turn(state, self._next(state, player), events)

    def _chain(self, state: RoccaState, player: str, rank: str, count: int, card: str, events: list[Event]) -> None:
        target = self._next(state, player)
        state.pending = Pending(kind="draw_chain", player=target, rank=rank, count=count, card=card, partner=player)
        events.append(Event(type="draw_chain", data={"rank": rank, "count": count, "target": target, "by": player}))

    def _accept(self, state: RoccaState, player: str, pending: Pending, events: list[Event]) -> None:
        if pending.kind == "draw_chain":
            self._declined(state, player, Declined(tower=len(state.tower), card=pending.card))
            self._draw(state, player, pending.count, events)
            events.append(Event(type="turn_lost", data={"player": player}))
            self._start_turn(state, self._next(state, player), events)
        else:
            assert pending.partner is not None
            events.append(Event(type="q_accepted", data={"player": player}))
            self._start_turn(state, self._next(state, pending.partner), events)

    def _give(self, state: RoccaState, player: str, pending: Pending, action: Give, events: list[Event]) -> None:
        if action.card not in state.hands[player]:
            raise IllegalAction("rocca.card_not_in_hand", card=action.card)
        allowed = [pending.partner] if pending.partner else self._others(state, player)
        if action.to not in allowed:
            raise IllegalAction("rocca.bad_receiver", to=action.to)
        state.hands[player].remove(action.card)
        state.hands[action.to] = C.sort_cards([*state.hands[action.to], action.card])
        self._received(state, action.to, 1)
        self._hand_changed(state, action.to)
        knowledge.moved(state.known, state.players, player, action.to, action.card)
        pending.partner, pending.given = action.to, pending.given + 1
        events.append(Event(type="card_passed", visible_to=[player, action.to],
                            data={"giver": player, "receiver": action.to, "card": action.card}))
        if pending.given == pending.count:
            events.append(Event(type="q_pass", data={"giver": player, "receiver": action.to, "count": pending.count}))
        if self._after_hand_shrank(state, player, events):
            return
        if pending.given < pending.count:
            return
        state.pending = Pending(kind="q_answer", player=action.to, rank="Q", count=pending.count + 1,
                                card=pending.card, partner=player)

    # ---- hands, turns, going out ------------------------------------------------------------------
    def _draw(self, state: RoccaState, player: str, count: int, events: list[Event]) -> None:
        pile = state.pile_of(player)
        drawn = [pile.pop() for _ in range(min(count, len(pile)))]
        state.hands[player] = C.sort_cards(state.hands[player] + drawn)
        self._received(state, player, len(drawn))
        self._hand_changed(state, player)
        # a seat's own pile (``streams: per_seat``) is ``own_pile``, so that the table says whose pile it is
        events.append(Event(type="drew", data={"player": player, "count": len(drawn), "wanted": count,
                                               "pile" if state.own is None else "own_pile": len(pile)}))
        if drawn:
            events.append(Event(type="drew_cards", visible_to=[player], data={"player": player, "cards": drawn}))

    @staticmethod
    def _declined(state: RoccaState, player: str, declined: Declined) -> None:
        state.declined[player] = [*state.declined.get(player, []), declined][-DECLINES_KEPT:]

    @staticmethod
    def _received(state: RoccaState, player: str, count: int) -> None:
        for declined in state.declined.get(player, []):
            declined.since += count

    def _hand_changed(self, state: RoccaState, player: str) -> None:
        """A "One" stands only while the hand holds that one card."""
        if len(state.hands[player]) != 1 and player in state.one_declared:
            state.one_declared.remove(player)

    def _after_hand_shrank(self, state: RoccaState, player: str, events: list[Event],
                           one_needed: bool = True) -> bool:
        """Going out wins when "One" was declared (or not needed: a Bon chain empties a 2–3 card hand at once);
        without it the player draws 3 and play goes on. True when play does not go on from this player
        (the game ended, or the player is out because the empty pile could not pay the penalty).
        """
        if state.hands[player]:
            self._hand_changed(state, player)
            return False
        if not one_needed or player in state.one_declared:
            state.winner, state.over, state.pending = player, True, None
            events.append(Event(type="went_out", data={"player": player}))
            events.append(Event(type="game_over", data={"ranking": self._ranking(state)}))
            return True
        events.append(Event(type="one_missing", data={"player": player, "penalty": C.ONE_PENALTY}))
        self._draw(state, player, C.ONE_PENALTY, events)
        if state.hands[player]:
            return False
        self._eliminate(state, player, events)
        if not state.over:
            self._start_turn(state, self._next(state, player), events)
        return True

    def _may_declare_one(self, state: RoccaState, player: str) -> bool:
        """The player deciding now holds exactly one card and has not declared yet."""
        deciding = state.pending.player if state.pending is not None else state.turn
        return (not state.over and player == deciding and len(state.hands[player]) == 1
                and player not in state.one_declared)

    def _start_turn(self, state: RoccaState, player: str, events: list[Event]) -> None:
        """Hand the turn to ``player``; with the pile empty, whoever can neither place nor draw goes out."""
        state.pending = None
        while not state.over:
            state.turn = player
            if state.pile_of(player):
                return
            ix = TowerIndex(state)
            if M.turn_placements(state, ix, player, first_only=True) or M.bon_options(state, ix, player):
                return
            self._eliminate(state, player, events)
            player = self._next(state, player)

    def _eliminate(self, state: RoccaState, player: str, events: list[Event]) -> None:
        state.out.append(player)
        if player in state.one_declared:
            state.one_declared.remove(player)
        out = {"player": player, "cards_left": len(state.hands[player])}
        events.append(Event(type="player_out", data=out if state.own is None else {**out, "own_pile": 0}))
        left = self._active(state)
        if len(left) == 1:
            state.winner, state.over, state.pending = left[0], True, None
            events.append(Event(type="game_over", data={"ranking": self._ranking(state)}))

    @staticmethod
    def _active(state: RoccaState) -> list[str]:
        return [p for p in state.players if p not in state.out]

    def _others(self, state: RoccaState, player: str) -> list[str]:
        return [p for p in self._active(state) if p != player]

    @staticmethod
    def _next(state: RoccaState, player: str) -> str:
        """The next player still in, in the current direction (works from a seat that just went out)."""
        n = len(state.players)
        i = state.players.index(player)
        for step in range(1, n + 1):
            candidate = state.players[(i + step * state.direction) % n]
            if candidate not in state.out:
                return candidate
        return player

    # ---- results and views ------------------------------------------------------------------------
    def _ranking(self, state: RoccaState) -> list[list[str]]:
        """Winner; the others still in by cards left (fewer first, ties share); then those out, last out first."""
        ranking: list[list[str]] = [[state.winner]] if state.winner else []
        by_count: dict[int, list[str]] = {}
        for p in self._active(state):
            if p != state.winner:
                by_count.setdefault(len(state.hands[p]), []).append(p)
        ranking += [by_count[k] for k in sorted(by_count)]
        ranking += [[p] for p in reversed(state.out) if p != state.winner]
        return ranking

    _HANDLERS: ClassVar[dict[type[Action], Callable[..., None]]] = {
        DeclareOne: _on_declare_one, Bon: _on_bon, Place: _on_place, Draw: _on_draw, Accept: _on_accept,
        Give: _on_give,
    }

    def result(self, state: RoccaState) -> Result | None:
        if not state.over:
            return None
        return Result(ranking=self._ranking(state), scores={p: len(h) for p, h in state.hands.items()})

    def held_at_end(self, state: RoccaState) -> dict[str, list[str]]:
        """Every seat's hand, as the result counts it."""
        return {p: list(state.hands[p]) for p in state.players}

    def view(self, state: RoccaState, viewer: str | None) -> RoccaView:
        return build_view(self, state, viewer)
