# SPDX-License-Identifier: Apache-2.0
"""dxtext.analysis: features of released texts (words and their buckets
along the model's public orderings), checked against `dxtext orderings`."""

from __future__ import annotations

import os
import pickle
import random
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Dict, List

import pytest

import dxtext
from conftest import REPO

try:
    from sklearn.base import clone
    from sklearn.linear_model import LogisticRegression
    from sklearn.pipeline import make_pipeline

    from dxtext.analysis import ReleaseFeatures, release_tokens
except ImportError:  # the tests marked needs_sklearn are skipped
    ReleaseFeatures = None  # type: ignore[assignment,misc]

needs_sklearn = pytest.mark.skipif(
    ReleaseFeatures is None, reason="scikit-learn is not installed (Debian: python3-sklearn; pip: scikit-learn)"
)


def _cli() -> Path:
    for candidate in (os.environ.get("DXTEXT_CLI"), REPO / "build" / "bin" / "dxtext", shutil.which("dxtext")):
        if candidate and Path(candidate).is_file():
            return Path(candidate)
    pytest.skip("no dxtext program: set DXTEXT_CLI or build build/bin/dxtext")


@pytest.fixture(scope="module")
def cli() -> Path:
    return _cli()


@pytest.fixture(scope="module")
def ordered_path(model_path: Path, cli: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The test model if it has orderings, else a copy with 4 added by `dxtext order`."""
    with dxtext.Model.open(model_path) as m:
        if m.ordering_count > 0:
            return model_path
    out = tmp_path_factory.mktemp("ordered") / "ordered.dxe"
    subprocess.run([str(cli), "order", "--orderings", "4", str(model_path), str(out)], check=True,
                   stdout=subprocess.DEVNULL)
    return out


@pytest.fixture(scope="module")
def printed(ordered_path: Path, cli: Path) -> Dict[str, List[int]]:
    """`dxtext orderings MODEL`: each word's place in each ordering."""
    text = subprocess.run([str(cli), "orderings", str(ordered_path)], check=True, capture_output=True,
                          text=True).stdout
    lines = text.splitlines()
    assert lines[0].startswith("word\tordering0")
    return {cells[0]: [int(c) for c in cells[1:]] for cells in (line.split("\t") for line in lines[1:])}


def test_ordering_places_match_the_cli(ordered_path: Path, printed: Dict[str, List[int]]) -> None:
    with dxtext.Model.open(ordered_path) as model:
        assert model.ordering_count == len(next(iter(printed.values())))
        assert len(printed) == len(model)
        for index in range(len(model)):
            assert model.ordering_places(index) == printed[model.word(index)]
        with pytest.raises(dxtext.NotFoundError):
            model.ordering_places(len(model))
        with pytest.raises(TypeError):
            model.ordering_places("cat")  # type: ignore[arg-type]


def test_a_model_without_orderings(golden: dxtext.Model) -> None:
    assert golden.ordering_count == 0
    with pytest.raises(dxtext.UnsupportedError, match="dxtext order"):
        golden.ordering_places(0)


def test_import_dxtext_does_not_need_sklearn() -> None:
    """With scikit-learn hidden, dxtext imports and dxtext.analysis says what it needs."""
    source = str(Path(dxtext.__file__).resolve().parents[1])
    program = (
        "import sys\n"
        "sys.modules['sklearn'] = None\n"  # makes `import sklearn` raise ImportError
        f"sys.path.insert(0, {source!r})\n"
        "import dxtext\n"
        "assert 'sklearn' not in [m.split('.')[0] for m in sys.modules if sys.modules[m] is not None]\n"
        "try:\n"
        "    import dxtext.analysis\n"
        "except ImportError as e:\n"
        "    assert 'scikit-learn' in str(e), e\n"
        "    print('refused')\n"
    )
    out = subprocess.run([sys.executable, "-c", program], check=True, capture_output=True, text=True).stdout
    assert out.strip() == "refused"


@needs_sklearn
def test_release_tokens_split_as_the_library() -> None:
    assert release_tokens("hello [name] don't co-hosting 3.14 1,000 pi.") == [
        "hello", "[name]", "don't", "co", "hosting", "3.14", "1,000", "pi"]
    assert release_tokens("It’s [Name], [not closed a\u200db ’x x’ [] [a b]") == [
        "It’s", "[Name]", "not", "closed", "a\u200db", "x", "x", "a", "b"]
    assert release_tokens("") == []
    with pytest.raises(TypeError):
        release_tokens(b"bytes")  # type: ignore[arg-type]


@needs_sklearn
def test_bucket_features_equal_those_from_the_cli(ordered_path: Path, printed: Dict[str, List[int]]) -> None:
    vocabulary = sorted(printed)
    rng = random.Random(7)
    texts = [" ".join(rng.choice(vocabulary) for _ in range(12)) for _ in range(20)]
    for bucket in (1, 3, 8):
        features = ReleaseFeatures(str(ordered_path), bucket_size=bucket)
        matrix = features.fit_transform(texts)
        names = list(features.get_feature_names_out())
        assert matrix.shape == (len(texts), len(names))
        for row, text in enumerate(texts):
            expected: Dict[str, int] = {}
            for word in text.split():
                expected[word] = expected.get(word, 0) + 1
                for L, place in enumerate(printed[word]):
                    key = f"o{L}:b{place // bucket}"
                    expected[key] = expected.get(key, 0) + 1
            got = {names[j]: int(matrix[row, j]) for j in matrix[row].nonzero()[1]}
            assert got == expected


@needs_sklearn
def test_case_folding_unknown_words_and_placeholders(ordered_path: Path, printed: Dict[str, List[int]]) -> None:
    with dxtext.Model.open(ordered_path) as model:
        assert model.info.lowercase
        word = model.word(0)
        features = ReleaseFeatures(model, orderings=[1])
        matrix = features.fit_transform([f"{word} {word.upper()} {word.title()} Qzxv [name] [Name]"])
        got = dict(zip(features.get_feature_names_out(), matrix.toarray()[0]))
        assert got == {word: 3, f"o1:b{printed[word][1] // 8}": 3, "qzxv": 1, "[name]": 2}
        # A text of words never seen at fit() gives an empty row, not an error.
        assert features.transform(["Wqzzy vvxq"]).nnz == 0
        assert features.transform([""]).nnz == 0
        assert clone(features).model is model  # clone() copies parameters; a Model is shared, not copied


@needs_sklearn
def test_ngrams_words_only_and_structure_only(ordered_path: Path, printed: Dict[str, List[int]]) -> None:
    a, b, c = sorted(printed)[:3]
    text = f"{a} {b} qzxv {c}"
    features = ReleaseFeatures(str(ordered_path), ngram_range=(1, 2), orderings=[0], bucket_size=4)
    names = set(features.fit([text]).get_feature_names_out())
    ba, bb, bc = (printed[w][0] // 4 for w in (a, b, c))
    assert f"{a} {b}" in names and f"{b} qzxv" in names and f"qzxv {c}" in names
    # Along ordering 0: the buckets of a, b and c, and one bigram (b, qzxv, c has none).
    assert {n for n in names if n.startswith("o0:")} == {f"o0:b{ba}", f"o0:b{bb}", f"o0:b{bc}", f"o0:b{ba} b{bb}"}
    only_words = ReleaseFeatures(str(ordered_path), structure=False).fit([text])
    assert set(only_words.get_feature_names_out()) == {a, b, c, "qzxv"}
    only_structure = ReleaseFeatures(str(ordered_path), words=False).fit([text])
    assert all(n.startswith("o") and ":b" in n for n in only_structure.get_feature_names_out())
    assert len(only_structure.orderings_) == len(printed[a])


@needs_sklearn
def test_bad_parameters_and_models_without_orderings(ordered_path: Path, golden: dxtext.Model) -> None:
    for bad in (dict(bucket_size=0), dict(bucket_size=2.5), dict(ngram_range=(2, 1)), dict(ngram_range=(0, 1)),
                dict(ngram_range="x"), dict(words=False, structure=False), dict(orderings=[99]),
                dict(orderings=[0, 0]), dict(orderings=[])):
        with pytest.raises(ValueError):
            ReleaseFeatures(str(ordered_path), **bad).fit(["a b"])
    with pytest.raises(TypeError):
        ReleaseFeatures(42).fit(["a b"])  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="dxtext order"):
        ReleaseFeatures(golden).fit(["alpha beta"])
    words_only = ReleaseFeatures(golden, structure=False).fit(["alpha beta"])
    assert list(words_only.get_feature_names_out()) == ["alpha", "beta"]
    with pytest.raises(Exception, match="not fitted"):
        ReleaseFeatures(str(ordered_path)).transform(["a"])


@needs_sklearn
def test_pickling_reopens_the_model(ordered_path: Path, golden: dxtext.Model) -> None:
    with dxtext.Model.open(ordered_path) as model:
        text = " ".join(model.word(i) for i in range(10))
    features = ReleaseFeatures(str(ordered_path)).fit([text])
    again = pickle.loads(pickle.dumps(features))
    assert (again.transform([text]) != features.transform([text])).nnz == 0
    assert list(again.get_feature_names_out()) == list(features.get_feature_names_out())
    with pytest.raises(TypeError, match="path"):
        pickle.dumps(ReleaseFeatures(golden, structure=False).fit(["alpha"]))


@needs_sklearn
def test_unpickling_refuses_another_model(ordered_path: Path, tmp_path: Path) -> None:
    copy = tmp_path / "model.dxe"
    shutil.copyfile(ordered_path, copy)
    data = pickle.dumps(ReleaseFeatures(str(copy), structure=False).fit(["a b"]))
    shutil.copyfile(REPO / "tests" / "data" / "golden_v1.dxe", copy)  # another model under the same name
    with pytest.raises(ValueError, match="fingerprint"):
        pickle.loads(data)


@needs_sklearn
def test_the_default_model() -> None:
    features = ReleaseFeatures(structure=False).fit(["a b"])
    assert features.model_.path == dxtext.Model.default_path()


@needs_sklearn
def test_buckets_carry_over_to_words_never_seen(ordered_path: Path, printed: Dict[str, List[int]]) -> None:
    """Two classes from two stretches of ordering 0; trained on the words at
    even places, tested on those at odd places: the words alone tell the
    test texts nothing, their buckets tell them apart."""
    by_place = {places[0]: word for word, places in printed.items()}
    stretches = {"low": range(0, 32), "high": range(64, 96)}
    rng = random.Random(5)

    def texts(parity: int) -> tuple:
        out, labels = [], []
        for label, stretch in stretches.items():
            words = [by_place[p] for p in stretch if p % 2 == parity]
            for _ in range(20):
                out.append(" ".join(rng.sample(words, 4)))
                labels.append(label)
        return out, labels

    train, test = texts(0), texts(1)
    scores = {}
    for name, features in [("words", ReleaseFeatures(str(ordered_path), structure=False)),
                           ("buckets", ReleaseFeatures(str(ordered_path), orderings=[0], bucket_size=32))]:
        pipeline = make_pipeline(features, LogisticRegression(max_iter=1000)).fit(*train)
        scores[name] = sum(p == g for p, g in zip(pipeline.predict(test[0]), test[1])) / len(test[1])
    assert scores["words"] == 0.5  # every test row is empty: one answer for all
    assert scores["buckets"] == 1.0
