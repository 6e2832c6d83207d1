"""Property tests: damage a valid model file or CSV at random; the only outcomes allowed are a
model that is right (its counts consistent, its predictions probabilities, its file reloading
to the same thing) or a clear ValueError / exit status 2, within a time limit."""

from __future__ import annotations

import copy
import json
import time

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from id3tree import ID3Classifier
from id3tree.cli.commands import main
from id3tree.datasets import load_play_tennis

TIME_LIMIT = 10.0  # CPU seconds (not wall time: a loaded machine does not count) for one load and prediction of a damaged file (a valid one: < 0.1 s)


def _models():
    tennis_X, tennis_y = load_play_tennis(return_X_y=True)
    mixed_X = pd.DataFrame(
        {
            "colour": ["red", "red", "blue", "blue", None, "green", "green", "red"],
            "size": [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, np.nan, 8.0],
        }
    )
    mixed_y = ["a", "b", "a", "a", "b", "b", "a", "a"]
    return [
        (ID3Classifier().fit(tennis_X, tennis_y), tennis_X),
        (ID3Classifier().fit(mixed_X, mixed_y), mixed_X),
    ]


MODELS = _models()
DICTS = [model.to_dict() for model, _ in MODELS]

json_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=6),
    st.sampled_from(["<=", ">", "Outlook", "Sunny", "size", "colour", "red", "$type"]),
)
json_values = st.recursive(
    json_scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.dictionaries(st.sampled_from(["$type", "items", "value", "id", "a"]), inner, max_size=3),
    ),
    max_leaves=8,
)


def _paths(value, prefix=()):
    """Every place in a JSON document, as a tuple of keys and indices."""
    yield prefix
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _paths(v, (*prefix, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _paths(v, (*prefix, i))


def _mutate(document, path, action, new_value):
    if not path:
        return new_value
    parent = document
    for step in path[:-1]:
        parent = parent[step]
    last = path[-1]
    if action == "replace":
        parent[last] = new_value
    elif action == "delete":
        del parent[last]
    elif action == "duplicate" and isinstance(parent, list):
        parent.insert(last, copy.deepcopy(parent[last]))
    elif action == "swap" and isinstance(parent, list) and len(parent) > 1:
        parent[last], parent[0] = parent[0], parent[last]
    else:
        parent[last] = new_value
    return document


def _check_right(model, X) -> None:
    """A model that loaded must be a consistent one."""
    for node in model.root_.walk():
        assert sum(node.class_counts.values()) == node.n_samples > 0
        if node.children:
            totals = {c: 0 for c in node.class_counts}
            for child in node.children.values():
                assert child.depth == node.depth + 1
                for c, k in child.class_counts.items():
                    totals[c] += k
            assert totals == node.class_counts
    try:
        proba = model.predict_proba(X)
    except ValueError:
        return  # the data no longer fits the model (a renamed column, ...): said clearly
    assert np.allclose(proba.sum(axis=1), 1.0) and (proba >= 0).all()
    again = ID3Classifier.from_json(model.to_json())
    np.testing.assert_array_equal(again.predict_proba(X), proba)


@settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(data=st.data())
def test_a_damaged_model_file_loads_right_or_is_a_clear_error(data):
    which = data.draw(st.integers(0, len(MODELS) - 1), label="model")
    document = copy.deepcopy(DICTS[which])
    for _ in range(data.draw(st.integers(1, 3), label="n_mutations")):
        paths = list(_paths(document))
        path = data.draw(st.sampled_from(paths), label="path")
        action = data.draw(st.sampled_from(["replace", "delete", "duplicate", "swap"]))
        new_value = data.draw(json_values, label="value")
        document = _mutate(document, path, action, new_value)
    text = json.dumps(document)
    start = time.process_time()
    try:
        model = ID3Classifier.from_json(text)
    except ValueError as exc:
        assert str(exc)  # a message, not an empty error
        return
    finally:
        assert time.process_time() - start < TIME_LIMIT
    _check_right(model, MODELS[which][1])
    assert time.process_time() - start < TIME_LIMIT


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_damaged_json_text_is_a_clear_error(data):
    text = MODELS[0][0].to_json()
    position = data.draw(st.integers(0, len(text) - 1))
    insert = data.draw(st.text(alphabet='{}[]",:0123456789-eE.tfn\\ NaInfity', max_size=5))
    cut = data.draw(st.integers(0, 5))
    damaged = text[:position] + insert + text[position + cut :]
    start = time.process_time()
    try:
        model = ID3Classifier.from_json(damaged)
    except ValueError:
        return
    finally:
        assert time.process_time() - start < TIME_LIMIT
    _check_right(model, MODELS[0][1])


TENNIS_CSV = load_play_tennis().to_csv(index=False)


@pytest.mark.filterwarnings("ignore")
@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(data=st.data())
def test_a_damaged_csv_fits_or_exits_2_with_one_line(data, tmp_path_factory, capsys):
    text = TENNIS_CSV
    for _ in range(data.draw(st.integers(1, 4))):
        position = data.draw(st.integers(0, len(text)))
        insert = data.draw(
            st.text(alphabet=st.sampled_from(list(',"\n\r?\\;\x00éa1.e-')), max_size=4)
        )
        cut = data.draw(st.integers(0, 4))
        text = text[:position] + insert + text[position + cut :]
    path = tmp_path_factory.mktemp("csv") / "data.csv"
    path.write_bytes(text.encode("utf-8", errors="surrogatepass"))
    start = time.process_time()
    status = main(["fit", str(path), "--target", "Play"])
    assert time.process_time() - start < TIME_LIMIT
    err = capsys.readouterr().err
    assert status in (0, 2)
    if status == 2:
        errors = [line for line in err.splitlines() if line.startswith("id3tree: error:")]
        assert len(errors) == 1 and "Traceback" not in err
