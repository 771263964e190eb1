"""Checking hands on a Dask cluster (集群): the same reports as ``--jobs``, from more machines.

A file is read here and cut into batches of hands (:data:`~gouji_record.running.batch.BATCH` hands, as
``--jobs`` cuts it); each batch is one task on the cluster's workers, and the results come back
in file order, whatever order the workers finish in. A few batches per worker thread are in
flight at a time, so memory here stays bounded whatever the size of the files. The match checks
(tribute, first lead, standings: :func:`~gouji_record.running.batch.with_matches`) run here, on the
reports in order, as they do with ``--jobs``.

The workers import ``gouji_record``: it must be installed on them, at the version used here.
Dask's ``distributed`` is the ``archives`` extra (``pip install 'gouji-record[archives]'``).

>>> from dask.distributed import Client, LocalCluster  # doctest: +SKIP
>>> with LocalCluster(n_workers=2, threads_per_worker=1) as cluster, Client(cluster) as client:  # doctest: +SKIP
...     print([(r.index, r.status) for r in check_files(client, ["examples/online-match.gjn"])])
[(1, 0), (2, 0), (3, 0)]
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import CancelledError
from typing import Any

from ..judging.replay import RulesetOverride
from ..notation.files import HandText
from ..rules.rulesets import Ruleset
from .batch import HandReport, Runner, check_file, with_matches
from .extras import need

#: Batches in flight per worker thread: one being checked, one waiting, one on the way.
IN_FLIGHT = 3
#: Seconds to wait for the scheduler to answer before giving up.
CONNECT_TIMEOUT = 10


class ClusterError(Exception):
    """The cluster cannot be reached, or a task failed on it: ``str()`` says which, in one line."""


def connect(address: str, timeout: float | None = None):
    """A ``dask.distributed.Client`` of the scheduler at ``address`` (``tcp://host:8786``).

    The scheduler is asked who it is first (:func:`_probe`), all within ``timeout`` seconds
    (default :data:`CONNECT_TIMEOUT`): the client's own connection waits without end for a
    scheduler that accepts the connection and never answers, and a client made for an address
    that is none leaves an error from its ``__del__`` behind. The cluster library's own logging
    is quieted (:func:`_quiet_logs`): its errors are the one :class:`ClusterError`.

    Raises:
        MissingExtra: without Dask's ``distributed`` (:class:`~gouji_record.running.extras.MissingExtra`).
        ClusterError: ``address`` is no scheduler's address, or no scheduler answers there within
            ``timeout`` seconds.
    """
    need("distributed")
    from distributed import Client

    timeout = timeout or CONNECT_TIMEOUT
    _quiet_logs()
    _probe(address, timeout)
    try:
        return Client(address, timeout=timeout, set_as_default=False)
    except (OSError, TimeoutError, ValueError, TypeError) as e:
        raise ClusterError(f"cannot reach a Dask scheduler at {address}: {_one_line(e)}") from None


def _probe(address: str, timeout: float) -> None:
    """Connect to ``address`` and ask the scheduler's identity, all within ``timeout`` seconds;
    raise :class:`ClusterError` (in one line) for an address that is none (``xyz://a``,
    ``tcp://[::1``, empty), no listener, or a listener that does not answer in time."""
    import asyncio

    from distributed.comm import connect as open_comm

    where = f"cannot reach a Dask scheduler at {address or repr(address)}"
    if not address.strip():
        raise ClusterError(f"{where}: an empty address; give the scheduler's, as tcp://host:8786")

    async def ask() -> None:
        comm = await open_comm(address, timeout=timeout)
        try:
            await comm.write({"op": "identity", "reply": True})
            await comm.read()
        finally:
            comm.abort()

    try:
        asyncio.run(asyncio.wait_for(ask(), timeout))
    except (asyncio.TimeoutError, TimeoutError):
        raise ClusterError(f"{where}: no answer within {timeout:g} s") from None
    except (OSError, ValueError, TypeError, EOFError) as e:
        raise ClusterError(f"{where}: {_one_line(e)}") from None
    except Exception as e:  # noqa: BLE001  # the library's own errors (CommClosedError is an IOError; others may come)
        raise ClusterError(f"{where}: {type(e).__name__}: {_one_line(e)}") from None


def _quiet_logs() -> None:
    """The cluster library's logging (the ``distributed`` and ``tornado`` loggers, and those beneath
    them that its configuration gives a handler of their own) goes nowhere: a scheduler that goes away is said once, by the command, as a
    :class:`ClusterError`, not in the library's tracebacks and reconnection messages."""
    import logging

    for name, logger in list(logging.Logger.manager.loggerDict.items()):
        if name.split(".")[0] in ("distributed", "tornado") and isinstance(logger, logging.Logger):
            logger.handlers = [logging.NullHandler()]  # distributed's own configuration gives a few of
            logger.propagate = False  # them a handler of their own: quiet each, and the rest through their root
    logging.getLogger("distributed").handlers = [logging.NullHandler()]


def close(client) -> None:
    """Close ``client`` (a ``dask.distributed.Client``), waiting at most :data:`CONNECT_TIMEOUT`
    seconds; a cluster that has gone away (its failure already said) raises nothing more."""
    try:
        client.close(timeout=CONNECT_TIMEOUT)
    except Exception:  # noqa: BLE001, S110 - the library's errors on closing a client whose scheduler is gone
        pass


def _one_line(e: BaseException) -> str:
    text = " ".join(str(e).split()) or type(e).__name__
    return text if len(text) <= 200 else text[:197] + "..."


def _map(job: Callable[[HandText], Any], batch: list[HandText]) -> list[Any]:
    """One task: ``job`` on each hand of ``batch``, in order."""
    return [job(hand) for hand in batch]


def on_cluster(client) -> Runner:
    """A :data:`~gouji_record.running.batch.Runner` that checks each batch of hands as one task on the
    workers of ``client`` (a ``dask.distributed.Client``), :data:`IN_FLIGHT` batches per worker
    thread in flight, results in batch order. A task that fails, or a cluster that goes away,
    raises :class:`ClusterError`."""

    def run(job: Callable[[HandText], Any], work: Iterator[list[HandText]]) -> Iterator[list[Any]]:
        pending: deque = deque()
        try:
            limit = max(1, IN_FLIGHT * sum(client.nthreads().values()))
            while True:
                while len(pending) < limit and (batch := next(work, None)) is not None:
                    pending.append(client.submit(_map, job, batch, pure=False))
                if not pending:
                    break
                future = pending.popleft()
                try:
                    yield future.result()
                finally:
                    future.release()
        except (OSError, TimeoutError) as e:
            raise ClusterError(f"the Dask cluster failed: {_one_line(e)}") from None
        except CancelledError:  # distributed's FutureCancelledError is one: the scheduler went away
            raise ClusterError("the Dask cluster failed: the connection to its scheduler was lost") from None
        except Exception as e:  # a task's error, raised again here by Dask (its class may be any)
            if isinstance(e, (GeneratorExit, KeyboardInterrupt)):
                raise
            raise ClusterError(f"a task failed on the Dask cluster: {type(e).__name__}: {_one_line(e)}") from None
        finally:
            for future in pending:
                future.cancel()

    return run


def check_files(
    client, paths: Iterable[str], ruleset_name: str | Ruleset | RulesetOverride | None = None, quiet: bool = False, encoding: str | None = None
) -> Iterator[HandReport]:
    """The reports of every hand of ``paths`` checked on the workers of ``client`` (a
    ``dask.distributed.Client``), match checks included: the reports ``gouji validate --jobs N``
    makes, in the same order (:func:`~gouji_record.running.batch.check_file`). Raises
    :class:`ClusterError` when a task fails."""
    runner = on_cluster(client)
    for path in paths:
        yield from with_matches(check_file(path, ruleset_name, quiet=quiet, encoding=encoding, runner=runner))
