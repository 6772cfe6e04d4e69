"""The core of the bot: matches, their one commit path, the jobs that follow, the timers' policy.
Nothing here imports Discord; the edge (``bot/discord/``) depends on this, never the reverse."""
