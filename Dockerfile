FROM python:3.11-slim
WORKDIR /app
COPY pyproject.toml README.md ./
COPY bot ./bot
COPY engines ./engines
COPY render ./render
COPY catalogs ./catalogs
RUN pip install --no-cache-dir '.[postgres]' \
    && useradd --system --uid 10001 --home-dir /data --shell /usr/sbin/nologin partida \
    && mkdir -p /data && chown partida /data
# never root: the bot needs no privilege (it opens no port; it writes only /data and /tmp)
USER partida
VOLUME /data
ENV DATABASE_URL=sqlite:////data/partida.sqlite3 \
    HEALTH_FILE=/tmp/partida-alive
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s \
    CMD ["python", "-m", "bot.core.health", "/tmp/partida-alive", "60"]
CMD ["python", "-m", "bot"]
