# SPDX-License-Identifier: Apache-2.0
"""The conformance suite of tests/conformance/cases.json (its README says
what a case is) through this binding: the same outputs, records and errors
as the C ABI and every other binding."""

from __future__ import annotations

import json
import warnings
from pathlib import Path
from typing import Any, Dict

import pytest

import dxtext

REPO = Path(__file__).resolve().parents[3]
SUITE = json.loads((REPO / "tests" / "conformance" / "cases.json").read_text(encoding="utf-8"))
CASES = SUITE["cases"]


@pytest.fixture(scope="module")
def models():  # type: ignore[no-untyped-def]
    """The models the privatising cases name (the suite's, or their own), opened once."""
    opened: Dict[str, dxtext.Model] = {}

    def open_model(path: str) -> dxtext.Model:
        if path not in opened:
            opened[path] = dxtext.Model.open(REPO / path)
        return opened[path]

    yield open_model
    for model in opened.values():
        model.close()


def ledger_outcome(model: dxtext.Model, case: Dict[str, Any], directory: Path) -> Dict[str, Any]:
    """A ledger case: its releases (each with a fresh context of the seed, as
    seed= gives) through a new ledger file, and the scope's JSON."""
    key = bytes.fromhex(case["key"]) if case["key"] else None
    releases = []
    with dxtext.Ledger.open(directory / "ledger.dxl", scope=case["scope"], cap=case["cap"], key=key) as ledger:
        for release in case["releases"]:
            try:
                done = ledger.privatize(model, release["input"], seed=case["seed"], **release["options"])
                releases.append({"text": done.text, "memoised": done.memoised})
            except dxtext.DxtextError as e:
                releases.append({"error": {"status": e.status, "message": str(e)}})
        return {"releases": releases, "ledger": ledger.to_dict()}


def outcome(model: dxtext.Model, case: Dict[str, Any], directory: Path) -> Dict[str, Any]:
    """What the binding gives for the case, in the shape of its "expect"."""
    path = str(REPO / case.get("model", SUITE["model"]))
    try:
        if case["call"] == "open":
            with dxtext.Model.open(path):
                return {"opened": True}
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", dxtext.NotPrivateWarning)
            if case["call"] == "ledger":
                return ledger_outcome(model, case, directory)
            if case["call"] == "calibrate":
                c = model.calibrate(words=case["words"], trials=case["trials"], seed=case["seed"], **case["options"])
                fields = ("words", "trials", "keep_mean", "keep_median", "keep_max", "distinct_mean",
                          "distinct_median", "distinct_max")
                return {"calibration": {field: getattr(c, field) for field in fields}}
            if case["call"] in ("bag", "syntf"):
                bag = [(word, count) for word, count in case["bag"]]
                options = dict(case["options"], seed=case["seed"], with_record=True)
                if case["call"] == "syntf":
                    out, record = model.syntf(bag, case["n_out"], **options)
                else:
                    out, record = model.privatize_bag(bag, **options)
                return {"bag": dict(out), "record": json.loads(record.to_json()), "typed": record}
            if case["call"] == "word":  # a list's record (positionwise): none for one word
                return {"text": model.privatize_words([case["input"]], seed=case["seed"], **case["options"])[0]}
            text, record = model.privatize(case["input"], seed=case["seed"], with_record=True, **case["options"])
    except dxtext.DxtextError as e:
        return {"error": {"status": e.status, "message": str(e).replace(path, "{path}")}}
    return {"text": text, "record": json.loads(record.to_json()), "typed": record}


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_conformance(models: Any, case: Dict[str, Any], tmp_path: Path) -> None:
    expect = dict(case["expect"])
    if case["call"] == "word":
        assert expect.pop("record", None) is not None or "error" in expect
    model = models(SUITE["model"] if case["call"] == "open" else case.get("model", SUITE["model"]))
    got = outcome(model, case, tmp_path)
    record = got.pop("typed", None)
    assert got == expect
    if record is not None:  # the typed record says what its JSON says
        json_record = expect["record"]

        def name(value: Any) -> str:
            return str(value.name).lower()

        typed = {
            "release": name(record.release),
            "mechanism": name(record.mechanism),
            "epsilon": record.epsilon,
            "metric": name(record.metric),
            "private": record.is_private,
            "model_sha256": record.model_fingerprint.hex() if record.model_fingerprint else None,
            "bound": name(record.bound),
            "reveals": sorted(name(r) for r in dxtext.Reveals if r and r in record.reveals),
            "shape": name(record.release_shape),
            "preset": name(dxtext.Preset(record.preset)),
        }
        from_json = {key: json_record.get(key, "none" if key == "preset" else None) for key in typed}
        from_json["reveals"] = sorted(json_record["reveals"])
        assert typed == from_json
