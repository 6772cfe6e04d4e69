"""The Discord edge: the client (the composition root), commands, buttons, what is posted and sent.
It depends on ``bot.core``; nothing in the core imports it."""
