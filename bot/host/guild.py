"""Per-server commands of the table host: settings, statistics, the leaderboard and the rules."""

from __future__ import annotations

from typing import Any

from bot.host import ratings
from bot.host.api import Caller, Outputs
from bot.host.messages import refuse, say
from bot.host.outputs import clip, duration, escape_name, quote
from bot.infra.store import Store
from rules import registry


class GuildSettings:
    """Each server's settings, read from the store once and kept: every move asks for the turn time limit."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._known: dict[int, dict[str, Any]] = {}

    async def get(self, guild_id: int) -> dict[str, Any]:
        """The server's settings (host_role_id, anyone_can_open, turn_limit_seconds, ai_takeover, web_pages); the
        caller must not change the dict it gets."""
        if guild_id not in self._known:
            self._known[guild_id] = await self.store.guilds.settings(guild_id)
        return self._known[guild_id]

    async def save(self, guild_id: int, values: dict[str, Any]) -> None:
        await self.store.guilds.save_settings(guild_id, values)
        self._known[guild_id] = values


class GuildCommands:
    """Per-server commands: ``/config``, ``/stats``, the leaderboard, ``/forget-me`` and ``/rules``."""

    def __init__(self, store: Store, settings: GuildSettings) -> None:
        self.store = store
        self.settings = settings

    # -- settings and statistics ---------------------------------------------------------------------
    async def config(self, caller: Caller, **settings: Any) -> Outputs:
        """Change the server's settings. Every value is checked here against its declared range and type, whatever
        the transport let through: Discord's client enforces a command's min/max, a forged interaction need not."""
        if not caller.admin:
            return refuse("config_needs_admin")
        current = dict(await self.settings.get(caller.guild_id))
        for key, value in settings.items():
            if value is None and key != "host_role_id":
                continue
            checked = _checked_setting(key, value)
            if isinstance(checked, _Refusal):
                return Outputs(ok=False, reply=checked.reply)
            current[key] = checked
        await self.settings.save(caller.guild_id, current)
        role = f"<@&{current['host_role_id']}>" if current["host_role_id"] else "none"
        text = (
            f"Host role: {role}; anyone can open tables: {'yes' if current['anyone_can_open'] else 'no'}; "
            f"turn time limit: {duration(current['turn_limit_seconds'])}; "
            f"AI takes over on time-out: {'yes' if current['ai_takeover'] else 'no'}; "
            f"tables shown on the web: {'yes' if current['web_pages'] else 'no'}."
        )
        return Outputs(reply=text)

    async def stats(self, caller: Caller, user_id: int | None = None) -> Outputs:
        # everything shown is this server's: a member's games elsewhere are not this server's business
        uid = caller.user_id if user_id is None else user_id
        rows = await self.store.guilds.user_stats(caller.guild_id, uid)
        name = None if uid == caller.user_id else await self.store.guilds.user_name(caller.guild_id, uid)
        who = "You have" if uid == caller.user_id else f"{escape_name(name) if name else 'That member'} has"
        rated = {g: (r, rank) for g, r, rank in await self.store.ratings.of_user(
            caller.guild_id, uid, min_games=ratings.MIN_GAMES
        )}
        # a game only left half-way has no result row (the AI finished it) but is rated all the same
        played_games = {g for g, _, _ in rows}
        rows += [(g, 0, 0) for g in sorted(rated) if g not in played_games]
        if not rows:
            return Outputs(reply=f"{who} no finished games yet.")
        lines = [f"{who} played:"]
        for game_id, played, won in sorted(rows):
            title = registry.get(game_id).info.title if game_id in registry.game_ids() else game_id
            parts = [f"{played} played, {won} won"] if played else []
            if game_id in rated:
                rating, rank = rated[game_id]
                parts.append(
                    f"rating {rating_text(rating)} here, "
                    + (f"rank {rank}" if rank is not None else f"unranked until {ratings.MIN_GAMES} rated games")
                )
            lines.append(f"• {title}: {'; '.join(parts)}")
        return Outputs(reply="\n".join(lines))

    async def leaderboard(self, caller: Caller, game_id: str) -> Outputs:
        try:
            game = registry.get(game_id)
        except KeyError:
            return refuse("no_such_game", game=quote(game_id), games=", ".join(registry.game_ids()))
        rows = await self.store.ratings.board(caller.guild_id, game.info.id, min_games=ratings.MIN_GAMES)
        if not rows:
            return Outputs(reply=f"Nobody has {ratings.MIN_GAMES} rated {game.info.title} games on this server yet.")
        lines = [f"**{game.info.title}** leaderboard · skill μ − 3σ · after {ratings.MIN_GAMES} rated games"]
        lines += [
            f"{i}. {escape_name(name)}: **{r.conservative:.1f}** ({rating_text(r)}, {r.games} games)"
            for i, (_, _, name, r) in enumerate(rows, 1)
        ]
        return Outputs(reply="\n".join(lines))

    async def forget_me(self, caller: Caller) -> Outputs:
        n = await self.store.guilds.forget_user(caller.user_id)
        return Outputs(reply=f"Deleted your statistics and ratings on every server ({n} game results).")

    @staticmethod
    async def rules(game_id: str | None = None, section: str = "rules") -> Outputs:
        """A game's rules summary, or with ``section="cards"`` its cards and what each does. Not clipped: the
        transport fits it (Discord sends it as embeds; its first line is the title)."""
        if not game_id:
            lines = ["Games:"] + [f"• **{g.info.title}** (`{g.info.id}`): {g.info.blurb}" for g in registry.all_games()]
            return Outputs(reply=clip("\n".join(lines)))
        try:
            game = registry.get(game_id)
        except KeyError:
            return refuse("no_such_game", game=quote(game_id), games=", ".join(registry.game_ids()))
        title = game.info.title
        if section == "cards":
            cards = tuple(getattr(game.info, "cards", ()) or ())
            if not cards:
                return Outputs(reply=f"**{title} — cards**\n{title} is played without cards.")
            return Outputs(reply="\n".join([f"**{title} — cards**", *(f"• **{name}**: {text}" for name, text in cards)]))
        return Outputs(reply=f"**{title}**\n{game.info.rules or game.info.blurb}")


#: /config's turn time limit, in minutes: what the slash command declares and what the host accepts
TURN_LIMIT_MINUTES = (1, 43_200)
#: a Discord id (a role's) is a positive 64-bit integer; anything bigger would not even fit PostgreSQL's BIGINT
MAX_SNOWFLAKE = 2**63 - 1
_YES, _NO = ("1", "true", "yes", "on"), ("0", "false", "no", "off")
SETTINGS = ("host_role_id", "anyone_can_open", "turn_limit_seconds", "ai_takeover", "web_pages")


class _Refusal:
    def __init__(self, reply: str) -> None:
        self.reply = reply


def _checked_setting(key: str, value: Any) -> Any:
    """The stored value of one setting, or a :class:`_Refusal` naming what is allowed."""
    if key == "host_role_id":
        if value in (None, 0, "", "none"):
            return None
        if _whole(value) and 0 < int(value) <= MAX_SNOWFLAKE:
            return int(value)
        return _Refusal(say("host_role"))
    if key in ("anyone_can_open", "ai_takeover", "web_pages"):
        if isinstance(value, bool):
            return value
        word = str(value).strip().lower()
        if word in _YES or word in _NO:
            return word in _YES
        return _Refusal(say("on_or_off", setting=key.replace("_", " ").capitalize()))
    if key == "turn_limit_seconds":
        low, high = TURN_LIMIT_MINUTES
        if _whole(value) and low * 60 <= int(value) <= high * 60:
            return int(value)
        return _Refusal(say("turn_limit", low=low, high=high, days=high // 1440))
    return _Refusal(say("unknown_setting", key=quote(str(key)), settings=", ".join(SETTINGS)))


def _whole(value: Any) -> bool:
    """A whole number: an integer or a float without a fraction (not a bool, not text)."""
    if isinstance(value, float):
        return value.is_integer()
    return isinstance(value, int) and not isinstance(value, bool)


def rating_text(r: ratings.Rating) -> str:
    """μ ± σ, as the leaderboard and /stats show a rating."""
    return f"{r.mu:.1f} ± {r.sigma:.1f}"
