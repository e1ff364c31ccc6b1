"""Races run by the tests: calls released at the same instant in threads."""
from __future__ import annotations

import threading


def together(*calls):
    """Run ``calls`` (no-argument callables) in threads released at once by a barrier;
    return their results, or the exception each raised, in order. Each thread closes its
    database connections when done."""
    from django.db import connections

    barrier = threading.Barrier(len(calls))
    results: list = [None] * len(calls)

    def run(k):
        try:
            barrier.wait()
            results[k] = calls[k]()
        except Exception as exc:  # noqa: BLE001 - reported by the test
            results[k] = exc
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(k,)) for k in range(len(calls))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results
