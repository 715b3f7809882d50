# SPDX-License-Identifier: Apache-2.0
"""The small-epsilon route on Poincare models (docs/guarantees.md, "Poincare
models at small epsilon"): the exponential mechanism and TEM rate every word
by d_H itself, so words move at a small epsilon and keep their synset at a
huge one (a statistical check, made here for every binding), and
calibration runs there. The hyperbolic mechanism's refusal at epsilon <= n - 1
and the d_H records are the conformance suite's (test_conformance.py)."""

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


@pytest.mark.filterwarnings("ignore::dxtext.NotPrivateWarning")
def test_calibrate_exponential_on_poincare(ball: dxtext.Model) -> None:
    low = ball.calibrate(epsilon=0.5, mechanism="exponential", words=20, trials=20, seed=7)
    high = ball.calibrate(epsilon=50.0, mechanism="exponential", words=20, trials=20, seed=7)
    assert (low.words, low.trials) == (20, 20)
    assert low.keep_median < 0.2
    assert low.distinct_mean > 10
    assert high.keep_mean > low.keep_mean
