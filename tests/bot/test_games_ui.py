"""What every game's presentation shares (bot/games/): one registry, one way to page a select,
one declared way to word the engine's refusals, and no import of the rest of bot/."""

from __future__ import annotations

import ast
import pathlib

import pytest

from bot.games import REGISTRY, manifests, paging, ui_for
from bot.games.base import Choice, GameUI
from engines import registry

GAMES_DIR = pathlib.Path(__file__).resolve().parents[2] / "bot" / "games"


def test_every_registered_engine_has_its_presentation_in_the_registry():
    assert set(manifests()) == set(registry.known()) == {m.key for m in REGISTRY}


def test_the_games_import_nothing_of_bot_outside_bot_games():
    """The games side needs no loop through bot.i18n: a game's texts live in its own module."""
    for path in GAMES_DIR.glob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                mod = node.module or ""
                assert not (node.level >= 2 or (node.level == 0 and mod.startswith("bot.") and not mod.startswith("bot.games"))), (path.name, mod)
                assert not (node.level == 1 and mod in ("i18n",)), path.name
            if isinstance(node, ast.Import):
                assert not any(a.name.startswith("importlib") for a in node.names), path.name


@pytest.mark.parametrize("game", sorted(registry.known()))
def test_each_game_words_its_refusals_the_declared_way(game):
    ui = ui_for(game)
    assert type(ui).rule_text is not None and hasattr(GameUI, "rule_text")
    assert ui.rule_text("no-such-code", {}, "en") is None
    codes = list(ui.refusals) or []
    assert codes, game
    for code in codes:
        en, es = ui.rule_text(code, {}, "en"), ui.rule_text(code, {}, "es")
        assert en and es, (game, code)


def test_a_refusal_keeps_the_readers_language_on_a_bad_param():
    ui = ui_for("lost-cities")
    assert ui.rule_text("not_in_hand", {"card": "red-7"}, "es") == "Esa carta (7 rojo) no está en tu mano."
    assert "{" in ui.rule_text("not_higher", {}, "es") and "expedición" in ui.rule_text("not_higher", {}, "es")


def _items(n):
    return [Choice(f"item {k}", f"v{k}") for k in range(n)]


@pytest.mark.parametrize("n,room", [(3, 25), (25, 25), (26, 25), (100, 25), (70, 22)])
def test_one_way_to_page_a_select(n, room):
    items = _items(n)
    seen, page_no, pages = [], 0, 0
    while page_no is not None:
        opts = paging.page(items, "node", page_no, "en", room)
        assert len(opts) <= room
        seen += [o.token for o in opts if paging.parse(o.token) is None]
        nxt = [paging.parse(o.token)[1] for o in opts if paging.parse(o.token) and paging.parse(o.token)[1] > page_no]
        page_no = nxt[0] if nxt else None
        pages += 1
    assert seen == [i.token for i in items]
    assert (pages == 1) == (n <= room)
    for k in range(n):  # the page that holds an item shows it
        assert f"v{k}" in {o.token for o in paging.page(items, "node", paging.holding(k, n, room), "es", room)}
    assert paging.parse("i.p.red~3") == ("i.p.red", 3) and paging.parse("at.1.2") is None


def test_the_taps_bench_counts_a_button_as_one_and_a_pick_as_two():
    """bench/taps.py: a button 1 tap, a select pick that acts 2, the auto end 0, through the real
    controls (the measure behind docs/benchmarks.md)."""
    import sys

    sys.path.insert(0, str(GAMES_DIR.parents[1]))
    from bench.taps import taps_for
    from engines.match import Match

    lc = Match.create("lost-cities", ["a", "b"], {}, seed=3)
    ui = ui_for("lost-cities")
    legal = lc.legal(0)
    play = next(a for a in legal if a["type"] == "play")
    assert taps_for(ui, lc.view(0), legal, ui.token(play)) == 1
    cit = ui_for("citadels")
    end = [{"type": "end_turn"}]
    view = {"phase": "turn", "players": [], "viewer": 0}
    assert taps_for(cit, view, end, cit.token(end[0])) == 0
    assert taps_for(cit, view, end, cit.token(end[0]), auto_end=False) == 1
    from engines.citadels import GAME
    from tests.citadels.helpers import scenario

    st = scenario(4, {"dark_city": True}, picks={0: ["assassin"], 1: ["king"], 2: ["thief"], 3: ["bishop"]},
                  hands={0: ["lighthouse"]}, gold={0: 9})
    seat = GAME.to_move(st)[0]
    GAME.step(st, seat, GAME.code_of({"type": "income", "take": "gold"}))
    GAME.step(st, seat, GAME.code_of({"type": "build", "district": "lighthouse#1"}))
    legal = GAME.legal_json(st, seat)
    # the whole deck, grouped by colour: a colour (2 taps), then the card, which acts (2 taps)
    assert taps_for(cit, GAME.view(st, seat), legal, cit.token(legal[0])) == 4
