# SPDX-License-Identifier: Apache-2.0
"""dxtext: on-device text sanitisation under metric differential privacy.

Each word of a text is moved to a random nearby word of an embedding model:
noise is added to the word's vector and the noisy point is decoded to the
nearest vocabulary word. All noise comes from the operating system's
cryptographic generator (through OpenSSL), and every call can return its
release record: the guarantee it gave and what the output still reveals,
safe to send with the text. Token counts of the input (local diagnostics)
are kept apart, since they describe the input.

    import dxtext

    with dxtext.Model.open("build/models/demo.dxe") as model:
        text, record = model.privatize("The quick brown fox", epsilon=5, with_record=True)
        print(text, record.to_json())

These are ctypes bindings to the C library libdxtext; see
docs/bindings/python.md for how the library is found and the threading rules
(a Model may be shared by threads; the per-thread random state is handled
for you). dxtext.analysis (imported on its own; it needs scikit-learn)
turns released texts into features for analysis.
"""

from __future__ import annotations

from . import _library
from ._library import library_path
from .enums import (
    Bound,
    Geometry,
    Mechanism,
    Metric,
    OutputKind,
    Policy,
    Preset,
    Quantization,
    ReleaseKind,
    ReleaseShape,
    Reveals,
    RngMode,
    Sampler,
    Search,
    TokenClass,
)
from . import errors
from .errors import *  # noqa: F401,F403  (one class per dxt_status: errors.__all__)
from .ledger import Ledger, LedgerAnchor, LedgerRelease, LedgerTotals
from .model import Model
from .options import NotPrivateWarning
from .output_set import OutputSet
from .reports import Calibration, LocalDiagnostics, ModelInfo, ReleaseRecord

__version__ = "0.1.0"

MAX_BAG_WORDS = 1 << 24  # DXT_MAX_BAG_WORDS: largest total count of a bag
EPSILON_MIN = 1e-6  # DXT_EPSILON_MIN: the smallest epsilon any call accepts
EPSILON_MAX = 1e6  # DXT_EPSILON_MAX: the largest


def library_version() -> str:
    """"major.minor.patch" of the libdxtext actually loaded."""
    return str(_library.lib().dxt_version_string().decode("ascii"))


__all__ = [
    "Bound",
    "Ledger",
    "LedgerAnchor",
    "LedgerRelease",
    "LedgerTotals",
    "Calibration",
    "EPSILON_MAX",
    "EPSILON_MIN",
    "Geometry",
    "LocalDiagnostics",
    "MAX_BAG_WORDS",
    "Mechanism",
    "Metric",
    "Model",
    "ModelInfo",
    "NotPrivateWarning",
    "OutputKind",
    "OutputSet",
    "Policy",
    "Preset",
    "Quantization",
    "ReleaseKind",
    "ReleaseRecord",
    "ReleaseShape",
    "Reveals",
    "RngMode",
    "Sampler",
    "Search",
    "TokenClass",
    "library_path",
    "library_version",
]
__all__ += errors.__all__
