"""The Pile up engine (docs/rules/pileup.md): turns, plays, triples, penalties, dumps and traps."""
from __future__ import annotations

from typing import Any, Callable

from pydantic import BaseModel

from ..base import Action, Engine, Event, Result
from ..errors import BadOptions, IllegalAction
from ..rng import Rng
from ..streams import cut, split
from .actions import DumpOn, Give, GiveAll, KeepColumn, Penalty, PileupAction, Play, Roll
from .cards import HAND_SIZE, build_deck, canonical_of_kind, kind_of, number_of, one_per_kind, parse_deck
from .rules import enumerate_plays, outcome, place, play_problem, ranking
from .state import Column, Dump, DumpLink, OwnStreams, PileupOptions, PileupState
from .view import PileupView, build_view


class PileupEngine(Engine[PileupState, PileupAction, PileupOptions, PileupView]):
    name = "pileup"
    version = 1  # bump when a rules change plays stored games differently
    min_players = 2
    max_players = 5
    state_model = PileupState
    action_model = PileupAction
    options_model = PileupOptions

    # ---- setup --------------------------------------------------------------------
    def _new_game(self, players: list[str], rng: Rng, options: BaseModel, seed: int) -> PileupState:
        assert isinstance(options, PileupOptions)
        deck = build_deck(parse_deck(options.deck))
        if len(deck) < HAND_SIZE * len(players):
            raise BadOptions(
                "pileup.deck_too_small", option="deck", cards=len(deck), needed=HAND_SIZE * len(players)
            )
        rng.shuffle(deck)
        hands = {p: sorted(deck[i * HAND_SIZE:(i + 1) * HAND_SIZE]) for i, p in enumerate(players)}
        draw_pile = deck[HAND_SIZE * len(players):]
        own = None
        if options.per_seat:  # Decision [D5]: the rest dealt out as every seat's own pile, its own dice split off
            own = {p: OwnStreams(pile=pile, dice=split(rng), deflect=split(rng))
                   for p, pile in cut(draw_pile, players).items()}
            draw_pile = []
        return PileupState(
            players=players,
            seed=seed,
            options=options.model_dump(),
            rng=rng,
            draw_pile=draw_pile,
            hands=hands,
            revealed={p: [] for p in players},
            minus={p: [] for p in players},
            columns=[Column() for _ in range(6)],
            own=own,
        )

    # ---- who acts, what they may do ------------------------------------------------
    def to_act(self, state: PileupState) -> list[str]:
        if state.phase == "over":
            return []
        if state.phase in ("dump", "deflect"):
            assert state.dump is not None
            return [state.dump.holder]
        return [state.players[state.turn]]

    def legal_actions(self, state: PileupState, player: str) -> list[Action]:
        if player not in self.to_act(state):
            return []
        phase = state.phase
        if phase in ("roll", "deflect"):
            return [Roll()]
        if phase == "play":
            return [a for v in self._playable_values(state) for a in self._plays(state, player, v)]
        if phase == "penalty":
            return [Penalty(card=c) for c in one_per_kind(state.hands[player])]
        if phase == "give":
            return [Give(card=c) for c in one_per_kind(state.minus[player])]
        assert phase == "dump" and state.dump is not None
        actions: list[Action] = [DumpOn(target=p) for p in state.players if p != player]
        if player != state.dump.dumper or state.dump.chain:
            actions.append(KeepColumn())
        return actions

    def _source(self, state: PileupState, player: str) -> list[str]:
        return state.minus[player] if state.minus_turn else state.hands[player]

    def _playable_values(self, state: PileupState) -> list[int]:
        numbers = {number_of(c) for c in self._source(state, state.players[state.turn])}
        return [v for v in sorted(set(state.dice)) if v in numbers]

    def _plays(self, state: PileupState, player: str, value: int) -> list[Play]:
        column = state.columns[value - 1]
        limit = 1 if state.minus_turn else None
        return list(enumerate_plays(self._source(state, player), value, column.top_colour(), limit))

    # ---- transitions -----------------------------------------------------------------
    def _apply(self, state: PileupState, player: str, action: Any) -> list[Event]:
        handlers: dict[tuple[str, str], Callable[[PileupState, str, Any], list[Event]]] = {
            ("roll", "roll"): self._roll_turn,
            ("deflect", "roll"): self._roll_deflect,
            ("play", "play"): self._play,
            ("penalty", "penalty"): self._penalty,
            ("give", "give"): self._give,
            ("give", "give_all"): self._give_all,
            ("dump", "dump"): self._dump_on,
            ("dump", "keep_column"): self._keep,
        }
        handler = handlers.get((state.phase, action.type))
        if handler is None:
            raise IllegalAction("pileup.wrong_phase", phase=state.phase, action=action.type)
        return handler(state, player, action)

    def _roll_turn(self, state: PileupState, player: str, action: Roll) -> list[Event]:
        rng = state.rng if state.own is None else state.own[player].dice
        dice = [rng.randint(1, 6) for _ in range(3)]
        state.dice = dice
        events = [Event(type="rolled", data={"player": player, "dice": dice, "minus_turn": state.minus_turn})]
        if dice[0] == dice[1] == dice[2]:
            count = min(sum(dice), len(state.minus[player]))
            events.append(Event(type="triple", data={"player": player, "dice": dice, "sum": sum(dice), "gives": count}))
            if count == 0:
                return events + self._end_turn(state)
            state.phase, state.give_left = "give", count
            state.give_next = self._next_other(state, state.turn)
            return events
        if self._playable_values(state):
            state.phase = "play"
        elif state.minus_turn:
            events.append(Event(type="reroll", data={"player": player, "dice": dice}))
        else:
            hand = sorted(state.hands[player])
            state.revealed[player] = list(hand)
            state.phase = "penalty"
            events.append(Event(type="hand_revealed", data={"player": player, "dice": dice, "cards": hand}))
        return events

    def _play(self, state: PileupState, player: str, action: Play) -> list[Event]:
        if action.value not in state.dice:
            raise IllegalAction("pileup.value_not_rolled", value=action.value, dice=list(state.dice))
        column = state.columns[action.value - 1]  # a rolled value is 1..6
        source = self._source(state, player)
        problem = play_problem(source, column.top_colour(), action, 1 if state.minus_turn else None)
        if problem is not None:
            raise IllegalAction(f"pileup.{problem}", value=action.value, cards=list(action.cards))
        result = outcome(column.layers, column.trapped, action)
        for card in action.cards:
            source.remove(card)
            if card in state.revealed[player]:
                state.revealed[player].remove(card)
        column.layers = place(column.layers, action)
        events = [Event(type="played", data={
            "player": player, "column": action.value, "cards": list(action.cards),
            "stacked": list(action.stacked), "from_minus": state.minus_turn,
            "layers": len(column.layers), "outcome": result["kind"],
        })]
        kind = result["kind"]
        if kind == "dump":
            state.phase = "dump"
            state.dump = Dump(column=action.value, dumper=player, holder=player)
            events.append(Event(type="dump_started", data={
                "player": player, "column": action.value, "cards": len(column.cards())}))
            return events
        if kind == "trap":
            column.trapped, column.trapped_by = True, player
            events.append(Event(type="column_trapped", data={"player": player, "column": action.value}))
        elif result["takes"]:
            events += self._take(state, player, action.value, reason=kind)
        return events + self._end_turn(state)

    def _penalty(self, state: PileupState, player: str, action: Penalty) -> list[Event]:
        hand = state.hands[player]
        if not canonical_of_kind(hand, action.card):
            raise IllegalAction("pileup.card_not_held", card=action.card)
        hand.remove(action.card)
        state.revealed[player].remove(action.card)
        state.minus[player].append(action.card)
        events = [Event(type="penalty_taken", data={"player": player, "card": action.card})]
        return events + self._end_turn(state)

    def _give(self, state: PileupState, player: str, action: Give) -> list[Event]:
        if not canonical_of_kind(state.minus[player], action.card):
            raise IllegalAction("pileup.card_not_held", card=action.card)
        recipient = state.players[state.give_next]
        state.minus[player].remove(action.card)
        state.minus[recipient].append(action.card)
        state.give_left -= 1
        events = [Event(type="minus_given", data={
            "player": player, "to": recipient, "card": action.card, "left": state.give_left})]
        if state.give_left > 0 and state.minus[player]:
            state.give_next = self._next_other(state, state.give_next)
            return events
        state.give_left = 0
        return events + self._end_turn(state)

    def _give_all(self, state: PileupState, player: str, action: GiveAll) -> list[Event]:
        """Every card still to hand out at once: checked whole first, then given one by one as ``give`` would."""
        if len(action.cards) != state.give_left:
            raise IllegalAction("pileup.give_count", count=state.give_left, given=len(action.cards))
        left = list(state.minus[player])
        for card in action.cards:
            if card not in left:
                raise IllegalAction("pileup.card_not_held", card=card)
            left.remove(card)
        events: list[Event] = []
        for card in action.cards:
            lowest = min(c for c in state.minus[player] if kind_of(c) == kind_of(card))  # copies are alike
            events += self._give(state, player, Give(card=lowest))
        return events

    def _dump_on(self, state: PileupState, player: str, action: DumpOn) -> list[Event]:
        dump = state.dump
        assert dump is not None
        if action.target == player or action.target not in state.players:
            raise IllegalAction("pileup.bad_dump_target", target=action.target)
        dump.chain.append(DumpLink(source=player, target=action.target))
        dump.holder = action.target
        state.phase = "deflect"
        cards = len(state.columns[dump.column - 1].cards())
        return [Event(type="dumped", data={
            "player": player, "to": action.target, "column": dump.column, "cards": cards,
            "step": len(dump.chain)})]

    def _roll_deflect(self, state: PileupState, player: str, action: Roll) -> list[Event]:
        dump = state.dump
        assert dump is not None
        die = (state.rng if state.own is None else state.own[player].deflect).randint(1, 6)
        dump.chain[-1].die = die
        deflected = die == dump.column
        events = [Event(type="deflect_rolled", data={
            "player": player, "die": die, "column": dump.column, "deflected": deflected})]
        if deflected:
            state.phase = "dump"
            return events
        return events + self._finish_dump(state, player, "dump")

    def _keep(self, state: PileupState, player: str, action: KeepColumn) -> list[Event]:
        assert state.dump is not None
        if player == state.dump.dumper and not state.dump.chain:
            raise IllegalAction("pileup.must_dump")
        return self._finish_dump(state, player, "kept")

    def _finish_dump(self, state: PileupState, taker: str, reason: str) -> list[Event]:
        assert state.dump is not None
        column = state.dump.column
        state.dump = None
        return self._take(state, taker, column, reason) + self._end_turn(state)

    # ---- helpers -------------------------------------------------------------------------
    def _take(self, state: PileupState, player: str, value: int, reason: str) -> list[Event]:
        column = state.columns[value - 1]
        cards = column.cards()
        state.minus[player].extend(cards)
        state.columns[value - 1] = Column()
        return [Event(type="column_taken", data={
            "player": player, "column": value, "cards": cards, "reason": reason,
            "minus_count": len(state.minus[player])})]

    def _next_other(self, state: PileupState, seat: int) -> int:
        """The seat after ``seat`` clockwise, never the turn player (who hands out the cards)."""
        n = len(state.players)
        nxt = (seat + 1) % n
        return (nxt + 1) % n if nxt == state.turn else nxt

    def _end_turn(self, state: PileupState) -> list[Event]:
        player = state.players[state.turn]
        hand = state.hands[player]
        pile = state.pile_of(player)
        events: list[Event] = []
        drawn: list[str] = []
        while len(hand) + len(drawn) < HAND_SIZE and pile:
            drawn.append(pile.pop(0))
        if drawn:
            hand.extend(drawn)
            hand.sort()
            events.append(Event(type="drew", visible_to=[player], data={"player": player, "cards": drawn}))
        # a seat's own pile (``streams: per_seat``) is ``own_pile``, so that the table says whose pile it is
        pile_key = "draw_pile" if state.own is None else "own_pile"
        events.append(Event(type="refilled", data={
            "player": player, "count": len(drawn), "hand_size": len(hand), pile_key: len(pile)}))
        state.dice, state.dump, state.give_left = [], None, 0
        if not any(state.pile_of(p) for p in state.players) and not any(state.hands.values()):
            state.phase = "over"
            res = self.result(state)
            assert res is not None
            events.append(Event(type="game_over", data={"ranking": res.ranking, "minus": res.scores}))
            return events
        n = len(state.players)
        skipped = []
        seat = (state.turn + 1) % n
        while not state.hands[state.players[seat]] and not state.minus[state.players[seat]]:
            skipped.append(state.players[seat])
            seat = (seat + 1) % n
        state.turn = seat
        state.turn_count += 1
        state.phase = "roll"
        state.minus_turn = not state.hands[state.players[seat]]
        events.append(Event(type="turn_started", data={
            "player": state.players[seat], "minus_turn": state.minus_turn, "skipped": skipped,
            "turn": state.turn_count}))
        return events

    # ---- views and result ------------------------------------------------------------------
    def view(self, state: PileupState, viewer: str | None) -> PileupView:
        return build_view(self, state, viewer)

    def result(self, state: PileupState) -> Result | None:
        if state.phase != "over":
            return None
        scores = {p: len(state.minus[p]) for p in state.players}
        return Result(ranking=ranking(state.players, scores), scores=scores)

    def turn_number(self, state: PileupState) -> int:
        """The turn the board shows ("turn n"), counted over the whole game."""
        return state.turn_count

    def held_at_end(self, state: PileupState) -> dict[str, list[str]]:
        """Every seat's hand, secret and revealed cards alike (the board's ✋; a view's ``hand`` leaves the
        revealed ones out)."""
        return {p: list(state.hands[p]) for p in state.players}

