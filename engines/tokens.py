"""One declaration per action: the compact token a Discord button carries, read and written from it.

A game's ``actions.py`` lists a :class:`Decl` per action (several when one JSON type has forms with
different keys, e.g. Cities' ``decline`` of a tile, a feature or a piece); :class:`Codec` turns a
JSON action into its token and back from those declarations only. The declaration also names the
keys of the action's words in the bot (its public story line and the mover's label), so button
ids, labels, parsers and move words all come from the one place. (Citadels has its own richer
declarations in engines/citadels/actions.py, which this follows.)

Tokens are at most 80 characters of ``[A-Za-z0-9_.-]``; never change a declared token: tokens
live in Discord messages for as long as the buttons do.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

TOKEN_RE = re.compile(r"^[A-Za-z0-9_.\-]{1,80}$")


@dataclass(frozen=True)
class Arg:
    name: str  # the JSON key
    pattern: str  # a regular expression of its token form (no groups)
    kind: str = "str"  # "int" or "str" (its JSON type)
    optional: bool = False  # may be null/absent in JSON; the token then leaves it out
    sep: str = "."  # what comes before it in the token


@dataclass(frozen=True)
class Decl:
    type: str  # the JSON "type"
    token: str  # the token's head
    args: tuple[Arg, ...] = ()
    story: str = ""  # the key of the public story line (bot/games/<game>.py)
    label: str = ""  # the key of the mover's label (button or menu entry)
    fixed: dict[str, Any] = field(default_factory=dict)  # JSON keys every such action has

    def regex(self) -> re.Pattern[str]:
        parts = [re.escape(self.token)]
        for a in self.args:
            part = f"{re.escape(a.sep)}({a.pattern})"
            parts.append(f"(?:{part})?" if a.optional else part)
        return re.compile("^" + "".join(parts) + "$")

    def matches(self, action: dict[str, Any]) -> bool:
        """Is ``action`` of this declaration (its type, fixed keys and required arguments)?"""
        if action.get("type") != self.type or any(action.get(k) != v for k, v in self.fixed.items()):
            return False
        return all(a.optional or action.get(a.name) is not None for a in self.args)


class Codec:
    """Tokens of a game's declared actions."""

    def __init__(self, decls: tuple[Decl, ...]) -> None:
        self.decls = decls
        self._res = [(d, d.regex()) for d in decls]
        heads = [d.token for d in decls]
        if len(set(heads)) != len(heads):
            raise ValueError("two declarations share a token head")

    def decl(self, action: dict[str, Any]) -> Decl:
        """The declaration of a JSON action; ValueError when none declares it."""
        for d in self.decls:
            if d.matches(action):
                return d
        raise ValueError(f"not a declared action: {str(action)[:120]}")

    def to_token(self, action: dict[str, Any]) -> str:
        d = self.decl(action)
        out = d.token
        for a in d.args:
            v = action.get(a.name)
            if v is None:
                continue
            out += a.sep + (str(int(v)) if a.kind == "int" else str(v))
        if not TOKEN_RE.match(out):
            raise ValueError(f"token {out[:90]!r} is not [A-Za-z0-9_.-]{{1,80}}")
        return out

    def from_token(self, token: str) -> dict[str, Any]:
        """The JSON action of a token; ValueError when no declaration reads it."""
        if not isinstance(token, str) or not TOKEN_RE.match(token):
            raise ValueError("malformed token")
        for d, rx in self._res:
            m = rx.match(token)
            if m is None:
                continue
            out: dict[str, Any] = {"type": d.type, **d.fixed}
            for a, v in zip(d.args, m.groups(), strict=True):
                if v is None:
                    out[a.name] = None
                else:
                    out[a.name] = int(v) if a.kind == "int" else v
            return out
        raise ValueError(f"malformed token {token[:80]!r}")
