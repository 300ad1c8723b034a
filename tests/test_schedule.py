"""The order a parallel run hands the tests out in (tests/conftest.py `longest_first`): the slow ones first, longest
first, the first few each paired with a quick one; every test exactly once. And the suite's hypothesis profile: no
clock on the examples."""

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


def test_property_tests_do_not_time_their_examples() -> None:
    # A busy machine (a loaded CI runner) stretches every example: hypothesis's 200 ms deadline and its too-slow
    # health check would fail tests that do nothing wrong. The suite's profile (tests/conftest.py) turns both off,
    # and a test's own @settings keeps that.
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    assert settings.default.deadline is None
    assert HealthCheck.too_slow in settings.default.suppress_health_check

    @settings(max_examples=2)
    @given(st.integers())
    def slow(n: int) -> None:
        import time

        time.sleep(0.25)  # longer than hypothesis's default deadline

    slow()
