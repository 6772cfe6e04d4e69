"""One way to page a select beyond Discord's 25 options, for every game.

A select's options are a game's own values; when there are more than fit, :func:`page` shows one
page of them with a "previous" and a "more" option whose values are ``<node>~<page>``: ``node`` is
what the game needs to rebuild the same list (e.g. "pg" for Carcassonne's places, "i.p.red" for
a Cities piece, "@build" for a Citadels menu group), and :func:`parse` reads such a value back.
"""

from __future__ import annotations

import re

from catalogs import table

from .base import Choice

LIMIT = 25  # Discord's options per select
SEP = "~"

_VALUE = re.compile(r"^(?P<node>.{1,90})~(?P<page>\d{1,3})$")

# "More…" / "Previous…": catalogs/<lang>/games.po, as {key: {lang: text}}.
T = table("games")


def _tr(key: str, lang: str, **kw: int) -> str:
    return (T[key].get(lang) or T[key]["en"]).format(**kw)


def text(key: str, lang: str, **kw: int) -> str:
    """The words of a "prev" or "more" option, for a game that cuts its own pages (Carcassonne's
    places, page by page as their pictures show them)."""
    return _tr(key, lang, **kw)


def value(node: str, page_no: int) -> str:
    """The select value that shows page ``page_no`` of the list ``node``."""
    return f"{node}{SEP}{page_no}"


def parse(picked: str | None) -> tuple[str, int] | None:
    """(node, page) of a paging value, or None when ``picked`` is not one."""
    m = _VALUE.match(picked) if isinstance(picked, str) else None
    return (m["node"], int(m["page"])) if m else None


def size(room: int = LIMIT) -> int:
    """Items per page when a list does not fit in ``room`` options (room for previous and more)."""
    return room - 2


def holding(index: int, n: int, room: int = LIMIT) -> int:
    """The page that shows item ``index`` of ``n`` items."""
    return index // size(room) if n > room else 0


def page(items: list[Choice], node: str, page_no: int, lang: str, room: int = LIMIT) -> list[Choice]:
    """At most ``room`` options: all of ``items`` when they fit, else page ``page_no`` (clamped)
    with "previous" first and "more" last."""
    n = len(items)
    if n <= room:
        return list(items)
    per = size(room)
    pages = (n + per - 1) // per
    p = min(max(page_no, 0), pages - 1)
    start = p * per
    out: list[Choice] = []
    if p > 0:
        out.append(Choice(_tr("prev", lang, a=start - per + 1, b=start, n=n), value(node, p - 1)))
    out += items[start:start + per]
    if p < pages - 1:
        out.append(Choice(_tr("more", lang, a=start + per + 1, b=min(n, start + 2 * per), n=n), value(node, p + 1)))
    return out
