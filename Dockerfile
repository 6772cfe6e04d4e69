FROM python:3.11-slim
WORKDIR /app
COPY pyproject.toml README.md ./
COPY bot ./bot
COPY engines ./engines
COPY render ./render
RUN pip install --no-cache-dir '.[postgres]' \
 && useradd --system --uid 10001 --home-dir /app --shell /usr/sbin/nologin partida \
 && mkdir -p /data && chown partida:partida /data
# The bot needs no privilege: it runs as an unprivileged user and writes only to /data.
USER partida
VOLUME /data
ENV DATABASE_URL=sqlite:////data/partida.sqlite3
CMD ["python", "-m", "bot"]
