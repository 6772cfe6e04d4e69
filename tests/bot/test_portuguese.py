"""A third language is a folder of catalogues: a person whose Discord locale is pt-BR gets the bot's
texts in Brazilian Portuguese (replies, turn DMs, reminders, command names), a pt-BR server its
channel posts in Portuguese, and nothing breaks where a game's own texts have no Portuguese yet."""

from __future__ import annotations

import random

import discord
import pytest
from discord import app_commands

from bot import i18n
from bot.discord.translator import Translator

ANA, BEN = 11, 22


def test_pt_br_locale_is_portuguese():
    assert i18n.lang_of("pt-BR") == "pt" and i18n.lang_of(discord.Locale.brazil_portuguese) == "pt"
    assert i18n.t("turn.button", "pt") == "Jogar minha vez"
    assert i18n.t("stats.game", "pt", game="Lost Cities", n=2) == "Lost Cities: 2 partidas"
    # CLDR: Portuguese counts 0 and 1 as singular, Spanish and English only 1
    assert i18n.t("stats.matches", "pt", n=0) == "0 partida" and i18n.t("stats.matches", "es", n=0) == "0 partidas"
    assert i18n.options_problem("lost-cities", {"rounds": 99}, "pt").startswith("rounds=99 não é permitido")


async def test_commands_are_named_in_portuguese():
    tr = Translator()
    ctx = app_commands.TranslationContext(app_commands.TranslationContextLocation.other, None)
    assert await tr.translate(app_commands.locale_str("leaderboard"), discord.Locale.brazil_portuguese, ctx) == "classificação"
    assert await tr.translate(app_commands.locale_str("stats"), discord.Locale.spain_spanish, ctx) == "estadísticas"
    assert await tr.translate(app_commands.locale_str("stats"), discord.Locale.american_english, ctx) is None


async def test_a_pt_br_person_plays_a_match_in_portuguese(bot, store):
    await store.set_locale(ANA, "pt")
    await store.set_locale(BEN, "en")
    mid = await bot.new_match("lost-cities", [(ANA, "Ana"), (BEN, "Ben")], channel=100, lang="pt")
    await bot.run()
    rng = random.Random(5)
    for _ in range(400):
        movers = await bot.to_move(mid)
        if not movers:
            break
        await bot.play_turn(mid, movers[0], rng)
        await bot.run()
    assert not await bot.to_move(mid), "the match did not end"
    dms = [s.content for s in bot.box.dms(ANA)]
    assert dms and all("Sua vez em **" in d for d in dms if "**" in d)
    assert any(d.startswith("Sua vez em") for d in dms)
    # the game's own texts too: the controls, and the moves in the channel
    assert any("toque em **Jogar** (verde)" in d for d in dms) and not any("press **Play**" in d for d in dms)
    ben = [s.content for s in bot.box.dms(BEN)]
    assert ben and all("Sua vez" not in d for d in ben) and any(d.startswith("Your turn in") for d in ben)
    posts = [s.content for s in bot.box.channel(100, "")]
    assert any("Pontuação final" in p for p in posts), posts[-3:]
    assert any(" jogou " in p or " descartou " in p for p in posts) and not any(" played " in p for p in posts)


def test_lost_cities_rules_and_guide_in_portuguese():
    from bot.games.lost_cities import LostCitiesUI

    ui = LostCitiesUI()
    assert ui.rules["pt"].startswith("**Lost Cities** (2 jogadores, 3 rodadas)")
    assert ui.guide["pt"]["lc1_title"] == "Lost Cities · sua vez em dois passos"
    images = ui.guide_images("pt")
    assert len(images) == 2 and images != ui.guide_images("en")


def test_carcassonne_in_portuguese():
    """A pt-BR reader sees Carcassonne in Portuguese: the turn DM, its buttons, the refusals, the
    pictures' words, the moves, the rules and the guide, counts in their CLDR plural form."""
    from bot.core.refusals import error_text
    from bot.games.carcassonne import CarcassonneUI
    from engines.carcassonne import GAME
    from render import carcassonne as R

    ui = CarcassonneUI()
    s = GAME.new_state(2, GAME.parse_options({}), 3, None)
    seat = GAME.to_move(s)[0]
    view, legal = GAME.view(s, seat), list(map(GAME.encode, GAME.legal(s, seat)))
    first = ui.controls(view, legal, "pt", None)
    places = len(first.select)
    assert first.text.startswith("Sua peça: **") and first.select_placeholder == "Onde colocar a peça"
    assert (f"em {places} lugares" if places > 1 else "só cabe em 1 lugar:") in first.text
    cell = first.select[0].token
    step = ui.controls(view, legal, "pt", cell)
    assert "girada" in step.text and any(b.label in ("Sem meeple", "Colocar a peça") for b in step.buttons)
    assert error_text("cell_taken", {"x": 1, "y": 2}, "pt", game="carcassonne") == "Já há uma peça em (1, 2)."
    assert ui.status(GAME.view(s, None), ["Ana", "Bia"], "pt").startswith("Restam ")
    assert R.tile_words({"geometry": view["geometry"]}, "X", "pt") == "um cruzamento de 4 estradas"
    assert R._t("pt", "since", n=1).startswith("1 peça colocada") and R._t("pt", "since", n=0).startswith("0 peça colocada")
    assert R.board_png(GAME.view(s, None), ["Ana", "Bia"], "pt") != R.board_png(GAME.view(s, None), ["Ana", "Bia"], "en")
    assert ui.describe({"type": "place", "x": 0, "y": 1, "rot": 0, "meeple": "c0"}, "Ana", "pt").startswith("Ana colocou uma peça")
    assert ui.rules["pt"].startswith("**Carcassonne** (de 2 a 6 jogadores")
    assert ui.guide["pt"]["cc1_title"] == "Carcassonne · sua vez"
    assert ui.guide_pngs("pt") != ui.guide_pngs("en")


def test_cities_in_portuguese():
    """A pt-BR reader sees Cities in Portuguese: the take and place steps, the refusals, the moves,
    the components' names, the pictures' words, the rules and the guide."""
    from bot.core.refusals import error_text
    from bot.games.cities import CitiesUI, comp_name
    from engines.match import Match
    from render import cities as R

    ui = CitiesUI()
    m = Match.create("cities", ["Ana", "Bia"], seed=3)
    while m.view(None)["phase"] == "start":
        seat = m.to_move()[0]
        c = ui.controls(m.view(seat), m.legal(seat), "pt")
        assert c.text.startswith("Escolha sua placa inicial")
        m.apply(seat, ui.action(c.buttons[0].token))
    seat = m.to_move()[0]
    c = ui.controls(m.view(seat), m.legal(seat), "pt")
    assert c.text.startswith("Rodada 1/4 · você ainda tem 8 trabalhadores.") and "placas de cidade" in c.text
    take = next(b.token for b in c.buttons if b.token.startswith("K.B"))
    out = m.apply(seat, ui.action(take))
    events = [e.to_json() for e in out.events if e.private_to is None]
    story = ui.describe(ui.action(take), m.seats[seat], "pt", names=m.seats, events=events)
    assert story.startswith(f"{m.seats[seat]} pega da fileira B: placa de cidade "), story
    place = ui.controls(m.view(seat), m.legal(seat), "pt")
    assert place.text.startswith("Você tem: placa de cidade ") and "Coloque a **placa de cidade " in place.text
    assert error_text("wrong_colour", {"colour": "red", "x": 1, "y": 0}, "pt", game="cities").startswith("Uma peça vermelha vai")
    assert error_text("too_big", {"x": 1, "y": 0, "size": 9}, "pt", game="cities").endswith("maior que 9 placas.")
    assert comp_name("boat-2", "pt") == "Barco" and comp_name("venice", "pt") == "Veneza"
    assert ui.label({"type": "build", "colour": "yellow", "x": 0, "y": -1}, "pt") == "Peça amarela em (0, -1)"
    assert R._t("pt", "bag", n=1) == "1 peça no saco" and R._t("pt", "bag", n=7) == "7 peças no saco"
    assert R.board_png(m.view(None), ["Ana", "Bia"], "pt") != R.board_png(m.view(None), ["Ana", "Bia"], "en")
    assert ui.rules["pt"].startswith("**Cities** (de 2 a 4 jogadores")
    assert ui.guide["pt"]["ci1_title"] == "Cities · sua vez"
    assert ui.guide_pngs("pt") != ui.guide_pngs("en")


def test_citadels_plays_in_portuguese():
    """Citadels' texts are in the catalogues (catalogs/pt/citadels.po): its rules, guide, turn
    controls, story, refusals and pictures speak Portuguese to a pt-BR reader."""
    from bot.core.refusals import error_text
    from bot.games.citadels import CitadelsUI
    from engines.match import Match
    from render import citadels as R

    ui = CitadelsUI()
    assert ui.rules["pt"].startswith("**Cidadelas** (2-8 jogadores)")
    assert ui.guide["pt"]["cit1_title"] == "Cidadelas · uma rodada"
    assert ui.guide_images("pt") != ui.guide_images("en")
    m = Match.create("citadels", ["Ana", "Ben", "Cara", "Dani"], {}, seed=5)
    seat = m.to_move()[0]
    c = ui.controls({**m.view(seat), "names": m.seats}, m.legal(seat), "pt")
    assert "Rodada 1" in c.text and "é a sua vez de escolher" in c.text
    assert ui.describe({"type": "build", "district": "university#1"}, "Ana", "pt") == "Ana constrói a Universidade"
    assert ui.describe({"type": "income", "take": "gold"}, "Ana", "pt") == "Ana pega 2 ouros"
    assert error_text("cannot_afford", {"cost": 4}, "pt", game="citadels") == "Ouro insuficiente (custa 4)."
    assert R.d_name("watchtower", "pt") == "Torre de vigia" and R._n("pt", "pts", 1) == "1 pt"
    assert R.TEXTS["pt"]["res_head"] == "Pontuação final" and R.board_png(m.view(None), m.seats, "pt")


@pytest.mark.parametrize(("game", "turns", "dm_words", "story_words"), [
    ("carcassonne", 12, "Sua peça: **", " colocou "),
    ("cities", 400, "você ainda tem ", " pega a vaga "),
])
async def test_a_pt_br_person_plays_carcassonne_and_cities_in_portuguese(bot, store, game, turns, dm_words, story_words):
    """The turn DMs carry the game's own controls in Portuguese, the channel tells the moves in
    Portuguese; an English player at the same table keeps English."""
    await store.set_locale(ANA, "pt")
    await store.set_locale(BEN, "en")
    mid = await bot.new_match(game, [(ANA, "Ana"), (BEN, "Ben")], channel=100, lang="pt")
    await bot.run()
    rng = random.Random(3)
    for _ in range(turns):
        movers = await bot.to_move(mid)
        if not movers:
            break
        await bot.play_turn(mid, movers[0], rng)
        await bot.run()
    dms = [s.content for s in bot.box.dms(ANA)]
    assert any(dm_words in d for d in dms), dms[-3:]
    assert not any("Your tile" in d or "workers left" in d for d in dms)
    ben = [s.content for s in bot.box.dms(BEN)]
    assert any(d.startswith("Your turn in") for d in ben) and not any(dm_words in d for d in ben)
    posts = [s.content for s in bot.box.channel(100, "")]
    assert any(story_words in p for p in posts), posts[-3:]
