"""What a phone shows: for every picture of the gallery, its size, the smallest text and the
smallest marker as seen at 400 px display width (the floors are 10 px and 8 px).

    .venv/bin/python bench/render_legibility.py [lc carc cit guides]
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from render.common import clear_caches, recording, seen_scale  # noqa: E402
from tests.render.gallery import gallery  # noqa: E402


def main() -> None:
    games = tuple(sys.argv[1:]) or ("lc", "carc", "cit", "guides")
    print(f"{'picture':34s} {'size':>10s} {'text@400':>9s} {'marker@400':>11s}  smallest text")
    for name, make in gallery(games).items():
        clear_caches()
        with recording() as rec:
            img = make()
        sc = seen_scale(img.width)
        t = min(rec.texts, default=(0.0, ""))
        m = min(rec.markers, default=(0.0, ""))
        print(f"{name:34s} {img.width:>4d}x{img.height:<5d} {t[0] * sc:9.1f} {m[0] * sc:11.1f}  {t[1][:24]!r} / {m[1]}")


if __name__ == "__main__":
    main()
