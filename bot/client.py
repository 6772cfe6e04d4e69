"""The Discord client: slash commands, persistent components, start-up and shutdown."""

from __future__ import annotations

import io
import json
import logging
import sys
from typing import Any

import aiohttp
import discord
import yarl
from discord import app_commands
from discord.app_commands import locale_str as _

from engines import registry
from engines.core import EngineError

from . import components
from .flows import ALLOWED, Flows, ack, describe_move, guarded, jump_link, reply
from .games import ui_for
from .games.base import PrefsError
from .i18n import OPTION_HELP, Translator, game_name, lang_of, t
from .service import MatchService, UserError
from .settings import Settings, SettingsError
from .store import open_store

log = logging.getLogger(__name__)


def parse_options(text: str | None) -> dict[str, Any]:
    """'rounds=3 purple=true' -> {"rounds": 3, "purple": True}."""
    out: dict[str, Any] = {}
    for part in (text or "").replace(",", " ").split():
        key, sep, raw = part.partition("=")
        if not sep or not key:
            raise UserError("bad_option_text")
        try:
            out[key] = json.loads(raw)
        except (ValueError, RecursionError):  # not JSON, a 4,301-digit number, 2,000 '[': the game refuses the text
            out[key] = raw
    return out


def playable_games() -> list[str]:
    """Games with both an engine and a Discord presentation in this build."""
    return [k for k in registry.available() if ui_for(k).key == k]


def game_choices() -> list[app_commands.Choice[str]]:
    return [app_commands.Choice(name=_(registry.get(k).name), value=k) for k in playable_games()]


class PartidaGroup(app_commands.Group):
    def __init__(self, bot: Partida) -> None:
        super().__init__(name=_("partida"), description=_("Play tabletop games in this channel"))
        self.bot = bot

    @property
    def flows(self) -> Flows:
        return self.bot.flows

    @app_commands.command(name=_("new"), description=_("Start a new match in this channel"))
    @app_commands.rename(game=_("game"), options=_("options"), thread=_("thread"))
    @app_commands.describe(
        game=_("Which game"), options=_("Options as key=value pairs, e.g. rounds=3 purple=true"),
        thread=_("Open the match in a new thread"),
    )
    @app_commands.choices(game=game_choices())
    async def new(self, interaction: discord.Interaction, game: str, options: str | None = None, thread: bool = False) -> None:
        await self._new(interaction, game, options, thread)

    @guarded
    async def _new(self, interaction: discord.Interaction, game: str, options: str | None, thread: bool) -> None:
        lang = lang_of(interaction.locale)
        if interaction.guild_id is None or interaction.channel is None:
            raise UserError("guild_only")
        if game not in playable_games():
            raise UserError("unknown_game", game=game)
        opts = parse_options(options)
        channel_id = interaction.channel_id
        target: Any = None
        if thread and isinstance(interaction.channel, discord.TextChannel):
            # validate before creating anything
            registry_game = self._game_or_error(game)
            try:
                registry_game.parse_options(opts)
            except EngineError as e:
                raise UserError("bad_options", reason=e.reason, game=game, options=opts) from None
            # the options are fine: answer Discord now (public, it will point to the thread), then
            # create the thread and its lobby, which takes a few requests
            await ack(interaction, thinking=True)
            target = await interaction.channel.create_thread(
                name=f"{game_name(registry_game, lang)} · {interaction.user.display_name}"[:100], type=discord.ChannelType.public_thread
            )
            channel_id = target.id
        loaded = await self.bot.service.new_lobby(
            interaction.guild_id, channel_id, game, interaction.user.id, interaction.user.display_name, opts, lang
        )
        content, view = self.flows.lobby_message(loaded, lang)
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
        return out[:25]

    @app_commands.command(name=_("play"), description=_("Make a move by typing it (the list shows your legal moves)"))
    @app_commands.rename(move=_("move"))
    @app_commands.describe(move=_("Your move"))
    async def play(self, interaction: discord.Interaction, move: str) -> None:
        await self._play(interaction, move)

    @guarded
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
        result = await self.bot.service.move(loaded.record.id, None, ("user", interaction.user.id), action)
        content, files, view = await self.flows.mover_message(result, lang)
        try:
            await reply(interaction, content, files=files, view=view)
        except discord.HTTPException:  # the move stands: the next player and the channel must still hear of it
            log.warning("could not show the result of a move in match %s to its player", loaded.record.id, exc_info=True)
        await self.flows.after_move(result)

    @play.autocomplete("move")
    async def _play_autocomplete(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        lang = lang_of(interaction.locale)
        rec = await self.bot.service.store.active_in_channel(interaction.channel_id)
        if rec is None or rec.state is None:
            return []
        loaded = self.bot.service.load(rec)
        seat = loaded.seat_of(interaction.user.id)
        if seat is None or seat not in loaded.to_move():
            return []
        ui = ui_for(rec.game)
        out = []
        for action in loaded.game.legal_json(loaded.state, seat):
            # a private label when the game has one (the public story hides e.g. which character is drafted)
            label = ui.label(action, lang) if hasattr(ui, "label") else ui.describe(action, loaded.names[seat], lang)
            if current.lower() in label.lower():
                out.append(app_commands.Choice(name=label[:100], value=ui.token(action)))
        return out[:25]

    @app_commands.command(name=_("prefer"), description=_("Leave standing orders, e.g. your draft priority list"))
    @app_commands.rename(orders=_("orders"))
    @app_commands.describe(orders=_("Comma-separated, most wanted first (empty to clear)"))
    async def prefer(self, interaction: discord.Interaction, orders: str = "") -> None:
        await self._prefer(interaction, orders)

    @guarded
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
        # Saving bumped the match version, so buttons drawn before are stale now. In the lobby, post
        # a fresh lobby message; in play, act on the orders if they settle the current choice, else
        # send the players to move fresh controls.
        if done.record.status == "lobby":
            content, view = self.flows.lobby_message(done, done.record.lang)
            if (ch := await self.flows.channel(done.record)) is not None:
                await ch.send(content, view=view, allowed_mentions=ALLOWED)
        elif done.record.status == "active":
            if (auto := await self.flows.standing_order(done)) is not None:
                await self.flows.after_move(auto)
            else:
                for seat in done.to_move():
                    if done.record.seats[seat].get("user_id"):
                        done = await self.flows.notify(done, seat)

    @app_commands.command(name=_("invite"), description=_("Invite someone to this channel's match"))
    @app_commands.rename(user=_("user"))
    @app_commands.describe(user=_("Who to invite"))
    async def invite(self, interaction: discord.Interaction, user: discord.User) -> None:
        await self._invite(interaction, user)

    @guarded
    async def _invite(self, interaction: discord.Interaction, user: discord.User) -> None:
        lang = lang_of(interaction.locale)
        await ack(interaction, ephemeral=True, thinking=True)  # the store and the DM may take a while
        loaded = await self.bot.service.in_channel(interaction.channel_id)
        rec = loaded.record
        body = t("invite.body", rec.lang, user=interaction.user.display_name, game=game_name(loaded.game, rec.lang), channel=f"<#{rec.channel_id}>", link=jump_link(rec))
        who = getattr(user, "display_name", None) or f"<@{user.id}>"
        me = getattr(self.bot.user, "id", None)
        if getattr(user, "bot", False) or user.id == me:  # bots take no DMs and play no seats
            raise UserError("invite_bot", user=who)
        try:
            dm = await self.bot.create_dm(discord.Object(id=user.id))
            await dm.send(body)
            await reply(interaction, t("invite.sent", lang, user=who))
        except discord.Forbidden:
            ch = await self.flows.channel(rec)
            if ch is None:
                raise
            await ch.send(f"<@{user.id}> " + body, allowed_mentions=ALLOWED)
            await reply(interaction, t("invite.closed", lang, user=who))

    @app_commands.command(name=_("status"), description=_("Show the match in this channel"))
    async def status(self, interaction: discord.Interaction) -> None:
        await self._status(interaction)

    @guarded
    async def _status(self, interaction: discord.Interaction) -> None:
        lang = lang_of(interaction.locale)
        await ack(interaction, ephemeral=True, thinking=True)
        loaded = await self.bot.service.in_channel(interaction.channel_id)
        files = []
        if loaded.state is not None:
            png = await self.flows.draw(ui_for(loaded.record.game).board_png, loaded.view(None), loaded.names, lang)
            if png:
                files.append(discord.File(io.BytesIO(png), filename="board.png"))
        await reply(interaction, self.flows.status_text(loaded, lang), files=files)

    @app_commands.command(name=_("hand"), description=_("See your hand (only you)"))
    async def hand(self, interaction: discord.Interaction) -> None:
        await self.flows.show_hand(interaction)

    @app_commands.command(name=_("log"), description=_("Recent moves in words"))
    async def log_(self, interaction: discord.Interaction) -> None:
        await self._log(interaction)

    @guarded
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

    @guarded
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
        data = await self.bot.service.log(rec.id)
        name = f"partida-{rec.game}-{rec.id}.json"
        file = discord.File(io.BytesIO(json.dumps(data, indent=1).encode()), filename=name)
        await reply(interaction, t("export.done", lang, id=rec.id, file=name), files=[file])

    @app_commands.command(name=_("rules"), description=_("A short summary of the rules"))
    async def rules(self, interaction: discord.Interaction) -> None:
        await self._rules(interaction)

    @guarded
    async def _rules(self, interaction: discord.Interaction) -> None:
        lang = lang_of(interaction.locale)
        await interaction.response.defer(ephemeral=True, thinking=True)
        rec = await self.bot.service.store.active_in_channel(interaction.channel_id)
        keys = [rec.game] if rec else playable_games()
        texts = [ui_for(k).rules.get(lang) or registry.get(k).name for k in keys]
        files = []
        for key in keys[:3]:
            if (key, lang) not in _EXAMPLE:
                _EXAMPLE[(key, lang)] = await self.flows.draw(example_board_png, key, lang)
            if _EXAMPLE[(key, lang)]:
                files.append(discord.File(io.BytesIO(_EXAMPLE[(key, lang)]), filename=f"example-{key}.png"))
        await reply(interaction, "\n\n".join(texts)[:2000], files=files)

    @app_commands.command(name=_("abandon"), description=_("Abandon the match in this channel"))
    async def abandon(self, interaction: discord.Interaction) -> None:
        await self._abandon(interaction)

    @guarded
    async def _abandon(self, interaction: discord.Interaction) -> None:
        loaded = await self.bot.service.in_channel(interaction.channel_id)
        perms = getattr(interaction, "permissions", None)
        can_manage = bool(perms and (perms.manage_channels or perms.administrator))
        done = await self.bot.service.abandon(loaded.record.id, interaction.user.id, can_manage)
        rec = done.record
        await interaction.response.send_message(
            t("abandon.done", rec.lang, id=rec.id, user=interaction.user.display_name), allowed_mentions=ALLOWED
        )


_EXAMPLE: dict[tuple[str, str], bytes] = {}


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


@app_commands.command(name=_("mygames"), description=_("Your active matches on every server"))
async def mygames(interaction: discord.Interaction) -> None:
    bot: Partida = interaction.client  # type: ignore[assignment]
    await bot.flows_mygames(interaction)


def guarded_client(fn):
    async def wrapper(self: Partida, interaction: discord.Interaction) -> None:
        await guarded(lambda _flows, i: fn(self, i))(self.flows, interaction)

    return wrapper


class Partida(discord.Client):
    def __init__(self, settings: Settings, store: Any = None, **kwargs: Any) -> None:
        intents = discord.Intents.none()
        intents.guilds = True
        super().__init__(intents=intents, allowed_mentions=ALLOWED, **kwargs)
        self.settings = settings
        self.tree = app_commands.CommandTree(self)
        self.store = store  # opened by run() before connecting, or here in setup_hook
        self.service: MatchService = None  # type: ignore[assignment]
        self.flows: Flows = None  # type: ignore[assignment]

    async def setup_hook(self) -> None:
        if self.store is None:
            self.store = await open_store(self.settings.database_url)
        self.service = MatchService(self.store)
        self.flows = Flows(self, self.service, self.settings.render_processes)
        self.add_dynamic_items(*components.ALL)
        await self.tree.set_translator(Translator())
        self.tree.add_command(PartidaGroup(self))
        self.tree.add_command(mygames)
        if self.settings.dev_guild_id:
            guild = discord.Object(self.settings.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)
        else:
            await self.tree.sync()

    async def on_ready(self) -> None:
        log.info("connected as %s (%s guilds)", self.user, len(self.guilds))
        await self.flows.resume()

    @guarded_client
    async def flows_mygames(self, interaction: discord.Interaction) -> None:
        lang = lang_of(interaction.locale)
        await ack(interaction, ephemeral=True, thinking=True)
        recs = await self.service.store.matches_for_user(interaction.user.id)
        if not recs:
            await reply(interaction, t("mygames.none", lang))
            return
        rows = []
        for rec in recs:
            loaded = self.service.load(rec)
            seat = loaded.seat_of(interaction.user.id)
            mine = rec.status == "active" and seat in loaded.to_move()
            tag = t("mygames.your_turn", lang) if mine else (t("mygames.lobby", lang) if rec.status == "lobby" else self.flows.status_text(loaded, lang).splitlines()[-1])
            rows.append((not mine, f"• **{game_name(loaded.game, lang)}** #{rec.id} — {tag} — {jump_link(rec)}"))
        rows.sort(key=lambda r: r[0])
        await reply(interaction, t("mygames.title", lang) + "\n" + "\n".join(row for _mine, row in rows))

    async def close(self) -> None:
        if self.flows is not None:
            self.flows.close()  # AI turns stop first: they must not post to a closing connection
        await super().close()
        if self.store is not None:
            await self.store.close()


def configure_endpoints(settings: Settings) -> None:
    """Point discord.py at another Discord (the tests' local stand-in)."""
    if settings.partida_discord_api:
        discord.http.Route.BASE = settings.partida_discord_api.rstrip("/")
    if settings.partida_discord_gateway:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(settings.partida_discord_gateway)


async def run(settings: Settings) -> int:
    """Open the store, connect, serve until stopped. Start-up problems are one line, never a traceback."""
    configure_endpoints(settings)
    try:
        store = await open_store(settings.database_url)
    except (OSError, ValueError) as e:
        raise SettingsError(f"DATABASE_URL cannot be opened: {e}") from None
    except Exception as e:  # e.g. asyncpg's errors for a PostgreSQL server that refuses us
        raise SettingsError(f"DATABASE_URL cannot be opened: {type(e).__name__}: {e}") from None
    client = Partida(settings, store=store)
    try:
        async with client:
            await client.start(settings.discord_token.get_secret_value())
    except discord.LoginFailure:
        raise SettingsError("Discord refused the token (DISCORD_TOKEN): check it in the developer portal") from None
    except (OSError, aiohttp.ClientError) as e:
        print(f"error: cannot reach Discord: {e}", file=sys.stderr)
        return 1
    return 0
