"""Every event and refusal has a text in every catalogue language (catalogs/<lang>/citadels.po)."""

import random
import re
from pathlib import Path

from bot.games.citadels import RULES, event_text
from bot.games.citadels import T as UI_TEXTS
from engines.citadels import GAME
from engines.core import EngineError

ALT = {
    "rank1": "witch",
    "rank2": "tax_collector",
    "rank3": "wizard",
    "rank4": "emperor",
    "rank5": "abbot",
    "rank6": "alchemist",
    "rank7": "navigator",
    "rank8": "diplomat",
}


def test_every_event_kind_of_random_games_has_texts():
    kinds = set()
    players = [f"P{i}" for i in range(6)]
    for seed in range(40):
        rnd = random.Random(seed)
        opts = {"dark_city": True, **({k: v for k, v in ALT.items() if rnd.random() < 0.5})}
        st = GAME.new_state(6, GAME.parse_options(opts), seed, None)
        while GAME.to_move(st):
            seat = GAME.to_move(st)[0]
            out = GAME.step(st, seat, rnd.choice(GAME.legal(st, seat)))
            for ev in out.events:
                kinds.add(ev.kind)
                for lang in ("en", "es", "pt"):
                    line = event_text(ev, lang, players)
                    assert line and "?" not in line and "{" not in line, (ev, line)
                    pub = event_text(ev.public(), lang, players)
                    assert pub and "?" not in pub, (ev, pub)
    assert kinds <= set(EVENTS)
    assert len(kinds) > 30
    for k in HIDDEN_EVENTS:
        assert k in EVENTS


EVENTS = {k[len("event."):] for k in UI_TEXTS if k.startswith("event.")}
HIDDEN_EVENTS = {k[len("hidden."):] for k in UI_TEXTS if k.startswith("hidden.")}
ERRORS = set(RULES)


def error_text(code: str, params: dict, lang: str) -> str:
    from bot.games import ui_for

    return ui_for("citadels").rule_text(code, params, lang)


def test_every_refusal_code_in_the_engine_has_texts():
    root = Path(__file__).resolve().parents[2]
    src = (root / "engines/citadels/game.py").read_text() + (root / "engines/core.py").read_text()
    codes = set(re.findall(r'(?:IllegalAction|BadAction|BadOptions|BadSetup)\(\s*"([a-z_0-9]+)"', src))
    codes |= set(re.findall(r'return \("([a-z_0-9]+)", ', src))
    missing = codes - set(ERRORS) - {"unknown_game", "bad_options", "bad_seat_count", "seed_and_setup"}
    assert not missing
    assert error_text("cannot_afford", {"cost": 5}, "es") == "No tienes oro suficiente (cuesta 5)."
    assert error_text("cannot_afford", {"cost": 5}, "pt") == "Ouro insuficiente (custa 5)."
    assert all(set(RULES[c]) == {"en", "es", "pt"} for c in RULES)


def test_refusal_messages_render_in_spanish():
    st = GAME.new_state(4, GAME.parse_options({}), 1, None)
    try:
        GAME.check(st, (GAME.to_move(st)[0] + 1) % 4, ("draft", "king"))
    except EngineError as e:
        assert error_text(e.code, e.params, "es") == "No es tu turno."
    else:  # pragma: no cover
        raise AssertionError("refusal expected")
