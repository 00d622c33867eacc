"""What a player privately knows of another's hand, for games where cards change hands in private.

``known[watcher][holder]`` lists the cards ``watcher`` knows ``holder`` holds because it saw them go there (a Rocca
Q pass: the giver; an Akuma steal: the victim). It stays only while it is sure: a card is forgotten when it is shown
(played) or comes back to the watcher, and everything a watcher knew of a holder is forgotten when the holder hands
an unseen card to a third player (it may have been one of them).
"""
from __future__ import annotations

Known = dict[str, dict[str, list[str]]]


def moved(known: Known, players: list[str], giver: str, receiver: str, card: str) -> None:
    """``card`` went from ``giver`` to ``receiver``, seen by both of them only."""
    for watcher in players:
        if watcher == giver:
            known.setdefault(giver, {}).setdefault(receiver, []).append(card)
        elif watcher == receiver:
            shown(known, [receiver], giver, card)
        else:
            known.get(watcher, {}).pop(giver, None)


def shown(known: Known, watchers: list[str], holder: str, card: str) -> None:
    """``card`` left ``holder``'s hand where ``watchers`` saw it."""
    for watcher in watchers:
        of_holder = known.get(watcher, {}).get(holder)
        if of_holder and card in of_holder:
            of_holder.remove(card)
            if not of_holder:
                del known[watcher][holder]
