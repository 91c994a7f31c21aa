FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    DATABASE_URL=sqlite:////data/cardtable.db

RUN useradd --create-home --uid 10001 cardtable \
    && mkdir /data && chown cardtable:cardtable /data

WORKDIR /app
COPY pyproject.toml README.md ./
COPY bot ./bot
COPY cogs ./cogs
COPY engine ./engine
COPY storage ./storage
COPY sandbox ./sandbox
RUN pip install .

USER cardtable
VOLUME ["/data"]
CMD ["python", "-m", "bot"]
