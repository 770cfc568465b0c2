"""Decision ids: a random per-process prefix (renewed in a forked child) and a counter.

Unique like a uuid4, a tenth of its cost, and ids from one process sort in order.
"""

from __future__ import annotations

import itertools
import os
import time


def _new_id_source() -> tuple[str, itertools.count[int]]:
    return f"{int(time.time()):08x}{os.urandom(6).hex()}", itertools.count()


_id_prefix, _id_counter = _new_id_source()


def _reset_ids() -> None:
    global _id_prefix, _id_counter
    _id_prefix, _id_counter = _new_id_source()


os.register_at_fork(after_in_child=_reset_ids)


def new_decision_id() -> str:
    return f"{_id_prefix}{next(_id_counter):08x}"
