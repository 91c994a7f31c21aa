# cardtable in a container: `docker compose up -d` (compose.yaml), or see docs/running.md's Docker steps.
# The database, its backups and the health report live in the /data volume.

FROM python:3.11-slim AS base
ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

# Build the project's wheel in a throw-away stage: no build/ or *.egg-info reaches the image.
FROM base AS wheel
WORKDIR /src
COPY pyproject.toml README.md LICENSE ./
COPY bot ./bot
COPY cogs ./cogs
COPY art ./art
COPY engine ./engine
COPY storage ./storage
COPY sandbox ./sandbox
RUN pip wheel --no-deps --wheel-dir /wheels .

FROM base
RUN useradd --create-home --uid 10001 cardtable \
    && mkdir /data && chown cardtable:cardtable /data
# Dependencies first, from the lock, in their own layer: a code change does not reinstall them.
COPY requirements.lock /tmp/requirements.lock
RUN pip install -r /tmp/requirements.lock && rm /tmp/requirements.lock
COPY --from=wheel /wheels /tmp/wheels
RUN pip install --no-deps /tmp/wheels/*.whl && rm -rf /tmp/wheels

ENV DATABASE_URL=sqlite:////data/cardtable.db
USER cardtable
WORKDIR /data
VOLUME ["/data"]
# Connected to Discord and the database writable (the bot's report in /data, refreshed every 10 s).
HEALTHCHECK --interval=30s --timeout=10s --start-period=60s --retries=3 CMD ["cardtable", "health"]
# The bot stops cleanly on SIGTERM (docker stop) within 5 seconds.
STOPSIGNAL SIGTERM
CMD ["cardtable"]
