"""The order a parallel run hands the tests out in (tests/conftest.py `longest_first`): the slow ones first, longest
first, the first few each paired with a quick one; every test exactly once."""

from __future__ import annotations

from dataclasses import dataclass

from tests.conftest import longest_first


@dataclass
class Item:
    nodeid: str


def ids(items: list[Item]) -> list[str]:
    return [i.nodeid for i in items]


def test_the_longest_start_first_on_different_workers_and_every_test_runs_once() -> None:
    items = [Item(f"tests/m{m}.py::t{t}") for m in range(3) for t in range(4)]
    durations = {"tests/m0.py::t1": 30.0, "tests/m2.py::t3": 90.0, "tests/m1.py::t0": 5.0, "tests/m1.py::t2": 0.1}
    ordered = ids(longest_first(items, durations, workers=2))  # type: ignore[arg-type]
    assert sorted(ordered) == sorted(ids(items))
    # xdist gives each of the 2 workers two consecutive tests: a long one and a quick one each
    assert ordered[:4] == ["tests/m2.py::t3", "tests/m0.py::t0", "tests/m0.py::t1", "tests/m0.py::t2"]
    # then the other slow test, then the quick ones (measured quick or not measured) in their usual order
    assert ordered[4] == "tests/m1.py::t0"
    assert ordered[5:] == [i.nodeid for i in items if i.nodeid not in ordered[:5]]


def test_without_durations_the_order_is_unchanged() -> None:
    items = [Item(f"tests/m{m}.py::t{t}") for m in range(2) for t in range(3)]
    assert ids(longest_first(items, {}, workers=4)) == ids(items)  # type: ignore[arg-type]
