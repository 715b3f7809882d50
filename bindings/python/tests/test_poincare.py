# SPDX-License-Identifier: Apache-2.0
"""The small-epsilon route on Poincare models (docs/guarantees.md, "Poincare
models at small epsilon"): the hyperbolic mechanism needs epsilon > n - 1 and
refuses less, naming the route; the exponential mechanism and TEM rate every
word by d_H itself and give epsilon * d_H for any epsilon in range."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Iterator

import pytest

import dxtext

REPO = Path(__file__).resolve().parents[3]


def _poincare_path() -> Path:
    """The repository's WordNet model, else the default Poincare model (which
    $DXTEXT_MODEL, naming a Euclidean model in the suite, may override)."""
    path = REPO / "models" / "dxtext-wordnet-poincare-10d.dxe"
    if path.is_file():
        return path
    try:
        return Path(dxtext.Model.default_path(dxtext.Geometry.POINCARE))
    except dxtext.DxtextError:
        return path


@pytest.fixture(scope="module")
def ball() -> Iterator[dxtext.Model]:
    path = _poincare_path()
    if not path.is_file():
        pytest.skip(f"no Poincare model at {path}")
    with dxtext.Model.open(path) as m:
        if m.info.geometry is not dxtext.Geometry.POINCARE:
            pytest.skip(f"{path} is not a Poincare model")
        yield m


def test_hyperbolic_refuses_epsilon_up_to_n_minus_1_and_names_the_route(ball: dxtext.Model) -> None:
    n = ball.info.dimension
    for eps in (0.5, 1.0, float(n - 1)):
        with pytest.raises(dxtext.InvalidEpsilonError, match="exponential or tem"):
            ball.privatize("dog", epsilon=eps, mechanism="hyperbolic")
    assert ball.privatize("dog", epsilon=n + 0.5, mechanism="hyperbolic").replace(" ", "_") in ball


@pytest.mark.parametrize("mechanism", ["exponential", "tem"])
@pytest.mark.parametrize("eps", [0.25, 1.0, 5.0])
def test_exponential_and_tem_run_below_n_minus_1_with_a_d_h_record(
    ball: dxtext.Model, mechanism: str, eps: float
) -> None:
    assert eps <= ball.info.dimension - 1  # where the hyperbolic mechanism refuses
    # One word per input word: the text calls release a multiword lemma with
    # spaces ("domestic dog"), so the words are checked with the word call.
    out, record = ball.privatize("dog entity river", epsilon=eps, mechanism=mechanism, with_record=True)
    assert "_" not in out
    words = ball.privatize_words(["dog", "entity", "river"], epsilon=eps, mechanism=mechanism)
    assert len(words) == 3
    assert all(w.replace(" ", "_") in ball for w in words)
    assert record.mechanism is dxtext.Mechanism[mechanism.upper()]
    assert record.metric is dxtext.Metric.HYPERBOLIC
    assert record.epsilon == eps
    assert record.bound is dxtext.Bound.POSITIONWISE
    assert record.is_private
    assert record.model_fingerprint == ball.fingerprint()
    assert f"{eps:g} * d_hyperbolic" in record.to_dict()["guarantee"]["per_word"]


@pytest.mark.parametrize("mechanism", ["exponential", "tem"])
def test_small_epsilon_moves_words_and_large_epsilon_keeps_them(ball: dxtext.Model, mechanism: str) -> None:
    # At epsilon 0.5 the law exp(-eps d_H / 2) is spread over the 117 798
    # lemmas: "dog" keeps itself in a small share of 300 draws, with many
    # different replacements. At epsilon 1e6 every word at a positive
    # distance is more than 1e5 behind in exponent, so only the lemmas of
    # dog's synset remain, which share its point (d_H = 0) and so its score:
    # each is released with probability 1/3 (all three in 60 draws but with
    # probability 3 (2/3)^60 < 1e-10). tem is the exception by design: its
    # truncation gives the words beyond gamma a total mass of about
    # beta / (1 - beta) = 0.001 at any epsilon, so one of 60 draws lands
    # there with probability about 0.06; more than 5 of them, below 1e-12.
    spread = Counter(ball.privatize_words(["dog"] * 300, epsilon=0.5, mechanism=mechanism))
    assert spread["dog"] < 30
    assert len(spread) > 100
    kept = Counter(ball.privatize_words(["dog"] * 60, epsilon=1e6, mechanism=mechanism))
    synset = {"dog", "domestic dog", "canis familiaris"}  # released with spaces, not WordNet's '_'
    if mechanism == "exponential":
        assert set(kept) == synset
    else:
        assert synset <= set(kept)
        assert sum(kept[w] for w in synset) >= 55


def test_exponential_on_poincare_is_reproducible_with_a_seed_and_then_not_private(ball: dxtext.Model) -> None:
    seed = bytes(range(32))
    with pytest.warns(dxtext.NotPrivateWarning):
        a, record = ball.privatize("dog entity", epsilon=1.0, mechanism="exponential", seed=seed, with_record=True)
    with pytest.warns(dxtext.NotPrivateWarning):
        b = ball.privatize("dog entity", epsilon=1.0, mechanism="exponential", seed=seed)
    assert a == b
    assert not record.is_private


@pytest.mark.filterwarnings("ignore::dxtext.NotPrivateWarning")
def test_calibrate_exponential_on_poincare(ball: dxtext.Model) -> None:
    low = ball.calibrate(epsilon=0.5, mechanism="exponential", words=20, trials=20, seed=7)
    high = ball.calibrate(epsilon=50.0, mechanism="exponential", words=20, trials=20, seed=7)
    assert (low.words, low.trials) == (20, 20)
    assert low.keep_median < 0.2
    assert low.distinct_mean > 10
    assert high.keep_mean > low.keep_mean
