# SPDX-License-Identifier: Apache-2.0
"""One Model shared by threads; one context per thread, made by the package."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from typing import List, Set

import pytest

import dxtext

THREADS = 8


def test_threads_share_a_model(model: dxtext.Model, sentence: str) -> None:
    vocab = {model.word(i) for i in range(len(model))}
    barrier = threading.Barrier(THREADS)
    contexts: Set[int] = set()
    lock = threading.Lock()

    def work(k: int) -> int:
        barrier.wait()  # all threads start together
        words = 0
        for i in range(40):
            if i % 4 == 0:  # errors are thread-local and typed in every thread
                with pytest.raises(dxtext.InvalidEpsilonError):
                    model.privatize(sentence, epsilon=-k - 1)
            diagnostics = dxtext.LocalDiagnostics()
            out, record = model.privatize(sentence, epsilon=1.0 + k, with_record=True, local_diagnostics=diagnostics)
            assert record.epsilon == 1.0 + k
            words += diagnostics.words_privatized
            bag = model.privatize_bag({model.word(0): 5}, epsilon=1.0 + k)
            assert sum(bag.values()) == 5 and set(bag) <= vocab
        context = model._context(None)
        assert model._context(None) is context  # made once per thread, then reused
        with lock:
            contexts.add(context.ptr)
        return words

    with ThreadPoolExecutor(THREADS) as pool:
        results = list(pool.map(work, range(THREADS)))
    n = len(sentence[:-1].split())
    assert results == [40 * n] * THREADS
    assert len(contexts) == THREADS  # each thread had its own dxt_context


@pytest.mark.filterwarnings("ignore::dxtext.NotPrivateWarning")
def test_seeded_calls_agree_across_threads(model: dxtext.Model, sentence: str) -> None:
    expected = model.privatize(sentence * 3, epsilon=0.5, seed=3)

    def work(_: int) -> str:
        return model.privatize(sentence * 3, epsilon=0.5, seed=3)

    with ThreadPoolExecutor(THREADS) as pool:
        assert set(pool.map(work, range(4 * THREADS))) == {expected}


def test_close_while_threads_run(model_path: str) -> None:
    m = dxtext.Model.open(model_path)
    word = m.word(0)
    stop = threading.Event()
    failures: List[BaseException] = []

    def work() -> None:
        while not stop.is_set():
            try:
                m.privatize(word, epsilon=1.0)
            except dxtext.InvalidArgumentError:
                return  # the model was closed: the documented outcome
            except BaseException as e:  # pragma: no cover - reported below
                failures.append(e)
                return

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    m.close()
    stop.set()
    for t in threads:
        t.join()
    assert failures == []
