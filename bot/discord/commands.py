"""The slash commands, as a discord.py extension: ``/partida ...`` (one group cog) and
``/mygames``. Every command's error goes to one handler (``bot.flows.handle_error``), which also
serves buttons and selects, so a refusal or a ``Stale`` race always gets a one-line answer."""

from __future__ import annotations

import io
import json
import logging
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import locale_str as _
from discord.ext import commands

from engines import registry

from ..core.abuse import Limiter, PersonalMessages
from ..core.options import new_options, parse_option_text
from ..core.plan_words import OFF as PLAN_OFF
from ..core.plan_words import choices as plan_choices
from ..core.service import UserError
from ..core.stats import guild_stats, leaderboard_text, leaderboards, stats_text
from ..core.story import describe_move
from ..core.table import commitment
from ..core.timers import AUTOCOMPLETE as TIMER_CHOICES
from ..games import ui_for
from ..games.base import PrefsError
from ..i18n import OPTION_HELP, game_name, lang_of, t
from ..store import DamagedMatch
from . import timer_commands
from .flows import Flows, ack, handle_error, reply
from .posting import ALLOWED, Presenter, jump_link

log = logging.getLogger(__name__)


parse_options = parse_option_text  # (re-exported: bot.client, the tests)


def playable_games() -> list[str]:
    """Games with both an engine and a Discord presentation in this build."""
    return [k for k in registry.available() if ui_for(k).key == k]


def game_choices() -> list[app_commands.Choice[str]]:
    return [app_commands.Choice(name=_(registry.get(k).name), value=k) for k in playable_games()]


class ErrorsToPeople:
    """Mixed into every cog: a command's error is answered by the one error handler, and the
    person's language is remembered (their DMs speak it)."""

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        flows = getattr(interaction.client, "flows", None)
        if flows is not None:
            await flows.note_locale(interaction)
        return True

    async def cog_app_command_error(self, interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
        await handle_error(interaction, error)


class PartidaCog(ErrorsToPeople, commands.GroupCog, group_name=_("partida"), group_description=_("Play tabletop games in this channel")):
    """/partida ...: every command about the match in this channel."""

    # Abuse limits per server and person (see bot/core/abuse.py): new threads; invitation DMs share the
    # client's one budget of messages to other people (PersonalMessages: invite, seat, rematch, votes).
    THREADS_PER_HOUR = 5
    STATS_PER_MINUTE = 4  # /partida stats and /partida leaderboard together (a few stored rows each, but public)
    INVITES_PER_HOUR = PersonalMessages.PER_HOUR

    def __init__(self, bot: Any) -> None:
        self.bot = bot
        self.thread_limit = Limiter(self.THREADS_PER_HOUR, 3600.0)
        self.stats_limit = Limiter(self.STATS_PER_MINUTE, 60.0)
        super().__init__()

    @staticmethod
    def _within(limiter: Limiter, interaction: discord.Interaction) -> None:
        wait = limiter.hit((interaction.guild_id, interaction.user.id))
        if wait:
            raise UserError("slow_down", minutes=max(1, round(wait / 60)))

    @property
    def flows(self) -> Flows:
        return self.bot.flows

    @property
    def present(self) -> Presenter:
        return self.bot.present

    @app_commands.command(name=_("new"), description=_("Start a new match in this channel"))
    @app_commands.rename(game=_("game"), options=_("options"), thread=_("thread"))
    @app_commands.describe(
        game=_("Which game"), options=_("Options as key=value pairs, e.g. rounds=3 purple=true"),
        thread=_("Open the match in a new thread"),
    )
    @app_commands.choices(game=game_choices())
    async def new(self, interaction: discord.Interaction, game: str, options: str | None = None, thread: bool = False) -> None:
        await self._new(interaction, game, options, thread)

    async def _new(self, interaction: discord.Interaction, game: str, options: str | None, thread: bool) -> None:
        lang = lang_of(interaction.locale)
        if interaction.guild_id is None or interaction.channel is None:
            raise UserError("guild_only")
        if game not in playable_games():
            raise UserError("unknown_game", game=game)
        chosen = new_options(game, options)  # the game's, deadline=48h policy=... misses=..., ai=, post=: checked
        opts = chosen.game
        channel_id = interaction.channel_id
        target: Any = None
        if thread and isinstance(interaction.channel, discord.TextChannel):
            # The bot creates the thread with its own permission: the person must hold it too
            # (interaction.permissions are theirs in this channel, as Discord resolved them).
            if not interaction.permissions.create_public_threads:
                raise UserError("thread_permission")
            registry_game = self._game_or_error(game)  # the options were checked before creating anything
            self._within(self.thread_limit, interaction)
            # the options are fine: answer Discord now (public, it will point to the thread), then
            # create the thread and its lobby, which takes a few requests
            await ack(interaction, thinking=True)
            target = await interaction.channel.create_thread(
                name=f"{game_name(registry_game, lang)} · {interaction.user.display_name}"[:100], type=discord.ChannelType.public_thread
            )
            channel_id = target.id
        # channel posts speak the server's preferred language; the host's own replies, theirs
        channel_lang = lang_of(interaction.guild_locale) if interaction.guild_locale else lang
        loaded = await self.bot.service.new_lobby(
            interaction.guild_id, channel_id, game, interaction.user.id, interaction.user.display_name, opts, channel_lang,
            meta=chosen.meta(),
        )
        content, view = self.present.lobby_message(loaded, channel_lang)
        if target is not None:
            await target.send(content, view=view, allowed_mentions=ALLOWED)
            await reply(interaction, f"{target.mention}", ephemeral=False)
        else:
            await interaction.response.send_message(content, view=view, allowed_mentions=ALLOWED)

    @staticmethod
    def _game_or_error(key: str):
        try:
            return registry.get(key)
        except Exception:
            raise UserError("unknown_game", game=key) from None

    @new.autocomplete("options")
    async def _options_autocomplete(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        key = getattr(interaction.namespace, "game", None) or "lost-cities"
        lang = lang_of(interaction.locale)
        try:
            fields = registry.get(key).Options.model_fields
        except Exception:
            return []
        done = current.rsplit(" ", 1)[0] + " " if " " in current else ""
        out = []
        for name, f in fields.items():
            value = json.dumps(f.default)
            text = f"{done}{name}={value}".strip()
            help_text = OPTION_HELP.get(name, {}).get(lang) or f.description
            desc = f" ({help_text})" if help_text else ""
            out.append(app_commands.Choice(name=(text + desc)[:100], value=text[:100]))
        for name, value in (*TIMER_CHOICES, ("ai", "easy"), ("post", "new")):  # the match's own (timers: bot/core/timers.py)
            text = f"{done}{name}={value}".strip()
            out.append(app_commands.Choice(name=f"{text} ({OPTION_HELP[name][lang]})"[:100], value=text[:100]))
        return out[:25]

    @app_commands.command(name=_("play"), description=_("Make a move by typing it (the list shows your legal moves)"))
    @app_commands.rename(move=_("move"))
    @app_commands.describe(move=_("Your move"))
    async def play(self, interaction: discord.Interaction, move: str) -> None:
        await self._play(interaction, move)

    async def _play(self, interaction: discord.Interaction, move: str) -> None:
        lang = lang_of(interaction.locale)
        await ack(interaction, ephemeral=True, thinking=True)  # answer at once; the store may be busy
        loaded = await self.bot.service.in_channel(interaction.channel_id)
        if loaded.seat_of(interaction.user.id) is None:
            raise UserError("not_player")
        ui = ui_for(loaded.record.game)
        try:
            action = ui.action(move.strip())
        except (KeyError, ValueError, IndexError):
            raise UserError("bad_move", move=move[:50]) from None
        # no second read: the move is a compare-and-set on what was just read (a race is Stale)
        result = await self.bot.service.move(loaded.record.id, None, ("user", interaction.user.id), action, loaded=loaded)
        result, said = await self.bot.flows.continue_plan(result, interaction.user.id, lang)
        content, files, view = await self.present.mover_message(result, lang)
        try:
            await reply(interaction, f"{said}{content}", files=files, view=view)
        except discord.HTTPException:  # the move stands, and its jobs tell everybody else
            log.warning("could not show the result of a move in match %s to its player", loaded.record.id, exc_info=True)

    async def _seated(self, interaction: discord.Interaction) -> tuple[Any, int | None]:
        """The channel's started match and the asker's seat in it (seat None: no such match, or not
        theirs); loaded off the event loop when not cached (a marathon's snapshot and log tail)."""
        rec = await self.bot.service.store.active_in_channel(interaction.channel_id)
        if rec is None or rec.state is None:
            return None, None
        loaded = await self.bot.service.aload(rec)
        return loaded, loaded.seat_of(interaction.user.id)

    @play.autocomplete("move")
    async def _play_autocomplete(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        lang = lang_of(interaction.locale)
        loaded, seat = await self._seated(interaction)
        if seat is None or seat not in loaded.to_move():
            return []
        ui = ui_for(loaded.record.game)
        out = []
        for action in loaded.game.legal_json(loaded.state, seat):
            # a private label when the game has one (the public story hides e.g. which character is drafted)
            label = ui.label(action, lang)
            if current.lower() in label.lower():
                out.append(app_commands.Choice(name=label[:100], value=ui.token(action)))
        return out[:25]

    @app_commands.command(name=_("prefer"), description=_("Leave standing orders, e.g. your draft priority list"))
    @app_commands.rename(orders=_("orders"))
    @app_commands.describe(orders=_("Comma-separated, most wanted first (empty to clear)"))
    async def prefer(self, interaction: discord.Interaction, orders: str = "") -> None:
        await self._prefer(interaction, orders)

    async def _prefer(self, interaction: discord.Interaction, orders: str) -> None:
        lang = lang_of(interaction.locale)
        await ack(interaction, ephemeral=True, thinking=True)
        loaded = await self.bot.service.in_channel(interaction.channel_id)
        ui = ui_for(loaded.record.game)
        try:
            prefs = ui.parse_prefs(orders) if orders.strip() else []
        except PrefsError as e:
            raise UserError(e.code, **e.params) from None
        except ValueError as e:
            raise UserError("bad_prefs", reason=str(e)) from None
        done = await self.bot.service.set_prefs(loaded.record.id, interaction.user.id, prefs)
        await reply(interaction, t("prefs.saved", lang, orders=", ".join(prefs) or "-"))
        # A note of their own: nobody's buttons go stale. If it is their turn and the orders settle
        # the choice, it is made now (its own jobs then tell whoever is next).
        seat = done.seat_of(interaction.user.id)
        if prefs and done.record.status == "active" and seat in done.to_move():
            await self.bot.after.standing_order(done, seat, interaction.user.id, prefs)

    @app_commands.command(name=_("plan"), description=_("Plan your coming turns ahead (only you see it)"))
    @app_commands.rename(choice=_("choice"))
    @app_commands.describe(choice=_("What to do for you (empty: show your plan)"))
    async def plan(self, interaction: discord.Interaction, choice: str = "") -> None:
        await self._plan(interaction, choice)

    async def _plan(self, interaction: discord.Interaction, choice: str) -> None:
        """/partida plan: with a choice (the list offers what the game lets them plan now), keep it;
        without, the player's plan and the same choices as a select (bot/discord/flows.py)."""
        lang = lang_of(interaction.locale)
        await ack(interaction, ephemeral=True, thinking=True)
        loaded = await self.bot.service.in_channel(interaction.channel_id)
        flows = self.bot.flows
        if choice.strip():
            await reply(interaction, await flows.choose_plan(loaded, interaction.user.id, choice.strip(), lang))
            return
        content, view = await flows.plan_menu(loaded, interaction.user.id, lang)
        await reply(interaction, content, view=view)

    @plan.autocomplete("choice")
    async def _plan_autocomplete(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        lang = lang_of(interaction.locale)
        loaded, seat = await self._seated(interaction)
        if seat is None:
            return []
        rec = loaded.record
        out = [(t("plan.clear", lang), PLAN_OFF), *plan_choices(rec.game, loaded.view(seat), loaded.names, lang, current)]
        return [app_commands.Choice(name=label[:100], value=tok) for label, tok in out if not current or current.lower() in label.lower()][:25]

    @app_commands.command(name=_("invite"), description=_("Invite someone to this channel's match"))
    @app_commands.rename(user=_("user"))
    @app_commands.describe(user=_("Who to invite"))
    async def invite(self, interaction: discord.Interaction, user: discord.User) -> None:
        await self._invite(interaction, user)

    async def _invite(self, interaction: discord.Interaction, user: discord.User) -> None:
        lang = lang_of(interaction.locale)
        await ack(interaction, ephemeral=True, thinking=True)  # the store and the DM may take a while
        loaded = await self.bot.service.in_channel(interaction.channel_id)
        rec = loaded.record
        who = getattr(user, "display_name", None) or f"<@{user.id}>"
        me = getattr(self.bot.user, "id", None)
        if getattr(user, "bot", False) or user.id == me:  # bots take no DMs and play no seats
            raise UserError("invite_bot", user=who)
        if loaded.seat_of(interaction.user.id) is None and interaction.user.id != rec.host_id:
            raise UserError("invite_not_player")  # else anyone could make the bot DM anyone
        self.bot.messages_limit.spend(interaction.guild_id, interaction.user.id)
        their = await self.bot.after.lang_for(user.id, rec.lang)  # a DM speaks the invitee's language
        body = t("invite.body", their, user=interaction.user.display_name, game=game_name(loaded.game, their), channel=f"<#{rec.channel_id}>", link=jump_link(rec))
        try:
            dm = await self.bot.create_dm(discord.Object(id=user.id))
            await dm.send(body)
            await reply(interaction, t("invite.sent", lang, user=who))
        except discord.Forbidden:
            ch = await self.present.channel(rec)
            if ch is None:
                raise
            public = t("invite.body", rec.lang, user=interaction.user.display_name, game=game_name(loaded.game, rec.lang), channel=f"<#{rec.channel_id}>", link=jump_link(rec))
            await ch.send(f"<@{user.id}> " + public, allowed_mentions=ALLOWED)
            await reply(interaction, t("invite.closed", lang, user=who))

    @app_commands.command(name=_("status"), description=_("Show the match in this channel"))
    async def status(self, interaction: discord.Interaction) -> None:
        await self._status(interaction)

    async def _status(self, interaction: discord.Interaction) -> None:
        lang = lang_of(interaction.locale)
        await ack(interaction, ephemeral=True, thinking=True)
        loaded = await self.bot.service.in_channel(interaction.channel_id)
        files = []
        if loaded.state is not None:
            png = await self.present.draw(ui_for(loaded.record.game).board_png, loaded.view(None), loaded.names, lang)
            if png:
                files.append(discord.File(io.BytesIO(png), filename="board.png"))
        text = self.present.status_text(loaded, lang)
        if loaded.record.status == "active" and (digest := commitment(loaded.record)):
            text += "\n" + t("seed.hash", lang, hash=digest)  # the shuffle's commitment, any time
        if getattr(self.bot, "timers", None) is not None:  # the deadline and the time left (bot/core/timers.py)
            text += "\n" + await self.bot.timers.status_text(loaded, lang)
        problems = await self.bot.after.failures(loaded.record.id)
        for kind, payload, error in problems[-3:]:
            if kind == "turn" and isinstance(payload.get("seat"), int) and payload["seat"] < len(loaded.names):
                text += "\n" + t("status.failed_turn", lang, player=loaded.names[payload["seat"]], error=error[:120])
            else:
                text += "\n" + t("status.failed_" + ("board" if kind == "board" else "ai"), lang, error=error[:120])
        await reply(interaction, text, files=files)

    @app_commands.command(name=_("hand"), description=_("See your hand (only you)"))
    async def hand(self, interaction: discord.Interaction) -> None:
        await self.flows.show_hand(interaction)

    @app_commands.command(name=_("log"), description=_("The whole match in words, page by page"))
    async def log_(self, interaction: discord.Interaction) -> None:
        await self.bot.table_flows.show_log(interaction)  # the whole match, in pages (bot/discord/table_ui.py)

    async def _log(self, interaction: discord.Interaction) -> None:
        lang = lang_of(interaction.locale)
        await ack(interaction, ephemeral=True, thinking=True)
        loaded = await self.bot.service.in_channel(interaction.channel_id)
        actions = await self.bot.service.store.actions(loaded.record.id)
        ui = ui_for(loaded.record.game)
        lines = [f"{a.idx + 1}. {describe_move(ui, a.action, loaded.names, a.seat, lang)}" for a in actions[-15:]]
        body = "\n".join(lines) if lines else t("log.empty", lang)
        await reply(interaction, f"{t('log.title', lang, id=loaded.record.id)}\n{body}")

    @app_commands.command(name=_("export"), description=_("Download the match log as JSON"))
    async def export(self, interaction: discord.Interaction) -> None:
        await self._export(interaction)

    async def _export(self, interaction: discord.Interaction) -> None:
        lang = lang_of(interaction.locale)
        await ack(interaction, ephemeral=True, thinking=True)
        store = self.bot.service.store
        rec = await store.active_in_channel(interaction.channel_id)
        if rec is not None and rec.status == "active":
            # the log holds the seed: replaying it would show every hand and the deck order
            raise UserError("export_live", id=rec.id)
        if rec is None or rec.state is None:
            history = await store.history_in_channel(interaction.channel_id, 5)
            rec = next((h for h in history if h.status in ("finished", "abandoned") and h.state is not None), None)
        if rec is None or rec.state is None:
            raise UserError("no_match")
        data = await self.bot.table_flows.table.published_log(rec.id)  # with the seed's salt and hash
        name = f"partida-{rec.game}-{rec.id}.json"
        file = discord.File(io.BytesIO(json.dumps(data, indent=1).encode()), filename=name)
        await reply(interaction, t("export.done", lang, id=rec.id, file=name), files=[file])

    @app_commands.command(name=_("rules"), description=_("A short summary of the rules"))
    async def rules(self, interaction: discord.Interaction) -> None:
        await self._rules(interaction)

    async def _rules(self, interaction: discord.Interaction) -> None:
        lang = lang_of(interaction.locale)
        await interaction.response.defer(ephemeral=True, thinking=True)
        rec = await self.bot.service.store.active_in_channel(interaction.channel_id)
        keys = [rec.game] if rec else playable_games()
        texts = [ui_for(k).rules.get(lang) or registry.get(k).name for k in keys]
        files = []
        for key in keys:
            if (key, lang) not in _EXAMPLE:
                _EXAMPLE[(key, lang)] = await self.present.draw(rules_pictures, key, lang)
            for n, png in enumerate(_EXAMPLE[(key, lang)]):
                name = f"guide-{key}-{n + 1}.png" if ui_for(key).guide else f"example-{key}.png"
                files.append(discord.File(io.BytesIO(png), filename=name))
        chunks = [""]  # every game's summary whole: as many messages as 2,000 characters need
        for text in texts:
            if chunks[-1] and len(chunks[-1]) + 2 + len(text) > 2000:
                chunks.append("")
            chunks[-1] = f"{chunks[-1]}\n\n{text}" if chunks[-1] else text
        await reply(interaction, chunks[0][:2000], files=files[:10])  # Discord takes 10 files a message
        for more in chunks[1:]:
            await reply(interaction, more[:2000])

    @app_commands.command(name=_("deadline"), description=_("Show or change the deadline per move (host)"))
    @app_commands.rename(time=_("time"), policy=_("policy"), misses=_("misses"))
    @app_commands.describe(
        time=_("off, or 1h to 14d, e.g. 48h"), policy=_("At the deadline: wait, standin, replace or end"),
        misses=_("Missed deadlines before replace/end acts (1-10)"),
    )
    async def deadline(self, interaction: discord.Interaction, time: str | None = None, policy: str | None = None, misses: int | None = None) -> None:
        await timer_commands.deadline(self.bot, interaction, time, policy, misses)

    @app_commands.command(name=_("headsup"), description=_("Be told when the player before you starts their turn"))
    @app_commands.rename(on=_("on"))
    @app_commands.describe(on=_("True to be told, False to stop"))
    async def headsup(self, interaction: discord.Interaction, on: bool = True) -> None:
        await timer_commands.headsup(self.bot, interaction, on)

    @app_commands.command(name=_("abandon"), description=_("Abandon the match in this channel"))
    async def abandon(self, interaction: discord.Interaction) -> None:
        await self._abandon(interaction)

    async def _abandon(self, interaction: discord.Interaction) -> None:
        loaded = await self.bot.service.in_channel(interaction.channel_id)
        if loaded.record.status == "active":  # a running match: confirm first (and a vote for non-hosts)
            await self.bot.table_flows.confirm_abandon(interaction, loaded)
            return
        perms = getattr(interaction, "permissions", None)
        can_manage = bool(perms and (perms.manage_channels or perms.administrator))
        done = await self.bot.service.abandon(loaded.record.id, interaction.user.id, can_manage)
        rec = done.record
        await interaction.response.send_message(
            t("abandon.done", rec.lang, id=rec.id, user=interaction.user.display_name), allowed_mentions=ALLOWED
        )

    # -- the table (bot/discord/table_ui.py) ---------------------------------------------------------------

    @app_commands.command(name=_("undo"), description=_("Take back your last move (the others approve when needed)"))
    async def undo(self, interaction: discord.Interaction) -> None:
        await self.bot.table_flows.on_undo(interaction, None)

    @app_commands.command(name=_("leave"), description=_("Leave this match: the AI takes your seat"))
    async def leave(self, interaction: discord.Interaction) -> None:
        await self.bot.table_flows.leave(interaction)

    @app_commands.command(name=_("seat"), description=_("Hand an AI seat to someone (host)"))
    @app_commands.rename(user=_("user"), number=_("number"))
    @app_commands.describe(user=_("Who takes the seat"), number=_("Seat number (default: the first seat someone left)"))
    async def seat(self, interaction: discord.Interaction, user: discord.User, number: app_commands.Range[int, 1, 8] | None = None) -> None:
        await self.bot.table_flows.invite_to_seat(interaction, user, number)

    @app_commands.command(name=_("stats"), description=_("Matches, wins and time per move on this server"))
    @app_commands.rename(game=_("game"))
    @app_commands.describe(game=_("Only this game"))
    @app_commands.choices(game=game_choices())
    async def stats(self, interaction: discord.Interaction, game: str | None = None) -> None:
        await self._stats(interaction, game, board=False)

    @app_commands.command(name=_("leaderboard"), description=_("The best rated players on this server"))
    @app_commands.rename(game=_("game"))
    @app_commands.describe(game=_("Only this game"))
    @app_commands.choices(game=game_choices())
    async def leaderboard(self, interaction: discord.Interaction, game: str | None = None) -> None:
        await self._stats(interaction, game, board=True)

    async def _stats(self, interaction: discord.Interaction, game: str | None, board: bool) -> None:
        lang = lang_of(interaction.locale)
        if interaction.guild_id is None:
            raise UserError("guild_only")
        self._within(self.stats_limit, interaction)  # refused at once, privately
        await ack(interaction, ephemeral=not board, thinking=True)
        store = self.bot.service.store
        if board:
            text = leaderboard_text(await leaderboards(store, interaction.guild_id, game), lang)
        else:
            text = stats_text(await guild_stats(store, interaction.guild_id, game, me=interaction.user.id), lang)
        # people are named by mentions (Discord shows their current name): nobody is pinged
        await reply(interaction, text[:2000], ephemeral=not board, mentions=discord.AllowedMentions.none())


_EXAMPLE: dict[tuple[str, str], bytes] = {}


def rules_pictures(game_key: str, lang: str) -> list[bytes]:
    """The illustrated guide of a game (its GameUI.guide_pngs: how a turn goes, how scoring
    works), or for a game without one the board of a short example match."""
    guide = ui_for(game_key).guide_pngs(lang)
    if guide:
        return guide
    png = example_board_png(game_key, lang)
    return [png] if png else []


def example_board_png(game_key: str, lang: str) -> bytes | None:
    """The board of a short seeded example match between AI players, to illustrate /partida rules."""
    import random

    from engines.ai import best_player
    from engines.match import Match

    game = registry.get(game_key)
    names = ["Ana", "Ben", "Carla", "Dani", "Eva", "Fede", "Gala", "Hugo"][: max(game.min_players, 2)]
    m = Match.create(game_key, names, seed=2024)
    p, rng = best_player(game_key), random.Random(1)
    for _step in range(40):
        if m.over:
            break
        seat = m.to_move()[0]
        m.apply_code(seat, p.choose(m.game, m.state, seat, rng))
    return ui_for(game_key).board_png(m.view(None), m.seats, lang)




class PeopleCog(ErrorsToPeople, commands.Cog):
    """Commands about a person across servers."""

    def __init__(self, bot: Any) -> None:
        self.bot = bot

    @app_commands.command(name=_("mygames"), description=_("Your active matches on every server"))
    async def mygames(self, interaction: discord.Interaction) -> None:
        lang = lang_of(interaction.locale)
        await ack(interaction, ephemeral=True, thinking=True)
        recs = await self.bot.service.store.matches_for_user(interaction.user.id)
        if not recs:
            await reply(interaction, t("mygames.none", lang))
            return
        rows = []
        for rec in recs:
            try:
                loaded = await self.bot.service.aload(rec)
            except DamagedMatch:  # quarantined (logged once): the others are listed
                continue
            seat = loaded.seat_of(interaction.user.id)
            mine = rec.status == "active" and seat in loaded.to_move()
            tag = t("mygames.your_turn", lang) if mine else (t("mygames.lobby", lang) if rec.status == "lobby" else self.bot.present.status_text(loaded, lang).splitlines()[-1])
            rows.append((not mine, f"• **{game_name(loaded.game, lang)}** #{rec.id} — {tag} — {jump_link(rec)}"))
        rows.sort(key=lambda r: r[0])
        await reply(interaction, t("mygames.title", lang) + "\n" + "\n".join(row for _mine, row in rows))


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(PartidaCog(bot))
    await bot.add_cog(PeopleCog(bot))
    await timer_commands.setup(bot)  # play over days: the timer jobs, /away, /quiet
