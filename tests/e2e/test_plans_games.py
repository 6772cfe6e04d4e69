"""Plans made ahead carry a match forward while their owner is offline (issue 21), through the real
discord.py client and the Discord stand-in, for Carcassonne, Citadels and Cities (Lost Cities:
tests/e2e/test_plans.py). In each, Ana leaves a plan with ``/partida plan`` (in Cities once with the
"Plan ahead" select under the answer to her move) and then clicks nothing:

* when its condition holds, the plan plays her next decision: her DM says in words what was played
  for her, and the channel's story marks the move as planned;
* when it does not, the plan is dropped and her turn DM says why (with her turn's controls: she is
  asked as usual).

Whether a plan fires never depends on what another player hides: every firing in the bot is done
again on three copies of the position with what Ana cannot see dealt anew, and must come out the
same (``watch``; tests/bot/test_plans.py does the same on the service alone).

The other player is mostly a person, Ben, whose moves the test picks with the engine (typed with
``/partida play``): he makes each situation arise on the very next turn (Ana's tile fits in one
place only, or in several; he takes the lot Ana planned to take, or another one; his Assassin
murders the character her Thief planned to rob), so each case comes at once and does not hang on
what an AI happens to choose. The Assassin's plan is shown against two AI seats, Ana's draft
priority (``/partida prefer``) making her the Assassin.

A planned move that ends its owner's turn is on the board posted at once; one that leaves them to
act (a take to place, the rest of a character's turn) is told, like a move of their own, on the
board posted when their turn passes: there Ana comes back and finishes her turn.
"""

from __future__ import annotations

import asyncio

import pytest

from bot.core.settings import load_settings
from bot.discord.client import Partida
from bot.games import ui_for
from engines import registry

from .helpers import controls, is_board, wait_change

TIMEOUT = 20  # the machine running the suite may be busy


@pytest.fixture
async def partida(standin, tmp_path):
    client = Partida(load_settings(render_processes=0, discord_token=standin.token, database_url=f"sqlite:///{tmp_path}/plans.sqlite3"))
    await standin.run_client(client)
    await standin.wait_commands()
    yield client
    # nobody but its owner is ever shown a plan: in the channel, only the mark of a planned move
    for m in standin.messages_in(standin.channel_id("general")):
        assert "Your plan" not in m.content and "plan." not in m.content, m.content


def watching(client):
    """Every firing of a plan in the bot (its turn jobs, a player's own move, the stand-in) is done
    again on three copies of the position with what Ana cannot see dealt anew, and must come out
    the same (tests/bot/test_plans.py's ``Watch``, on the Discord client's planners)."""
    from types import SimpleNamespace

    from tests.bot.test_plans import Watch

    w = Watch(SimpleNamespace(after=client.after, timers=client.timers))
    w._wrap(client.flows.planner)
    return w


@pytest.fixture
def watch(partida):
    return watching(partida)


def seeded(monkeypatch, seed: int) -> None:
    """The next match is dealt from ``seed`` (the same match on every run)."""
    monkeypatch.setattr("bot.core.service.fresh_seed", lambda: seed)


async def new_match(standin, host, game: str, guest=None, ais: int = 0, options: str = "") -> None:
    r = await host.slash("general", "partida new", game=game, options=f"{options} post=new deadline=off".strip())
    lobby = r.message
    if guest is not None:
        await guest.click(standin.messages_by_id[lobby.id], label="Join")
        await standin.wait_until(lambda: guest.mention in standin.messages_by_id[lobby.id].content, TIMEOUT, "the guest in the lobby")
    for k in range(1, ais + 1):
        await host.click(standin.messages_by_id[lobby.id], label="Add AI")
        await standin.wait_until(lambda k=k: f"AI {k}" in standin.messages_by_id[lobby.id].content, TIMEOUT, f"AI seat {k}")
    r = await host.click(standin.messages_by_id[lobby.id], label="Start")
    await r.wait(lambda x: "started" in x.content, TIMEOUT)


async def match(partida, mid: int = 1):
    return partida.service.load(await partida.store.get(mid))


async def play(person, game: str, action: dict):
    """A move typed with /partida play (its token), as a person may; the answer."""
    r = await person.slash("general", "partida play", move=ui_for(game).token(action))
    await r.wait_done(timeout=TIMEOUT)
    assert not any(w in r.text() for w in ("not a legal", "not your turn", "out of date")), r.text()
    return r.messages[-1]


async def plan(person, choice: str) -> None:
    r = await person.slash("general", "partida plan", choice=choice)
    await r.wait_done(timeout=TIMEOUT)
    assert r.ephemeral and "Your plan for your coming turns" in r.text(), r.text()


async def plan_with_button(standin, person, answer, choice: str) -> None:
    """The plan chosen with "Plan ahead" under the answer to the person's move: one select."""
    button = next(c for c in answer.custom_ids() if c.startswith("p:pl:"))
    r = await person.click(answer, button)
    await r.wait_done(timeout=TIMEOUT)
    menu = r.messages[-1]
    assert menu.ephemeral and menu.visible_to == person.id
    select = next(c for c in menu.custom_ids() if c.startswith("p:ps:"))
    assert choice in [o["value"] for o in menu.component(select)["options"]]
    before = menu.content
    await person.select(menu, select, [choice])
    menu = await wait_change(standin, menu, before, TIMEOUT)
    assert "Your plan for your coming turns" in menu.content, menu.content


async def wait_to_move(standin, partida, person, why: str, mid: int = 1):
    """The match, once ``person`` is to move in it (AI seats and plans act by themselves meanwhile)."""
    for _ in range(int(TIMEOUT / 0.05)):
        loaded = await match(partida, mid)
        if loaded.seat_of(person.id) in loaded.to_move():
            return loaded
        await asyncio.sleep(0.05)
    raise AssertionError(f"{person.name} never came to move: {why}")


def planned_post(standin, who: str):
    return next((m for m in standin.messages_in(standin.channel_id("general")) if is_board(m) and f"[planned] {who}" in m.content), None)


async def planned_story(standin, who: str) -> str:
    """The board post whose story marks a move of ``who`` as planned."""
    return (await standin.wait_until(lambda: planned_post(standin, who), TIMEOUT, f"a board marking a planned move of {who}")).content


async def finish_turn_until_posted(standin, partida, person, game: str) -> str:
    """A planned move that leaves its owner to act (a take to place, the rest of a character's
    turn) is told in the channel with the next board post, when the turn passes, as a move of
    their own would be: ``person`` comes back and plays the first legal actions until it is posted."""
    g = registry.get(game)
    for _ in range(int(TIMEOUT / 0.05)):
        if (post := planned_post(standin, person.name)) is not None:
            return post.content
        loaded = await match(partida)
        seat = loaded.seat_of(person.id)
        if seat in loaded.to_move():
            await play(person, game, g.legal_json(loaded.state, seat)[0])
        else:
            await asyncio.sleep(0.05)
    raise AssertionError(f"no board marks {person.name}'s planned move")


async def dm_since(standin, person, seen: int, text: str):
    return await standin.wait_until(
        lambda: next((m for m in person.dms()[seen:] if text in m.content), None), TIMEOUT, f"{person.name}'s DM with {text!r}")


# -- Carcassonne: "if my next tile fits in only one place, place it there" ------------------------


def _spots(game, state, seat: int) -> set[tuple[int, int, int]]:
    return {(a["x"], a["y"], a["rot"]) for a in game.legal_json(state, seat) if a.get("type") == "place"}


async def test_carcassonne_a_tile_that_fits_once_is_placed_by_the_plan_one_that_fits_twice_drops_it(standin, partida, watch, monkeypatch):
    seeded(monkeypatch, CARCASSONNE_SEED)
    ana, ben = standin.user("ana"), standin.user("ben", dms_open=False)
    await new_match(standin, ana, "carcassonne", guest=ben)
    game = registry.get("carcassonne")
    dropped = fired = 0
    for _round in range(6):
        loaded = await wait_to_move(standin, partida, ana, "her turn")
        a_seat = loaded.seat_of(ana.id)
        # Ana: her plan for her next turn, then this turn's tile placed herself (no follower)
        await plan(ana, "cc:only")
        mine = next(a for a in game.legal_json(loaded.state, a_seat) if a.get("type") == "place" and not a.get("meeple"))
        await play(ana, "carcassonne", mine)
        # Ben: a placement after which Ana's next tile fits in one place only (once she was told
        # her plan was dropped), else in several
        loaded = await wait_to_move(standin, partida, ben, "his turn")
        b_seat = loaded.seat_of(ben.id)
        options = [a for a in game.legal_json(loaded.state, b_seat) if a.get("type") == "place" and not a.get("meeple")]
        fits = {i: len(_spots(game, game.apply(loaded.state, b_seat, a)[0], a_seat)) for i, a in enumerate(options)}
        once = [i for i, n in fits.items() if n == 1]
        pick = once[0] if dropped and once else next(i for i, n in fits.items() if n > 1)
        seen = len(ana.dms())
        await play(ben, "carcassonne", options[pick])
        if fits[pick] == 1:
            # the plan places the tile for her: she is told in words, the story marks it
            told = await dm_since(standin, ana, seen, "Your plan played for you")
            after = await match(partida)
            last = (await partida.store.actions(1))[-1]
            assert last.seat == a_seat and last.story.get("planned"), last
            assert last.action["meeple"] is None and _spots(game, game.apply(loaded.state, b_seat, options[pick])[0], a_seat) == {
                (last.action["x"], last.action["y"], last.action["rot"])}
            assert ui_for("carcassonne").label(last.action, "en") in told.content, told.content
            assert "Carcassonne" in told.content and not controls(told)[1]
            story = await planned_story(standin, "ana")
            assert "🗓️ [planned] ana" in story
            assert after.seat_of(ben.id) in after.to_move()  # her turn was played: Ben's now
            fired += 1
            break
        # the tile fits in several places: the plan is dropped, her turn DM says why and asks her
        dm = await dm_since(standin, ana, seen, "Your plan was dropped: your tile fits in")
        assert f"fits in {fits[pick]} places" in dm.content, dm.content
        assert controls(dm)[0] or controls(dm)[1], dm.content  # asked as usual
        assert "plan" not in (await partida.store.notes(1)).get(ana.id, {})
        dropped += 1
    assert dropped >= 1 and fired == 1, (dropped, fired)
    # each firing came out the same with the hidden parts (the draw pile) dealt anew
    assert watch.outcomes.count(("cancel", "fits_several")) == dropped and watch.outcomes[-1] == ("move", last.action), watch.outcomes
    assert watch.checked == 3 * len(watch.outcomes)
    # nobody else is ever shown Ana's plan: only the mark on the story
    assert not any("plan" in m.content.lower() for m in standin.ephemerals(ben))



async def test_carcassonne_no_follower_narrows_her_next_turn_only(standin, partida, watch, monkeypatch):
    """"No follower on my next turn", chosen with "Plan ahead" under the answer to her move: her
    tile fits in several places then, so she places it herself (her turn DM reminds her of the plan)
    and is offered no follower; the turn after, the plan has lapsed."""
    seeded(monkeypatch, CARCASSONNE_SEED)
    ana, ben = standin.user("ana"), standin.user("ben", dms_open=False)
    await new_match(standin, ana, "carcassonne", guest=ben)
    game = registry.get("carcassonne")

    async def ben_plays_several():
        loaded = await wait_to_move(standin, partida, ben, "his turn")
        b_seat, a_seat = loaded.seat_of(ben.id), loaded.seat_of(ana.id)
        options = [a for a in game.legal_json(loaded.state, b_seat) if a.get("type") == "place" and not a.get("meeple")]
        await play(ben, "carcassonne", next(a for a in options if len(_spots(game, game.apply(loaded.state, b_seat, a)[0], a_seat)) > 1))

    loaded = await wait_to_move(standin, partida, ana, "her turn")
    await dm_since(standin, ana, 0, "Your turn")  # her first turn's DM (the ones after it are counted)
    mine = next(a for a in game.legal_json(loaded.state, 0) if a.get("type") == "place" and not a.get("meeple"))
    await plan_with_button(standin, ana, await play(ana, "carcassonne", mine), "cc:never")
    seen = len(ana.dms())
    await ben_plays_several()
    dm = await dm_since(standin, ana, seen, "Your turn")
    assert "🗓️ Your plan: no follower on my next turn" in dm.content, dm.content
    loaded = await match(partida)
    legal = game.legal_json(loaded.state, 0)
    select, _ = controls(dm)
    # a place where the tile could take a follower in every way it fits there
    places = [v for v in (o["value"] for o in dm.component(select)["options"]) if v.startswith("at.")]
    place = next(v for v in places if all(
        any(a.get("meeple") and (a["x"], a["y"], a["rot"]) == (x, y, r) for a in legal)
        for (x, y, r) in {(a["x"], a["y"], a["rot"]) for a in legal if f"at.{a['x']}.{a['y']}" == v}))
    before = dm.content
    await ana.select(dm, select, [place])
    dm = await wait_change(standin, dm, before, TIMEOUT)
    tokens = [b["custom_id"].split(":", 4)[4] for b in controls(dm)[1] if ":P." in b["custom_id"]]
    assert tokens and all(t.count(".") == 3 for t in tokens), tokens  # the tile alone: no follower offered
    before = dm.content
    await ana.click(dm, next(b["custom_id"] for b in controls(dm)[1] if ":P." in b["custom_id"]))
    await wait_change(standin, dm, before, TIMEOUT)
    assert (await partida.store.actions(1))[-1].action["meeple"] is None
    # her next turn: the plan has lapsed (kept for one turn only), her DM no longer mentions it
    seen = len(ana.dms())
    await ben_plays_several()
    dm = await dm_since(standin, ana, seen, "Your turn")
    assert "Your plan" not in dm.content and "plan" not in (await partida.store.notes(1)).get(ana.id, {})
    assert not any(o[0] == "move" for o in watch.outcomes), watch.outcomes  # it never placed a tile itself


CARCASSONNE_SEED = 32  # Ana's second tile may be made to fit in one place only


# -- Cities: "take that lot at my next worker if it is still there as it is now" ----------------------


async def own_turn(standin, partida, person, game: str):
    """``person`` plays the first legal action, typed, until the other player is to move; the
    answer to their last move."""
    g = registry.get(game)
    answer = None
    for _ in range(30):
        loaded = await match(partida)
        seat = loaded.seat_of(person.id)
        if seat not in loaded.to_move():
            return answer
        answer = await play(person, game, g.legal_json(loaded.state, seat)[0])
    raise AssertionError(f"{person.name}'s turn never ended")


def free_lots(view: dict) -> list[tuple[str, int]]:
    """The lots a plan may name: free, with every item shown."""
    return [(r["row"], s["slot"]) for r in view["rows"] for s in r["slots"] if s["worker"] is None and not s["hidden"] and s["items"]]


async def test_cities_the_planned_lot_is_taken_if_it_is_still_there_and_the_plan_dropped_if_not(standin, partida, watch, monkeypatch):
    seeded(monkeypatch, 1)
    ana, ben = standin.user("ana"), standin.user("ben", dms_open=False)
    await new_match(standin, ana, "cities", guest=ben)
    game = registry.get("cities")
    label = ui_for("cities").label
    cases = []
    await own_turn(standin, partida, ben, "cities")  # he chooses his starting tile first
    for wanted in ("gone", "there"):
        loaded = await wait_to_move(standin, partida, ana, "her turn")
        a_seat = loaded.seat_of(ana.id)
        answer = await own_turn(standin, partida, ana, "cities")
        # her plan for her next worker: the first lot she sees whole (with the command, then with
        # "Plan ahead" under the answer to her move)
        loaded = await wait_to_move(standin, partida, ben, "his turn")
        row, slot = free_lots(game.view(loaded.state, a_seat))[0]
        if wanted == "gone":
            await plan(ana, f"ct:{row}:{slot}")
        else:
            await plan_with_button(standin, ana, answer, f"ct:{row}:{slot}")
        # Ben takes that very lot, or another one, and places what he took
        b_seat = loaded.seat_of(ben.id)
        takes = [a for a in game.legal_json(loaded.state, b_seat) if a["type"] == "take"]
        take = next(a for a in takes if ((a["row"], a["slot"]) == (row, slot)) == (wanted == "gone"))
        seen = len(ana.dms())
        await play(ben, "cities", take)
        await own_turn(standin, partida, ben, "cities")
        lot = label({"type": "take", "row": row, "slot": slot}, "en")
        if wanted == "gone":
            dm = await dm_since(standin, ana, seen, "Your plan was dropped")
            assert f"{lot} is no longer as it was when you planned" in dm.content, dm.content
            assert controls(dm)[0] or controls(dm)[1], dm.content  # asked as usual: her take's buttons
            assert (await match(partida)).seat_of(ana.id) in (await match(partida)).to_move()
            cases.append("dropped")
            continue
        told = await dm_since(standin, ana, seen, "Your plan played for you")
        assert "**Cities**" in told.content and lot in told.content, told.content
        last = next(a for a in reversed(await partida.store.actions(1)) if a.seat == a_seat)
        assert last.action == {"type": "take", "row": row, "slot": slot} and last.story.get("planned"), last
        # what she took is hers to place: her turn DM asks her; the story marks the take as
        # planned on the next board post (when her turn passes, as for a move of her own)
        await dm_since(standin, ana, seen, "Your turn")
        story = await finish_turn_until_posted(standin, partida, ana, "cities")
        assert "🗓️ [planned] ana takes from row" in story, story
        cases.append("fired")
    assert cases == ["dropped", "fired"]
    # each firing came out the same with the hidden parts (lots face down, the bags) dealt anew
    assert [o for o in watch.outcomes if o[0] != "none"] == [("cancel", "lot_gone"), ("move", last.action)], watch.outcomes
    assert watch.checked == 3 * len(watch.outcomes)
    assert not any("plan" in m.content.lower() for m in standin.ephemerals(ben))


# -- Citadels: "as the Assassin, murder the King"; "as the Thief, rob the King" ---------------------


async def test_citadels_the_assassin_murders_the_planned_victim_while_her_owner_is_away(standin, partida, watch, monkeypatch):
    seeded(monkeypatch, 1)  # Ana holds the crown and the Assassin is not set aside: her orders get it
    ana = standin.user("ana")
    await new_match(standin, ana, "citadels", ais=2, options="ai=easy")
    await plan(ana, "ci:murder:king")
    r = await ana.slash("general", "partida prefer", orders="Assassin, Thief, Magician, King, Bishop, Merchant, Architect, Warlord")
    await r.wait_done(timeout=TIMEOUT)
    told = await dm_since(standin, ana, 0, "Your plan played for you")
    assert "**Citadels**" in told.content and "King" in told.content, told.content
    acts = await partida.store.actions(1)
    murder = next(a for a in acts if a.action.get("type") == "murder")
    assert murder.seat == 0 and murder.action["character"] == "king" and murder.story.get("planned"), murder
    # the rest of her Assassin's turn is hers: her turn DM asks her; the story marks the murder as
    # planned on the next board post (when her turn passes, as for a move of her own)
    def character_turn_dm():
        for m in ana.dms():
            tokens = [c.split(":", 4)[4] for c in m.custom_ids() if c.startswith("p:d:")]
            if "Your turn" in m.content and tokens and not any(t.startswith(("dr-", "dc-")) for t in tokens):
                return m
        return None

    dm = await standin.wait_until(character_turn_dm, TIMEOUT, "Ana's turn DM for the rest of her Assassin's turn")
    offered = {c.split(":", 4)[4] for c in dm.custom_ids() if c.startswith("p:d:")}
    offered |= {o["value"] for c in dm.custom_ids() if c.startswith("p:s:") for o in dm.component(c)["options"]}
    assert offered and not any(v.startswith("mu-") for v in offered), offered  # the murder is done: no victim to name
    story = await finish_turn_until_posted(standin, partida, ana, "citadels")
    assert "🗓️ [planned] ana murders the King" in story, story
    # the same with the other players' hands and characters dealt anew (she was asked nothing before)
    assert [o for o in watch.outcomes if o[0] != "none"] == [("move", murder.action)], watch.outcomes
    assert watch.checked == 3 * len(watch.outcomes)


async def test_citadels_a_thief_plan_whose_victim_was_murdered_is_dropped(standin, partida, watch, monkeypatch):
    seeded(monkeypatch, 0)  # Ana holds the crown; the Assassin, the Thief and the King are all dealt
    ana, ben = standin.user("ana"), standin.user("ben", dms_open=False)
    await new_match(standin, ana, "citadels", guest=ben)
    game = registry.get("citadels")

    def pick(loaded, person, character=None):
        seat = loaded.seat_of(person.id)
        legal = game.legal_json(loaded.state, seat)
        return next((a for a in legal if a.get("character") == character), legal[0])

    # the draft, two players: Ana takes the Thief, Ben the Assassin (typed, as a person may)
    for person, character in ((ana, "thief"), (ben, "assassin"), (ben, None), (ana, None), (ana, None), (ben, None), (ben, None)):
        loaded = await wait_to_move(standin, partida, person, "the draft")
        assert loaded.state.phase == "draft"
        await play(person, "citadels", pick(loaded, person, character))
    # Ana leaves her plan for her Thief's turn and clicks nothing more
    await plan(ana, "ci:rob:king")
    # Ben's Assassin murders the King
    loaded = await wait_to_move(standin, partida, ben, "his Assassin's turn")
    seen = len(ana.dms())
    await play(ben, "citadels", pick(loaded, ben, "king"))
    assert (await match(partida)).state.murdered == "king"
    await own_turn(standin, partida, ben, "citadels")
    # the Thief is called: the King cannot be robbed now, the plan is dropped and her turn DM says so
    dm = await dm_since(standin, ana, seen, "Your plan was dropped")
    assert "its target cannot be chosen now" in dm.content and (controls(dm)[0] or controls(dm)[1]), dm.content
    assert not any(a.story.get("planned") for a in await partida.store.actions(1))
    note = (await partida.store.notes(1))[ana.id]
    assert "plan" not in note
    # the same with Ben's hand and his second character dealt anew
    assert [o for o in watch.outcomes if o[0] != "none"] == [("cancel", "no_target")], watch.outcomes
    assert watch.checked == 3 * len(watch.outcomes)


async def test_cities_a_plan_kept_in_the_store_fires_after_the_bot_restarts(standin, partida, monkeypatch, tmp_path):
    """Plans live in the store: Ana's plan, left before the bot process stops, is fired by the next
    one when her worker comes."""
    seeded(monkeypatch, 1)
    ana, ben = standin.user("ana"), standin.user("ben", dms_open=False)
    await new_match(standin, ana, "cities", guest=ben)
    game = registry.get("cities")
    await own_turn(standin, partida, ben, "cities")  # his starting tile
    await wait_to_move(standin, partida, ana, "her turn")
    await own_turn(standin, partida, ana, "cities")
    loaded = await wait_to_move(standin, partida, ben, "his turn")
    a_seat, b_seat = loaded.seat_of(ana.id), loaded.seat_of(ben.id)
    row, slot = free_lots(game.view(loaded.state, a_seat))[0]
    await plan(ana, f"ct:{row}:{slot}")
    # the bot stops and another process starts on the same database
    await partida.close()
    await standin.wait_disconnected()
    again = Partida(load_settings(render_processes=0, discord_token=standin.token, database_url=f"sqlite:///{tmp_path}/plans.sqlite3"))
    await standin.run_client(again)
    await standin.wait_commands()
    watch = watching(again)
    take = next(a for a in game.legal_json(loaded.state, b_seat) if a["type"] == "take" and (a["row"], a["slot"]) != (row, slot))
    seen = len(ana.dms())
    await play(ben, "cities", take)
    await own_turn(standin, again, ben, "cities")
    told = await dm_since(standin, ana, seen, "Your plan played for you")
    assert ui_for("cities").label({"type": "take", "row": row, "slot": slot}, "en") in told.content, told.content
    last = next(a for a in reversed(await again.store.actions(1)) if a.seat == a_seat)
    assert last.action == {"type": "take", "row": row, "slot": slot} and last.story.get("planned"), last
    assert [o for o in watch.outcomes if o[0] != "none"] == [("move", last.action)], watch.outcomes  # fired by the new process
    assert watch.checked == 3 * len(watch.outcomes)
