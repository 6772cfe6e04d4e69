FROM python:3.11-slim
WORKDIR /app
COPY pyproject.toml README.md ./
COPY bot ./bot
COPY engines ./engines
COPY render ./render
RUN pip install --no-cache-dir '.[postgres]'
VOLUME /data
ENV DATABASE_URL=sqlite:////data/partida.sqlite3
CMD ["python", "-m", "bot"]
