"""Small classic data sets shipped with id3tree, loaded as pandas frames.

The CSV files live in the package's ``_data`` folder of an installed wheel, or in the
repository's top-level ``datasets/`` folder when id3tree is run from a source checkout.
``SOURCES.md`` next to them gives each file's provenance, column types and known counts.

Examples
--------
>>> from id3tree.datasets import load
>>> X, y = load("Play-Tennis", return_X_y=True)
>>> X.shape, y.name
((14, 4), 'Play')
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import TypeAlias

import pandas as pd

__all__ = [
    "list_datasets", "load", "load_adult", "load_breast_cancer", "load_car", "load_hmeq",
    "load_iris", "load_mushroom", "load_play_tennis", "load_titanic",
]  # fmt: skip


@dataclass(frozen=True)
class _Spec:
    """How to read one data set: file, target, read options and known shape."""

    file: str
    target: str
    rows: int
    columns: int
    description: str
    source: str
    na: tuple[str, ...] = ("",)  # the only strings read as missing
    all_str: bool = False  # read every column as a string (no numeric or bool guessing)
    not_features: tuple[str, ...] = ()  # extra columns kept out of X by return_X_y
    strip_label_dot: bool = False  # drop a trailing "." from the target values
    splits: dict[str, str] = field(default_factory=dict)  # split name -> file


_UCI = "UCI Machine Learning Repository"
# fmt: off
_SPECS: dict[str, _Spec] = {
    "adult": _Spec("adult_train.csv", "income", 32561, 15,
        "1994 US census incomes (<=50K / >50K); the test split has 16281 rows",
        f"{_UCI}, Adult (Kohavi & Becker 1996)", na=("?",), strip_label_dot=True,
        splits={"train": "adult_train.csv", "test": "adult_test.csv"}),
    "breast_cancer": _Spec("breast_cancer_wisconsin.csv", "diagnosis", 569, 32,
        "Wisconsin diagnostic breast cancer: 30 cell-nucleus measurements",
        f"{_UCI}, WDBC (Wolberg, Street & Mangasarian 1995), via scikit-learn",
        not_features=("target",)),
    "car": _Spec("car_evaluation.csv", "class", 1728, 7,
        "car acceptability from six ordinal attributes",
        f"{_UCI}, Car Evaluation (Bohanec & Rajkovic 1988)", all_str=True),
    "hmeq": _Spec("hmeq.csv", "BAD", 5960, 13,
        "home-equity loan defaults (BAD = 1), with missing values",
        "Baesens, Roesch & Scheule, Credit Risk Analytics (2016); SAS HMEQ"),
    "iris": _Spec("iris.csv", "species", 150, 5,
        "Fisher's iris flowers: four measurements in cm",
        "Fisher (1936) via UCI, as bundled with scikit-learn"),
    "mushroom": _Spec("mushroom.csv", "class", 8124, 23,
        "edible (e) or poisonous (p) mushrooms, one-letter codes",
        f"{_UCI}, Mushroom (Schlimmer 1987)", na=("?",), all_str=True),
    "play_tennis": _Spec("play_tennis.csv", "Play", 14, 5,
        "weather and whether to play tennis (Yes / No)",
        "Quinlan (1986) Table 1; Mitchell (1997) Table 3.2", all_str=True),
    "titanic": _Spec("titanic.csv", "Survived", 891, 12,
        "Titanic passengers and survival (1 = survived)",
        "Kaggle 'Titanic: Machine Learning from Disaster', train.csv"),
}
# fmt: on
_DataOrXY: TypeAlias = pd.DataFrame | tuple[pd.DataFrame, pd.Series]
_ALIASES = {"car_evaluation": "car", "breast_cancer_wisconsin": "breast_cancer"}


def _data_dir() -> Path:
    """The folder holding the CSV files: ``_data`` in a wheel, else ``datasets/`` in a checkout."""
    here = Path(__file__).resolve().parent
    for candidate in (here / "_data", here.parent / "datasets"):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError(f"id3tree data folder not found next to {here}")


@cache
def _read(key: str, file: str) -> pd.DataFrame:
    spec = _SPECS[key]
    dtype = str if spec.all_str else None
    frame = pd.read_csv(_data_dir() / file, dtype=dtype, keep_default_na=False, na_values=spec.na)
    if spec.strip_label_dot:
        frame[spec.target] = frame[spec.target].str.removesuffix(".")
    return frame


def _canonical(name: str) -> str:
    key = str(name).strip().lower().replace("-", "_").replace(" ", "_")
    key = _ALIASES.get(key, key)
    if key not in _SPECS:
        raise ValueError(f"unknown dataset {name!r}; choose one of: {', '.join(sorted(_SPECS))}")
    return key


def _load(name: str, split: str | None = None, *, return_X_y: bool = False) -> _DataOrXY:
    key = _canonical(name)
    spec = _SPECS[key]
    file = spec.splits.get(split, spec.file)  # type: ignore[arg-type]  # (None: the file)
    frame = _read(key, file).copy(deep=True)
    if not return_X_y:
        return frame
    return frame.drop(columns=[spec.target, *spec.not_features]), frame[spec.target]


def list_datasets() -> pd.DataFrame:
    """Describe the bundled data sets, one row each, sorted by name.

    Returns
    -------
    DataFrame
        Columns ``name``, ``rows``, ``columns`` (of :func:`load`'s frame, target included),
        ``target``, ``description`` and ``source``. For ``adult`` the counts are the train split.

    Examples
    --------
    >>> list_datasets()["name"].tolist()
    ['adult', 'breast_cancer', 'car', 'hmeq', 'iris', 'mushroom', 'play_tennis', 'titanic']
    """
    fields = ("rows", "columns", "target", "description", "source")
    rows = [{"name": n, **{f: getattr(s, f) for f in fields}} for n, s in sorted(_SPECS.items())]
    return pd.DataFrame(rows, columns=["name", *fields])


def load(name: str, *, return_X_y: bool = False) -> _DataOrXY:
    """Load a bundled data set by name (case-insensitive; ``-`` and ``_`` are the same).

    Parameters
    ----------
    name : str
        One of the names in :func:`list_datasets`, e.g. ``"play_tennis"`` or ``"Play-Tennis"``.
    return_X_y : bool, default False
        If True, return ``(X, y)``: the feature frame and the target Series.

    Returns
    -------
    DataFrame or tuple of (DataFrame, Series)
        A new frame on every call, so changing it never affects later loads.

    Raises
    ------
    ValueError
        If `name` is not a known data set.

    Examples
    --------
    >>> load("iris").shape
    (150, 5)
    >>> load("Play_Tennis")["Play"].value_counts().to_dict()
    {'Yes': 9, 'No': 5}
    """
    return _load(name, return_X_y=return_X_y)


def load_play_tennis(*, return_X_y: bool = False) -> _DataOrXY:
    """Quinlan's 14-day Play Tennis table; all columns are strings, target ``Play``.

    See :func:`load` for `return_X_y` and the return value.

    Examples
    --------
    >>> load_play_tennis().shape
    (14, 5)
    """
    return _load("play_tennis", return_X_y=return_X_y)


def load_iris(*, return_X_y: bool = False) -> _DataOrXY:
    """Fisher's iris: four float measurements in cm, target ``species`` (50 per class).

    See :func:`load` for `return_X_y` and the return value.
    """
    return _load("iris", return_X_y=return_X_y)


def load_hmeq(*, return_X_y: bool = False) -> _DataOrXY:
    """Home-equity loans (5960 x 13), target ``BAD`` (1 = default).

    Empty fields are missing (NaN); numeric columns are float (``BAD``, ``LOAN`` int) and
    ``REASON``, ``JOB`` strings. 3364 rows are complete. See :func:`load` for the rest.
    """
    return _load("hmeq", return_X_y=return_X_y)


def load_mushroom(*, return_X_y: bool = False) -> _DataOrXY:
    """UCI mushrooms (8124 x 23): one-letter string codes, target ``class`` (e / p).

    Only ``?`` is read as missing (2480 times, all in ``stalk-root``); codes such as ``n``
    or ``f`` stay strings. See :func:`load` for the rest.
    """
    return _load("mushroom", return_X_y=return_X_y)


def load_adult(split: str = "train", *, return_X_y: bool = False) -> _DataOrXY:
    """UCI Adult census incomes, target ``income`` (``<=50K`` or ``>50K``).

    Parameters
    ----------
    split : {"train", "test"}, default "train"
        The 32561-row training file or the 16281-row test file.
    return_X_y : bool, default False
        If True, return ``(X, y)`` instead of one frame.

    Notes
    -----
    ``?`` becomes missing (workclass, occupation, native-country). The test file's labels
    lose their trailing dot, so both splits share the same two labels.

    Examples
    --------
    >>> sorted(load_adult("test")["income"].unique())
    ['<=50K', '>50K']
    """
    if not isinstance(split, str) or split not in _SPECS["adult"].splits:
        raise ValueError(f"unknown split {split!r}; choose 'train' or 'test'")
    return _load("adult", split, return_X_y=return_X_y)


def load_car(*, return_X_y: bool = False) -> _DataOrXY:
    """UCI Car Evaluation (1728 x 7), all strings (``doors`` has ``5more``), target ``class``.

    See :func:`load` for `return_X_y` and the return value.
    """
    return _load("car", return_X_y=return_X_y)


def load_titanic(*, return_X_y: bool = False) -> _DataOrXY:
    """Kaggle Titanic training passengers (891 x 12), target ``Survived`` (0 / 1).

    ``Age``, ``Cabin`` and ``Embarked`` have missing values (NaN). See :func:`load`.
    """
    return _load("titanic", return_X_y=return_X_y)


def load_breast_cancer(*, return_X_y: bool = False) -> _DataOrXY:
    """Wisconsin diagnostic breast cancer (569 x 32), target ``diagnosis``.

    The frame holds 30 float measurements, sklearn's integer ``target`` (0 = malignant,
    1 = benign) and the ``diagnosis`` name. With ``return_X_y=True``, X holds the 30
    measurements only: ``target`` is a copy of the label and is left out.
    """
    return _load("breast_cancer", return_X_y=return_X_y)
