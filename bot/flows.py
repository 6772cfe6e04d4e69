"""What happens on each click and after each move: replies, pictures, DMs, AI turns.

Every handler answers the person who clicked: a refusal (not your turn, stale button, a move the
rules refuse) is an ephemeral message in that person's language and changes nothing.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import functools
import inspect
import io
import json
import logging
import multiprocessing
import os
import threading
import time
from collections.abc import Awaitable, Callable
from typing import Any

import discord

from engines.core import EngineError

from .components import DoButton, LobbyButton, PickSelect, TurnButton
from .games import ui_for
from .i18n import M, error_text, game_name, lang_of, options_problem, t
from .service import Loaded, MatchService, MoveResult, Stale, UserError, timing

log = logging.getLogger(__name__)

ALLOWED = discord.AllowedMentions(everyone=False, roles=False, users=True, replied_user=False)


def jump_link(rec: Any) -> str:
    return f"https://discord.com/channels/{rec.guild_id or '@me'}/{rec.channel_id}"


async def reply(interaction: discord.Interaction, content: str, *, ephemeral: bool = True, files=(), view=None) -> None:
    kwargs: dict[str, Any] = {"content": content[:2000], "ephemeral": ephemeral, "files": list(files)}
    if view is not None:
        kwargs["view"] = view
    if interaction.response.is_done():
        await interaction.followup.send(**kwargs)
    else:
        await interaction.response.send_message(**kwargs)


async def ack(interaction: discord.Interaction, **kwargs: Any) -> None:
    """Acknowledge at once (a deferred response); the work and the real answer follow."""
    await interaction.response.defer(**kwargs)
    if timing.isEnabledFor(logging.DEBUG) and "t0" in interaction.extras:
        timing.debug("ack_ms=%.3f", (time.perf_counter() - interaction.extras["t0"]) * 1000)


def guarded(handler: Callable[..., Awaitable[None]]) -> Callable[..., Awaitable[None]]:
    """Turn every refusal into an ephemeral reply in the clicker's language; nothing is changed."""

    @functools.wraps(handler)
    async def wrapper(self: Flows, interaction: discord.Interaction, *args: Any) -> None:
        interaction.extras.setdefault("t0", time.perf_counter())
        lang = lang_of(interaction.locale)
        try:
            await handler(self, interaction, *args)
        except Stale as e:
            await reply(interaction, self.stale_text(e.record, lang))
        except UserError as e:
            await reply(interaction, user_error_text(e, lang))
        except EngineError as e:
            await reply(interaction, error_text(e.code, e.params, lang, e.reason, getattr(e, "game", None)))
        except discord.HTTPException:
            log.exception("Discord refused a request while handling %s", handler.__name__)
            with contextlib.suppress(discord.HTTPException):  # the person still gets an answer
                await reply(interaction, t("err.internal", lang))
        except Exception:
            log.exception("error in %s", handler.__name__)
            with contextlib.suppress(discord.HTTPException):
                await reply(interaction, t("err.internal", lang))

    return wrapper


def user_error_text(e: UserError, lang: str) -> str:
    params = dict(e.params)
    if "status." + str(params.get("status")) in M:  # a match status ("abandoned"...) in the reader's words
        params["status"] = t("status." + params["status"], lang)
    if e.code == "not_enough":  # the game's name in the reader's language
        params["game"] = game_name(params["game"], lang)
    if e.code == "bad_options" and "game" in params:  # the engine's reason is English: say it again
        params["reason"] = options_problem(params["game"], params.get("options") or {}, lang) or params.get("reason", "")
    return t("err." + e.code, lang, **params) if "err." + e.code in M else t(e.code, lang, **params)


def describe_move(ui: Any, action: dict[str, Any], names: list[str], seat: int, lang: str) -> str:
    """A move in public words; games whose wording names other players (Citadels) get every name."""
    if "names" in inspect.signature(ui.describe).parameters:
        return ui.describe(action, names[seat], lang, names=names)
    return ui.describe(action, names[seat], lang)


def _exit_with_parent(parent: int) -> None:
    """In a drawing worker: leave as soon as the bot process is gone (even after a SIGKILL)."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(0)

    threading.Thread(target=watch, daemon=True).start()


class Flows:
    def __init__(self, client: discord.Client, service: MatchService, render_processes: int = 0) -> None:
        self.client = client
        self.service = service
        self._ai_tasks: dict[int, asyncio.Task] = {}
        self._ai_wanted: set[int] = set()
        self._story: dict[int, list[tuple[int, dict]]] = {}  # moves not yet told in the channel
        # Pictures are drawn off the event loop: in worker processes when configured (drawing holds
        # the GIL, and under load threads would starve the loop and the store), else in threads.
        self._pool: concurrent.futures.Executor | None = None
        if render_processes > 0:
            self._pool = concurrent.futures.ProcessPoolExecutor(
                max_workers=render_processes, mp_context=multiprocessing.get_context("spawn"),
                initializer=_exit_with_parent, initargs=(os.getpid(),),
            )

    async def draw(self, fn: Callable[..., Any], *args: Any) -> Any:
        """Run a drawing function (a game UI's method, with plain JSON-like arguments) off the loop."""
        if self._pool is None:
            return await asyncio.to_thread(fn, *args)
        return await asyncio.get_running_loop().run_in_executor(self._pool, fn, *args)

    def close(self) -> None:
        for task in self._ai_tasks.values():
            task.cancel()
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)

    # -- texts -----------------------------------------------------------------------------------

    def stale_text(self, rec: Any, lang: str) -> str:
        text = t("stale", lang)
        if rec is None:
            return text
        loaded = self.service.load(rec)
        return f"{text}\n{self.status_text(loaded, lang)}"

    def status_text(self, loaded: Loaded, lang: str) -> str:
        rec = loaded.record
        names = loaded.names
        if rec.status == "lobby":
            return t("status.body", lang, game=game_name(loaded.game, lang), id=rec.id, status=t("status.lobby", lang), players=", ".join(names))
        ui = ui_for(rec.game)
        line = ui.status(loaded.view(None), names, lang) if loaded.state is not None else ""
        if rec.status == "active":
            movers = loaded.to_move()
            who = ", ".join(self.mention(loaded, s) for s in movers)
            return f"{line}\n{t('turn.now', lang, player=who)}".strip()
        return f"{line}\n{self.result_text(loaded, lang)}".strip()

    def mention(self, loaded: Loaded, seat: int) -> str:
        uid = loaded.record.seats[seat].get("user_id")
        return f"<@{uid}>" if uid else loaded.names[seat]

    def result_text(self, loaded: Loaded, lang: str) -> str:
        res = loaded.game.result(loaded.state) if loaded.state is not None else None
        if loaded.record.status == "abandoned" or res is None:
            return t("status." + loaded.record.status, lang)
        scores = ", ".join(f"{n} {s}" for n, s in zip(loaded.names, res.scores, strict=True))
        winners = " & ".join(loaded.names[s] for s in res.ranking[0])
        key = "game.result_tie" if len(res.ranking[0]) > 1 else "game.result"
        return f"{t('game.over', lang)} {t(key, lang, scores=scores, winners=winners)}"

    # -- lobby -----------------------------------------------------------------------------------

    def lobby_message(self, loaded: Loaded, lang: str) -> tuple[str, discord.ui.View]:
        rec, game = loaded.record, loaded.game
        players = ", ".join(
            (f"<@{s['user_id']}>" if s.get("user_id") else f"🤖 {s['name']}") for s in rec.seats
        ) or t("lobby.none", lang)
        options = ", ".join(f"{k}={json.dumps(v)}" for k, v in rec.options.items()) or "-"
        content = (
            f"**{t('lobby.title', lang, game=game_name(game, lang))}** (#{rec.id})\n"
            + t(
                "lobby.body", lang, host=f"<@{rec.host_id}>", n=len(rec.seats), max=game.max_players, players=players, options=options,
                range=str(game.min_players) if game.min_players == game.max_players else f"{game.min_players}-{game.max_players}",
            )
        )
        view = discord.ui.View(timeout=None)
        for act, style in (("join", "primary"), ("leave", "secondary"), ("ai", "secondary"), ("start", "success")):
            view.add_item(LobbyButton(act, rec.id, rec.version, t("lobby." + ("add_ai" if act == "ai" else act), lang), style))
        return content, view

    @guarded
    async def on_lobby(self, interaction: discord.Interaction, act: str, mid: int, ver: int) -> None:
        user = interaction.user
        svc = self.service
        await ack(interaction)  # answer at once; the store may be busy
        # Joining and leaving do not depend on what the lobby showed (people join at the same time);
        # adding an AI and starting do (a double click must not add two AIs).
        if act == "join":
            loaded = await svc.join(mid, None, user.id, user.display_name)
        elif act == "leave":
            loaded = await svc.leave(mid, None, user.id)
        elif act == "ai":
            rec = (await svc.get(mid)).record
            n = sum(1 for s in rec.seats if s.get("ai")) + 1
            loaded = await svc.add_ai(mid, ver, user.id, t("ai.name", rec.lang, n=n))
        else:
            loaded = await svc.start(mid, ver, user.id)
            content, _ = self.lobby_message(loaded, loaded.record.lang)
            try:
                await interaction.edit_original_response(content=content + "\n" + t("lobby.started", loaded.record.lang), view=None)
            except discord.HTTPException:  # the match has started: the players must still hear of it
                log.warning("could not mark the lobby of match %s as started", mid, exc_info=True)
            await self.turn_started(loaded)
            return
        content, view = self.lobby_message(loaded, loaded.record.lang)
        await interaction.edit_original_response(content=content, view=view, allowed_mentions=ALLOWED)

    # -- private turn controls -------------------------------------------------------------------

    async def private_turn(self, loaded: Loaded, seat: int, lang: str, picked: str | None = None, with_picture: bool = True):
        """(content, files, view) of a seat's private message: hand picture and legal controls."""
        ui = ui_for(loaded.record.game)
        view_data = {**loaded.view(seat), "names": loaded.names}  # so controls and pictures can name players
        files = []
        if with_picture:
            png = await self.draw(ui.hand_png, view_data, lang)
            if png:
                files.append(discord.File(io.BytesIO(png), filename="hand.png"))
        rec = loaded.record
        if rec.status != "active" or seat not in loaded.to_move():
            movers = loaded.to_move()
            text = self.status_text(loaded, lang) if not movers else t("turn.waiting", lang, player=", ".join(loaded.names[s] for s in movers))
            return f"{t('turn.your_hand', lang)}\n{text}", files, None
        legal = loaded.game.legal_json(loaded.state, seat)
        if ui.controls_draw:
            c = await self.draw(ui.controls, view_data, legal, lang, picked)
        else:
            c = ui.controls(view_data, legal, lang, picked)
        if c.picture:
            files = [discord.File(io.BytesIO(c.picture), filename="preview.png")]
        view = discord.ui.View(timeout=None)
        if c.select:
            options = [
                discord.SelectOption(label=ch.label[:100], value=ch.token, description=(ch.description or None) and ch.description[:100], default=ch.token == picked)
                for ch in c.select[:25]
            ]
            view.add_item(PickSelect(rec.id, rec.version, options, c.select_placeholder))
        for ch in c.buttons[:20]:
            view.add_item(DoButton(rec.id, rec.version, ch.token, ch.label, ch.style))
        return c.text, files, view

    @guarded
    async def on_turn(self, interaction: discord.Interaction, mid: int, ver: int) -> None:
        lang = lang_of(interaction.locale)
        await ack(interaction, ephemeral=True, thinking=True)
        loaded = await self.service.get(mid)
        seat = loaded.seat_of(interaction.user.id)
        if seat is None:
            raise UserError("not_player")
        content, files, view = await self.private_turn(loaded, seat, lang)
        if loaded.record.version != ver:
            content = f"{self.stale_text(None, lang)}\n{content}"
        elif loaded.record.status == "active" and seat not in loaded.to_move():
            who = ", ".join(loaded.names[s] for s in loaded.to_move())
            content = f"{t('turn.not_yours', lang, player=who)}\n{t('turn.your_hand', lang)}"
        await reply(interaction, content, files=files, view=view)

    async def mover_message(self, result: MoveResult, lang: str):
        """(content, files, view) for the person who just moved: their next controls if they still
        have something to do, else what they did and that their turn is over."""
        done = result.loaded
        content, files, view = await self.private_turn(done, result.seat, lang)
        if result.seat not in done.to_move():
            ui = ui_for(done.record.game)
            content = f"{describe_move(ui, result.action, done.names, result.seat, lang)}. {t('turn.done', lang)}"
            view = None
        return content, files, view

    @guarded
    async def show_hand(self, interaction: discord.Interaction) -> None:
        """/partida hand: the caller's hand, with their controls when it is their turn."""
        lang = lang_of(interaction.locale)
        await ack(interaction, ephemeral=True, thinking=True)
        loaded = await self.service.in_channel(interaction.channel_id)
        seat = loaded.seat_of(interaction.user.id)
        if seat is None:
            raise UserError("not_player")
        if loaded.state is None:
            raise UserError("not_active", status=t("status.lobby", lang))
        content, files, view = await self.private_turn(loaded, seat, lang)
        await reply(interaction, content, files=files, view=view)

    @guarded
    async def on_pick(self, interaction: discord.Interaction, mid: int, ver: int, value: str) -> None:
        lang = lang_of(interaction.locale)
        await ack(interaction)  # a deferred update of the message that holds the select
        loaded = await self.service.get(mid)
        seat = loaded.seat_of(interaction.user.id)
        if seat is None:
            raise UserError("not_player")
        if loaded.record.version != ver:
            raise Stale(loaded.record)
        content, files, view = await self.private_turn(loaded, seat, lang, picked=value, with_picture=False)
        if files:
            await interaction.edit_original_response(content=content, view=view, attachments=files)
        else:
            await interaction.edit_original_response(content=content, view=view)

    @guarded
    async def on_do(self, interaction: discord.Interaction, mid: int, ver: int, token: str) -> None:
        lang = lang_of(interaction.locale)
        await ack(interaction)  # commit + picture may take a moment: answer at once
        loaded = await self.service.get(mid)
        if loaded.seat_of(interaction.user.id) is None:
            raise UserError("not_player")
        if loaded.record.version != ver:
            raise Stale(loaded.record)
        ui = ui_for(loaded.record.game)
        try:
            action = ui.action(token)
        except (KeyError, ValueError):
            raise UserError("bad_move", move=token) from None
        result = await self.service.move(mid, ver, ("user", interaction.user.id), action)
        content, files, view = await self.mover_message(result, lang)
        try:
            await interaction.edit_original_response(content=content, attachments=files, view=view)
        except discord.HTTPException:  # the move stands: the next player and the channel must still hear of it
            log.warning("could not show the result of a move in match %s to its player", mid, exc_info=True)
        await self.after_move(result)

    # -- after a move: the channel, the next player, the AI --------------------------------------

    async def after_move(self, result: MoveResult) -> None:
        """Every applied move comes here: it joins the story told with the next board post."""
        rec = result.loaded.record
        self._story.setdefault(rec.id, []).append((result.seat, result.action))
        if result.turn_changed:
            await self.turn_started(result.loaded, result)

    def story(self, loaded: Loaded) -> str:
        """The moves since the last board post, in words (public wording: nothing hidden)."""
        moves = self._story.pop(loaded.record.id, [])[-8:]
        ui = ui_for(loaded.record.game)
        lang = loaded.record.lang
        lines = []
        for seat, action in moves:
            try:
                lines.append(describe_move(ui, action, loaded.names, seat, lang))
            except Exception:  # a presentation that cannot word an action must not stop the post
                log.exception("cannot describe %s", action)
        return "\n".join(f"• {line}" for line in lines if line)

    async def turn_started(self, loaded: Loaded, result: MoveResult | None = None) -> None:
        """Tell the next player (DM), post the board in the channel, and let AI seats play."""
        if loaded.record.status == "active" and (auto := await self.standing_order(loaded)) is not None:
            # the player left orders for this choice (e.g. a draft priority list): it is made at once
            await self.after_move(auto)
            return
        # Each step on its own: a failure in one (a DM, a picture) is logged and never keeps the
        # others from happening, as the move behind them is already committed.
        if loaded.record.status == "active":
            for seat in loaded.to_move():
                if loaded.record.seats[seat].get("user_id"):
                    try:
                        loaded = await self.notify(loaded, seat)
                    except Exception:
                        log.exception("could not tell seat %s of match %s that it is their turn", seat, loaded.record.id)
        try:
            await self.post_board(loaded)
        except Exception:
            log.exception("could not post the board of match %s", loaded.record.id)
        if loaded.record.status == "active" and any(loaded.record.seats[s].get("ai") for s in loaded.to_move()):
            self.schedule_ai(loaded.record.id)

    async def standing_order(self, loaded: Loaded) -> MoveResult | None:
        rec = loaded.record
        prefs = rec.meta.get("prefs") or {}
        ui = ui_for(rec.game)
        for seat in loaded.to_move():
            uid = rec.seats[seat].get("user_id")
            if not uid or not prefs.get(str(uid)):
                continue
            legal = loaded.game.legal_json(loaded.state, seat)
            action = ui.auto_action(loaded.view(seat), legal, prefs[str(uid)])
            if action is not None:
                try:
                    return await self.service.move(rec.id, rec.version, ("user", uid), action)
                except (Stale, EngineError, UserError):
                    return None
        return None

    async def channel(self, rec: Any) -> discord.abc.Messageable | None:
        ch = self.client.get_channel(rec.channel_id)
        if ch is None:
            try:
                ch = await self.client.fetch_channel(rec.channel_id)
            except discord.HTTPException:
                log.warning("channel %s of match %s is gone", rec.channel_id, rec.id)
                return None
        return ch  # type: ignore[return-value]

    async def post_board(self, loaded: Loaded) -> None:
        rec = loaded.record
        ch = await self.channel(rec)
        if ch is None:
            return
        lang = rec.lang
        ui = ui_for(rec.game)
        files = []
        if loaded.state is not None:
            png = await self.draw(ui.board_png, loaded.view(None), loaded.names, lang)
            if png:
                files.append(discord.File(io.BytesIO(png), filename="board.png"))
        view = None
        if rec.status == "active":
            view = discord.ui.View(timeout=None)
            view.add_item(TurnButton(rec.id, rec.version, t("turn.button", lang)))
        story = self.story(loaded)
        content = f"{story}\n{self.status_text(loaded, lang)}" if story else self.status_text(loaded, lang)
        try:
            await ch.send(content=content[-2000:], files=files, view=view, allowed_mentions=ALLOWED)
        except discord.HTTPException:
            # the move stands and the match goes on (AI seats, DMs): a missing board must not stall it
            log.warning("could not post the board of match %s in channel %s", rec.id, rec.channel_id, exc_info=True)

    async def notify(self, loaded: Loaded, seat: int) -> Loaded:
        """DM the player whose turn it is. Closed DMs: say so once in the channel, remember it."""
        rec = loaded.record
        uid = rec.seats[seat]["user_id"]
        closed = set(rec.meta.get("dm_closed", []))
        if uid in closed:
            return loaded
        lang = rec.lang
        try:
            dm = await self.client.create_dm(discord.Object(id=uid))
            ch = await self.channel(rec)
            where = f"{getattr(getattr(ch, 'guild', None), 'name', '')} #{getattr(ch, 'name', '')}".strip()
            content, files, view = await self.private_turn(loaded, seat, lang)
            intro = t("turn.dm", lang, game=game_name(loaded.game, lang), where=where, id=rec.id, link=jump_link(rec))
            kwargs: dict[str, Any] = {"content": f"{intro}\n{content}"[:2000], "files": files}
            if view is not None:
                kwargs["view"] = view
            await dm.send(**kwargs)
            return loaded
        except discord.Forbidden:
            pass
        except discord.HTTPException:
            log.warning("could not DM user %s for match %s", uid, rec.id)
            return loaded
        # DMs closed: remember it and tell the channel once (nothing private in this message).
        ch = await self.channel(rec)
        if ch is not None:
            await ch.send(t("turn.dm_closed", lang, player=f"<@{uid}>"), allowed_mentions=ALLOWED)
        try:
            new = await self.service.store.update(rec.id, rec.version, meta={**rec.meta, "dm_closed": sorted(closed | {uid})})
            return Loaded(new, loaded.game, loaded.state)
        except Exception:  # a concurrent change: the note is retried next turn
            return loaded

    def schedule_ai(self, match_id: int) -> None:
        """Make sure AI seats of this match get to play. One task per match; a request that comes
        while the task runs is remembered, so the task looks again before it stops."""
        self._ai_wanted.add(match_id)
        task = self._ai_tasks.get(match_id)
        if task is None or task.done():
            self._ai_tasks[match_id] = asyncio.create_task(self._run_ai(match_id))

    async def _run_ai(self, match_id: int) -> None:
        try:
            while True:
                self._ai_wanted.discard(match_id)
                result = await self.service.ai_step(match_id)
                if result is None:
                    if match_id in self._ai_wanted:
                        continue  # someone moved meanwhile: look again
                    return
                await self.after_move(result)
        except Exception:
            log.exception("AI turn failed in match %s", match_id)
        finally:
            if self._ai_tasks.get(match_id) is asyncio.current_task():
                del self._ai_tasks[match_id]  # finished: forget it (schedule_ai starts a new one)

    async def resume(self) -> None:
        """After a restart: let AI seats that were to move carry on."""
        for rec in await self.service.store.live_matches():
            if rec.status == "active" and rec.state is not None:
                loaded = self.service.load(rec)
                if any(rec.seats[s].get("ai") for s in loaded.to_move()):
                    self.schedule_ai(rec.id)

