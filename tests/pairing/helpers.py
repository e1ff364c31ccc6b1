"""Helpers shared by the Mitchell pairing tests: a Mitchell round and its seats."""
import pairing
from pairing.check import check


def seats(response):
    return [(t["ns"], t["ew"]) for t in response["tables"]]


def mitchell(**kw):
    request = {"system": "mitchell", **kw}
    response = pairing.run(request)
    assert check(request, response) == []
    return request, response
