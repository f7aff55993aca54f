"""Whether another prism-edge process runs a local model on this machine.

llama.cpp runs a model on every physical core, so two processes doing so at once share the
cores and each runs several times slower than alone (10x or more on two cores). A process that
loads a local model holds a lock in the user's cache folder for as long as any of its local
models is open, with its process id in the file; a process that finds the lock held learns
whose it is, so the command can say why both are slow. Nothing waits and nothing is refused:
the lock is a note, not a queue. The lock is a POSIX record lock, which the system drops when
the process ends however it ends (and, by POSIX, when the process closes any descriptor of the
file: nothing else in the process opens it); where there is none (Windows) nothing is claimed.
"""

from __future__ import annotations

import contextlib
import os
import stat
import weakref
from pathlib import Path
from typing import IO

from prism_edge.backends.native import cache_path

LOCK_FILE = "local-model.lock"


class Claims:
    """A process's claim on the machine's cores: one lock file, held while any of the
    process's local models is open."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path
        """The lock file (None: ``local-model.lock`` in the user's cache folder)."""
        self._held: IO[bytes] | None = None
        self._holders = 0
        """How many of this process's open models the claim is for."""

    def claim(self, owner: object) -> int | None:
        """Claim the cores for ``owner`` (a local model) until it is collected: None when no
        other process holds them, else the other's process id (0: unknown)."""
        if self._held is None:
            other = self._lock()
            if other is not None:
                return other
        self._holders += 1
        weakref.finalize(owner, self._release)
        return None

    @property
    def held(self) -> bool:
        return self._held is not None

    def _lock(self) -> int | None:
        """Take the lock: None when taken (or when no lock can be had here), else the
        holder's process id as its file says (0 when it does not)."""
        try:
            import fcntl
        except ImportError:  # no POSIX record locks (Windows): nothing to claim
            return None
        path = self.path or cache_path(LOCK_FILE)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            # its own file only: a symbolic link in its place is refused, never followed
            flags = os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0)
            handle = os.fdopen(os.open(path, flags, 0o600), "r+b")
        except OSError:
            return None  # an unwritable cache folder or a link costs the note, never the run
        try:
            if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
                handle.close()
                return None
            fcntl.lockf(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            with contextlib.suppress(OSError):
                handle.seek(0)
                said = handle.read(32).decode("ascii", "replace").strip()
                handle.close()
                return int(said) if said.isdigit() else 0
            return 0
        with contextlib.suppress(OSError):
            handle.truncate(0)
            handle.write(str(os.getpid()).encode("ascii"))
            handle.flush()
        self._held = handle
        return None

    def _release(self) -> None:
        """One of the process's models is gone: the last one lets the lock go."""
        self._holders -= 1
        if self._holders <= 0 and self._held is not None:
            with contextlib.suppress(OSError):
                self._held.truncate(0)
            self._held.close()  # closing the file drops the process's lock on it
            self._held = None
            self._holders = 0


CLAIMS = Claims()
"""This process's claim, in the user's cache folder."""


def claim(owner: object) -> int | None:
    """:meth:`Claims.claim` on this process's claim."""
    return CLAIMS.claim(owner)
