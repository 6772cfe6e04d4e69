"""Commands about time: ``/partida deadline`` and ``/partida headsup`` (added to the /partida group by
``bot/discord/commands.py``), ``/away`` and ``/quiet`` (a person's settings across all their matches)."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.app_commands import locale_str as _
from discord.ext import commands

from ..core.timers import AWAY_DAYS_PER_MATCH, settings_of, settings_text
from ..i18n import lang_of, t
from .flows import ack, handle_error, reply


async def deadline(bot: Any, interaction: discord.Interaction, time: str | None, policy: str | None, misses: int | None) -> None:
    """/partida deadline: show the match's timers; the host changes them."""
    await ack(interaction, ephemeral=True, thinking=True)
    lang = await bot.flows.note_locale(interaction)
    loaded = await bot.service.in_channel(interaction.channel_id)
    rec = loaded.record
    if time is None and policy is None and misses is None:
        cfg = settings_of(rec, await bot.service.notes(rec.id))
    else:
        cfg = await bot.timers.set_timers(rec, interaction.user.id, {"deadline": time, "policy": policy, "misses": misses})
    await reply(interaction, settings_text(cfg, lang))


async def headsup(bot: Any, interaction: discord.Interaction, on: bool) -> None:
    """/partida headsup: be told when the player before you starts their turn."""
    await ack(interaction, ephemeral=True, thinking=True)
    lang = await bot.flows.note_locale(interaction)
    loaded = await bot.service.in_channel(interaction.channel_id)
    await bot.timers.set_headsup(loaded.record, interaction.user.id, on)
    await reply(interaction, t("headsup.on" if on else "headsup.off", lang, id=loaded.record.id))


class TimeCog(commands.Cog):
    """/away and /quiet: a person's own clock, for every match at once; /mentions: how their turns
    reach them; /autoend: whether a turn whose only move left is its end ends by itself."""

    def __init__(self, bot: Any) -> None:
        self.bot = bot

    async def cog_app_command_error(self, interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
        await handle_error(interaction, error)

    @app_commands.command(name=_("away"), description=_("Away for some days: your deadlines pause in all your matches"))
    @app_commands.rename(days=_("days"))
    @app_commands.describe(days=_("How many days (0: I am back)"))
    async def away(self, interaction: discord.Interaction, days: app_commands.Range[int, 0, AWAY_DAYS_PER_MATCH]) -> None:
        lang = lang_of(interaction.locale)
        await ack(interaction, ephemeral=True, thinking=True)
        await self.bot.flows.note_locale(interaction)
        until, recs = await self.bot.timers.set_away(interaction.user.id, days)
        if until is None:
            await reply(interaction, t("away.back", lang))
        else:
            await reply(interaction, t("away.set", lang, until=f"<t:{int(until.timestamp())}:f>", n=len(recs)))

    @app_commands.command(name=_("quiet"), description=_("Quiet hours: no DMs or mentions, and your deadlines pause"))
    @app_commands.rename(start=_("start"), end=_("end"), timezone=_("timezone"))
    @app_commands.describe(start=_("From, e.g. 23:00 (off to remove)"), end=_("Until, e.g. 08:00"), timezone=_("Your time zone, e.g. Europe/Madrid"))
    async def quiet(self, interaction: discord.Interaction, start: str, end: str | None = None, timezone: str | None = None) -> None:
        lang = lang_of(interaction.locale)
        await ack(interaction, ephemeral=True, thinking=True)
        await self.bot.flows.note_locale(interaction)
        person = await self.bot.timers.set_quiet(interaction.user.id, start, end, timezone)
        if person.get("quiet_start"):
            await reply(interaction, t("quiet.set", lang, start=person["quiet_start"], end=person["quiet_end"], zone=person["tz"]))
        else:
            await reply(interaction, t("quiet.off", lang))

    @app_commands.command(name=_("mentions"), description=_("Be mentioned in the channel on your turns too (by default the turn DM alone tells you)"))
    @app_commands.rename(on=_("on"))
    @app_commands.describe(on=_("True: a mention in the channel as well; False: the turn DM only"))
    async def mentions(self, interaction: discord.Interaction, on: bool) -> None:
        """The person's ``channel_pings`` setting (their person_settings row, every match): the board
        post of their turn mentions them although the turn DM reached them."""
        lang = lang_of(interaction.locale)
        await ack(interaction, ephemeral=True, thinking=True)
        await self.bot.flows.note_locale(interaction)
        await self.bot.store.set_person(interaction.user.id, {"channel_pings": True if on else None})
        await reply(interaction, t("mentions.on" if on else "mentions.off", lang))

    @app_commands.command(name=_("autoend"), description=_("End your turn by itself when that is the only move left (on by default)"))
    @app_commands.rename(on=_("on"))
    @app_commands.describe(on=_("True: ended for you; False: an End turn button"))
    async def autoend(self, interaction: discord.Interaction, on: bool) -> None:
        """The person's ``auto_end`` setting (their person_settings row, every match): when ending
        the turn is their only legal move, it is taken for them at once (``Presenter.take_auto``);
        off, they get the "End turn" button. On by default: only "off" is stored."""
        lang = lang_of(interaction.locale)
        await ack(interaction, ephemeral=True, thinking=True)
        await self.bot.flows.note_locale(interaction)
        await self.bot.store.set_person(interaction.user.id, {"auto_end": None if on else False})
        await reply(interaction, t("autoend.on" if on else "autoend.off", lang))


async def setup(bot: Any) -> None:
    """Called by ``bot.discord.commands.setup`` (the timers themselves are built by the client's set-up)."""
    await bot.add_cog(TimeCog(bot))
