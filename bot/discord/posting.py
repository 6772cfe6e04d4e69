"""What Partida shows: status and result texts, the lobby message, a seat's private turn controls,
the board post; pictures are drawn off the event loop (worker processes or threads)."""

from __future__ import annotations

import asyncio
import contextlib
import io
import json
import logging
from collections.abc import Callable
from typing import Any

import discord

from engines.core import EngineError

from ..core.plans import allowed, narrows, parsed
from ..core.service import Loaded, MatchService, MoveResult, Stale, UserError
from ..core.story import describe_move
from ..core.table import Table
from ..core.timers import settings_text
from ..core.workers import Workers
from ..games import ui_for
from ..i18n import game_name, t
from .components import DoButton, LobbyButton, PickSelect, PlanButton, RematchButton, TurnButton, UndoButton

log = logging.getLogger(__name__)

ALLOWED = discord.AllowedMentions(everyone=False, roles=False, users=True, replied_user=False)


def jump_link(rec: Any) -> str:
    return f"https://discord.com/channels/{rec.guild_id or '@me'}/{rec.channel_id}"


def _warm() -> None:
    """In a drawing worker: import the drawing code once, before the first picture is asked for."""
    import contextlib
    import importlib
    import pkgutil

    import render

    for mod in pkgutil.iter_modules(render.__path__):
        with contextlib.suppress(Exception):  # a module that does not import fails its own pictures later
            importlib.import_module(f"render.{mod.name}")


def _private_data(loaded: Loaded, seat: int) -> tuple[dict[str, Any], list[dict[str, Any]] | None]:
    """A seat's view (with the names) and, when it is to move, its legal actions: in a thread, as a
    marathon state makes both slow."""
    view = {**loaded.view(seat), "names": loaded.names}
    legal = loaded.game.legal_json(loaded.state, seat) if loaded.record.status == "active" and seat in loaded.to_move() else None
    return view, legal


class Presenter:
    def __init__(self, client: discord.Client, service: MatchService, render_processes: int = 0) -> None:
        self.client = client
        self.service = service
        self.table = Table(service)  # the published log of a match that is over
        # Pictures are drawn off the event loop: in worker processes when configured (drawing holds
        # the GIL, and under load threads would starve the loop and the store), else in threads.
        # The workers start now and import the drawing code at once: the first picture must not
        # wait for a process to spawn and import.
        self._pool: Workers | None = Workers(render_processes, _warm) if render_processes > 0 else None
        self._fetched: dict[int, Any] = {}  # channels this process's shards do not hold, as fetched

    async def draw(self, fn: Callable[..., Any], *args: Any) -> Any:
        """Run a drawing function (a game UI's method, with plain JSON-like arguments) off the loop."""
        if self._pool is None:
            return await asyncio.to_thread(fn, *args)
        return await self._pool.run(fn, *args)

    def close(self) -> None:
        if self._pool is not None:
            self._pool.close()

    # -- texts -----------------------------------------------------------------------------------

    async def stale_text(self, rec: Any, lang: str) -> str:
        """"Too late" with where the match is now (decoded and described off the event loop: a
        marathon's state is big)."""
        text = t("stale", lang)
        if rec is None:
            return text
        loaded = await self.service.aload(rec)
        return f"{text}\n{await self.service.on(loaded, self.status_text, loaded, lang)}"

    def status_text(self, loaded: Loaded, lang: str, ping: set[int] | None = None) -> str:
        rec = loaded.record
        names = loaded.names
        if rec.status == "lobby":
            return t("status.body", lang, game=game_name(loaded.game, lang), id=rec.id, status=t("status.lobby", lang), players=", ".join(names))
        ui = ui_for(rec.game)
        line = ui.status(loaded.view(None), names, lang) if loaded.state is not None else ""
        if rec.status == "active":
            movers = loaded.to_move()
            who = ", ".join(self.mention(loaded, s, ping) for s in movers)
            return f"{line}\n{t('turn.now', lang, player=who)}".strip()
        return f"{line}\n{self.result_text(loaded, lang)}".strip()

    def mention(self, loaded: Loaded, seat: int, ping: set[int] | None = None) -> str:
        """The seat's person as a mention, or their name in bold when ``ping`` (the people a post
        may notify; None: everyone) leaves them out: their turn DM was their notification."""
        uid = loaded.record.seats[seat].get("user_id")
        if uid and (ping is None or uid in ping):
            return f"<@{uid}>"
        return f"**{discord.utils.escape_markdown(loaded.names[seat])}**" if uid else loaded.names[seat]

    def result_text(self, loaded: Loaded, lang: str) -> str:
        res = loaded.game.result(loaded.state) if loaded.state is not None else None
        if loaded.record.status == "abandoned" or res is None:
            return t("status." + loaded.record.status, lang)
        scores = ", ".join(f"{n} {s}" for n, s in zip(loaded.names, res.scores, strict=True))
        winners = " & ".join(loaded.names[s] for s in res.ranking[0])
        key = "game.result_tie" if len(res.ranking[0]) > 1 else "game.result"
        return f"{t('game.over', lang)} {t(key, lang, scores=scores, winners=winners)}"

    def story_text(self, loaded: Loaded, actions: list[Any], lang: str, limit: int = 20) -> str:
        """The moves since the last board post, in public words, read from the log."""
        ui = ui_for(loaded.record.game)
        lines = []
        for a in actions[-limit:]:
            words = (a.story or {}).get(lang) if isinstance(a.story, dict) else None
            if words is None:  # an action from before the story was stored: word it now
                try:
                    words = describe_move(ui, a.action, loaded.names, a.seat, lang)
                except Exception:  # a presentation that cannot word an action must not stop the post
                    log.exception("cannot describe %s", a.action)
            if words:
                lines.append(f"• {words}")
        return "\n".join(lines)

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
        if rec.meta.get("timers"):  # the deadline chosen with /partida new (bot/core/timers.py)
            content += "\n" + settings_text(rec.meta["timers"], lang)
        view = discord.ui.View(timeout=None)
        for act, style in (("join", "primary"), ("leave", "secondary"), ("ai", "secondary"), ("start", "success")):
            view.add_item(LobbyButton(act, rec.id, rec.version, t("lobby." + ("add_ai" if act == "ai" else act), lang), style))
        return content, view

    # -- private turn controls -------------------------------------------------------------------

    async def private_turn(
        self, loaded: Loaded, seat: int, lang: str, picked: str | None = None, with_picture: bool = True,
        since: list[tuple[int, dict[str, Any]]] | None = None, _again: int = 2,
    ):
        """(content, files, view) of a seat's private message: ONE picture (the game's turn picture:
        the seat's own view, ``since`` - the moves they have not seen - marked on it, the lettered
        places and the hand; or the controls' own picture for a later step) and the legal controls.

        When the controls carry ``Controls.auto`` (ending the turn is the seat's only legal move)
        and the person's ``auto_end`` setting is on (the default), that move is committed at once,
        a commit like any other at the version the controls were drawn for (``take_auto``), and
        what follows it is shown instead of a lone "End turn" button."""
        ui = ui_for(loaded.record.game)
        view_data, legal = await self.service.on(loaded, _private_data, loaded, seat)
        rec = loaded.record
        uid = rec.seats[seat].get("user_id") if seat < len(rec.seats) else None
        if legal and uid and narrows(rec.game):  # their plan may narrow their choices (Carcassonne: no follower)
            legal = allowed(rec.game, parsed(rec.game, (await self.service.notes(rec.id)).seat(uid).plan), legal)
        if since:
            view_data = ui.mark_since(view_data, since)

        async def picture() -> list[discord.File]:
            png = await self.draw(ui.turn_png, view_data, loaded.names, lang) if with_picture else None
            return [discord.File(io.BytesIO(png), filename="hand.png")] if png else []

        rec = loaded.record
        if legal is None:
            movers = loaded.to_move()
            text = self.status_text(loaded, lang) if not movers else t("turn.waiting", lang, player=", ".join(loaded.names[s] for s in movers))
            return f"{t('turn.your_hand', lang)}\n{text}", await picture(), None
        c = await self._controls(ui, view_data, legal, lang, picked, True)
        if c.auto and picked is None and _again > 0:
            taken = await self.take_auto(loaded, seat, ui, c.auto, lang, _again)
            if taken is not None:
                return taken
            c = await self._controls(ui, view_data, legal, lang, picked, False)  # the setting is off: ask
        # the step's own picture (a preview, a page of places) replaces the turn picture: never two
        files = [discord.File(io.BytesIO(c.picture), filename="preview.png")] if c.picture else await picture()
        view = discord.ui.View(timeout=None)
        if c.select:
            options = [
                discord.SelectOption(label=ch.label[:100], value=ch.token, description=(ch.description or None) and ch.description[:100], default=ch.token == picked)
                for ch in c.select[:25]
            ]
            view.add_item(PickSelect(rec.id, rec.version, options, c.select_placeholder))
        for i, (placeholder, more) in enumerate(c.more_selects[:4], start=1):  # further selects, one row each
            options = [discord.SelectOption(label=ch.label[:100], value=ch.token, description=(ch.description or None) and ch.description[:100])
                       for ch in more[:25]]
            view.add_item(PickSelect(rec.id, rec.version, options, placeholder, index=i))
        for ch in c.buttons[:20]:
            view.add_item(DoButton(rec.id, rec.version, ch.token, ch.label, ch.style, ch.row))
        return c.text, files, view

    async def _controls(self, ui: Any, view_data: dict[str, Any], legal: list[dict[str, Any]], lang: str,
                        picked: str | None, auto_end: bool) -> Any:
        if ui.controls_draw:
            return await self.draw(ui.controls, view_data, legal, lang, picked, auto_end)
        return ui.controls(view_data, legal, lang, picked, auto_end)

    async def take_auto(self, loaded: Loaded, seat: int, ui: Any, token: str, lang: str, again: int = 2):
        """Commit ``token`` (the controls' ``Controls.auto``: the turn's end, the seat's only legal
        move) for the seat's person when their ``auto_end`` setting is on, through the one commit
        path at the version the controls were drawn for: a second run (a click again, a job run
        again after a crash) finds the match moved on and applies nothing twice. Returns what the
        person sees next (as ``mover_message``), or None to ask them (the setting is off, nobody
        to act for, the rules refuse)."""
        rec = loaded.record
        s = rec.seats[seat]
        uid = s.get("user_id")
        if not uid or s.get("ai") or (await self.service.store.person(uid)).get("auto_end") is False:
            return None
        try:
            result = await self.service.move(rec.id, rec.version, ("user", uid), ui.action(token), loaded=loaded, auto_end=True)
        except Stale:  # something else moved first (a click on another device, a job): show what is there now
            if again <= 0:
                return None
            return await self.private_turn(await self.service.get(rec.id), seat, lang, _again=again - 1)
        except (EngineError, UserError, KeyError, ValueError):
            log.warning("the turn's end %r of match %s was refused; asking the player", token, rec.id, exc_info=True)
            return None
        content, files, view = await self.mover_message(result, lang, _again=again - 1)
        return f"{t('turn.auto_ended', lang)}\n{content}", files, view

    async def mover_message(self, result: MoveResult, lang: str, _again: int = 2):
        """(content, files, view) for the person who just moved: their next controls if they still
        have something to do, else what they did and that their turn is over (no picture: nobody
        would look at a hand whose turn is over)."""
        done = result.loaded
        if result.seat in done.to_move():
            content, files, view = await self.private_turn(done, result.seat, lang, _again=_again)
            return content, files, self.with_undo(done, view, lang)
        ui = ui_for(done.record.game)
        content = f"{describe_move(ui, result.action, done.names, result.seat, lang)}. {t('turn.done', lang)}"
        view = self.with_undo(done, None, lang)
        if view is not None and done.record.status == "active" and len(view.children) < 25:
            view.add_item(PlanButton(done.record.id, t("plan.button", lang)))  # orders for their coming turns (issue 21)
        return content, [], view

    def with_undo(self, done: Loaded, view: discord.ui.View | None, lang: str) -> discord.ui.View | None:
        """The mover's answer carries an Undo button while the match runs (bot/core/table.py decides)."""
        if done.record.status != "active":
            return view
        view = view or discord.ui.View(timeout=None)
        if len(view.children) < 25:
            view.add_item(UndoButton(done.record.id, done.record.version, t("undo.button", lang)))
        return view

    # -- the channel -----------------------------------------------------------------------------

    async def channel(self, rec: Any) -> discord.abc.Messageable | None:
        ch = self.client.get_channel(rec.channel_id) or self._fetched.get(rec.channel_id)
        if ch is None:
            # a process whose shards do not hold the guild: ask Discord once, then remember it
            # (every request counts against the bot's global rate limit)
            try:
                ch = await self.client.fetch_channel(rec.channel_id)
            except discord.NotFound:
                log.warning("channel %s of match %s is gone", rec.channel_id, rec.id)
                return None
            if len(self._fetched) >= 10_000:
                self._fetched.pop(next(iter(self._fetched)))
            self._fetched[rec.channel_id] = ch
        return ch  # type: ignore[return-value]

    async def board_message(self, loaded: Loaded, story: str, lang: str, ping: set[int] | None = None) -> dict[str, Any]:
        """The keyword arguments of a board post: picture, story, status, the "Take your turn" button;
        the players to move named, mentioned only when in ``ping`` (None: all)."""
        rec = loaded.record
        ui = ui_for(rec.game)
        files = []
        if loaded.state is not None:
            view_data = await self.service.on(loaded, loaded.view, None)
            png = await self.draw(ui.board_png, view_data, loaded.names, lang)
            if png:
                files.append(discord.File(io.BytesIO(png), filename="board.png"))
        kwargs: dict[str, Any] = {"files": files, "allowed_mentions": ALLOWED}
        if rec.status == "active":
            view = discord.ui.View(timeout=None)
            view.add_item(TurnButton(rec.id, rec.version, t("turn.button", lang)))
            kwargs["view"] = view
        status = self.status_text(loaded, lang, ping)
        if rec.status == "finished":  # the seed and the log are published, and a rematch offered
            status += await self._final_extras(loaded, kwargs, lang)
        kwargs["content"] = (f"{story}\n{status}" if story else status)[-2000:]
        return kwargs

    async def edit_board(self, ch: Any, message_id: int, kwargs: dict[str, Any]) -> bool:
        """Show the board of ``kwargs`` (a board_message) in the match's board message, edited in
        place (``post=edit``). False when that message is gone (deleted, or the channel moved)."""
        try:
            await ch.get_partial_message(message_id).edit(
                content=kwargs["content"], attachments=kwargs["files"], view=kwargs.get("view"),
                allowed_mentions=discord.AllowedMentions.none(),  # an edit pings nobody anyway
            )
        except discord.NotFound:
            return False
        return True

    async def retire_board(self, ch: Any, message_id: int) -> None:
        """The match is over: the board message edited in place (``post=edit``) loses its button."""
        with contextlib.suppress(discord.NotFound):  # deleted meanwhile: nothing to retire
            await ch.get_partial_message(message_id).edit(view=None)

    def turn_line(self, loaded: Loaded, story: str, board_id: int, lang: str, ping: set[int] | None = None) -> str:
        """The one-line post of ``post=edit``: what happened, whose turn (mentioned only when in
        ``ping``; None: all), where the board is."""
        rec = loaded.record
        who = ", ".join(self.mention(loaded, s, ping) for s in loaded.to_move())
        turn = t("turn.now", lang, player=who) if who else ""
        what = " · ".join(ln.lstrip("• ").strip() for ln in story.splitlines() if ln.strip())
        link = f"{jump_link(rec)}/{board_id}"
        line = t("board.line", lang, story=what, turn=turn, link=link) if what else t("board.line_turn", lang, turn=turn, link=link)
        if len(line) > 2000:  # a long burst of moves: keep the end (whose turn and the link)
            line = "… " + line[-1990:]
        return line

    async def published(self, done: Loaded) -> tuple[list[discord.File], str]:
        """The seed reveal and the log as a file, for a match that is over."""
        rec = done.record
        if rec.state is None and rec.seed is None:
            return [], ""
        data = await self.table.published_log(rec.id)
        name = f"partida-{rec.game}-{rec.id}.json"
        file = discord.File(io.BytesIO(json.dumps(data, indent=1).encode()), filename=name)
        if "seed_sha256" not in data:
            return [file], ""
        return [file], t("seed.reveal", rec.lang, seed=data["seed"], salt=data["salt"], hash=data["seed_sha256"], file=name)

    async def _final_extras(self, loaded: Loaded, kwargs: dict[str, Any], lang: str) -> str:
        files, extra = await self.published(loaded)
        kwargs["files"] = [*kwargs["files"], *files]
        view = discord.ui.View(timeout=None)
        view.add_item(RematchButton(loaded.record.id, t("rematch.button", lang)))
        kwargs["view"] = view
        return f"\n{extra}" if extra else ""
