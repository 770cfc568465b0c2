"""The Ray engine (`pip install 'redline[ray]'`): `ray.data` over a pool of actors, each
holding the compiled gates, fed the same chunks as the local engine.

The pool is sized to the CPUs the cluster has free, one CPU per actor: Ray Data starts
its actors before anything else, and a pool that asks for more CPUs than there are waits
for ever (ray-project/ray#44687). The input is made into a dataset in the driver
(`from_items`), so no read task competes with the actors for a CPU either.

Ray Data's executor runs in the driver, which a Ray Client connection (`ray://…`) does not
support; there the same pipeline runs inside a small coordinator actor on the cluster
(no CPU of its own), and the client polls it for finished chunks.
"""

from __future__ import annotations

import logging
import pickle
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from redline.backtest.inputs import Chunk
from redline.backtest.partial import Partial
from redline.backtest.worker import Checker, RunSpec
from redline.errors import RedlineError

_POLL_S = 0.1
_WAIT_FOR_CPUS_S = 30.0
_QUIET = ("ray", "ray.data", "ray.util.client")  # their INFO lines would bury the report
# A Ray Client server starts one server process per connection; now and then that process
# dies at its start (seen on loaded machines: it is forked from a gRPC thread of the proxy)
# and the connection fails with "Initialization failure from server". A new connection gets
# a new server process, so such a failure is tried again, a few times, before giving up.
_CLIENT_START_FAILURE = "Initialization failure from server"
_CLIENT_ATTEMPTS = 3
_CLIENT_RETRY_S = 1.0


def _ray() -> Any:
    try:
        import ray
        import ray.data  # noqa: F401 - the engine's whole point
    except ImportError as exc:
        raise RedlineError(
            "the Ray engine needs Ray: pip install 'redline[ray]' (or use --engine local)"
        ) from exc
    return ray


@dataclass(frozen=True, slots=True)
class Connection:
    address: str  # what was connected to, in words
    joined: bool  # this run called ray.init: it stops the local cluster it started, or disconnects
    client: bool  # a Ray Client connection (ray://)
    cpus: int  # free CPUs found
    attempts: int = 1  # Ray Client connections made to get this one (see _CLIENT_START_FAILURE)


def connect(address: str | None, workers: int | None) -> Connection:
    """Join the cluster at `address` (ray://…, host:port, "auto") or start a local one
    (None, or "auto" when none runs here). A Ray already initialized in this process
    (a test, a notebook) is used as it is."""
    ray = _ray()
    for name in _QUIET:
        logging.getLogger(name).setLevel(logging.ERROR)
    options: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False, "logging_level": logging.WARNING}
    joined = not ray.is_initialized()
    where = address or "a local Ray"
    attempts = 1
    if not joined:
        where = "the Ray this process had initialized"
    elif address is not None and address != "local":
        if address.startswith("ray://"):  # a client takes no options for starting a cluster
            options = {"log_to_driver": False, "logging_level": logging.WARNING}
        try:
            attempts = _init(ray, address, options)
            where = "the Ray cluster running here" if address == "auto" else address
        except ConnectionError as exc:
            if address != "auto":
                raise RedlineError(f"cannot reach a Ray cluster at {address}: {exc}") from exc
            address = None  # none runs here: start one, as with no --address
    if joined and (address is None or address == "local"):
        from redline.backtest.local import available_cpus

        cpus = min(workers or available_cpus(), available_cpus())
        ray.init(address="local", num_cpus=cpus, **options)
        where = f"a local Ray started with {cpus} CPUs"
    client = bool(ray.util.client.ray.is_connected())
    free = _free_cpus(ray, workers)
    if free < 1:
        if joined:
            ray.shutdown()
        raise RedlineError(f"{where} has no free CPU for a backtest actor (all {_total(ray)} are taken)")
    return Connection(where, joined, client, free, attempts)


def _init(ray: Any, address: str, options: dict[str, Any]) -> int:
    """`ray.init(address)`; a Ray Client connection whose server process failed to start is
    made again (each attempt starts a new one), up to `_CLIENT_ATTEMPTS` in all. Returns the
    attempts made."""
    attempt = 1
    while True:
        try:
            ray.init(address=address, **options)
            return attempt
        except ConnectionError as exc:
            if not address.startswith("ray://") or _CLIENT_START_FAILURE not in str(exc) or attempt == _CLIENT_ATTEMPTS:
                raise
        ray.shutdown()  # nothing of the failed connection is kept
        time.sleep(_CLIENT_RETRY_S * attempt)
        attempt += 1


def _total(ray: Any) -> int:
    return int(ray.cluster_resources().get("CPU", 0))


def _free_cpus(ray: Any, workers: int | None) -> int:
    """The CPUs free for actors. The actors of a run that just ended give their CPUs back
    a moment later, so wait a little for as many as are wanted before settling for fewer."""
    wanted = max(1, min(workers or _total(ray), _total(ray)))
    deadline = time.monotonic() + _WAIT_FOR_CPUS_S
    while True:
        free = int(ray.available_resources().get("CPU", 0))
        if free >= wanted or time.monotonic() > deadline:
            return free
        time.sleep(_POLL_S)


def disconnect(connection: Connection) -> None:
    """Stop the cluster this run started, or leave the one it joined; a Ray this process
    had initialized before is left as it was."""
    if connection.joined:
        _ray().shutdown()


def _rows(chunks: Iterable[Chunk]) -> list[dict[str, Any]]:
    return [
        {"seq": c.seq, "file": c.file, "first_line": c.first_line, "ends_file": c.ends_file, "data": c.data}
        for c in chunks
    ]


class BacktestActor:
    """A Ray Data callable class: built once per actor, it compiles the gates.

    The spec comes as a reference inside a list, which Ray passes as it is: constructor
    arguments that Ray itself had put in the object store cannot be restored if an actor
    restarts (ray-project/ray#53727), a reference the driver holds can."""

    def __init__(self, spec_ref: list[Any]) -> None:
        import ray

        self.checker = Checker(ray.get(spec_ref[0]))

    def __call__(self, batch: dict[str, Any]) -> dict[str, Any]:
        partials = []
        for seq, file, first, ends, data in zip(
            batch["seq"], batch["file"], batch["first_line"], batch["ends_file"], batch["data"]
        ):
            chunk = Chunk(int(seq), int(file), int(first), bytes(data), bool(ends))
            partials.append(pickle.dumps(self.checker(chunk), protocol=pickle.HIGHEST_PROTOCOL))
        return {"seq": list(batch["seq"]), "partial": partials}


def pipeline(spec: RunSpec, rows: list[dict[str, Any]], actors: int) -> Iterator[bytes]:
    """Each chunk's pickled Partial, as the actors finish them (not in input order)."""
    import ray
    import ray.data

    context = ray.data.DataContext.get_current()
    context.enable_progress_bars = False
    context.print_on_execution_start = False
    dataset = ray.data.from_items(rows, override_num_blocks=min(len(rows), actors * 8) or 1)
    spec_ref = ray.put(spec)
    checked = dataset.map_batches(
        BacktestActor,
        fn_constructor_args=([spec_ref],),
        batch_size=1,
        batch_format="numpy",
        compute=ray.data.ActorPoolStrategy(size=actors),  # `concurrency=actors` before Ray 2.51
        num_cpus=1,
    )
    for batch in checked.iter_batches(batch_size=None, batch_format="numpy"):
        yield from batch["partial"]


class Coordinator:
    """Runs `pipeline` on the cluster for a Ray Client driver, which polls for results."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._done: list[bytes] = []
        self._finished = False
        self._error: str | None = None

    def run(self, spec: RunSpec, rows: list[dict[str, Any]], actors: int) -> None:
        try:
            for item in pipeline(spec, rows, actors):
                with self._lock:
                    self._done.append(item)
        except Exception as exc:  # reported to the client, which raises it
            with self._lock:
                self._error = f"{type(exc).__name__}: {exc}"
        finally:
            with self._lock:
                self._finished = True

    def poll(self) -> tuple[list[bytes], bool, str | None]:
        with self._lock:
            done, self._done = self._done, []
            return done, self._finished, self._error


def run_ray(
    spec: RunSpec,
    chunks: Iterable[Chunk],
    connection: Connection,
    workers: int | None,
    on_partial: Callable[[Partial], None],
) -> int:
    """Check every chunk on the cluster; each Partial goes to `on_partial` as it comes
    (in any order). Returns the number of actors used."""
    ray = _ray()
    rows = _rows(chunks)
    if not rows:
        return 0
    # never more actors than free CPUs (see above), nor than chunks: an idle actor is only start-up
    actors = min(workers or connection.cpus, connection.cpus, len(rows))
    try:
        if not connection.client:
            for item in pipeline(spec, rows, actors):
                on_partial(pickle.loads(item))
            return actors
        coordinator = ray.remote(num_cpus=0, max_concurrency=2)(Coordinator).remote()
        coordinator.run.remote(spec, rows, actors)
        while True:
            done, finished, error = ray.get(coordinator.poll.remote())
            for item in done:
                on_partial(pickle.loads(item))
            if error is not None:
                raise RedlineError(f"the Ray engine failed on the cluster: {error}")
            if finished:
                return actors
            time.sleep(_POLL_S)
    except RedlineError:
        raise
    except Exception as exc:  # Ray's own errors: say where, keep the cause
        raise RedlineError(f"the Ray engine failed: {type(exc).__name__}: {str(exc)[:2000]}") from exc
