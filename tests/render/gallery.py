"""Every kind of picture Partida draws, from real (engine-played) or sample views, for the
legibility and colour tests, and to look at.

``gallery()`` gives {name: zero-argument function returning a PIL image}; ``write(dir)`` saves
each picture full size and scaled to a phone's 400 px width (``name.png`` and ``name@400.png``)::

    .venv/bin/python -m tests.render.gallery /tmp/partida-pics/after

Before/after for review: write the gallery of an older commit (``git worktree add /tmp/old COMMIT``,
then the same command run there into /tmp/partida-pics/before), then::

    .venv/bin/python -m tests.render.gallery --compare /tmp/partida-pics/before /tmp/partida-pics/after OUT

puts each picture's 400 px before and after side by side in OUT (``name.png``; pictures new in
"after" alone).
"""

from __future__ import annotations

import random
import sys
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path
from typing import Any

from PIL import Image

NAMES = ["Ana", "Benedicto", "Carla García-Ñúñez", "Dmitri", "Eve 🐉", "Fátima", "Gus", "Hugo"]


# -- Carcassonne --------------------------------------------------------------------------------


def _carc(n: int, seed: int, stop: int | None = None, **options: Any):
    from engines.carcassonne import GAME
    from engines.carcassonne.ai import GreedyPlayer

    s = GAME.new_state(n, GAME.parse_options(options), seed, None)
    p, rng = GreedyPlayer(), random.Random(seed)
    k = 0
    while (movers := GAME.to_move(s)) and (stop is None or k < stop):
        GAME.step(s, movers[0], p.choose(GAME, s, movers[0], rng))
        k += 1
    return s


def _carc_random(tiles: int, seed: int = 5):
    """A marathon table: ``tiles`` tiles laid at random (a sprawling board)."""
    from engines.carcassonne import GAME

    s = GAME.new_state(3, GAME.parse_options({"sets": 1 + tiles // 72}), seed, None)
    rng = random.Random(seed)
    for _ in range(tiles - 1):
        movers = GAME.to_move(s)
        legal = GAME.legal(s, movers[0])
        GAME.step(s, movers[0], legal[int(rng.random() * len(legal))])
    return s


@lru_cache(maxsize=1)
def carcassonne_states() -> dict[str, Any]:
    return {
        "early_3p": _carc(3, 2, stop=8),
        "mid_6p": _carc(6, 4, stop=50, rules=1),
        "end_5p": _carc(5, 3),
        "marathon": _carc_random(150),
    }


def _carc_pictures(out: dict[str, Callable[[], Image.Image]]) -> None:
    from engines.carcassonne import GAME
    from render import carcassonne as R

    for key, s in carcassonne_states().items():
        n = len(GAME.view(s, None)["scores"])
        names = NAMES[:n]
        for lang in ("en", "es"):
            out[f"carc_board_{key}_{lang}"] = lambda s=s, names=names, lang=lang: R.board_image(GAME.view(s, None), names, lang)
            if key == "mid_6p":  # the catch-up picture of a turn DM: five tiles new since the last turn, the last one included (as mark_since gives)
                out[f"carc_catchup_{key}_{lang}"] = lambda s=s, names=names, lang=lang: R.board_image(
                    {**(v := GAME.view(s, None)), "since": [[b["x"], b["y"]] for b in v["board"][-5:]]}, names, lang)
            movers = GAME.to_move(s)
            if not movers:
                continue
            mine = GAME.view(s, movers[0])
            mine["names"] = names
            out[f"carc_hand_{key}_{lang}"] = lambda v=mine, names=names, lang=lang: R.hand_image(v, names, lang)
            # the one picture of a turn DM: the catch-up marks, the tile, the places of a menu page
            turn_view = {**mine, "since": [[b["x"], b["y"]] for b in mine["board"][-4:]]}
            for page in range(min(2, len(R.place_pages(mine)))):
                out[f"carc_turn_{key}_p{page + 1}_{lang}"] = lambda v=turn_view, names=names, lang=lang, page=page: (
                    R.turn_image(v, names, lang, page=page)[0])
            if lang == "en" and key != "marathon":
                legal = mine["legal"] or []
                p = max(legal, key=lambda p: len(p["meeples"]))
                rots: dict[tuple[int, int], list[int]] = {}
                for q in legal:
                    rots.setdefault((q["x"], q["y"]), []).append(q["rot"])
                here = sorted(rots[(p["x"], p["y"])])
                out[f"carc_preview_{key}"] = lambda v=mine, p=p, rr=here: R.preview_image(
                    v, None, "en", p["x"], p["y"], p["rot"], spots=p["meeples"], rots=rr)
                (x, y), rr = max(rots.items(), key=lambda kv: len(kv[1]))
                out[f"carc_rotations_{key}"] = lambda v=mine, x=x, y=y, rr=rr: R.rotations_image(v, "en", x, y, sorted(rr))


# -- Citadels -----------------------------------------------------------------------------------


def citadels_match(n: int, seed: int, steps: int, until: Callable[[Any], bool] | None = None):
    from engines.ai import best_player
    from engines.match import Match

    opts: dict[str, Any] = {"rank9": "queen"} if n == 8 else {}
    m = Match.create("citadels", NAMES[:n], opts, seed=seed)
    ai, rng = best_player("citadels"), random.Random(seed)
    for _ in range(steps):
        if m.over or (until and until(m)):
            break
        seat = m.to_move()[0]
        m.apply_code(seat, ai.choose(m.game, m.state, seat, rng))
    return m


@lru_cache(maxsize=1)
def citadels_matches() -> dict[str, Any]:
    def second_draft(m) -> bool:
        v = m.view(None)
        return v.get("phase") == "draft" and v.get("round", 1) >= 2 and (v.get("draft") or {}).get("step_index", 0) >= 2

    def turn(m) -> bool:
        v = m.view(None)
        return v.get("phase") == "turn" and v.get("round", 1) >= 3 and bool(v.get("murdered") or v.get("robbed"))

    return {
        "draft_7p": citadels_match(7, 7, 2000, second_draft),
        "turn_5p": citadels_match(5, 3, 2000, turn),
        "over_7p": citadels_match(7, 7, 20000),
        "over_4p": citadels_match(4, 2, 20000),
    }


def _cit_pictures(out: dict[str, Callable[[], Image.Image]]) -> None:
    from render import citadels as R

    for key, m in citadels_matches().items():
        for lang in ("en", "es"):
            out[f"cit_board_{key}_{lang}"] = lambda m=m, lang=lang: R.board_image(m.view(None), m.seats, lang)
            if key == "turn_5p":  # the catch-up picture of a turn DM: every seat's last district is new
                out[f"cit_catchup_{key}_{lang}"] = lambda m=m, lang=lang: R.board_image(
                    {**(v := m.view(None)), "since": [[p["seat"], p["city"][-1]["id"]] for p in v["players"] if p["city"]]},
                    m.seats, lang)
        seat = (m.to_move() or [0])[0]
        v = m.view(seat)
        v["names"] = m.seats
        out[f"cit_hand_{key}"] = lambda v=v: R.hand_image(v, "es")
        # the one picture of a turn DM: the table with compact cities, the new districts framed, the hand
        tv = {**v, "since": [[p["seat"], p["city"][-1]["id"]] for p in v["players"] if p["city"]]}
        for lang in ("en", "es"):
            out[f"cit_turn_{key}_{lang}"] = lambda v=tv, m=m, lang=lang: R.turn_image(v, m.seats, lang)


# -- Lost Cities --------------------------------------------------------------------------------


def _lc_pictures(out: dict[str, Callable[[], Image.Image]]) -> None:
    from render import lost_cities as R
    from tests.render.samples import NAMES as LC_NAMES
    from tests.render.samples import SAMPLES, public

    for key, make in SAMPLES.items():
        for lang in ("en", "es"):
            out[f"lc_board_{key}_{lang}"] = lambda make=make, lang=lang: R.board_image(public(make()), LC_NAMES, lang)
        out[f"lc_hand_{key}"] = lambda make=make: R.hand_image(make(), "es")
        out[f"lc_turn_{key}_en"] = lambda make=make: R.turn_image(make(), LC_NAMES, "en")


def _cities_pictures(out: dict[str, Callable[[], Image.Image]]) -> None:
    import random

    from engines.ai import best_player
    from engines.match import Match
    from render import cities as R

    def board(n: int, steps: int, lang: str, catch_up: bool = False, **options: Any) -> Image.Image:
        from bot.games import ui_for

        names = ["Ana", "Ben", "Carla", "Dani"][:n]
        m = Match.create("cities", names, options, seed=11)
        p, rng = best_player("cities"), random.Random(1)
        log = []
        for _ in range(steps):
            if m.over:
                break
            seat = m.to_move()[0]
            code = p.choose(m.game, m.state, seat, rng)
            m.apply_code(seat, code)
            log.append((seat, m.game.encode(code)))
        view = m.view(None)
        if catch_up:  # the turn DM's picture: what the others did since the mover's last turn
            me = m.to_move()[0]
            view = ui_for("cities").mark_since(view, [x for x in log[-16:] if x[0] != me])
        return R.board_image(view, names, lang)

    out["cities_board_4p_mid_en"] = lambda: board(4, 60, "en")
    out["cities_board_4p_end_es"] = lambda: board(4, 10_000, "es")
    out["cities_board_2p_long_en"] = lambda: board(2, 10_000, "en", long=True)
    out["cities_catchup_4p_mid_es"] = lambda: board(4, 60, "es", catch_up=True)
    out["cities_turn_3p_mid_en"] = lambda: board(3, 90, "en", catch_up=True)


def gallery(games: tuple[str, ...] = ("lc", "carc", "cit")) -> dict[str, Callable[[], Image.Image]]:
    out: dict[str, Callable[[], Image.Image]] = {}
    if "cities" in games:
        _cities_pictures(out)
    if "lc" in games:
        _lc_pictures(out)
    if "carc" in games:
        _carc_pictures(out)
    if "cit" in games:
        _cit_pictures(out)
    if "guides" in games:  # every game's illustrated guide (GameUI.guide_images)
        from bot.games import manifests

        for game, manifest in manifests().items():
            ui = manifest.ui
            for lang in ("en", "es"):
                for i, _ in enumerate(ui.guide_images(lang)):
                    out[f"guide_{game}_{lang}_{i + 1}"] = lambda ui=ui, lang=lang, i=i: ui.guide_images(lang)[i]
    return out


def phone(img: Image.Image, width: int = 400) -> Image.Image:
    """The picture as a phone shows it: scaled down to ``width`` px wide (never up)."""
    if img.width <= width:
        return img
    return img.resize((width, round(img.height * width / img.width)), Image.Resampling.LANCZOS)


def save(name: str, img: Image.Image, folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    img.save(folder / f"{name}.png")
    phone(img).save(folder / f"{name}@400.png")


def write(folder: Path, games: tuple[str, ...] = ("lc", "carc", "cit", "cities", "guides")) -> list[str]:
    names = []
    for name, make in gallery(games).items():
        save(name, make(), folder)
        names.append(name)
    return names


def compare(before: Path, after: Path, out: Path) -> list[str]:
    """Side by side at 400 px: each ``name@400.png`` of ``before`` (left) and ``after`` (right)."""
    out.mkdir(parents=True, exist_ok=True)
    names = []
    for a in sorted(after.glob("*@400.png")):
        b = before / a.name
        right = Image.open(a).convert("RGB")
        left = Image.open(b).convert("RGB") if b.exists() else Image.new("RGB", (1, 1), (255, 255, 255))
        sheet = Image.new("RGB", (left.width + right.width + 20, max(left.height, right.height)), (255, 255, 255))
        sheet.paste(left, (0, 0))
        sheet.paste(right, (left.width + 20, 0))
        sheet.save(out / a.name.replace("@400", ""))
        names.append(a.name)
    return names


if __name__ == "__main__":
    if len(sys.argv) == 5 and sys.argv[1] == "--compare":
        done = compare(Path(sys.argv[2]), Path(sys.argv[3]), Path(sys.argv[4]))
        print(len(done), "before/after sheets in", sys.argv[4])
    else:
        target = Path(sys.argv[1] if len(sys.argv) > 1 else "/tmp/partida-pics/after")
        print(len(write(target)), "pictures in", target)
