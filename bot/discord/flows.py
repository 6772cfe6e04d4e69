"""What each click does: lobby buttons, "Take your turn", the card select, the move buttons.

The click path is: defer, check, commit, answer the clicker. Everything else a move causes (the
next player's DM, the board post, AI turns) is a job committed with the move (``bot/discord/after_move.py``).

Every refusal (not your turn, stale button, a move the rules refuse) is an ephemeral message in the
clicker's language and changes nothing: ``handle_error`` words it, for slash commands (the cogs'
error handler calls it), buttons and selects (``guarded``) alike.
"""

from __future__ import annotations

import contextlib
import functools
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

import discord

from engines.core import EngineError

from ..core.plan_words import MAX_CHOICES as PLAN_MAX
from ..core.plan_words import OFF as PLAN_OFF
from ..core.plan_words import choices as plan_choices
from ..core.plan_words import plan_off_text, plan_text
from ..core.plan_words import raw_plan as plan_raw
from ..core.plans import Planner
from ..core.refusals import error_text
from ..core.service import MatchService, Place, Stale, UserError, timing
from ..core.story import describe_move  # noqa: F401  (re-exported)
from ..core.table import commitment
from ..games import ui_for
from ..i18n import M, game_name, lang_of, options_problem, t
from ..store import DamagedMatch, outage
from .components import PlanSelect
from .posting import ALLOWED, Presenter, jump_link  # noqa: F401  (re-exported for the cogs)

log = logging.getLogger(__name__)


async def reply(
    interaction: discord.Interaction, content: str, *, ephemeral: bool = True, files=(), view=None,
    mentions: discord.AllowedMentions | None = None,
) -> None:
    kwargs: dict[str, Any] = {"content": content[:2000], "ephemeral": ephemeral, "files": list(files)}
    if view is not None:
        kwargs["view"] = view
    if mentions is not None:
        kwargs["allowed_mentions"] = mentions
    if interaction.response.is_done():
        await interaction.followup.send(**kwargs)
    else:
        await interaction.response.send_message(**kwargs)


async def ack(interaction: discord.Interaction, **kwargs: Any) -> None:
    """Acknowledge at once (a deferred response); the work and the real answer follow."""
    await interaction.response.defer(**kwargs)
    if timing.isEnabledFor(logging.DEBUG) and "t0" in interaction.extras:
        timing.debug("ack_ms=%.3f", (time.perf_counter() - interaction.extras["t0"]) * 1000)


def user_error_text(e: UserError, lang: str) -> str:
    params = dict(e.params)
    if "status." + str(params.get("status")) in M:  # a match status ("abandoned"...) in the reader's words
        params["status"] = t("status." + params["status"], lang)
    if e.code == "not_enough":  # the game's name in the reader's language
        params["game"] = game_name(params["game"], lang)
    if e.code == "bad_options" and "game" in params:  # the engine's reason is English: say it again
        params["reason"] = options_problem(params["game"], params.get("options") or {}, lang) or params.get("reason", "")
    return t("err." + e.code, lang, **params) if "err." + e.code in M else t(e.code, lang, **params)


async def handle_error(interaction: discord.Interaction, error: BaseException) -> None:
    """The one place an interaction's error becomes an answer (commands, buttons, selects).
    discord.py hands a command's error to the cog's handler and then to the tree's: answer once."""
    if interaction.extras.get("error_answered"):
        return
    interaction.extras["error_answered"] = True
    flows: Flows | None = getattr(interaction.client, "flows", None)
    lang = lang_of(interaction.locale)
    inner = getattr(error, "original", None)  # app_commands.CommandInvokeError wraps the real one
    if isinstance(inner, Exception):
        error = inner
    if isinstance(error, Stale):
        text = await flows.present.stale_text(error.record, lang) if flows is not None else t("stale", lang)
    elif isinstance(error, UserError):
        text = user_error_text(error, lang)
    elif isinstance(error, EngineError):
        text = error_text(error.code, error.params, lang, error.reason, getattr(error, "game", None))
    elif isinstance(error, DamagedMatch):  # quarantined: the store logged it once
        text = t("err.damaged_match", lang, id=error.match_id, part=error.part)
    elif outage(error):  # expected now and then: one line, no traceback; nothing was half-written
        log.warning("the store could not serve %s: %s: %s", _what(interaction), type(error).__name__, str(error)[:200])
        text = t("err.store_busy", lang)
    else:
        name = _what(interaction)
        log.error("error while handling %s", name, exc_info=error)
        text = t("err.internal", lang)
    with contextlib.suppress(discord.HTTPException):  # the person still gets an answer if Discord lets us
        await reply(interaction, text)


def place(interaction: discord.Interaction) -> Place:
    """Where a click came from, for the match to check (``Place``): a DM has no server."""
    return Place(None if interaction.guild_id is None else interaction.channel_id)


def _what(interaction: discord.Interaction) -> str:
    """The command or the button an interaction is about, for the log."""
    return getattr(getattr(interaction, "command", None), "qualified_name", None) or (interaction.data or {}).get("custom_id", "?")


def guarded(handler: Callable[..., Awaitable[None]]) -> Callable[..., Awaitable[None]]:
    """Run a component handler; any error goes to ``handle_error``. Works on methods and plain
    functions alike: the interaction is found among the arguments."""

    @functools.wraps(handler)
    async def wrapper(*args: Any) -> None:
        interaction = next(a for a in args if isinstance(a, discord.Interaction))
        interaction.extras.setdefault("t0", time.perf_counter())
        try:
            await handler(*args)
        except Exception as e:
            await handle_error(interaction, e)

    return wrapper


class Flows:
    def __init__(self, client: discord.Client, service: MatchService, present: Presenter) -> None:
        self.client = client
        self.service = service
        self.present = present
        self.planner = Planner(service)
        self._locales: dict[int, str] = {}

    async def note_locale(self, interaction: discord.Interaction) -> str:
        """The person's language, remembered in the store when it changed (their DMs use it)."""
        lang = lang_of(interaction.locale)
        uid = interaction.user.id
        if self._locales.get(uid) != lang:
            try:
                await self.service.store.set_locale(uid, lang)
                if len(self._locales) > 50_000:
                    self._locales.clear()
                self._locales[uid] = lang
            except Exception as e:  # a busy store must not cost the click (its answer says so, once)
                if not outage(e):
                    log.warning("could not remember the language of %s", uid, exc_info=True)
        return lang

    async def note_seen(self, loaded: Any, user_id: int) -> None:
        """Remember the version of the match a person last looked at (a note: no version bump)."""
        try:
            await self.service.note(loaded.record.id, user_id, {"seen_version": loaded.record.version})
        except Exception as e:  # a busy store must not cost the click
            log.log(logging.DEBUG if outage(e) else logging.WARNING, "could not note what %s saw in match %s", user_id, loaded.record.id, exc_info=not outage(e))

    # -- lobby -----------------------------------------------------------------------------------

    @guarded
    async def on_lobby(self, interaction: discord.Interaction, act: str, mid: int, ver: int) -> None:
        user = interaction.user
        svc = self.service
        await ack(interaction)  # answer at once; the store may be busy
        await self.note_locale(interaction)
        # Joining and leaving do not depend on what the lobby showed (people join at the same time);
        # adding an AI and starting do (a double click must not add two AIs).
        at = place(interaction)  # the lobby's own channel only
        if act == "join":
            loaded = await svc.join(mid, None, user.id, user.display_name, at=at)
        elif act == "leave":
            loaded = await svc.leave(mid, None, user.id, at=at)
        elif act == "ai":
            rec = (await svc.get(mid, at, dm_ok=False)).record
            n = sum(1 for s in rec.seats if s.get("ai")) + 1
            loaded = await svc.add_ai(mid, ver, user.id, t("ai.name", rec.lang, n=n), at=at)
        else:
            loaded = await svc.start(mid, ver, user.id, at=at)  # the first turn's jobs are committed with it
            content, _ = self.present.lobby_message(loaded, loaded.record.lang)
            content += "\n" + t("lobby.started", loaded.record.lang)
            if digest := commitment(loaded.record):  # the shuffle's commitment, before any card is seen
                content += "\n" + t("seed.hash", loaded.record.lang, hash=digest)
            try:
                await interaction.edit_original_response(content=content, view=None)
            except discord.HTTPException:  # the match has started and its jobs tell the players
                log.warning("could not mark the lobby of match %s as started", mid, exc_info=True)
            return
        content, view = self.present.lobby_message(loaded, loaded.record.lang)
        await interaction.edit_original_response(content=content, view=view, allowed_mentions=ALLOWED)

    # -- private turn controls -------------------------------------------------------------------

    @guarded
    async def on_turn(self, interaction: discord.Interaction, mid: int, ver: int) -> None:
        await ack(interaction, ephemeral=True, thinking=True)
        lang = await self.note_locale(interaction)
        loaded = await self.service.get(mid, place(interaction))  # its channel, or a DM
        seat = loaded.seat_of(interaction.user.id)
        if seat is None:
            raise UserError("not_player")
        content, files, view = await self.present.private_turn(loaded, seat, lang)
        await self.note_seen(loaded, interaction.user.id)
        if loaded.record.version != ver:
            content = f"{await self.present.stale_text(None, lang)}\n{content}"
        elif loaded.record.status == "active" and seat not in loaded.to_move():
            who = ", ".join(loaded.names[s] for s in loaded.to_move())
            content = f"{t('turn.not_yours', lang, player=who)}\n{t('turn.your_hand', lang)}"
        await reply(interaction, content, files=files, view=view)

    async def show_hand(self, interaction: discord.Interaction) -> None:
        """/partida hand: the caller's hand, with their controls when it is their turn."""
        await ack(interaction, ephemeral=True, thinking=True)
        lang = await self.note_locale(interaction)
        loaded = await self.service.in_channel(interaction.channel_id)
        seat = loaded.seat_of(interaction.user.id)
        if seat is None:
            raise UserError("not_player")
        if loaded.state is None:
            raise UserError("not_active", status=t("status.lobby", lang))
        content, files, view = await self.present.private_turn(loaded, seat, lang)
        await self.note_seen(loaded, interaction.user.id)
        await reply(interaction, content, files=files, view=view)

    async def fresh_or_stale(self, interaction: discord.Interaction, loaded: Any, seat: int, lang: str) -> None:
        """A click on controls drawn for an older version of the match. Still the clicker's turn
        (a crash between a click's commit and its answer, a move made from the channel): the
        answer is fresh controls under the out-of-date line. Otherwise the usual answer: out of date, the
        status, no controls."""
        if loaded.record.status != "active" or seat not in loaded.to_move():
            raise Stale(loaded.record)
        content, files, view = await self.present.private_turn(loaded, seat, lang)
        await reply(interaction, f"{t('stale', lang)}\n{content}", files=files, view=view)  # only they see it

    @guarded
    async def on_pick(self, interaction: discord.Interaction, mid: int, ver: int, value: str) -> None:
        lang = lang_of(interaction.locale)
        await ack(interaction)  # a deferred update of the message that holds the select
        loaded = await self.service.get(mid, place(interaction))
        seat = loaded.seat_of(interaction.user.id)
        if seat is None:
            raise UserError("not_player")
        if loaded.record.version != ver:
            await self.fresh_or_stale(interaction, loaded, seat, lang)
            return
        action = ui_for(loaded.record.game).pick_action(value)
        if action is not None:  # a pick that is itself a move acts at once (Undo is the safety net)
            try:
                result = await self.service.move(mid, ver, ("user", interaction.user.id), action, loaded=loaded)
            except Stale:  # another click (or an AI, a standing order) moved first
                await self.fresh_or_stale(interaction, await self.service.get(mid), seat, lang)
                return
            result, said = await self.continue_plan(result, interaction.user.id, lang)
            content, files, view = await self.present.mover_message(result, lang)
            await interaction.edit_original_response(content=f"{said}{content}"[:2000], attachments=files, view=view)
            return
        content, files, view = await self.present.private_turn(loaded, seat, lang, picked=value, with_picture=False)
        if files:
            await interaction.edit_original_response(content=content, view=view, attachments=files)
        else:
            await interaction.edit_original_response(content=content, view=view)

    @guarded
    async def on_do(self, interaction: discord.Interaction, mid: int, ver: int, token: str) -> None:
        """A move button: defer, check, commit (with its follow-up jobs), answer the clicker."""
        lang = lang_of(interaction.locale)
        await ack(interaction)  # commit + picture may take a moment: answer at once
        loaded = await self.service.get(mid, place(interaction), version=ver)  # no read when ver is cached here
        seat = loaded.seat_of(interaction.user.id)
        if seat is None:
            raise UserError("not_player")
        if loaded.record.version != ver:
            await self.fresh_or_stale(interaction, loaded, seat, lang)
            return
        ui = ui_for(loaded.record.game)
        try:
            action = ui.action(token)
        except (KeyError, ValueError):
            raise UserError("bad_move", move=token) from None
        try:
            result = await self.service.move(mid, ver, ("user", interaction.user.id), action, loaded=loaded)
        except Stale:  # another click (or an AI, a standing order) moved first
            await self.fresh_or_stale(interaction, await self.service.get(mid), seat, lang)
            return
        result, said = await self.continue_plan(result, interaction.user.id, lang)
        content, files, view = await self.present.mover_message(result, lang)
        try:
            await interaction.edit_original_response(content=f"{said}{content}"[:2000], attachments=files, view=view)
        except discord.HTTPException:  # the move stands, and its jobs tell everybody else
            log.warning("could not show the result of a move in match %s to its player", mid, exc_info=True)

    # -- plans made ahead (issue 21): bot/core/plans.py keeps and fires them -------------------------

    async def continue_plan(self, result: Any, uid: int, lang: str) -> tuple[Any, str]:
        """After the person's own move that leaves them to act again, their plan may answer that
        decision (a Lost Cities draw after the play): (the move to show, a line saying what it did)."""
        fired = await self.planner.after_own_move(result, uid)
        if fired.moved:
            ui = ui_for(fired.result.loaded.record.game)
            return fired.result, f"{t('plan.mark', lang)} {ui.label(fired.result.action, lang)}\n"
        if fired.cancel is not None:  # dropped: said here, so the next turn DM need not say it again
            await self.service.note(result.loaded.record.id, uid, {"plan_off": None})
            return result, plan_off_text(fired.cancel, result.loaded.record.game, lang) + "\n"
        return result, ""

    async def plan_menu(self, loaded: Any, uid: int, lang: str) -> tuple[str, discord.ui.View | None]:
        """The player's plan now and what they may plan instead: one select (choose, or clear)."""
        rec = loaded.record
        seat = loaded.seat_of(uid)
        if seat is None or rec.seats[seat].get("ai"):
            raise UserError("not_player")
        if rec.status != "active":
            raise UserError("not_active", status=rec.status)
        view_data = await self.service.on(loaded, loaded.view, seat)
        current = await self.planner.current(rec.id, uid, rec.game)
        options = plan_choices(rec.game, view_data, loaded.names, lang)
        if current is not None:
            options = [(t("plan.clear", lang), PLAN_OFF), *options[: PLAN_MAX - 1]]
        if not options:
            return t("plan.nothing", lang), None
        view = discord.ui.View(timeout=None)
        view.add_item(PlanSelect(rec.id, [discord.SelectOption(label=label[:100], value=tok) for label, tok in options], t("plan.button", lang)))
        text = t("plan.current", lang, plan=plan_text(rec.game, current, loaded.names, lang))
        return f"{text}\n{t('plan.pick', lang)}", view

    async def choose_plan(self, loaded: Any, uid: int, token: str, lang: str) -> str:
        """Keep the chosen plan (a token of ``plan_menu``/the command's list; ``off`` clears it)."""
        rec = loaded.record
        seat = loaded.seat_of(uid)
        if seat is None:
            raise UserError("not_player")
        view_data = await self.service.on(loaded, loaded.view, seat)
        try:
            raw = plan_raw(rec.game, token, view_data)
        except ValueError:
            raise UserError("plan_bad", reason=token[:40]) from None
        after, plan = await self.planner.set(rec.id, uid, raw)
        if raw is None:
            return t("plan.cleared", lang)
        return t("plan.saved", lang, plan=plan_text(rec.game, plan, after.names, lang))

    @guarded
    async def on_plan_menu(self, interaction: discord.Interaction, mid: int) -> None:
        await ack(interaction, ephemeral=True, thinking=True)
        lang = await self.note_locale(interaction)
        loaded = await self.service.get(mid, place(interaction))
        content, view = await self.plan_menu(loaded, interaction.user.id, lang)
        await reply(interaction, content, view=view)

    @guarded
    async def on_plan_pick(self, interaction: discord.Interaction, mid: int, token: str) -> None:
        lang = lang_of(interaction.locale)
        await ack(interaction)  # a deferred update of the message that holds the select
        loaded = await self.service.get(mid, place(interaction))
        text = await self.choose_plan(loaded, interaction.user.id, token, lang)
        await interaction.edit_original_response(content=text, view=None)
