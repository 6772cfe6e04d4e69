"""Random operation sequences against an in-memory SQLite store, checked against a plain model.

The contract tests pin each rule with a hand-written case; this one mixes creates, status changes,
seat edits, moves and stale versions in orders nobody wrote down, and after every step compares
what the store answers (live match per channel, matches per user, versions, action counts) with
the model.
"""

from __future__ import annotations

import asyncio

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.store import STATUSES, ChannelBusy, VersionConflict, open_store

CHANNELS = (10, 11, 12)
USERS = (1, 2, 3)

op = st.one_of(
    st.tuples(st.just("create"), st.sampled_from(CHANNELS), st.lists(st.sampled_from(USERS), max_size=3)),
    st.tuples(st.just("status"), st.integers(0, 20), st.sampled_from(STATUSES), st.booleans()),
    st.tuples(
        st.just("seats"), st.integers(0, 20), st.lists(st.sampled_from(USERS), max_size=3), st.booleans()
    ),
    st.tuples(st.just("move"), st.integers(0, 20), st.booleans()),
)


def seats_of(users):
    return [{"user_id": u, "ai": None, "name": f"u{u}"} for u in users] or [
        {"user_id": None, "ai": "x", "name": "ai"}
    ]


async def play(ops) -> None:
    store = await open_store("sqlite://:memory:")
    model: dict[int, dict] = {}  # id -> {channel, status, version, users, moves}
    order: list[int] = []
    try:
        for o in ops:
            kind = o[0]
            if kind == "create":
                _, channel, users = o
                live = [
                    i
                    for i, m in model.items()
                    if m["channel"] == channel and m["status"] in ("lobby", "active")
                ]
                try:
                    rec = await store.create_match(None, channel, "g", 1, seats_of(users), {}, "en")
                except ChannelBusy as e:
                    assert live == [e.existing_match_id]
                    continue
                assert not live
                model[rec.id] = {
                    "channel": channel,
                    "status": "lobby",
                    "version": 0,
                    "users": set(users),
                    "moves": 0,
                }
                order.append(rec.id)
                continue
            if not order:
                continue
            mid = order[o[1] % len(order)]
            m = model[mid]
            stale = o[-1]
            version = m["version"] - 1 if stale and m["version"] > 0 else m["version"]
            conflict = version != m["version"]
            try:
                if kind == "status":
                    rec = await store.update(mid, version, status=o[2])
                elif kind == "seats":
                    rec = await store.update(mid, version, seats=seats_of(o[2]))
                else:
                    rec = await store.commit_move(
                        mid, version, 0, {"n": m["moves"]}, False, {"n": m["moves"]}
                    )
            except VersionConflict as e:
                assert conflict and e.current_version == m["version"]
                continue
            except ChannelBusy as e:
                assert kind == "status" and o[2] in ("lobby", "active") and not conflict
                others = [
                    i
                    for i, x in model.items()
                    if i != mid and x["channel"] == m["channel"] and x["status"] in ("lobby", "active")
                ]
                assert others == [e.existing_match_id]
                continue
            assert not conflict
            m["version"] += 1
            assert rec.version == m["version"]
            if kind == "status":
                m["status"] = o[2]
            elif kind == "seats":
                m["users"] = set(o[2])
            else:
                m["moves"] += 1

            # Compare every observable with the model.
            for channel in CHANNELS:
                live = [
                    i
                    for i, x in model.items()
                    if x["channel"] == channel and x["status"] in ("lobby", "active")
                ]
                got = await store.active_in_channel(channel)
                assert (got.id if got else None) == (live[0] if live else None)
                assert len(live) <= 1
            for user in USERS:
                everyone = sorted((i for i, x in model.items() if user in x["users"]), reverse=True)
                assert [r.id for r in await store.matches_for_user(user, active_only=False)] == everyone
                live = [i for i in everyone if model[i]["status"] in ("lobby", "active")]
                assert [r.id for r in await store.matches_for_user(user)] == live
            log = await store.actions(mid)
            assert [a.idx for a in log] == list(range(m["moves"]))
    finally:
        await store.close()


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(op, max_size=40))
def test_random_operations_match_the_model(ops):
    asyncio.run(play(ops))
