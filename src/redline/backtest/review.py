"""What the audit store knows about past drafts, for the promotion report (`--report`).

A draft is matched to the store by its id: a decision log's ids are decision ids, and so
are those of a corpus exported from the store. Its review is the Expert's decision on its
queue item (rejected, edited, approved); anything else (no item, or still pending) is
unreviewed. The store is only read: a SQLite file that does not exist is an error, never
a new empty database.
"""

from __future__ import annotations

import os
from typing import Any
from urllib.parse import unquote

from redline.errors import RedlineError
from redline.store.errors import StoreError
from redline.store.sql import AuditStore


def _sqlite_file(url: str) -> str | None:
    if not url.startswith("sqlite:///"):
        return None
    return unquote(url[len("sqlite:///") :].split("?", 1)[0])  # four slashes: an absolute path


def load_reviews(url: str) -> tuple[dict[str, Any], dict[str, str]]:
    """(what the report says about the store, decision id -> review)."""
    file = _sqlite_file(url)
    if file is not None and file not in ("", ":memory:") and not os.path.isfile(file):
        raise RedlineError(f"--db {url}: no audit store at {file}; pass the URL of the one `redline serve` writes")
    try:
        with AuditStore(url) as store:
            reviews = {decision_id: status.value for decision_id, status in store.reviews().items()}
            where = repr(store)
    except StoreError as exc:
        raise RedlineError(f"--db: {exc}") from exc
    return {"store": where, "reviewed": len(reviews)}, reviews
