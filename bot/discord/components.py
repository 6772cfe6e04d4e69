"""Buttons and selects that survive restarts.

Every component is a ``DynamicItem``: its custom_id (at most 100 characters) carries the match id,
the match version it was drawn for, and what it does, so a click after a restart, or on an old
message, is understood without any in-memory state. The callbacks hand over to ``bot.flows``.
"""

from __future__ import annotations

import re
from typing import Any

import discord

STYLES = {
    "primary": discord.ButtonStyle.primary,
    "secondary": discord.ButtonStyle.secondary,
    "success": discord.ButtonStyle.success,
    "danger": discord.ButtonStyle.danger,
}


def _flows(interaction: discord.Interaction) -> Any:
    return interaction.client.flows  # type: ignore[attr-defined]


class LobbyButton(discord.ui.DynamicItem[discord.ui.Button], template=r"p:l:(?P<act>join|leave|start|ai):(?P<mid>\d+):(?P<ver>\d+)"):
    def __init__(self, act: str, mid: int, ver: int, label: str = "", style: str = "secondary") -> None:
        super().__init__(discord.ui.Button(label=label or act, style=STYLES[style], custom_id=f"p:l:{act}:{mid}:{ver}"))
        self.act, self.mid, self.ver = act, mid, ver

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]):
        return cls(match["act"], int(match["mid"]), int(match["ver"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await _flows(interaction).on_lobby(interaction, self.act, self.mid, self.ver)


class TurnButton(discord.ui.DynamicItem[discord.ui.Button], template=r"p:t:(?P<mid>\d+):(?P<ver>\d+)"):
    def __init__(self, mid: int, ver: int, label: str = "Take your turn") -> None:
        super().__init__(discord.ui.Button(label=label, style=discord.ButtonStyle.primary, custom_id=f"p:t:{mid}:{ver}"))
        self.mid, self.ver = mid, ver

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]):
        return cls(int(match["mid"]), int(match["ver"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await _flows(interaction).on_turn(interaction, self.mid, self.ver)


class PickSelect(discord.ui.DynamicItem[discord.ui.Select], template=r"p:s:(?P<mid>\d+):(?P<ver>\d+)(?::(?P<i>[1-4]))?"):
    """A turn's select; ``index`` tells apart the further selects of one message (Controls.more_selects)."""

    def __init__(self, mid: int, ver: int, options: list[discord.SelectOption] | None = None, placeholder: str | None = None,
                 index: int = 0) -> None:
        select: discord.ui.Select = discord.ui.Select(
            custom_id=f"p:s:{mid}:{ver}" + (f":{index}" if index else ""), options=options or [discord.SelectOption(label="-")],
            placeholder=placeholder,
        )
        super().__init__(select)
        self.mid, self.ver = mid, ver

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Select, match: re.Match[str]):
        return cls(int(match["mid"]), int(match["ver"]), index=int(match["i"] or 0))

    async def callback(self, interaction: discord.Interaction) -> None:
        values = (interaction.data or {}).get("values") or []  # type: ignore[union-attr]
        await _flows(interaction).on_pick(interaction, self.mid, self.ver, values[0] if values else "")


class DoButton(discord.ui.DynamicItem[discord.ui.Button], template=r"p:d:(?P<mid>\d+):(?P<ver>\d+):(?P<tok>[A-Za-z0-9_.\-]{1,80})"):
    def __init__(self, mid: int, ver: int, token: str, label: str = "", style: str = "secondary", row: int | None = None) -> None:
        super().__init__(
            discord.ui.Button(label=(label or token)[:80], style=STYLES.get(style, STYLES["secondary"]), custom_id=f"p:d:{mid}:{ver}:{token}"),
            row=row,
        )
        self.mid, self.ver, self.token = mid, ver, token

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]):
        return cls(int(match["mid"]), int(match["ver"]), match["tok"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await _flows(interaction).on_do(interaction, self.mid, self.ver, self.token)


ALL = (LobbyButton, TurnButton, PickSelect, DoButton)


# -- the table (bot/discord/table_ui.py): undo, votes, abandon, seats, rematch, log pages ---------------------


def _table(interaction: discord.Interaction) -> Any:
    return interaction.client.table_flows  # type: ignore[attr-defined]  (made by the client's set-up)


def _button(label: str, custom_id: str, style: str) -> discord.ui.Button:
    return discord.ui.Button(label=label[:80], style=STYLES[style], custom_id=custom_id)


class UndoButton(discord.ui.DynamicItem[discord.ui.Button], template=r"p:u:(?P<mid>\d+):(?P<ver>\d+)"):
    """Take back my last action. ``ver``: the version the button was drawn at; the match may have
    moved on since (then the others approve), but an undo made since that version is not made twice."""

    def __init__(self, mid: int, ver: int, label: str = "Undo") -> None:
        super().__init__(_button(label, f"p:u:{mid}:{ver}", "secondary"))
        self.mid, self.ver = mid, ver

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]):
        return cls(int(match["mid"]), int(match["ver"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await _table(interaction).on_undo(interaction, self.mid, self.ver)


class VoteButton(discord.ui.DynamicItem[discord.ui.Button], template=r"p:v:(?P<mid>\d+):(?P<vid>[0-9a-f]{8}):(?P<yes>[yn])"):
    def __init__(self, mid: int, vid: str, yes: bool, label: str = "") -> None:
        flag = "y" if yes else "n"
        super().__init__(_button(label or flag, f"p:v:{mid}:{vid}:{flag}", "success" if yes else "danger"))
        self.mid, self.vid, self.yes = mid, vid, yes

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]):
        return cls(int(match["mid"]), match["vid"], match["yes"] == "y")

    async def callback(self, interaction: discord.Interaction) -> None:
        await _table(interaction).on_vote(interaction, self.mid, self.vid, self.yes)


class AbandonButton(discord.ui.DynamicItem[discord.ui.Button], template=r"p:a:(?P<mid>\d+)"):
    """The confirmation of /partida abandon (the host's abandons; anyone else's asks for a vote)."""

    def __init__(self, mid: int, label: str = "Abandon") -> None:
        super().__init__(_button(label, f"p:a:{mid}", "danger"))
        self.mid = mid

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]):
        return cls(int(match["mid"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await _table(interaction).on_abandon(interaction, self.mid)


class SeatButton(discord.ui.DynamicItem[discord.ui.Button], template=r"p:st:(?P<mid>\d+):(?P<seat>\d+)"):
    """Accept the host's invitation to an AI seat (checked against the invitee's note)."""

    def __init__(self, mid: int, seat: int, label: str = "Take the seat") -> None:
        super().__init__(_button(label, f"p:st:{mid}:{seat}", "primary"))
        self.mid, self.seat = mid, seat

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]):
        return cls(int(match["mid"]), int(match["seat"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await _table(interaction).on_take_seat(interaction, self.mid, self.seat)


class RematchButton(discord.ui.DynamicItem[discord.ui.Button], template=r"p:rm:(?P<mid>\d+)"):
    def __init__(self, mid: int, label: str = "Rematch") -> None:
        super().__init__(_button(label, f"p:rm:{mid}", "success"))
        self.mid = mid

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]):
        return cls(int(match["mid"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await _table(interaction).on_rematch(interaction, self.mid)


class LogButton(discord.ui.DynamicItem[discord.ui.Button], template=r"p:g:(?P<mid>\d+):(?P<page>\d+)"):
    """Older / newer page of /partida log (edits the ephemeral message in place)."""

    def __init__(self, mid: int, page: int, label: str = "", disabled: bool = False) -> None:
        button = _button(label or str(page + 1), f"p:g:{mid}:{page}", "secondary")
        button.disabled = disabled
        super().__init__(button)
        self.mid, self.page = mid, page

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]):
        return cls(int(match["mid"]), int(match["page"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await _table(interaction).on_log_page(interaction, self.mid, self.page)


ALL = (*ALL, UndoButton, VoteButton, AbandonButton, SeatButton, RematchButton, LogButton)


# -- plans made ahead (issue 21): the button under a move's answer and the select it opens ----------------


class PlanButton(discord.ui.DynamicItem[discord.ui.Button], template=r"p:pl:(?P<mid>\d+)"):
    """"Plan ahead": shows the player, privately, what they may plan now (one select)."""

    def __init__(self, mid: int, label: str = "Plan ahead") -> None:
        super().__init__(_button(label, f"p:pl:{mid}", "secondary"))
        self.mid = mid

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]):
        return cls(int(match["mid"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await _flows(interaction).on_plan_menu(interaction, self.mid)


class PlanSelect(discord.ui.DynamicItem[discord.ui.Select], template=r"p:ps:(?P<mid>\d+)"):
    """The plan chosen (or cleared): kept at once, a note of the player's own."""

    def __init__(self, mid: int, options: list[discord.SelectOption] | None = None, placeholder: str | None = None) -> None:
        select: discord.ui.Select = discord.ui.Select(
            custom_id=f"p:ps:{mid}", options=options or [discord.SelectOption(label="-")], placeholder=placeholder,
        )
        super().__init__(select)
        self.mid = mid

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Select, match: re.Match[str]):
        return cls(int(match["mid"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        values = (interaction.data or {}).get("values") or []  # type: ignore[union-attr]
        await _flows(interaction).on_plan_pick(interaction, self.mid, values[0] if values else "")


ALL = (*ALL, PlanButton, PlanSelect)
