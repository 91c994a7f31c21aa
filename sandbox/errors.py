"""Exceptions raised by the sandbox to the test code that drives it.

These are about *test misuse* (asking a simulated user to do something a real
Discord client could not do) and about waits that ran out. Everything the
*bot* does wrong is never raised: it is answered over HTTP the way Discord
would answer it and recorded in ``SandboxServer.violations``.
"""

from __future__ import annotations

__all__ = ["SandboxError", "SandboxUsageError"]


class SandboxError(Exception):
    """Base class of the errors raised by the sandbox."""


class SandboxUsageError(SandboxError):
    """A simulated user was asked to do something a real client cannot do.

    Examples are running a command that was never synced, pressing a button
    that is not on the message, pressing a disabled button or selecting a value
    that is not an option. Pass ``forged=True`` to the acting method to send
    such an interaction anyway (as a modified client could).
    """
