"""``python -m bot``: the ``cardtable`` command (see :mod:`bot.cli`)."""

from __future__ import annotations

import sys

from bot.cli import configure_logging, main

__all__ = ["configure_logging", "main"]

if __name__ == "__main__":
    sys.exit(main())
