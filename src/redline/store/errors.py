"""The errors the audit store raises, below `RedlineError`.

    RedlineError
    └── StoreError             anything the audit store cannot do
        ├── NotFoundError      no queue item (or decision) with that id
        ├── ConflictError      a queue item that is no longer pending
        ├── InvalidCursor      a pagination cursor this store did not issue (also a ValueError)
        └── StoreUnavailable   the database cannot be reached, is locked, or times out

Driver errors never leave the store: `store/sql.py` converts them here with
`raise … from exc`, so the original stays on `__cause__`.
"""

from __future__ import annotations

from redline.errors import RedlineError


class StoreError(RedlineError):
    """Root of every audit-store error."""


class NotFoundError(StoreError):
    """No row with the given id."""


class ConflictError(StoreError):
    """The queue item was already decided; only a pending item can be approved, edited or rejected."""


class InvalidCursor(StoreError, ValueError):
    """A `cursor` that is not one this store handed out for the same listing."""


class StoreUnavailable(StoreError):
    """The database cannot be reached or did not answer in time; retrying later may work."""
