"""Per-server statistics and the leaderboard, read from the stored aggregates the ratings keep
(``bot/core/ratings.py``, store migration 0007): rated matches per game (``scope_totals``), per
person matches played, won (a shared first place is a win for each), actions and the average time
to act (``scope_players``), the asker's own rows (``player_ratings``), and the leaderboard by rating
(``leaderboard``: the ordinal mu - 3 sigma, highest first). A finished match is put into them once,
by its ``rate`` job; nothing here reads a match, so a call costs a few rows whatever the number of
matches (bench/ratings.py).

Time to act is measured on the log's timestamps (``Store.action_timing``, when the match is rated):
each action by a person counts the time since the action before it (a match's first action is not
timed). AI seats are rated by level (``ai:easy``...) and take places on the leaderboard; the
statistics list people only.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from babel.numbers import format_decimal

from engines import registry

from ..i18n import game_name, t
from ..store import Store
from ..store.base import RatingRow
from .ratings import person_key, user_of

AI_PREFIX = "ai:"


@dataclass
class PlayerStats:
    player: str  # 'u<user id>' (see bot/core/ratings.py)
    played: int = 0
    wins: int = 0
    moves: int = 0
    seconds: float = 0.0  # time taken over the timed moves
    timed: int = 0

    @property
    def user_id(self) -> int | None:
        return user_of(self.player)

    @property
    def rate(self) -> int:
        return round(100 * self.wins / self.played) if self.played else 0

    @property
    def average(self) -> float | None:
        return self.seconds / self.timed if self.timed else None


@dataclass
class GuildStats:
    matches: dict[str, int] = field(default_factory=dict)  # game -> rated (finished) matches
    players: list[PlayerStats] = field(default_factory=list)  # people, most wins first
    me: PlayerStats | None = None  # the asker's figures (None: never rated here)
    ratings: list[RatingRow] = field(default_factory=list)  # the asker's rating per game


async def guild_stats(store: Store, guild_id: int, game: str | None = None, me: int | None = None, limit: int = 10) -> GuildStats:
    """The server's figures (of one game, or all), and the asker's own, from the stored aggregates."""
    totals = await store.scope_totals(guild_id)
    out = GuildStats(matches={g: n for g, n in totals.items() if game is None or g == game})
    if not out.matches:
        return out
    # AI levels have rows too (a handful: fetch that many more, keep the people)
    rows = await store.scope_players(guild_id, game, limit + 8)
    out.players = [_stats(r) for r in rows if not r.player.startswith(AI_PREFIX)][:limit]
    if me is not None:
        mine = [r for r in await store.player_ratings(person_key(me), guild_id) if game is None or r.game == game]
        out.ratings = mine
        if mine:
            summed = PlayerStats(person_key(me))
            for r in mine:
                summed.played += r.matches
                summed.wins += r.wins
                summed.moves += r.moves
                summed.timed += r.timed
                summed.seconds += r.seconds
            out.me = summed
    return out


def _stats(row: Any) -> PlayerStats:
    return PlayerStats(row.player, row.matches, row.wins, row.moves, row.seconds, row.timed)


async def leaderboards(store: Store, guild_id: int, game: str | None = None, limit: int = 10) -> dict[str, list[RatingRow]]:
    """The server's leaderboard of one game, or of every game rated here (``limit`` // 2 each)."""
    if game is not None:
        return {game: await store.leaderboard(game, guild_id, limit)}
    games = sorted(await store.scope_totals(guild_id))
    return {g: await store.leaderboard(g, guild_id, max(1, limit // 2)) for g in games}


# -- words -------------------------------------------------------------------------------------------


def player_name(player: str, lang: str) -> str:
    """A person as a mention (Discord shows their current name; the reply pings nobody), an AI
    level in words."""
    uid = user_of(player)
    if uid is not None:
        return f"<@{uid}>"
    return t("stats.ai", lang, level=player.removeprefix(AI_PREFIX))


def rating(value: float, lang: str) -> str:
    return format_decimal(round(value, 1), format="0.0", locale={"es": "es", "pt": "pt_BR"}.get(lang, "en"))


def duration(seconds: float | None) -> str:
    if seconds is None:
        return "-"
    s = int(round(seconds))
    if s < 60:
        return f"{s} s"
    if s < 3600:
        return f"{s // 60} min {s % 60} s"
    if s < 86400:
        return f"{s // 3600} h {s % 3600 // 60} min"
    return f"{s // 86400} d {s % 86400 // 3600} h"


def stats_text(stats: GuildStats, lang: str) -> str:
    if not stats.matches:
        return t("stats.none", lang)
    lines = [t("stats.title", lang)]
    for key, n in sorted(stats.matches.items()):
        lines.append("• " + t("stats.game", lang, game=_game(key, lang), n=n))
    rows = list(stats.players)
    if stats.me is not None and stats.me.player not in {p.player for p in rows}:
        rows.append(stats.me)
    for p in rows:
        lines.append("• " + player_line(p, lang))
    for r in stats.ratings:
        lines.append("• " + t("stats.my_rating", lang, game=_game(r.game, lang), rating=rating(r.ordinal, lang), played=t("stats.matches", lang, n=r.matches)))
    return "\n".join(lines)


def player_line(p: PlayerStats, lang: str) -> str:
    return t(
        "stats.player", lang, player=player_name(p.player, lang), played=t("stats.played", lang, n=p.played),
        wins=t("stats.won", lang, n=p.wins), rate=p.rate, moves=t("stats.moves", lang, n=p.moves), avg=duration(p.average),
    )


def leaderboard_text(boards: dict[str, list[RatingRow]], lang: str) -> str:
    if not any(boards.values()):
        return t("stats.none", lang)
    lines = []
    for game, rows in boards.items():
        if not rows:
            continue
        lines.append(t("stats.leaderboard", lang, game=f" · {_game(game, lang)}"))
        lines += [
            t(
                "stats.rated_row", lang, rank=i, player=player_name(r.player, lang), rating=rating(r.ordinal, lang),
                played=t("stats.matches", lang, n=r.matches), wins=t("stats.wins", lang, n=r.wins),
            )
            for i, r in enumerate(rows, start=1)
        ]
    return "\n".join(lines)


def _game(key: Any, lang: str) -> str:
    try:
        return game_name(registry.get(key), lang)
    except Exception:
        return str(key)
