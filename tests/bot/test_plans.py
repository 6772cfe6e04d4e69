"""Plans made ahead carry a match forward while their owner is away (issue 21), per game, on the real
service, jobs and timers over a real store (tests/bot/timers_harness.py): a plan fires when its
condition holds (a move flagged planned, its owner told in words, the channel story marks it), is
dropped when it does not (the owner asked as usual, their turn DM says why), and the firing never
depends on the other players' hidden parts: every firing is checked again on copies of the
position whose hidden parts are dealt anew (``Watch``), and must come out the same."""

from __future__ import annotations

import json
import random
from datetime import timedelta
from typing import Any

import pytest

from bot.core.service import Loaded, UserError
from bot.store import open_store
from tests.bot.timers_harness import Bot, Clock, Outbox

ANA = 11


@pytest.fixture
async def bot(tmp_path):
    store = await open_store(f"sqlite:///{tmp_path / 'plans.db'}")
    clock = Clock()
    b = Bot(store, clock, Outbox(clock), pictures=False)
    yield b
    await b.after.close()
    await store.close()


class Watch:
    """Wraps every planner's ``change_for`` (the one place a plan is read, for the turn job, the
    player's own move and the stand-in alike): each firing is done again on three copies of the
    position with what the seat cannot see dealt anew, and must give the same answer."""

    def __init__(self, bot: Bot) -> None:
        self.outcomes: list[tuple[str, Any]] = []
        self.checked = 0
        for planner in {id(p): p for p in (bot.after.planner, bot.timers.planner)}.values():
            self._wrap(planner)

    @staticmethod
    def summary(out: tuple[Any, Any]) -> tuple[str, Any]:
        change, cancel = out
        if cancel is not None:
            return ("cancel", cancel.reason)
        return ("move", change.move.action) if change is not None else ("none", None)

    def _wrap(self, planner: Any) -> None:
        real = planner.change_for

        async def watched(now: Loaded, seat: int, uid: int, plan: Any):
            out = await real(now, seat, uid, plan)
            want = self.summary(out)
            for k in range(3):
                other = Loaded(now.record, now.game, now.game.redeal(now.state, seat, random.Random(k)))
                assert now.game.view(other.state, seat) == now.game.view(now.state, seat)
                assert self.summary(await real(other, seat, uid, plan)) == want, (plan, want)
                self.checked += 1
            self.outcomes.append(want)
            return out

        planner.change_for = watched


async def planned_moves(bot: Bot, mid: int) -> list[Any]:
    return [a for a in await bot.store.actions(mid) if isinstance(a.story, dict) and a.story.get("planned")]


async def set_plan(bot: Bot, mid: int, raw: dict | None) -> None:
    await bot.after.planner.set(mid, ANA, raw)


def view_of(loaded: Loaded, seat: int) -> dict:
    return loaded.game.view(loaded.state, seat)


# -- keeping a plan ------------------------------------------------------------------------------


async def test_a_plan_is_a_note_of_its_owner_checked_by_the_game_and_the_version_stays(bot):
    mid = await bot.new_match("lost-cities", [(ANA, "Ana")], ais=1, options={"deadline": "off"})
    await bot.run()
    before = (await bot.store.get(mid)).version
    _, plan = await bot.after.planner.set(mid, ANA, {"kind": "take_if_discarded", "card": "red-7"})
    assert plan.card == "red-7" and plan.otherwise == "deck"
    assert (await bot.store.get(mid)).version == before  # nobody's buttons go stale
    notes = await bot.store.notes(mid)
    assert json.loads(notes[ANA]["plan"]) == {"kind": "take_if_discarded", "card": "red-7", "otherwise": "deck"}
    assert set(notes) == {0, ANA}  # the plan is Ana's note alone
    for bad in ({"kind": "only_place"}, {"kind": "take_if_discarded", "card": "red-77"}):
        with pytest.raises(UserError) as e:
            await bot.after.planner.set(mid, ANA, bad)
        assert e.value.code == "plan_bad"
    with pytest.raises(UserError):
        await bot.after.planner.set(mid, 999, {"kind": "draw_deck"})  # not a player
    await bot.after.planner.set(mid, ANA, None)
    assert "plan" not in (await bot.store.notes(mid))[ANA]
    assert (await bot.store.get(mid)).version == before


# -- Lost Cities ---------------------------------------------------------------------------------


async def test_lost_cities_plans_draw_for_their_owner_and_a_strict_one_is_dropped(bot):
    watch = Watch(bot)
    mid = await bot.new_match("lost-cities", [(ANA, "Ana")], ais=1, options={"deadline": "off", "rounds": 1}, seed=5)
    await bot.run()
    rng = random.Random(2)
    took = dropped = 0
    for _turn in range(40):
        loaded = await bot.service.get(mid)
        if loaded.record.status != "active" or (took and dropped):
            break
        seat = loaded.seat_of(ANA)
        assert seat in loaded.to_move()
        view = view_of(loaded, seat)
        legal = loaded.game.legal_json(loaded.state, seat)
        tops = [pile[-1] for pile in view["discards"].values() if pile]
        plays = [a for a in legal if a["type"] == "play"] or legal
        play = plays[int(rng.random() * len(plays))]
        if tops and not took and play.get("card", "").split("-")[0] != tops[0].split("-")[0]:
            # the card the AI left on top of a pile: "if it is there, take it"
            await set_plan(bot, mid, {"kind": "take_if_discarded", "card": tops[0], "otherwise": None})
            want = {"type": "draw", "from": tops[0].split("-")[0]}
        elif took and not dropped:
            missing = next(c for c in ("red-2", "red-3", "blue-2", "blue-3") if c not in tops)
            await set_plan(bot, mid, {"kind": "take_if_discarded", "card": missing, "otherwise": None})
            want = None
        else:
            await bot.play_turn(mid, ANA, rng)
            await bot.run()
            continue
        result = await bot.service.move(mid, loaded.record.version, ("user", ANA), play, loaded=loaded)
        fired = await bot.after.planner.after_own_move(result, ANA)  # what a click's answer does next
        if want is not None:
            assert fired.moved and fired.result.action == want
            assert (await planned_moves(bot, mid))[-1].action == want
            assert "plan" not in (await bot.store.notes(mid))[ANA]  # used up
            took += 1
        else:
            assert fired.cancel is not None and fired.cancel.reason == "card_not_there" and not fired.moved
            note = (await bot.store.notes(mid))[ANA]
            assert "plan" not in note and note["plan_off"]["reason"] == "card_not_there"
            await bot.play_turn(mid, ANA, rng)  # asked as usual: she draws herself
            dropped += 1
        await bot.run()
    assert took and dropped, (took, dropped)
    # told in words, in her DM; the channel's story marks the planned move
    assert bot.box.dms(ANA, "Your plan played for you"), [s.content for s in bot.box.dms(ANA)]
    assert any("[planned]" in s.content for s in bot.box.channel(100)) or any("[planned]" in e.content for _, e in bot.box.edits)
    assert watch.checked >= 6


async def test_lost_cities_a_plan_draws_after_the_stand_in_played_for_an_absent_owner(bot):
    """Ana is away: at her deadline the stand-in plays her card, and her plan makes the draw."""
    watch = Watch(bot)
    mid = await bot.new_match("lost-cities", [(ANA, "Ana")], ais=1, options={"deadline": "1h", "policy": "standin", "rounds": 1}, seed=3)
    await bot.run()
    await set_plan(bot, mid, {"kind": "draw_deck"})
    end = bot.clock() + timedelta(hours=1.5)
    while bot.clock() < end:
        bot.clock.advance(minutes=5)
        await bot.run()
    acts = await bot.store.actions(mid)
    planned = await planned_moves(bot, mid)
    assert [a.action for a in planned] == [{"type": "draw", "from": "deck"}]
    first = acts[0]
    assert first.story.get("standin") and acts[1].story.get("planned")  # the stand-in played, the plan drew
    assert ("move", {"type": "draw", "from": "deck"}) in watch.outcomes
    assert bot.box.dms(ANA, "Your plan played for you")


# -- the other games: Ana plays with AIs and leaves a plan for her next turn each time ------------


async def ana_turns(bot: Bot, mid: int, turns: int):
    """Run the jobs until Ana is to move again (AI seats play, her plan fires or is dropped at her
    turn job); yield the match each time, for the test to look and then play her turn."""
    for _ in range(turns):
        await bot.run()
        loaded = await bot.service.get(mid)
        if loaded.record.status != "active":
            return
        assert loaded.seat_of(ANA) in loaded.to_move(), "the match waits for someone else"
        yield loaded


async def play_one(bot: Bot, mid: int, rng: random.Random) -> None:
    """Ana plays random legal moves until her turn passes (one turn only: in Citadels her draft pick
    may be followed at once by her character's turn, which her plan is for)."""
    for _ in range(100):
        loaded = await bot.service.get(mid)
        seat = loaded.seat_of(ANA)
        if loaded.record.status != "active" or seat not in loaded.to_move():
            return
        legal = loaded.game.legal_json(loaded.state, seat)
        result = await bot.service.move(mid, loaded.record.version, ("user", ANA), legal[int(rng.random() * len(legal))], loaded=loaded)
        if result.turn_changed:
            return


async def test_carcassonne_only_place_fires_on_a_single_fit_and_is_dropped_otherwise(bot):
    watch = Watch(bot)
    mid = await bot.new_match("carcassonne", [(ANA, "Ana")], ais=1, options={"deadline": "off"}, seed=4)
    rng = random.Random(1)
    await set_plan(bot, mid, {"kind": "only_place"})
    dms = 0
    async for _loaded in ana_turns(bot, mid, 80):
        new = bot.box.dms(ANA)[dms:]
        dms = len(bot.box.dms(ANA))
        if any("Your plan was dropped: your tile fits in" in s.content for s in new):
            assert watch.outcomes[-1] == ("cancel", "fits_several")  # asked as usual, told why
        if watch.outcomes.count(("cancel", "fits_several")) >= 2 and any(o[0] == "move" for o in watch.outcomes):
            break
        await bot.play_turn(mid, ANA, rng)
        await set_plan(bot, mid, {"kind": "only_place"})  # for her next turn
    fired = [o for o in watch.outcomes if o[0] == "move"]
    assert fired and watch.outcomes.count(("cancel", "fits_several")) >= 2, watch.outcomes
    planned = await planned_moves(bot, mid)
    assert [a.action for a in planned] == [o[1] for o in fired]
    assert all(a.action["meeple"] is None for a in planned)  # no follower unless the plan names one
    assert bot.box.dms(ANA, "Your plan played for you")
    assert bot.box.dms(ANA, "Your plan was dropped: your tile fits in")  # her turn DM says why


async def test_citadels_the_assassin_names_the_planned_victim_or_the_plan_is_dropped(bot):
    watch = Watch(bot)
    mid = await bot.new_match("citadels", [(ANA, "Ana")], ais=2, options={"deadline": "off"}, seed=2)
    await bot.service.set_prefs(mid, ANA, ["assassin"])  # her draft priority (standing orders, kept)
    rng = random.Random(3)
    victims = ["merchant", "architect", "king", "bishop", "warlord", "magician", "thief"]
    await set_plan(bot, mid, {"kind": "targets", "murder": victims})
    async for _loaded in ana_turns(bot, mid, 200):
        murders = [o for o in watch.outcomes if o[0] == "move" and o[1]["type"] == "murder"]
        if murders and ("cancel", "no_target") in watch.outcomes:
            break
        await play_one(bot, mid, rng)
        if "plan" not in (await bot.store.notes(mid)).get(ANA, {}):
            # once it fired: a plan naming only herself, which cannot hold the next time she is the Assassin
            await set_plan(bot, mid, {"kind": "targets", "murder": ["assassin"] if murders else victims})
    murders = [o[1] for o in watch.outcomes if o[0] == "move" and o[1]["type"] == "murder"]
    assert murders and murders[0]["character"] in victims
    assert ("cancel", "no_target") in watch.outcomes, watch.outcomes
    planned = await planned_moves(bot, mid)
    assert planned and planned[0].action == murders[0]
    assert any("Your plan was dropped: its target cannot be chosen now" in s.content for s in bot.box.dms(ANA))
    # while it waits for her Assassin's turn, her turn DMs remind her of it (only hers)
    assert bot.box.dms(ANA, "🗓️ Your plan: as the Assassin, murder the")
    assert not [s for s in bot.box.sent if s.to[0] == "channel" and "Your plan" in s.content]


async def test_cities_take_the_lot_if_it_is_still_there(bot):
    watch = Watch(bot)
    mid = await bot.new_match("cities", [(ANA, "Ana")], ais=1, options={"deadline": "off"}, seed=6)
    rng = random.Random(5)
    from engines.cities.plans import lot

    async for loaded in ana_turns(bot, mid, 60):
        outs = watch.outcomes
        if any(o[0] == "move" for o in outs) and any(o[0] == "cancel" for o in outs):
            break
        seat = loaded.seat_of(ANA)
        await bot.play_turn(mid, ANA, rng)
        after = await bot.service.get(mid)
        view = view_of(after, seat)
        free = [(r["row"], s["slot"]) for r in view["rows"] for s in r["slots"] if s["worker"] is None and not s["hidden"] and s["items"]]
        if not free:
            continue
        row, slot = free[0]
        await set_plan(bot, mid, {"kind": "take_lot", "row": row, "slot": slot, "items": list(lot(view, row, slot)["items"]), "round": view["round"]})
    outs = watch.outcomes
    took = [o[1] for o in outs if o[0] == "move"]
    assert took and all(a["type"] == "take" for a in took), outs
    assert any(o[0] == "cancel" and o[1] in ("lot_gone", "new_round") for o in outs), outs
    assert [a.action for a in await planned_moves(bot, mid)][: len(took)] == took


# -- what drops every plan ------------------------------------------------------------------------


async def test_an_undo_drops_pending_plans_and_the_turn_dm_says_why(bot):
    from bot.core.table import Table

    ben = 22
    mid = await bot.new_match("lost-cities", [(ANA, "Ana"), (ben, "Ben")], options={"deadline": "off"})
    await bot.run()
    rng = random.Random(1)
    await bot.play_turn(mid, ANA, rng)
    await bot.run()
    await bot.after.planner.set(mid, ANA, {"kind": "draw_deck"})
    loaded = await bot.service.get(mid)
    seat = loaded.seat_of(ben)
    play = next(a for a in loaded.game.legal_json(loaded.state, seat))
    await bot.service.move(mid, loaded.record.version, ("user", ben), play, loaded=loaded)
    await Table(bot.service).take_back(mid, ben)  # at once: nothing revealed, nobody else moved
    note = (await bot.store.notes(mid))[ANA]
    assert "plan" not in note and note["plan_off"]["reason"] == "undo"


async def test_a_seat_changing_hands_drops_pending_plans(bot):
    from bot.core.table import Table

    ben, cara = 22, 33
    mid = await bot.new_match("carcassonne", [(ANA, "Ana"), (ben, "Ben"), (cara, "Cara")], options={"deadline": "off"})
    await bot.run()
    for uid in (ANA, cara):
        await bot.after.planner.set(mid, uid, {"kind": "only_place"})
    version = (await bot.store.get(mid)).version
    await Table(bot.service).leave(mid, ben)  # Ben's seat goes to the AI
    notes = await bot.store.notes(mid)
    for uid in (ANA, cara):
        assert "plan" not in notes[uid] and notes[uid]["plan_off"] == {"reason": "seat", "params": {}, "version": version}


async def test_carcassonne_no_follower_narrows_her_own_choices_for_her_next_turn_then_lapses(bot):
    mid = await bot.new_match("carcassonne", [(ANA, "Ana")], ais=1, options={"deadline": "off"}, seed=4)
    rng = random.Random(2)
    await bot.run()

    async def follower_buttons(loaded, seat) -> tuple[int, int]:
        """(place buttons with a follower, without) for a place where the tile may take one."""
        legal = loaded.game.legal_json(loaded.state, seat)
        spot = next(a for a in legal if a.get("type") == "place" and a.get("meeple"))
        _content, _files, first = await bot.present.private_turn(loaded, seat, "en", with_picture=False)
        values = [o.value for c in first.children if hasattr(getattr(c, "item", None), "options") for o in c.item.options]
        picked = next((v for v in values if v.startswith(f"at.{spot['x']}.{spot['y']}")), None)
        if picked is None:  # nothing left to choose there (one way to turn it, no follower): the pick lays it
            lays = [v for v in values if v.startswith(f"P.{spot['x']}.{spot['y']}.")]
            assert len(lays) == 1, values
            return 0, 1
        _content, _files, view = await bot.present.private_turn(loaded, seat, "en", picked=picked, with_picture=False)
        tokens = [c.custom_id.split(":", 4)[4] for c in view.children if getattr(c, "custom_id", "").startswith("p:d:")]
        places = [t for t in tokens if t.startswith("P.")]
        return sum(t.count(".") == 4 for t in places), sum(t.count(".") == 3 for t in places)

    loaded = await bot.service.get(mid)
    seat = loaded.seat_of(ANA)
    with_f, without_f = await follower_buttons(loaded, seat)
    assert with_f >= 1 and without_f == 1  # no plan: she may place a follower
    await set_plan(bot, mid, {"kind": "no_follower"})
    with_f, without_f = await follower_buttons(loaded, seat)
    assert with_f == 0 and without_f == 1  # her plan: the tile alone
    await play_one(bot, mid, rng)  # she places it herself this turn (the plan was made during it)
    await bot.run()  # the AI, then her next turn: the plan's turn (it places for her if the tile fits once)
    note = (await bot.store.notes(mid))[ANA]
    # (seed 4: this tile fits in several places) it had nothing to say at the start of its turn:
    # kept, noted as that turn's
    assert "plan" in note and note["plan_turn"] == (await bot.store.get(mid)).version, note
    await play_one(bot, mid, rng)
    await bot.run()
    assert "plan" not in (await bot.store.notes(mid))[ANA]  # lapsed with its turn


@pytest.mark.parametrize("game,n", [("lost-cities", 2), ("carcassonne", 2), ("citadels", 3), ("cities", 2)])
def test_every_choice_offered_is_a_plan_of_the_game_worded_in_every_language(game, n):
    from bot.core.plan_words import OFF, REASONS, choices, plan_off_text, plan_text, raw_plan
    from engines import plans as engine_plans
    from engines import registry

    g = registry.get(game)
    state = g.new_state(n, g.parse_options({}), 3, None)
    view = g.view(state, 0)
    names = [f"P{i}" for i in range(n)]
    offered = choices(game, view, names, "en")
    assert 1 <= len(offered) <= 25
    for label, token in offered:
        plan = engine_plans.parse(game, raw_plan(game, token, view))
        for lang in ("en", "es", "pt"):
            words = plan_text(game, plan, names, lang)
            assert words and "plan." not in words
        assert plan_text(game, plan, names, "en") == label  # what was offered is what is kept
    assert raw_plan(game, OFF, view) is None
    with pytest.raises(ValueError):
        raw_plan(game, "xx:nothing", view)
    for reason in REASONS:
        for lang in ("en", "es", "pt"):
            text = plan_off_text({"reason": reason, "params": {"card": "red-7", "spots": 3, "row": "B", "slot": 0}}, game, lang)
            assert text.startswith("🗓️") and "plan.off" not in text
