"""The floor under `bench/bot.py`'s "bot CPU per click": a bot that sends Discord exactly what a
Partida Lost Cities turn sends and does nothing else - no store, no engine, no drawing, no jobs.

`bench/bot.py --floor` runs this process in place of `python -m bot`, with the same people, the
same load and the same pinning, so the two CPU figures compare directly: what is left when Partida
is taken away is what discord.py and aiohttp cost for the same requests on this machine.

What it sends, as Partida does (the requests `bench/bot.py` counts on Partida; fixed bytes stand in
for the pictures, the size of a Lost Cities board and hand):

- `/partida new`: a lobby with Join and Start; Join edits the lobby (the joiner named); Start
  answers "started" and posts the first board (a picture and the turn button).
- the turn button (`p:t:`): a deferred ephemeral answer, then one follow-up with the hand's picture
  and the play and discard buttons (`p:d:...:p.N` / `x.N`);
- a play or discard: a deferred update, then the original message edited (picture, draw buttons);
- the draw (`d.deck`): a deferred update, the original edited (no picture), and the next board
  posted in the channel, the next player named in bold.

The bot is the same class Partida runs on (`commands.AutoShardedBot`, guilds intent only, buttons as
`DynamicItem`s rebuilt from the clicked message by discord.py). Run by `bench/bot.py`; not by hand.
"""

from __future__ import annotations

import asyncio
import io
import os
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import discord  # noqa: E402
from discord import app_commands  # noqa: E402
from discord.ext import commands  # noqa: E402

from tests.standin.patching import apply_env  # noqa: E402

BOARD = b"\x89PNG\r\n\x1a\n" + os.urandom(48_000)  # ~ a Lost Cities board's bytes
HAND = b"\x89PNG\r\n\x1a\n" + os.urandom(30_000)  # ~ a turn picture's
NONE = discord.AllowedMentions.none()


class Table:
    """One channel's two players and whose turn it is (in memory: a floor, not a bot)."""

    def __init__(self, host: discord.abc.User) -> None:
        self.seats: list[discord.abc.User] = [host]
        self.turn = 0
        self.cards = 8


TABLES: dict[int, Table] = {}


def board(table: Table) -> tuple[str, discord.File, discord.ui.View]:
    mover = table.seats[table.turn]
    view = discord.ui.View(timeout=None)
    view.add_item(Click(f"p:t:{table.turn}", "Take your turn", discord.ButtonStyle.primary))
    content = f"Lost Cities - round 1, {table.cards} cards in the deck. **{mover.name}** to play."
    return content, discord.File(io.BytesIO(BOARD), "board.png"), view


def hand_controls(draw: bool) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    if draw:
        view.add_item(Click("p:d:0:d.deck", "Draw from the deck", discord.ButtonStyle.primary))
        for colour in range(5):
            view.add_item(Click(f"p:d:0:d.pile{colour}", f"Take pile {colour}", discord.ButtonStyle.secondary))
        return view
    for n in range(8):
        view.add_item(Click(f"p:d:0:p.{n}", f"Play {n}", discord.ButtonStyle.success))
    for n in range(8):
        view.add_item(Click(f"p:d:0:x.{n}", f"Discard {n}", discord.ButtonStyle.secondary))
    return view


class Click(discord.ui.DynamicItem[discord.ui.Button], template=r"p:(?P<kind>[a-z]):(?P<arg>.*)"):
    """Every button of the floor bot: what it does is in its custom id, as Partida's are."""

    def __init__(self, custom_id: str, label: str = "x", style: discord.ButtonStyle = discord.ButtonStyle.secondary) -> None:
        super().__init__(discord.ui.Button(custom_id=custom_id, label=label, style=style))
        self.cid = custom_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]):
        return cls(item.custom_id, item.label or "x", item.style)

    async def callback(self, interaction: discord.Interaction) -> None:
        kind, arg = re.fullmatch(r"p:(\w):(.*)", self.cid).groups()
        table = TABLES.get(interaction.channel_id or 0)
        if kind == "j" and table is not None:  # Join: the lobby names the joiner
            table.seats.append(interaction.user)
            await interaction.response.edit_message(
                content=f"Lost Cities lobby: {' '.join(u.mention for u in table.seats)}", allowed_mentions=NONE)
        elif kind == "s" and table is not None:  # Start: "started", then the first board
            await interaction.response.send_message("The match has started.")
            content, file, view = board(table)
            await interaction.channel.send(content, file=file, view=view, allowed_mentions=NONE)
        elif kind == "t":  # the turn: a deferred ephemeral answer, then the hand and its buttons
            await interaction.response.defer(ephemeral=True, thinking=True)
            await interaction.followup.send("Your hand: play or discard a card.", file=discord.File(
                io.BytesIO(HAND), "turn.png"), view=hand_controls(False), ephemeral=True)
        elif kind == "d" and not arg.endswith("d.deck"):  # play or discard: the draw comes next
            await interaction.response.defer()
            await interaction.edit_original_response(content="Now draw a card.", attachments=[discord.File(
                io.BytesIO(HAND), "turn.png")], view=hand_controls(True))
        elif kind == "d" and table is not None:  # the draw: the turn is over, the next board
            await interaction.response.defer()
            await interaction.edit_original_response(content="You drew a card. Done.", view=None)
            table.turn = 1 - table.turn
            content, file, view = board(table)
            await interaction.channel.send(content, file=file, view=view, allowed_mentions=NONE)


class Floor(commands.AutoShardedBot):
    async def setup_hook(self) -> None:
        self.add_dynamic_items(Click)
        group = app_commands.Group(name="partida", description="Partida (floor)")

        @group.command(name="new", description="A new lobby")
        async def new(interaction: discord.Interaction, game: str, options: str | None = None) -> None:
            TABLES[interaction.channel_id] = Table(interaction.user)
            view = discord.ui.View(timeout=None)
            view.add_item(Click("p:j:0", "Join", discord.ButtonStyle.success))
            view.add_item(Click("p:s:0", "Start", discord.ButtonStyle.primary))
            await interaction.response.send_message(f"Lost Cities lobby: {interaction.user.mention}", view=view,
                                                    allowed_mentions=NONE)

        self.tree.add_command(group)
        guild = discord.Object(int(os.environ["PARTIDA_DISCORD_GUILD_ID"]))
        self.tree.copy_global_to(guild=guild)
        await self.tree.sync(guild=guild)

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        return None


async def main() -> None:
    apply_env()
    intents = discord.Intents.none()
    intents.guilds = True
    client = Floor(command_prefix=commands.when_mentioned, help_command=None, intents=intents, allowed_mentions=NONE)
    async with client:
        await client.start(os.environ["DISCORD_TOKEN"])


if __name__ == "__main__":
    asyncio.run(main())
