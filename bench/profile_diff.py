"""Where the bot's loop thread spends CPU beyond the floor's: two CPU-clock profiles, per click.

Both profiles come from `bench/bot.py --profile FILE` (bench/cpu_profile.py: the loop thread's own
CPU clock, from the first load step on), one of Partida and one with `--floor` (discord.py sending
the same requests, nothing else). Each is divided by the clicks answered in its run, and the table
shows, by library and then by function, the milliseconds per click the bot spends beyond the floor.
Profiled figures are ~3-4x the unprofiled ones (cProfile's cost per call); read them as shares.

    python bench/profile_diff.py BOT.pstats BOT_CLICKS FLOOR.pstats FLOOR_CLICKS [--top 40]
"""

from __future__ import annotations

import argparse
import collections
import pstats


def where(file: str, fn: str) -> str:
    """A function's library: a site-packages top folder, own:<package>/<module>, stdlib:<file>, builtin."""
    if "site-packages/" in file:
        return file.split("site-packages/")[1].split("/")[0]
    for own in ("/bot/", "/engines/", "/render/", "/catalogs/"):
        if own in file:
            rest = own.strip("/") + "/" + file.split(own, 1)[1]
            return "own:" + "/".join(rest.split("/")[:2])
    if file.startswith("~"):
        return "builtin:" + fn[:40]
    return "stdlib:" + file.rsplit("/", 1)[-1]


def per_click(path: str, clicks: float) -> tuple[collections.Counter[str], collections.Counter[str]]:
    libs: collections.Counter[str] = collections.Counter()
    fns: collections.Counter[str] = collections.Counter()
    for (file, line, fn), (_cc, _nc, tottime, _ct, _callers) in pstats.Stats(path).stats.items():  # type: ignore[attr-defined]
        ms = tottime * 1000 / clicks
        libs[where(file, fn)] += ms
        short = file.split("site-packages/")[-1]
        for own in ("/bot/", "/engines/", "/render/"):
            if own in short:
                short = own.strip("/") + "/" + short.split(own, 1)[1]
        fns[f"{short}:{line}({fn})"] += ms
    return libs, fns


def table(a: collections.Counter[str], b: collections.Counter[str], top: int) -> None:
    print(f"{'bot':>8} {'floor':>8} {'excess':>8}")
    for k in sorted(set(a) | set(b), key=lambda k: -(a[k] - b[k]))[:top]:
        print(f"{a[k]:8.3f} {b[k]:8.3f} {a[k] - b[k]:+8.3f} {k}")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("bot")
    ap.add_argument("bot_clicks", type=float)
    ap.add_argument("floor")
    ap.add_argument("floor_clicks", type=float)
    ap.add_argument("--top", type=int, default=40)
    args = ap.parse_args()
    a_lib, a_fn = per_click(args.bot, args.bot_clicks)
    b_lib, b_fn = per_click(args.floor, args.floor_clicks)
    own = sum(v for k, v in a_lib.items() if k.startswith("own:"))
    print(f"loop thread CPU per answered click, profiled: bot {sum(a_lib.values()):.2f} ms, floor {sum(b_lib.values()):.2f} ms, "
          f"excess {sum(a_lib.values()) - sum(b_lib.values()):.2f} ms, of which in Partida's own functions {own:.2f} ms")
    print("\nby library (ms per click)")
    table(a_lib, b_lib, args.top)
    print("\nby function (ms per click)")
    table(a_fn, b_fn, args.top)


if __name__ == "__main__":
    main()
