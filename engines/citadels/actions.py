"""Citadels options and actions: one declaration per action gives its JSON model, code and token."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Annotated, Any, Literal, Union

from pydantic import ConfigDict, Field, create_model

from ..core import StrictModel
from .cards import CARD_ID, CARD_OF_ID, CHARACTERS, RANK


class _Strict(StrictModel):
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


class Options(_Strict):
    """Match options. Each ``rankN`` picks the base character or its Dark City alternate.

    ``rank9``: None = automatic (the Queen is added with 8 players, nobody with fewer);
    "none" = no rank-9 character (refused with 8 players); "artist" / "queen" = include it
    (the Queen needs 5+ players).
    """

    dark_city: bool = False
    rank1: Literal["assassin", "witch"] = "assassin"
    rank2: Literal["thief", "tax_collector"] = "thief"
    rank3: Literal["magician", "wizard"] = "magician"
    rank4: Literal["king", "emperor"] = "king"
    rank5: Literal["bishop", "abbot"] = "bishop"
    rank6: Literal["merchant", "alchemist"] = "merchant"
    rank7: Literal["architect", "navigator"] = "architect"
    rank8: Literal["warlord", "diplomat"] = "warlord"
    rank9: Literal["artist", "queen", "none"] | None = None
    districts_to_end: Literal[7, 8] = 8
    # "any": as the seed says, a called player does the action (gold or cards), the builds and the
    # character's power in any order; "classic": the action first, and the Warlord, Diplomat and
    # Navigator powers only after it (the Warlord and Diplomat then end the building).
    turn_order: Literal["any", "classic"] = "any"


CharacterId = Literal[CHARACTERS]  # type: ignore[valid-type]

# -- one declaration per action -------------------------------------------------------------------
#
# Each action is declared once, here. From the declaration come: its JSON model (pydantic, below),
# its compact code inside the engine (``(type, *values)``, see ``to_code``/``to_json``), the compact
# token the Discord buttons carry (``to_token``/``from_token``) and the key of the bot's story line.
# Argument kinds and their code values:
#   character - a character id (str)           card - a district card (int; JSON its id "manor#2")
#   seat      - a seat number (int)            take - "gold" or "cards"
#   flag      - a JSON boolean (code 0 or 1)   pay  - a tribute: JSON {"pay": "gold"} or
#                                                     {"pay": "card", "card": id}; code -1 or the card


@dataclass(frozen=True)
class Arg:
    name: str  # the JSON key
    kind: str  # character | card | seat | take | flag | pay
    optional: bool = False  # a flag that may be left out (false)


@dataclass(frozen=True)
class Decl:
    type: str  # the JSON "type" and the first item of the code
    token: str  # the button token's head (never change: tokens live in Discord messages)
    args: tuple[Arg, ...] = ()
    # the keys of the public story line and of the mover's own label (button or menu entry) in
    # bot/games/citadels.py; {name} takes an argument's value ("gold"/"cards", "yes"/"no" for a flag)
    story: str = ""
    label: str = ""
    # the character whose power this action is (None: anybody's action)
    power: str | None = None
    # the argument naming the district this action builds, and the flag argument that must be set
    # for it to build (""/"" : it builds nothing)
    builds: str = ""
    builds_if: str = ""
    # a secret step: only the mover knows the choice (its events are private); consecutive secret
    # steps need no board post between them
    secret: bool = False
    # the action that ends the mover's turn
    ends: bool = False

    @property
    def model_name(self) -> str:
        return "".join(w.capitalize() for w in self.type.split("_"))


def _a(name: str, kind: str, optional: bool = False) -> Arg:
    return Arg(name, kind, optional)


DECLS: tuple[Decl, ...] = (
    Decl("draft", "dr", (_a("character", "character"),), "s_draft", "take", secret=True),
    Decl("discard_character", "dc", (_a("character", "character"),), "s_discard_character", "set_aside", secret=True),
    Decl("income", "in", (_a("take", "take"),), "s_income_{take}", "b_{take}"),
    Decl("keep", "kp", (_a("card", "card"),), "s_keep", "b_keep"),
    Decl("build", "b", (_a("district", "card"),), "s_build", "l_build", builds="district"),
    Decl("end_turn", "end", (), "s_end_turn", "b_end", ends=True),
    Decl("thank", "thx", (), "s_thank", "b_thank"),
    Decl("collect", "col", (), "s_collect", "b_collect"),
    Decl("murder", "mu", (_a("character", "character"),), "s_murder", "b_murder", power="assassin"),
    Decl("bewitch", "bw", (_a("character", "character"),), "s_bewitch", "b_bewitch", power="witch"),
    Decl("rob", "rb", (_a("character", "character"),), "s_rob", "b_rob", power="thief"),
    Decl("swap_hands", "sw", (_a("seat", "seat"),), "s_swap_hands", "b_swap", power="magician"),
    Decl("magician_discard", "md", (_a("card", "card"),), "s_magician_discard", "l_mdiscard", power="magician"),
    Decl("magician_draw", "mdr", (), "s_magician_draw", "b_mdraw", power="magician"),
    Decl("wizard_look", "wl", (_a("seat", "seat"),), "s_wizard_look", "b_look", power="wizard"),
    Decl("wizard_take", "wt", (_a("card", "card"), _a("build", "flag", optional=True)), "s_wizard_take_{build}", "l_wtake_{build}",
         power="wizard", builds="card", builds_if="build"),
    Decl("give_crown", "gc", (_a("seat", "seat"),), "s_give_crown", "b_crown", power="emperor"),
    Decl("tribute", "tr", (_a("pay", "pay"),), "s_tribute_{pay}", "l_tribute_{pay}"),
    Decl("abbot_take", "ab", (_a("seat", "seat"),), "s_abbot_take", "b_abbot", power="abbot"),
    Decl("navigate", "nv", (_a("take", "take"),), "s_navigate_{take}", "b_nav_{take}", power="navigator"),
    Decl("destroy", "de", (_a("district", "card"),), "s_destroy", "l_destroy", power="warlord"),
    Decl("exchange", "ex", (_a("give", "card"), _a("take", "card")), "s_exchange", "l_exchange", power="diplomat"),
    Decl("beautify", "bt", (_a("district", "card"),), "s_beautify", "l_beautify", power="artist"),
    Decl("laboratory", "lab", (_a("card", "card"),), "s_laboratory", "l_lab"),
    Decl("smithy", "smi", (), "s_smithy", "b_smithy"),
    Decl("museum", "mus", (_a("card", "card"),), "s_museum", "l_museum"),
    Decl("armory", "arm", (_a("district", "card"),), "s_armory", "l_armory"),
    Decl("graveyard", "gy", (_a("take", "flag"),), "s_graveyard_{take}", "b_gy_{take}"),
    Decl("lighthouse", "lh", (_a("card", "card"),), "s_lighthouse", "l_lighthouse"),
    Decl("bell_tower", "bell", (_a("announce", "flag"),), "s_bell_{announce}", "b_bell_{announce}"),
)
BY_TYPE = {d.type: d for d in DECLS}
BY_TOKEN = {d.token: d for d in DECLS}


# -- the JSON models, built from the declarations --------------------------------------------------

_FIELD_TYPES: dict[str, Any] = {
    "character": CharacterId,
    "card": str,
    "seat": int,
    "take": Literal["gold", "cards"],
    "flag": bool,
}


def _model(d: Decl) -> type[_Strict]:
    fields: dict[str, Any] = {"type": (Literal[d.type], ...)}  # type: ignore[valid-type]
    for arg in d.args:
        if arg.kind == "pay":
            fields["pay"] = (Literal["gold", "card"], ...)
            fields["card"] = (str | None, None)
        else:
            fields[arg.name] = (_FIELD_TYPES[arg.kind], False if arg.optional else ...)
    return create_model(d.model_name, __base__=_Strict, **fields)


MODELS: dict[str, type[_Strict]] = {d.type: _model(d) for d in DECLS}
Action = Annotated[Union[tuple(MODELS.values())], Field(discriminator="type")]  # noqa: UP007


# -- code <-> JSON <-> token ---------------------------------------------------------------------


class DeclError(ValueError):
    """A JSON action or token that no declaration reads; ``code`` names the problem."""

    def __init__(self, code: str, reason: str) -> None:
        super().__init__(reason)
        self.code = code
        self.reason = reason


def _card(cid: Any) -> int:
    c = CARD_OF_ID.get(cid) if isinstance(cid, str) else None
    if c is None:
        raise DeclError("unknown_card", f"unknown district card {str(cid)[:40]!r}")
    return c


def to_json(code: tuple) -> dict[str, Any]:
    d = BY_TYPE.get(code[0]) if isinstance(code, tuple) and code else None
    if d is None or len(code) != len(d.args) + 1:
        raise DeclError("bad_action", f"unknown action code {code!r}")
    out: dict[str, Any] = {"type": d.type}
    for arg, v in zip(d.args, code[1:], strict=True):
        if arg.kind == "card":
            out[arg.name] = CARD_ID[v]
        elif arg.kind == "flag":
            out[arg.name] = bool(v)
        elif arg.kind == "pay":
            out.update({"pay": "gold"} if v == -1 else {"pay": "card", "card": CARD_ID[v]})
        else:
            out[arg.name] = v
    return out


def to_code(a: dict[str, Any]) -> tuple:
    d = BY_TYPE.get(a.get("type"))  # type: ignore[arg-type]
    if d is None:
        raise DeclError("bad_action", f"unknown action type {str(a.get('type'))[:40]!r}")
    values: list[Any] = [d.type]
    for arg in d.args:
        v = a.get(arg.name)
        if arg.kind == "character":
            if v not in RANK:
                raise DeclError("unknown_character", f"unknown character {str(v)[:40]!r}")
        elif arg.kind == "card":
            v = _card(v)
        elif arg.kind == "seat":
            if not isinstance(v, int) or isinstance(v, bool):
                raise DeclError("bad_seat", "seat must be an integer")
        elif arg.kind == "take":
            if v not in ("gold", "cards"):
                raise DeclError("bad_action", "take must be 'gold' or 'cards'")
        elif arg.kind == "flag":
            v = 1 if v else 0
        elif arg.kind == "pay":
            if v == "gold":
                if a.get("card") is not None:
                    raise DeclError("bad_action", "a gold tribute names no card")
                v = -1
            elif v == "card":
                v = _card(a.get("card"))
            else:
                raise DeclError("bad_action", "pay must be 'gold' or 'card'")
        values.append(v)
    return tuple(values)


_TOKEN_RE = re.compile(r"^[A-Za-z0-9_.\-]{1,80}$")


def _enc(did: str) -> str:
    return did.replace("#", ".")


def _dec(arg: str) -> str:
    kind, dot, copy = arg.rpartition(".")
    did = f"{kind}#{copy}"
    if not dot or did not in CARD_OF_ID:
        raise DeclError("unknown_card", f"unknown district {arg[:40]!r}")
    return did


def to_token(a: dict[str, Any]) -> str:
    """The compact token of a JSON action (at most 80 characters of [A-Za-z0-9_.-])."""
    d = BY_TYPE[a["type"]]
    parts = [d.token]
    for arg in d.args:
        v = a.get(arg.name)
        if arg.kind == "card":
            parts.append(_enc(v))
        elif arg.kind == "flag":
            parts.append("1" if v else "0")
        elif arg.kind == "pay":
            parts.append("gold" if v == "gold" else _enc(a["card"]))
        else:
            parts.append(str(v))
    return "-".join(parts)


def from_token(token: str) -> dict[str, Any]:
    """The JSON action of a token; DeclError (a ValueError) when it is not one."""
    if not isinstance(token, str) or not _TOKEN_RE.match(token):
        raise DeclError("bad_token", "malformed token")
    head, *values = token.split("-")
    d = BY_TOKEN.get(head)
    if d is None or len(values) != len(d.args):
        raise DeclError("bad_token", f"malformed token {token[:80]!r}")
    out: dict[str, Any] = {"type": d.type}
    for arg, v in zip(d.args, values, strict=True):
        if arg.kind == "character":
            if v not in RANK:
                raise DeclError("unknown_character", f"unknown character {v!r}")
            out[arg.name] = v
        elif arg.kind == "card":
            out[arg.name] = _dec(v)
        elif arg.kind == "seat":
            if not v.isdigit() or len(v) > 2:
                raise DeclError("bad_seat", f"bad seat {v!r}")
            out[arg.name] = int(v)
        elif arg.kind == "take":
            if v not in ("gold", "cards"):
                raise DeclError("bad_token", f"malformed token {token[:80]!r}")
            out[arg.name] = v
        elif arg.kind == "flag":
            if v not in ("0", "1"):
                raise DeclError("bad_token", f"malformed token {token[:80]!r}")
            out[arg.name] = v == "1"
        elif arg.kind == "pay":
            out.update({"pay": "gold"} if v == "gold" else {"pay": "card", "card": _dec(v)})
    return out


def _words(d: Decl, a: dict[str, Any]) -> dict[str, Any]:
    return {arg.name: ("yes" if a.get(arg.name) else "no") if arg.kind == "flag" else a.get(arg.name) for arg in d.args}


def story_key(a: dict[str, Any]) -> str:
    """The key of the public story line of a JSON action (see Decl.story)."""
    d = BY_TYPE[a["type"]]
    return d.story.format(**_words(d, a))


def targeting_characters() -> frozenset[str]:
    """The characters whose power names another character (murder, rob, bewitch...)."""
    return frozenset(d.power for d in DECLS if d.power and any(a.kind == "character" for a in d.args))


def built(a: dict[str, Any]) -> str | None:
    """The district a JSON action builds (its id), or None when it builds nothing."""
    d = BY_TYPE.get(a.get("type"))  # type: ignore[arg-type]
    if d is None or not d.builds or (d.builds_if and not a.get(d.builds_if)):
        return None
    return a.get(d.builds)


def ends_turn(a: dict[str, Any]) -> bool:
    """Does the JSON action end the mover's turn (see Decl.ends)?"""
    d = BY_TYPE.get(a.get("type"))  # type: ignore[arg-type]
    return bool(d and d.ends)


def is_secret(a: dict[str, Any]) -> bool:
    """A secret step: only the mover knows its choice (see Decl.secret)."""
    d = BY_TYPE.get(a.get("type"))  # type: ignore[arg-type]
    return bool(d and d.secret)


def label_key(a: dict[str, Any]) -> str:
    """The key of the mover's label of a JSON action (see Decl.label)."""
    d = BY_TYPE[a["type"]]
    return d.label.format(**_words(d, a))
