# Miskatonic: the Discord bot. Build: docker build -t miskatonic .  Run: docker run -e DISCORD_TOKEN=... -v miskatonic-data:/data miskatonic
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    DATABASE_URL=sqlite+aiosqlite:////data/miskatonic.db

RUN useradd --create-home --uid 10001 miskatonic \
    && mkdir -p /data && chown miskatonic:miskatonic /data

WORKDIR /app
COPY pyproject.toml README.md alembic.ini ./
COPY bot ./bot
COPY engine ./engine
COPY assets ./assets
COPY migrations ./migrations
# our rules notes and quick starts: /rules and /help read them from the working directory
COPY docs ./docs
RUN pip install . && python -c "import engine.elder_sign.rules, bot.cli"

USER miskatonic
VOLUME ["/data"]
# `miskatonic run` applies the migrations, then connects to Discord.
ENTRYPOINT ["miskatonic"]
CMD ["run"]
