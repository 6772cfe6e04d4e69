"""Play over days, simulated: 100 matches over 30 days with people who sleep, vanish and come back.

The real service, after-move jobs and timers run on a real SQLite store with an injected clock and a
fake Discord that records what would be sent (no sockets, no pictures). Every 20 simulated minutes
the due jobs run and the people who are around may play their turn. People have a time zone and
(most) quiet hours, take a while to answer, and now and then vanish for 1-7 days, some announcing it
with /away; when back, they usually take their seat back from the AI.

Checks (printed, and the exit status is 1 if one fails): every match has finished or is still
progressing (none stalls: no active match without a move in its last 8 days, every person to move
has a pending timer), no reminder is sent twice, none for a turn already over.

Pace forecast (issue 21): every person's turn is timed on their own clock (quiet hours and away
left out, ``timers.active_between``), from the step their turn was seen to begin to the step they
played (or the turn went by without them: a stand-in played at the deadline); every ``--forecast-hours`` each active match gets a forecast (``bot.core.pace.forecast`` with the
engine's ``progress``, the people's paces in this match and across matches, their pauses ahead).
For each finished match the forecast made nearest to half its length is compared with its real
end: the median absolute error is printed, with how often the end fell in the forecast's 10%-90%
range, and the error of a naive forecast (the second half as long as the first) for comparison.

Plans made ahead (issue 21, ``--plans``): the same simulation twice with the same seeds, without
and with plans. With plans, most people (70%, drawn from a stream of their own, so every other
random draw of the run starts the same) leave a plan for their next turn each time they play:
Lost Cities "draw from the deck" or "if <a card of a colour I have started> is discarded, take it,
else the deck" (answering the draw after their own play, and the draw after the stand-in's play);
Carcassonne "if my tile fits in only one place, place it there" or "no follower next turn" (a turn
played at its start, while the person is away or asleep). Printed: the share of moves and of turns
that plans played, and the median match length of both runs (and, over the matches finished in
both, the median of how many days sooner each ended).

    ./dev python bench/days.py [--matches 100] [--days 30] [--seed 1] [--forecast-hours 12] [--plans]
"""

from __future__ import annotations

import argparse
import asyncio
import math
import random
import re
import statistics
import sys
import tempfile
import time
from collections import Counter
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.core import pace  # noqa: E402
from bot.core.service import Stale, UserError  # noqa: E402
from bot.core.story import by_plan  # noqa: E402
from bot.core.timers import active_between, pauses, quiet_until  # noqa: E402
from bot.store import open_store  # noqa: E402
from engines.progress import progress  # noqa: E402
from tests.bot.timers_harness import Bot, Clock, FakeDM, Outbox  # noqa: E402

ZONES = ["Europe/Madrid", "America/New_York", "America/Mexico_City", "Asia/Tokyo", "UTC", "Australia/Sydney"]
TIMERS = [
    {"deadline": "24h", "policy": "replace", "misses": 3},
    {"deadline": "48h", "policy": "standin"},
    {"deadline": "12h", "policy": "end", "misses": 4},
    {"deadline": "off", "policy": "wait"},
    {"deadline": "72h", "policy": "wait"},
]
GAMES = [("lost-cities", 2, {"rounds": 1}), ("carcassonne", 3, {})]
STEP = timedelta(minutes=20)


class Person:
    def __init__(self, uid: int, rng: random.Random) -> None:
        self.uid = uid
        self.zone = rng.choice(ZONES)
        self.quiet = rng.random() < 0.7
        self.mean_delay_h = rng.choice([0.5, 1, 2, 4, 8])
        self.gone_until = None  # vanished until then
        self.vanish_rate = rng.choice([0.0, 0.02, 0.05])  # chance per day


def plan_for(loaded, seat: int, prng: random.Random) -> dict | None:
    """The plan a plan-minded person leaves for their next turn, from their own view."""
    view = loaded.game.view(loaded.state, seat)
    if loaded.record.game == "lost-cities":
        started = [c for c, cards in view["expeditions"][seat].items() if cards]
        from engines.lost_cities import CARD_NAMES

        seen = set(view["hand"]) | {c for pile in view["discards"].values() for c in pile}
        for exp in view["expeditions"]:
            seen |= {c for cards in exp.values() for c in cards}
        wanted = [c for c in CARD_NAMES if c.split("-")[0] in started and c not in seen]
        if wanted and prng.random() < 0.6:
            return {"kind": "take_if_discarded", "card": prng.choice(wanted), "otherwise": "deck"}
        return {"kind": "draw_deck"}
    if loaded.record.game == "carcassonne":
        return {"kind": "only_place"} if prng.random() < 0.7 else {"kind": "no_follower"}
    return None


async def play_turn(bot: Bot, mid: int, uid: int, rng: random.Random, with_plans: bool, paired: str | None = None) -> int:
    """The person plays random legal moves until their turn is over (as ``Bot.play_turn``); with
    plans, after each move their plan may answer the next decision, as after a click. ``paired``:
    each move drawn from the match's position alone (seed/match/version), not from ``rng``."""
    made = 0
    for _ in range(100):
        loaded = await bot.service.get(mid)
        seat = loaded.seat_of(uid)
        if loaded.record.status != "active" or seat not in loaded.to_move():
            break
        legal = loaded.game.legal(loaded.state, seat)
        r = random.Random(f"{paired}/{mid}/{loaded.record.version}") if paired is not None else rng
        code = legal[int(r.random() * len(legal))]
        try:
            result = await bot.service.move(mid, loaded.record.version, ("user", uid), loaded.game.encode(code), loaded=loaded)
            made += 1
        except Stale:
            continue
        if with_plans:
            await bot.after.planner.after_own_move(result, uid)
    return made


def turns_of(acts) -> list[list]:
    """The log cut into turns: runs of consecutive actions of one seat."""
    out: list[list] = []
    for a in acts:
        if out and out[-1][-1].seat == a.seat:
            out[-1].append(a)
        else:
            out.append([a])
    return out


async def simulate(n_matches: int, days: int, seed: int, forecast_every: float = 12.0, with_plans: bool = False,
                   figures: dict | None = None) -> int:
    rng = random.Random(seed)
    prng = random.Random(seed * 7919 + 21)  # plans draw from their own stream: the rest of the run starts the same
    # --plans compares two runs: there every draw that depends on how a match went (who plays now,
    # which move, taking a seat back) is a function of what it is about and when, not the next
    # number of one shared stream, so a plan changes its own match only, never all the others
    paired = str(seed) if figures is not None else None

    def chance(*key) -> float:
        return random.Random("/".join(map(str, (paired, *key)))).random() if paired is not None else rng.random()

    tmp = tempfile.mkdtemp(dir="/dev/shm" if Path("/dev/shm").is_dir() else None)  # the logic, not the disk
    store = await open_store(f"sqlite:///{tmp}/days.sqlite3")
    # a fixed start, so a seed gives the same run; March crosses both daylight-saving changes
    # (America 2030-03-10, Europe 2030-03-31) and Sydney's (2030-04-07)
    clock = Clock(datetime(2030, 3, 1, 0, 0, tzinfo=UTC))
    box = Outbox(clock)
    bot = Bot(store, clock, box, pictures=False)
    t0 = clock()
    people = [Person(1000 + i, rng) for i in range(int(n_matches * 1.3))]
    for p in people:
        if p.quiet:
            await bot.timers.set_quiet(p.uid, f"{rng.choice([22, 23, 0]):02d}:00", f"{rng.choice([6, 7, 8]):02d}:00", p.zone)
        await store.set_locale(p.uid, rng.choice(["en", "es"]))
    by_id = {p.uid: p for p in people}
    plan_minded = {p.uid for p in people if prng.random() < 0.7}
    settings = {p.uid: await store.person(p.uid) for p in people}  # quiet hours (they never change here)

    # reminders seen at the Discord boundary: (person, match, turn version, step) must never repeat,
    # and the person must still be to move in that match when it is sent
    reminded: Counter = Counter()
    late: list[tuple[int, int]] = []
    real_send = FakeDM.send

    async def watching_send(self, content=None, **kwargs):
        if content and content.startswith(("⏰ Waiting", "⏰ Te están")):
            for mid in map(int, re.findall(r"#(\d+)\)", content)):
                note = (await store.notes(mid)).get(self.uid, {})
                reminded[(self.uid, mid, note.get("remind_v"), note.get("remind_step"))] += 1
                if self.uid not in await bot.to_move(mid):
                    late.append((self.uid, mid))
        return await real_send(self, content, **kwargs)

    FakeDM.send = watching_send  # type: ignore[method-assign]

    # matches start over the first five days
    plans = []
    for i in range(n_matches):
        game, n, options = GAMES[i % len(GAMES)]
        seated = rng.sample(people, n)
        plans.append((t0 + timedelta(hours=rng.uniform(0, 120)), game, seated, {**options, **rng.choice(TIMERS)}, i))
    plans.sort(key=lambda p: p[0])
    matches: dict[int, dict] = {}
    # pace: per person all their timed turns (own-clock seconds), per (person, match) this match's
    samples: dict[int, list[float]] = {}
    in_match: dict[tuple[int, int], list[float]] = {}
    next_forecast = t0
    forecast_cpu = 0.0
    moves = Counter()
    events = Counter()
    started = time.perf_counter()
    end = t0 + timedelta(days=days)
    while clock() < end:
        now = clock.advance(seconds=STEP.total_seconds())
        while plans and plans[0][0] <= now:
            _at, game, seated, options, i = plans.pop(0)
            mid = await bot.new_match(game, [(p.uid, f"P{p.uid}") for p in seated], options=options, seed=seed * 1000 + i, channel=5000 + i)
            matches[mid] = {"start": now, "end": None, "last": now, "people": [p.uid for p in seated], "game": game,
                            "since": {}, "forecasts": []}
        # people vanish (some announce it with /away) and come back (and take their seats back)
        for p in people:
            if p.gone_until is None and rng.random() < p.vanish_rate * STEP.total_seconds() / 86400:
                p.gone_until = now + timedelta(days=rng.randint(1, 7))
                events["vanished"] += 1
                if rng.random() < 0.4:
                    try:
                        await bot.timers.set_away(p.uid, (p.gone_until - now).days)
                        events["away"] += 1
                    except UserError:
                        events["away refused (limit)"] += 1
            elif p.gone_until is not None and now >= p.gone_until:
                p.gone_until = None
                events["came back"] += 1
                for mid, m in matches.items():
                    if p.uid in m["people"] and m["end"] is None and chance("reclaim", p.uid, mid, now.isoformat()) < 0.8:
                        try:
                            await bot.timers.reclaim(mid, p.uid)
                            events["seats taken back"] += 1
                        except UserError:
                            pass
        await bot.run()
        # people who are around answer after a while (not in their quiet hours)
        for mid, m in matches.items():
            if m["end"] is not None:
                continue
            loaded = await bot.service.get(mid)
            rec = loaded.record
            if rec.version != m.get("version"):
                m["version"], m["last"] = rec.version, now
            if rec.status != "active":
                m["end"], m["status"] = now, rec.status
                continue
            movers = {rec.seats[s].get("user_id") for s in loaded.to_move()} - {None}
            for uid in list(m["since"]):
                if uid not in movers:
                    # their turn went by without them (the stand-in played at the deadline): it took this long
                    took = active_between(await store.person(uid), m["since"].pop(uid), now)
                    samples.setdefault(uid, []).append(took)
                    in_match.setdefault((uid, mid), []).append(took)
            for uid in movers:
                m["since"].setdefault(uid, now - STEP / 2)  # the turn began within the last step
            if now >= next_forecast:
                tick = time.perf_counter()
                m["forecasts"].append((now, await forecast_match(loaded, m, now, store, samples, in_match, mid)))
                forecast_cpu += time.perf_counter() - tick
            for seat in loaded.to_move():
                uid = rec.seats[seat].get("user_id")
                if not uid or rec.seats[seat].get("ai"):
                    continue
                p = by_id[uid]
                if p.gone_until is not None or quiet_until(settings[uid], now) is not None:
                    continue
                if chance("act", uid, mid, now.isoformat()) < 1 - math.exp(-STEP.total_seconds() / 3600 / p.mean_delay_h):
                    played = await play_turn(bot, mid, uid, rng, with_plans, paired)  # a race with the stand-in is retried there
                    moves["person"] += played
                    if with_plans and uid in plan_minded:
                        after = await bot.service.get(mid)
                        if after.record.status == "active":
                            raw = plan_for(after, seat, prng)
                            if raw is not None:
                                await bot.after.planner.set(mid, uid, raw)
                    if played and uid in m["since"]:
                        took = active_between(await store.person(uid), m["since"].pop(uid), now)
                        samples.setdefault(uid, []).append(took)
                        in_match.setdefault((uid, mid), []).append(took)
        if now >= next_forecast:
            next_forecast = now + timedelta(hours=forecast_every)
        await bot.run()
    wall = time.perf_counter() - started
    FakeDM.send = real_send  # type: ignore[method-assign]

    # -- figures -------------------------------------------------------------------------------
    finished = [m for m in matches.values() if m.get("status") == "finished"]
    abandoned = [m for m in matches.values() if m.get("status") == "abandoned"]
    active = [m for m in matches.values() if m["end"] is None]
    stalled = [mid for mid, m in matches.items() if m["end"] is None and clock() - m["last"] > timedelta(days=8)]
    pending = await store.jobs(None, "pending")
    forgotten = []
    for mid, m in matches.items():
        if m["end"] is None:
            for uid in await bot.to_move(mid):
                if not any(j.kind in ("clock", "turn") and j.match_id == mid for j in pending):
                    forgotten.append((mid, uid))
    actions = 0
    standin = 0
    planned = planned_turns = whole_turns = all_turns = 0
    for mid in matches:
        acts = await store.actions(mid)
        actions += len(acts)
        standin += sum(1 for a in acts if a.story and str(a.story.get("en", "")).startswith("🤖"))
        planned += sum(1 for a in acts if by_plan(a.story))
        turns = turns_of(acts)
        all_turns += len(turns)
        planned_turns += sum(1 for turn in turns if any(by_plan(a.story) for a in turn))
        whole_turns += sum(1 for turn in turns if all(by_plan(a.story) for a in turn))
    digests = [s for s in box.sent if s.to[0] == "dm" and s.content.startswith(("⏰ Waiting", "⏰ Te están"))]
    lines = sum(len(re.findall(r"#(\d+)\)", s.content)) for s in digests)
    per_hour = Counter()
    too_close = 0
    last_digest: dict[int, object] = {}
    for s in digests:
        prev = last_digest.get(s.to[1])
        if prev is not None and s.at - prev < timedelta(hours=1):
            too_close += 1
        last_digest[s.to[1]] = s.at
        per_hour[s.to[1]] += 1
    twice = sum(c - 1 for c in reminded.values() if c > 1)
    failed = await store.jobs(None, "failed")
    quiet_violations = 0
    for s in box.sent:
        if s.to[0] == "dm" and quiet_until(await store.person(s.to[1]), s.at) is not None:
            quiet_violations += 1
    mentions = sum(1 for s in box.sent if "the table is waiting" in s.content or "la mesa espera" in s.content)
    lengths = sorted((m["end"] - m["start"]).total_seconds() / 86400 for m in finished)

    print(f"simulated {days} days, {len(matches)} matches, {len(people)} people, seed {seed}: {wall:.1f} s wall clock")
    print(f"matches finished: {len(finished)}; ended by the 'end' policy: {len(abandoned)}; still active: {len(active)}; stalled: {len(stalled)}")
    by_game = Counter((m["game"], m.get("status", "active")) for m in matches.values())
    print("by game: " + "; ".join(f"{g} {st} {n}" for (g, st), n in sorted(by_game.items())))
    if lengths:
        print(f"median match length: {statistics.median(lengths):.2f} days (finished matches; min {lengths[0]:.2f}, max {lengths[-1]:.2f})")
    print(f"moves: {actions} ({moves['person']} by people, {standin} by the stand-in AI, {planned} by plans)")
    if with_plans:
        print(f"plans: {planned} moves of {actions} ({planned / max(actions, 1):.1%}); turns in which a plan played: "
              f"{planned_turns} of {all_turns} ({planned_turns / max(all_turns, 1):.1%}), played whole by a plan: {whole_turns}")
    if figures is not None:
        figures.update({
            "lengths": {mid: (m["end"] - m["start"]).total_seconds() / 86400 for mid, m in matches.items() if m.get("status") == "finished"},
            "finished": len(finished), "actions": actions, "planned": planned, "planned_turns": planned_turns, "turns": all_turns,
            "whole_turns": whole_turns,
            "by_game": {g: sorted((m["end"] - m["start"]).total_seconds() / 86400 for m in finished if m["game"] == g) for g, _n, _o in GAMES},
        })
    print(f"reminder digests: {len(digests)} with {lines} match lines; reminders per move: {len(digests) / max(actions, 1):.3f} "
          f"(lines per move {lines / max(actions, 1):.3f}); channel mentions: {mentions}")
    print(f"people vanished {events['vanished']} times ({events['away']} with /away, {events['away refused (limit)']} refused), came back {events['came back']}, "
          f"took a seat back {events['seats taken back']}; seats given to the AI: {sum(1 for s in box.sent if 'plays their seat from now on' in s.content or 'juega su asiento' in s.content)}")
    print(f"checks: reminders sent twice {twice}; reminders for a turn already over {len(late)}; digests less than 1 h apart {too_close}; "
          f"DMs inside quiet hours {quiet_violations}; turns with no timer {len(forgotten)}; failed jobs {len(failed)}")
    errors, signed, naive, inside, forecasts = [], [], [], 0, sum(len(m["forecasts"]) for m in matches.values())
    for m in finished:
        half = m["start"] + (m["end"] - m["start"]) / 2
        made = [(at, f) for at, f in m["forecasts"] if at <= half]
        if not made:
            continue
        at, f = min(made, key=lambda x: abs((x[0] - half).total_seconds()))
        signed.append((f.expected - m["end"]).total_seconds() / 86400)
        errors.append(abs(signed[-1]))
        naive.append(abs(((at - m["start"]) * 2 + m["start"] - m["end"]).total_seconds()) / 86400)
        inside += f.early <= m["end"] <= f.late
    if errors:
        print(f"finish forecast at half-way ({len(errors)} finished matches, {forecasts} forecasts every {forecast_every:g} h, "
              f"{forecast_cpu:.1f} s CPU): median absolute error {statistics.median(errors):.2f} days "
              f"(median signed error {statistics.median(signed):+.2f} days, + = forecast too late) "
              f"(naive 'second half as long as the first': {statistics.median(naive):.2f} days); "
              f"real end inside the 10%-90% range {inside}/{len(errors)}")
    await bot.after.close()
    await store.close()
    ok = not (stalled or twice or late or too_close or quiet_violations or forgotten or failed)
    print("OK" if ok else "FAILED")
    return 0 if ok else 1


async def forecast_match(loaded, m: dict, now: datetime, store, samples: dict, in_match: dict, mid: int) -> pace.Forecast:
    """The match's forecast now, from what the bot would know: the engine's progress, the people's
    timed turns and their settings."""
    rec = loaded.record
    paces, spans, waited = {}, {}, 0.0
    for seat, s in enumerate(rec.seats):
        uid = s.get("user_id")
        if not uid or s.get("ai"):
            continue
        paces[seat] = pace.person_pace(in_match.get((uid, mid), []), samples.get(uid, []))
        person = await store.person(uid)
        spans[seat] = pauses(person, now, now + pace.HORIZON)
        if uid in m["since"] and seat in loaded.to_move():
            waited = active_between(person, m["since"][uid], now)
    done = len(await store.actions(mid))
    return pace.forecast(now, progress(loaded.game, loaded.state, done), paces, spans, waited=waited, runs=100, seed=mid,
                         started=m["start"])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--matches", type=int, default=100)
    ap.add_argument("--days", type=int, default=30)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--forecast-hours", type=float, default=12.0, help="hours between two forecasts of a match")
    ap.add_argument("--plans", action="store_true", help="run twice, without and with plans made ahead, and compare")
    args = ap.parse_args()
    if not args.plans:
        return asyncio.run(simulate(args.matches, args.days, args.seed, args.forecast_hours))
    without, with_ = {}, {}
    print("== without plans ==")
    code = asyncio.run(simulate(args.matches, args.days, args.seed, args.forecast_hours, False, without))
    print("== with plans ==")
    code |= asyncio.run(simulate(args.matches, args.days, args.seed, args.forecast_hours, True, with_))
    print("== plans made ahead: the same seeds without and with ==")
    print(f"plans played {with_['planned']} of {with_['actions']} moves ({with_['planned'] / max(with_['actions'], 1):.1%}) and took part in "
          f"{with_['planned_turns']} of {with_['turns']} turns ({with_['planned_turns'] / max(with_['turns'], 1):.1%}); "
          f"{with_['whole_turns']} turns ({with_['whole_turns'] / max(with_['turns'], 1):.1%}) were played whole by a plan")
    a, b = sorted(without["lengths"].values()), sorted(with_["lengths"].values())
    if a and b:
        print(f"matches finished: {len(a)} without, {len(b)} with; median length {statistics.median(a):.2f} days without, "
              f"{statistics.median(b):.2f} with ({statistics.median(a) - statistics.median(b):+.2f} days sooner with plans)")
    for g in without["by_game"]:
        ga, gb = without["by_game"][g], with_["by_game"][g]
        if ga and gb:
            print(f"  {g}: {len(ga)} vs {len(gb)} finished, median {statistics.median(ga):.2f} vs {statistics.median(gb):.2f} days")
    both = [without["lengths"][m] - with_["lengths"][m] for m in without["lengths"] if m in with_["lengths"]]
    if both:
        print(f"over the {len(both)} matches finished in both runs: median {statistics.median(both):+.2f} days sooner with plans "
              f"(mean {statistics.fmean(both):+.2f})")
    return code


if __name__ == "__main__":
    raise SystemExit(main())
