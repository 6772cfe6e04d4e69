"""Every option, number and duration a person types, parsed in one place with bounds.

``/partida new options:...`` (the game's options, the timers, ``ai=``, ``post=``), ``/partida
deadline`` and anything else that takes a number or a duration go through these functions. Each
value is accepted only when it is finite and within its range; anything else (``1e400``, ``NaN``,
``-Infinity``, a 4,400-digit number, ``deadline=0.0001``, a list) is one ``UserError`` whose text
(English and Spanish, ``bot/i18n.py``) names the allowed range. Nothing here raises anything else,
whatever the input: ``tests/bot/test_options.py`` fuzzes every option of every command.

No Discord in here: the commands call it, and so do the timers and the table.
"""

from __future__ import annotations

import dataclasses
import json
import math
import re
from typing import Any

from engines import registry
from engines.ai import LEVELS
from engines.core import EngineError

from .service import UserError

HOUR = 3600
DAY = 24 * HOUR
MAX_TEXT = 40  # a longer option value is refused before any conversion (4,400-digit numbers)

# -- the bot's own options of /partida new and /partida deadline, with their bounds ---------------
POLICIES = ("wait", "standin", "replace", "end")
DEADLINE_RANGE = (HOUR, 14 * DAY)  # or 0 ("off"): no deadline
MISSES_RANGE = (1, 10)
TIMER_KEYS = ("deadline", "policy", "misses")
# The policies in the words a Spanish or Portuguese speaker types (the catalogues name them so).
POLICY_WORDS = {
    "esperar": "wait", "suplente": "standin", "sustituir": "replace", "terminar": "end",
    "substituta": "standin", "substituir": "replace", "encerrar": "end",
}
TIMER_DEFAULTS: dict[str, Any] = {"deadline": 48 * HOUR, "policy": "replace", "misses": 3}
AI_LEVELS = LEVELS
POST_MODES = ("new", "edit")
# How a match shows its board: one message edited in place with a one-line post per turn (the
# default for new matches: a quiet channel), or a new post each turn (post=new).
DEFAULT_POST = "edit"
OFF_WORDS = ("off", "none", "no", "0", "")


def show(raw: Any, limit: int = 30) -> str:
    """A short, printable form of a refused value, whatever it is (a huge int cannot even be str()'d)."""
    if isinstance(raw, int) and not isinstance(raw, bool) and raw.bit_length() > 64:
        return ("-" if raw < 0 else "") + "9…"
    if isinstance(raw, (dict, list, tuple)):
        try:
            raw = json.dumps(raw, separators=(",", ":"), allow_nan=True)[: limit + 1]
        except (ValueError, TypeError, RecursionError):
            raw = type(raw).__name__
    text = str(raw).replace("\n", " ")
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _number(raw: Any) -> float | int | None:
    """A finite number from an int, a float or a short numeric text; None when it is none of these."""
    if isinstance(raw, bool):
        return None
    if isinstance(raw, int):
        return raw
    if isinstance(raw, float):
        return raw if math.isfinite(raw) else None
    if isinstance(raw, str):
        text = raw.strip()
        if len(text) > MAX_TEXT or not re.fullmatch(r"[+-]?(\d+(\.\d*)?|\.\d+)", text):
            return None  # no exponents, no nan/inf words, no 4,400 digits
        value = float(text) if "." in text else int(text)
        return value if math.isfinite(value) else None
    return None


def whole(raw: Any, lo: int, hi: int, code: str) -> int:
    """A whole number in [lo, hi] (3, "3", 3.0); anything else is ``UserError(code)``."""
    value = _number(raw)
    if value is None or (isinstance(value, float) and not value.is_integer()) or not lo <= value <= hi:
        raise UserError(code, value=show(raw), lo=lo, hi=hi)
    return int(value)


_DURATION = re.compile(r"(?:(\d{1,3})d)?(?:(\d{1,4})h)?(?:(\d{1,6})m)?")


def duration(raw: Any, lo: int, hi: int, code: str, *, bare: int = HOUR, off: bool = True) -> int:
    """Seconds from '48h', '2d', '1d12h', '90m' or a bare number of ``bare`` units (36: hours);
    'off' / 0 is 0 when ``off``. Otherwise the value must lie in [lo, hi] seconds: 0.0001 (hours)
    is refused, not rounded down to "off"."""
    if isinstance(raw, str):
        text = raw.strip().lower()
        if off and text in OFF_WORDS:
            return 0
        m = _DURATION.fullmatch(text) if len(text) <= MAX_TEXT else None
        if m and any(m.groups()):
            d, h, mi = (int(x or 0) for x in m.groups())
            seconds: float = d * DAY + h * HOUR + mi * 60
        else:
            number = _number(text)
            if number is None:
                raise UserError(code, value=show(raw), lo=lo, hi=hi)
            seconds = number * bare
    else:
        number = _number(raw)
        if number is None:
            raise UserError(code, value=show(raw), lo=lo, hi=hi)
        seconds = number * bare
    if off and seconds == 0:
        return 0
    if (isinstance(seconds, float) and not math.isfinite(seconds)) or not lo <= seconds <= hi:
        raise UserError(code, value=show(raw), lo=lo, hi=hi)
    return int(seconds)


def choice(raw: Any, choices: tuple[str, ...], code: str, words: dict[str, str] | None = None, **params: Any) -> str:
    """One of ``choices`` (case and spaces ignored); ``words``: other words a reader may type for them."""
    text = raw.strip().lower() if isinstance(raw, str) and len(raw) <= MAX_TEXT else None
    text = (words or {}).get(text, text) if text is not None else None
    if text not in choices:
        raise UserError(code, **{**params, "value": show(raw, 20)})
    return text


# -- the timers --------------------------------------------------------------------------------------


def parse_deadline(raw: Any) -> int:
    """'48h', '2d', '1d12h', '90m', 36 (hours) -> seconds; 'off'/'none'/0 -> 0 (no deadline)."""
    return duration(raw, *DEADLINE_RANGE, "timer.bad_deadline")


def timer_settings(changes: dict[str, Any]) -> dict[str, Any]:
    """The timers among ``changes`` (deadline, policy, misses), checked."""
    out: dict[str, Any] = {}
    if "deadline" in changes:
        out["deadline"] = parse_deadline(changes["deadline"])
    if "policy" in changes:
        out["policy"] = choice(changes["policy"], POLICIES, "timer.bad_policy", POLICY_WORDS)
    if "misses" in changes:
        out["misses"] = whole(changes["misses"], *MISSES_RANGE, "timer.bad_misses")
    return out


def split_options(options: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """/partida new's options: (the game's own, the match's timers with defaults filled in)."""
    game_opts = {k: v for k, v in options.items() if k not in TIMER_KEYS}
    timers = {**TIMER_DEFAULTS, **timer_settings({k: v for k, v in options.items() if k in TIMER_KEYS})}
    return game_opts, timers


def timers_of(meta: dict[str, Any], match_note: dict[str, Any]) -> dict[str, Any]:
    """A match's timers: chosen at /partida new (its meta), changed by the host (``t_*`` in the
    match's own note, ``/partida deadline``)."""
    out = {**TIMER_DEFAULTS, **(meta.get("timers") or {})}
    for key in TIMER_KEYS:
        if f"t_{key}" in match_note:
            out[key] = match_note[f"t_{key}"]
    return out


# The match options kept in a match's meta (``NewOptions.meta``): what a rematch carries over.
MATCH_OPTIONS = ("timers", "ai", "post")


def rematch_meta(meta: dict[str, Any], match_note: dict[str, Any], old_id: int) -> dict[str, Any]:
    """The meta of a rematch of a match: the same options (the timers as they stand now, the AI
    level, the post mode); the game's own options are copied with the match's ``options``."""
    out = {k: meta[k] for k in MATCH_OPTIONS if k in meta}
    out["timers"] = timers_of(meta, match_note)
    return {**out, "rematch_of": old_id}


# -- /partida new options:... ------------------------------------------------------------------------


def _finite_only(text: str) -> Any:
    raise ValueError(text)


def parse_option_text(text: str | None) -> dict[str, Any]:
    """'rounds=3 purple=true' -> {"rounds": 3, "purple": True}. A value that is not JSON stays a
    word; NaN, Infinity and numbers too large for a float stay words too (every parser refuses them)."""
    out: dict[str, Any] = {}
    for part in (text or "").replace(",", " ").split():
        key, sep, raw = part.partition("=")
        if not sep or not key:
            raise UserError("bad_option_text")
        try:
            value = json.loads(raw, parse_constant=_finite_only)
            if isinstance(value, float) and not math.isfinite(value):  # 1e400
                value = raw
        except (ValueError, RecursionError):  # not JSON, a 4,301-digit number, 2,000 '[': the word itself
            value = raw
        out[key] = value
    return out


@dataclasses.dataclass(frozen=True)
class NewOptions:
    """What ``/partida new options:...`` asks for, every part checked."""

    game: dict[str, Any]  # the game's own options, as its engine accepted them
    timers: dict[str, Any]  # deadline (seconds), policy, misses
    ai: str | None = None  # how the match's AI seats play
    post: str | None = None  # "edit" (one board message edited in place) or "new"; None: DEFAULT_POST

    def meta(self) -> dict[str, Any]:
        """The match's meta: what a rematch copies (``bot/table.py``)."""
        return {"timers": dict(self.timers), **({"ai": self.ai} if self.ai else {}), "post": self.post or DEFAULT_POST}


def new_options(game_key: str, text: str | None) -> NewOptions:
    """/partida new's options for ``game_key``: the text parsed, the bot's options checked and the
    rest handed to the game's engine. Refusals are ``UserError`` (one line, en/es)."""
    opts, timers = split_options(parse_option_text(text))
    level = opts.pop("ai", None)  # ai=easy|normal|strong: how the match's AI seats play
    if level is not None:
        level = choice(level, AI_LEVELS, "bad_ai_level", level=show(level, 20))
    post = opts.pop("post", None)  # post=new|edit: a board post each turn, or one edited in place
    if post is not None:
        post = choice(post, POST_MODES, "bad_post_mode", mode=show(post, 20))
    check_game_options(game_key, opts)
    return NewOptions(opts, timers, level, post)


def check_game_options(game_key: str, opts: dict[str, Any]) -> None:
    try:
        registry.get(game_key).parse_options(opts)
    except EngineError as e:
        raise UserError("bad_options", reason=e.reason, game=game_key, options=opts) from None
