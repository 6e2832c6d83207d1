"""``id3tree select``: the wrapper search from the command line."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from id3tree.cli.commands import main
from id3tree.datasets import load_hmeq
from id3tree.stats import select_features


@pytest.fixture
def known_csv(tmp_path):
    """y depends on a and b; c is noise."""
    rng = np.random.default_rng(5)
    frame = pd.DataFrame(rng.normal(size=(300, 3)), columns=["a", "b", "c"])
    frame["y"] = 2 * frame["a"] - frame["b"] + rng.normal(size=300)
    path = tmp_path / "known.csv"
    frame.to_csv(path, index=False)
    return path


def test_select_on_a_csv_prints_the_path_and_the_selection(known_csv, capsys):
    assert main(["select", str(known_csv), "--target", "y", "--criterion", "bic"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Forward selection by BIC: least squares of 'y' on 300 rows")
    assert "selected: a, b" in out


def test_select_on_a_builtin_dataset_agrees_with_the_function(capsys):
    args = ["select", "hmeq", "--target", "BAD", "--direction", "backward", "--criterion", "bic"]
    assert main(args) == 0
    hmeq = load_hmeq()
    expected = select_features(
        hmeq.drop(columns="BAD"), hmeq["BAD"], direction="backward", criterion="bic"
    )
    assert f"selected: {', '.join(expected.selected)}" in capsys.readouterr().out


def test_select_writes_the_path_or_every_candidate_as_csv(known_csv, tmp_path, capsys):
    out = tmp_path / "path.csv"
    common = ["select", str(known_csv), "--target", "y", "--direction", "exhaustive"]
    assert main([*common, "--out", str(out)]) == 0
    path = pd.read_csv(out)
    assert list(path["action"]) == [f"best of size {k}" for k in range(4)]
    assert {"aic", "bic", "log_likelihood"} <= set(path.columns)
    assert main([*common, "--candidates", "--out", str(out), "--force"]) == 0
    assert len(pd.read_csv(out)) == 8
    assert main([*common, "--candidates"]) == 0
    assert "every model fitted" in capsys.readouterr().out


def test_select_options_reach_the_search(known_csv, capsys):
    args = ["select", str(known_csv), "--target", "y", "--direction", "random"]
    assert main([*args, "--n-iter", "5", "--seed", "3", "--features", "a,c"]) == 0
    out = capsys.readouterr().out
    assert "Random selection by AIC" in out
    assert "b" not in out.split("selected:")[1].splitlines()[0]


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--target", "nope"], "target column 'nope' is not in the data"),
        (["--target", "y", "--features", "a,zz"], "--features names column(s) ['zz']"),
        (["--target", "y", "--direction", "random", "--criterion", "pvalue"], "directional"),
        (["--target", "y", "--alpha", "2"], "error: --alpha must be a number in (0, 1)"),
        (["--target", "y", "--categorical", "q"], "'q', which is not in X"),
    ],
)
def test_select_user_errors_exit_2_with_one_line(known_csv, capsys, extra, message):
    assert main(["select", str(known_csv), *extra]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1 and "Traceback" not in err


def test_select_unknown_data_and_bad_choice_exit_2(capsys):
    assert main(["select", "no_such_file.csv", "--target", "y"]) == 2
    assert "neither a CSV file nor a built-in dataset" in capsys.readouterr().err
    assert main(["select", "hmeq", "--target", "BAD", "--direction", "up"]) == 2
    assert "invalid choice" in capsys.readouterr().err


def test_select_never_overwrites_out_without_force(known_csv, tmp_path, capsys):
    out = tmp_path / "path.csv"
    out.write_text("precious", encoding="utf-8")
    assert main(["select", str(known_csv), "--target", "y", "--out", str(out)]) == 2
    assert "already exists; pass --force" in capsys.readouterr().err
    assert out.read_text(encoding="utf-8") == "precious"


def test_an_unwritable_out_is_found_before_the_search(known_csv, tmp_path, capsys, monkeypatch):
    import id3tree.stats

    def no_search(*args, **kwargs):
        raise AssertionError("the search ran before --out was checked")

    monkeypatch.setattr(id3tree.stats, "select_features", no_search)
    out = tmp_path / "no_such_folder" / "path.csv"
    assert main(["select", str(known_csv), "--target", "y", "--out", str(out)]) == 2
    assert "does not exist" in capsys.readouterr().err


def test_select_n_iter_beyond_the_subsets_ends(known_csv, capsys):
    argv = ["select", str(known_csv), "--target", "y", "--direction", "random"]
    assert main([*argv, "--n-iter", "1000000000", "--seed", "0"]) == 0
    assert "distinct subsets" in capsys.readouterr().out


def test_a_long_search_shows_a_bar_of_the_models_fitted(known_csv, capsys, monkeypatch):
    """An exhaustive search printed nothing for minutes; a bar now counts its models (shown
    from the first one here: the delay before a bar appears is set to 0)."""
    from id3tree.base import progress as _progress

    monkeypatch.setattr(_progress, "DELAY", 0.0)
    common = ["select", str(known_csv), "--target", "y", "--direction", "exhaustive"]
    assert main([*common, "--progress"]) == 0
    err = capsys.readouterr().err
    assert "exhaustive search:" in err and "/8 " in err and "model" in err  # of 2**3 subsets
    assert main([*common, "--no-progress"]) == 0
    assert capsys.readouterr().err == ""
    assert main(common) == 0  # stderr is not a terminal here: no bar unless asked
    assert capsys.readouterr().err == ""
