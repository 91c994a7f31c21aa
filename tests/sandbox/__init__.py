"""Tests of the sandbox Discord server (``sandbox`` package)."""
