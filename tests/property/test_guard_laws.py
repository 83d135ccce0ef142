"""Hypothesis laws of the guards every input passes (issue 23): the tree check counts depth as its definition says,
the JSON reader's fast path reads what the careful one reads, and a TrainingSetup that can be made has figures that
are defined and not negative."""
from __future__ import annotations

import json
import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from calculator import api
from calculator.catalog import MODELS
from calculator.errors import InputError
from calculator.inputs import INPUTS
from calculator.memory import estimate
from calculator.models import TrainingSetup

pytestmark = pytest.mark.property


def _deepest(x, depth: int = 0) -> int:
    """The depth of the deepest value in a tree (the root is at 0): the definition MAX_DEPTH bounds."""
    children = list(x.values()) if isinstance(x, dict) else x if isinstance(x, list) else []
    return max((_deepest(v, depth + 1) for v in children), default=depth)


_leaf = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=4)


def _tower(leaf_depth: int, leaf) -> object:
    for _ in range(leaf_depth):
        leaf = [leaf]
    return leaf


_trees = st.one_of(
    st.recursive(_leaf, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner,
                                                                                    max_size=3), max_leaves=20),
    st.builds(_tower, st.integers(api.MAX_DEPTH - 3, api.MAX_DEPTH + 3), st.one_of(_leaf, st.just([]), st.just({}))),
    st.builds(lambda n, x: {"a": [{"b": _tower(n, x)}]}, st.integers(api.MAX_DEPTH - 6, api.MAX_DEPTH), _leaf),
)


@given(_trees)
def test_the_tree_check_refuses_exactly_the_trees_too_deep(tree) -> None:
    fault = api._tree_fault(tree)
    assert (fault == "too_large") == (_deepest(tree) > api.MAX_DEPTH), (_deepest(tree), fault)
    assert fault in (None, "too_large")          # every value of a parsed JSON text is of a kind JSON has


@given(_trees.map(json.dumps) | st.integers(-10**60, 10**60).map(lambda n: json.dumps({"n": n, "m": [n, str(n)]})))
def test_the_fast_json_reading_reads_what_the_careful_one_reads(text) -> None:
    """Without a run of more than 40 digits the C decoder reads the integers itself; with one, every integer goes
    through the hook that reads a longer one as ±10^40. Either way, within 40 digits, the same values."""
    try:
        careful = json.loads(text, parse_constant=api._reject_constant, parse_int=api._parse_int)
    except ValueError:                           # NaN or Infinity (json.dumps writes them): no JSON, refused either way
        with pytest.raises(InputError):
            api.read_json(text)
        return
    try:
        fast = api.read_json(text)
    except InputError as e:
        assert e.code == "too_large" and _deepest(careful) > api.MAX_DEPTH
        return
    assert fast == careful


_wide_int = st.integers(-3, 3) | st.integers(-10**9, 10**9) | st.sampled_from([0, 1, 2**31, 10**12])
_wide_float = st.floats(allow_nan=True, allow_infinity=True) | st.sampled_from([0.0, -0.0, 0.5, 1.0, -1e-9])
_NUMBERS = [spec for spec in INPUTS if spec.setup and spec.kind in ("int", "float")]


@given(st.sampled_from(sorted(MODELS)),
       st.fixed_dictionaries({}, optional={spec.name: (_wide_int if spec.kind == "int" else _wide_float | _wide_int)
                                           for spec in _NUMBERS}))
def test_a_setup_that_can_be_made_has_defined_figures_that_are_not_negative(model, numbers) -> None:
    """F9: any number in any numeric field of the typed layer: refused when the setup is made, or every figure of its
    estimate is finite and at least zero."""
    try:
        s = TrainingSetup(model=MODELS[model], **numbers)
    except InputError as e:
        assert e.code in ("wrong_type", "out_of_range") and e.field in numbers
        return
    e = estimate(s)
    figures = [e.peak_bytes, e.allocated_bytes, e.reserved_bytes, e.low_bytes, e.high_bytes, e.params,
               e.trainable_params, e.host_ram_bytes, *e.breakdown.values(), *e.phases.values()]
    assert all(isinstance(x, int) and x >= 0 for x in figures), numbers
    assert math.isfinite(float(e.peak_bytes))
