"""The property tests' setups (tests/strategies.py) draw every TrainingSetup field, each to more than its default,
and only setups the API itself accepts."""
from __future__ import annotations

import json
from dataclasses import fields

import pytest
from hypothesis import HealthCheck, Phase, find, given, settings

from calculator import api
from calculator.errors import InputError
from calculator.inputs import INPUTS
from calculator.models import TrainingSetup
from tests.strategies import SETUP_KEYS, setups

pytestmark = pytest.mark.unit

FIELDS = [f for f in fields(TrainingSetup) if f.name != "model"]


def test_every_setup_field_is_an_input_the_strategy_draws() -> None:
    assert {f.name for f in FIELDS} == set(SETUP_KEYS)
    assert set(SETUP_KEYS) == {spec.name for spec in INPUTS if spec.setup} - {"model"}


@pytest.mark.slow          # a Hypothesis search per field (62 fields)
@pytest.mark.parametrize("name", [f.name for f in FIELDS])
def test_each_field_is_drawn_away_from_its_default(name: str) -> None:
    default = next(f.default for f in FIELDS if f.name == name)
    found = find(setups(), lambda s: getattr(s, name) != default,    # the first such draw; no shrinking
                 settings=settings(max_examples=2000, database=None, phases=[Phase.generate],
                                   suppress_health_check=list(HealthCheck)))
    assert getattr(found, name) != default


@given(setups(catalogue_only=True))
def test_a_drawn_setup_is_one_the_api_accepts(s: TrainingSetup) -> None:
    """What the strategy draws is what a reader can send: the API parses its inputs back to the same setup (or, for
    LoRA targets the drawn model lacks, refuses them: the laws take such setups, whose adapters train nothing)."""
    request = dict(api.inputs_json(s), model=s.model.id, include=[])
    try:
        setup, _ = api.parse_request(json.loads(json.dumps(request)))
    except InputError as e:
        assert (e.code, e.field) == ("contradiction", "lora_targets"), e
        return
    assert setup == s, request
