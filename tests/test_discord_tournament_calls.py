"""A seeded 9-entrant (7 people, 2 bots), 3-round Swiss tournament of Akuma Trick through the harness, as an
organiser and players run it: a pause after each round, a drop in the pause, a drop in the middle of a game whose
seat a bot then plays, byes. Measured and asserted: rematches, people credited for games they did not play, pings
per person per round (the tournament's calls: the round call in the channel and each table's first message in its
thread; turn pings on the boards are the game's own), and what a person with a bye and a person who dropped see
(printed with ``-s``). Also the check-in call and the word to those who miss it."""
from __future__ import annotations

import asyncio
import re
from collections import Counter
from itertools import combinations

from bot import i18n
from bot.tournaments import compute_standings

from .discord_harness import Harness
from .discord_helpers import CHECK_IN, TOURNAMENT_JOIN, line, organiser, says
from .test_discord_tournament import ALICE
from .test_tournament_seating import fewest_repeats

PEOPLE = {ALICE: "alice", 102: "bob", 103: "carol", 104: "dave", 105: "erin", 106: "frank", 107: "gina"}
MESSAGES = re.compile(r"/channels/(\d+)/messages")


def tournament_pings(h: Harness, since: int, channel_ids: set[int]) -> Counter[int]:
    """Who was pinged, how often, by the tournament's calls made since ``since`` (an index into ``h.calls``): the
    messages in the tournament's channel and each table thread's first message."""
    pinged: Counter[int] = Counter()
    for call in h.calls[since:]:
        body, sent_to = call.json or {}, MESSAGES.fullmatch(call.path)
        if call.method != "POST" or sent_to is None or int(sent_to[1]) not in channel_ids:
            continue
        if int(sent_to[1]) != h.channel_id and not says(body.get("content") or "", "tournament.table_intro"):
            continue  # a board in a thread: the game's own turn ping
        mentioned = {int(u) for u in re.findall(r"<@!?(\d+)>", body.get("content") or "")}
        pinged.update(int(u) for u in (body.get("allowed_mentions") or {}).get("users", []) if int(u) in mentioned)
    return pinged


def fewest_possible(tn, number: int) -> int:
    """Brute force: the fewest repeat meetings any seating of round ``number`` could have, over every bye set the
    rules allow (byes to those with the fewest byes, from the lowest score group(s) only)."""
    tables = [t for t in tn.round_tables(number) if t.status == "finished"]
    byes = [u for t in tn.round_tables(number) if t.status == "bye" for u in t.players]
    history = [t.players for t in tn.tables if t.round < number and t.status == "finished"]
    points = {r.user_id: r.points for r in compute_standings(tn, through_round=number - 1)}
    had = Counter(u for t in tn.tables if t.round < number and t.status == "bye" for u in t.players)
    active = [u for t in tables for u in t.players] + byes
    fewest = [u for u in active if had[u] == min(had[p] for p in active)]
    ceiling = sorted(points[u] for u in fewest)[len(byes) - 1] if byes else 0
    allowed = list(combinations([u for u in fewest if points[u] <= ceiling], len(byes)))
    return min(fewest_repeats([u for u in active if u not in c], [len(t.players) for t in tables], history)
               for c in allowed)


async def set_results(h: Harness, alice, tn) -> None:
    """The organiser enters every open table's result (seat order) of the current round."""
    for table in [t for t in tn.round_tables(tn.current_round) if t.status in ("running", "cancelled")]:
        ranking = " > ".join(str(n) for n in range(1, len(table.players) + 1))
        r = await h.slash(alice, "tournament set-result", table=table.game_id, ranking=ranking)
        assert says(r.messages[-1].text, "tournament.done.set_result", table=table.game_id), r.messages[-1].text
    await h.settle()


def transcript(h: Harness, uid: int, replies: list[str]) -> list[str]:
    """What ``uid`` sees about them: each public message naming them (its first line, then the lines naming
    them), the first message of each table thread they sit in, then the replies only they see."""
    lines = []
    for message in h.channel_messages():
        text = message.text.splitlines()
        if f"<@{uid}>" in message.text:
            lines += [f"[channel] {text[0]}"] + [f"[channel]   {line}" for line in text[1:] if f"<@{uid}>" in line]
    threads = [c for c in h.server.channels.values() if c.get("parent_id") == str(h.channel_id)]
    for thread in threads:
        intro = h.channel_messages(int(thread["id"]))[:1]
        if intro and f"<@{uid}>" in intro[0].text:
            lines.append(f"[thread] {intro[0].text}")
    return lines + [f"[only to them] {text}" for text in replies]


async def test_nine_entrants_three_rounds_measured(h: Harness) -> None:
    users = {uid: (await organiser(h, uid, name)) if uid == ALICE else h.user(uid, name)
             for uid, name in PEOPLE.items()}
    alice = users[ALICE]
    signup = (await h.slash(alice, "tournament create", game="akuma", rounds=3, bots=2, min_seats=3, max_seats=3,
                            break_minutes=1, name="Measured Cup")).message
    assert any(i18n.t("tournament.sizes_fixed", lang, size=3) + "\n" in signup.text for lang in i18n.LANGUAGES)
    assert not says(signup.text, "tournament.sizes_range", min=3, max=3)
    for user in users.values():
        await h.click(user, signup, label=TOURNAMENT_JOIN)
    tn = next(iter(h.bot.tournaments._cache.values()))
    tn.seed = 37  # seeded: the same seating every run
    assert len(tn.entrants) == 9
    pings: dict[int, Counter[int]] = {}
    mark = len(h.calls)
    await h.slash(alice, "tournament start")
    seen: dict[int, list[str]] = {uid: [] for uid in PEOPLE}
    dave, dropper, bye_person = 104, None, None
    for number in (1, 2, 3):
        channels = {h.channel_id} | {t.channel_id for t in tn.round_tables(number) if t.channel_id}
        if number == 2:  # a person seated at a table drops in the middle of the game; a bot then plays the seat
            dropper = next(u for t in tn.round_tables(2) if t.status == "running" for u in t.players
                           if u > 0 and u != ALICE)
            r = await h.slash(users[dropper], "tournament drop", player=users[dropper])
            seen[dropper].append(r.messages[-1].text)
            assert says(r.messages[-1].text, "tournament.done.drop_after_game")
            r = await h.slash(alice, "tournament replace", player=users[dropper])
            assert r.ephemeral
            bye_person = next(u for t in tn.round_tables(2) if t.status == "bye" for u in t.players if u > 0)
        await set_results(h, alice, tn)
        pings[number] = tournament_pings(h, mark, channels)
        if number == 1:  # the pause: dave drops before round 2 is seated
            assert tn.next_round_at is not None and not tn.round_tables(2)
            r = await h.slash(users[dave], "tournament drop", player=users[dave])
            seen[dave].append(r.messages[-1].text)
            assert says(r.messages[-1].text, "tournament.done.drop")
        if number < 3:
            assert any(f"<t:{int(tn.next_round_at)}:R>" in m.text for m in h.channel_messages())
            mark = len(h.calls)
            await h.slash(alice, "tournament next-round")
    assert tn.status == "finished" and dropper is not None and bye_person is not None

    # Rematches: only where no seating with an allowed bye avoids them (brute force).
    played = [t for t in tn.tables if t.status == "finished"]
    met = Counter(frozenset(p) for t in played for p in combinations(t.players, 2))
    rematches = sum(n - 1 for n in met.values() if n > 1)
    # People credited for games they did not play: a person's seat a bot played at the end, yet not a forfeit.
    credited = 0
    for table in played:
        game = await h.bot.service.table(table.game_id)  # type: ignore[attr-defined]
        credited += sum(1 for uid in table.players
                        if uid > 0 and game.seat_of_user(uid) is None and uid not in table.forfeits)
    assert rematches == sum(fewest_possible(tn, number) for number in (2, 3)) and credited == 0
    dropped_table = next(t for t in tn.round_tables(2) if dropper in t.players)
    assert dropper in dropped_table.forfeits and dropped_table.results[dropper] == (3, 0.0)
    # One ping per person per round (seated: in their thread, bye: in the round call), none for bots or the dropped.
    for number, counts in pings.items():
        active = {u for t in tn.round_tables(number) for u in t.players if u > 0}
        assert counts == Counter({u: 1 for u in active}), (number, counts)
    assert dave not in pings[2] and dave not in pings[3] and dropper not in pings[3]
    final = [m.text for m in h.channel_messages() if says(m.text, "tournament.final_standings_title")]
    assert len(final) == 1
    dropper_line = next(line for line in final[0].splitlines() if f"<@{dropper}>" in line)
    assert says(dropper_line, "tournament.points_forfeits", forfeits=1)
    assert says(dropper_line, "tournament.dropped_mark")
    assert says(signup.text, "tournament.status.finished") and "❌ <@104>" in signup.text

    print("\npings per person per round (tournament calls):",
          {n: {PEOPLE[u]: c for u, c in sorted(counts.items())} for n, counts in pings.items()})
    print(f"rematches: {rematches} (fewest possible: {[fewest_possible(tn, n) for n in (2, 3)]} in rounds 2, 3); "
          f"people credited for games they did not play: {credited}")
    for label, uid in (("bye (round 2)", bye_person), ("dropped in the pause", dave),
                       ("dropped mid-game", dropper)):
        print(f"--- {PEOPLE[uid]}, {label}:")
        print("\n".join(transcript(h, uid, seen[uid])))


async def test_the_check_in_call_and_the_word_to_who_missed_it(h: Harness) -> None:
    alice, bob, carol = (await organiser(h, ALICE, "alice")), h.user(102, "bob"), h.user(103, "carol")
    signup = (await h.slash(alice, "tournament create", game="akuma", bots=2, rounds=1)).message
    for user in (alice, bob, carol):
        await h.click(user, signup, label=TOURNAMENT_JOIN)
    mark = len(h.calls)
    opened = await h.slash(alice, "tournament checkin", minutes=15)
    assert opened.ephemeral
    tn = next(iter(h.bot.tournaments._cache.values()))
    call = [m for m in h.channel_messages() if says(m.text, "tournament.checkin_call") and m.id != signup.id]
    assert len(call) == 1 and says(call[0].text, "tournament.checkin_call", people=f"<@{ALICE}> <@102> <@103>",
                                   deadline=f"<t:{int(tn.checkin_until)}:R>",  # ... and what the deadline does
                                   consequence=line("tournament.checkin_consequence"))
    assert f"<t:{int(tn.checkin_until)}:R>" in signup.text
    assert tournament_pings(h, mark, {h.channel_id}) == Counter({ALICE: 1, 102: 1, 103: 1})  # bots: none
    for user in (alice, bob):
        await h.click(user, signup, label=CHECK_IN)
    mark = len(h.calls)
    await h.slash(alice, "tournament start")
    told = [m for m in h.channel_messages() if says(m.text, "tournament.missed_checkin")]
    assert len(told) == 1 and says(told[0].text, "tournament.missed_checkin", people="<@103>")
    assert "<@102>" not in told[0].text
    assert tournament_pings(h, mark, {h.channel_id})[103] == 1


async def test_a_tournament_tables_thread_is_archived_when_its_game_has_ended(h: Harness, monkeypatch) -> None:
    from cogs.outbox import TableOutbox

    monkeypatch.setattr(TableOutbox, "archive_grace", 0.2)
    alice = await organiser(h, ALICE, "alice")
    signup = (await h.slash(alice, "tournament create", game="akuma", rounds=2, bots=2, timer=45)).message
    await h.click(alice, signup, label=TOURNAMENT_JOIN)
    await h.slash(alice, "tournament start")
    tn = next(iter(h.bot.tournaments._cache.values()))
    table = tn.round_tables(1)[0]
    game = await h.bot.service.table(table.game_id)  # type: ignore[attr-defined]
    assert game.row.turn_seconds == 45  # the tournament's timer
    thread = h.server.channels[table.channel_id]
    assert thread["thread_metadata"]["archived"] is False
    await set_results(h, alice, tn)
    for _ in range(50):
        if thread["thread_metadata"]["archived"]:
            break
        await asyncio.sleep(0.05)
    await h.settle()
    assert thread["thread_metadata"]["archived"] is True
    assert (await h.bot.storage.get_game(table.game_id)).end_tidied  # type: ignore[attr-defined]
    assert not h.server.channels[h.channel_id].get("thread_metadata")  # the tournament's channel stays open
