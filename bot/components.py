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


class PickSelect(discord.ui.DynamicItem[discord.ui.Select], template=r"p:s:(?P<mid>\d+):(?P<ver>\d+)"):
    def __init__(self, mid: int, ver: int, options: list[discord.SelectOption] | None = None, placeholder: str | None = None) -> None:
        select: discord.ui.Select = discord.ui.Select(
            custom_id=f"p:s:{mid}:{ver}", options=options or [discord.SelectOption(label="-")], placeholder=placeholder
        )
        super().__init__(select)
        self.mid, self.ver = mid, ver

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Select, match: re.Match[str]):
        return cls(int(match["mid"]), int(match["ver"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        values = (interaction.data or {}).get("values") or []  # type: ignore[union-attr]
        await _flows(interaction).on_pick(interaction, self.mid, self.ver, values[0] if values else "")


class DoButton(discord.ui.DynamicItem[discord.ui.Button], template=r"p:d:(?P<mid>\d+):(?P<ver>\d+):(?P<tok>[A-Za-z0-9_.\-]{1,80})"):
    def __init__(self, mid: int, ver: int, token: str, label: str = "", style: str = "secondary") -> None:
        super().__init__(
            discord.ui.Button(label=(label or token)[:80], style=STYLES.get(style, STYLES["secondary"]), custom_id=f"p:d:{mid}:{ver}:{token}")
        )
        self.mid, self.ver, self.token = mid, ver, token

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]):
        return cls(int(match["mid"]), int(match["ver"]), match["tok"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await _flows(interaction).on_do(interaction, self.mid, self.ver, self.token)


ALL = (LobbyButton, TurnButton, PickSelect, DoButton)
