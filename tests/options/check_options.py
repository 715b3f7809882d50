# SPDX-License-Identifier: Apache-2.0
"""The one description of the privatisation options
(tools/options/privatize_options.table) and what is made or checked from it:

  1. the generated files are up to date (tools/options/generate.py --check);
  2. the library given describes the table's options (dxt_option_describe);
  3. the Java, Rust and Swift option builders have a member per option,
     named as the table says (docs/options.md);
  4. the presets of tools/options/presets.table are named, with their
     numbers, in the C header and the Java, Rust and Swift enums.

    python3 check_options.py SOURCE_ROOT LIBDXTEXT
"""

import ctypes
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(sys.argv[1]).resolve()
LIBRARY = sys.argv[2]
sys.path.insert(0, str(ROOT / "tools" / "options"))

from generate import TABLE, read_presets, read_table  # noqa: E402

problems = []

if subprocess.run([sys.executable, str(ROOT / "tools" / "options" / "generate.py"), "--check"]).returncode != 0:
    problems.append("generated files are out of date: run python3 tools/options/generate.py")

# 2. The library built describes the table's options (dxt_option_describe,
# whose rows generate.py writes into src/abi/option_table.inc): the same
# names, types and defaults in the same order. That the defaults are what
# dxt_privatize_options_init writes is checked by test_options_by_name.
lib = ctypes.CDLL(LIBRARY)


class OptionInfo(ctypes.Structure):
    _fields_ = [("struct_size", ctypes.c_uint32), ("kind", ctypes.c_uint32)] + [
        (name, ctypes.c_char_p) for name in ("name", "type_name", "default_value", "values", "meaning")
    ]


lib.dxt_option_count.restype = ctypes.c_uint32
lib.dxt_option_describe.argtypes = [ctypes.c_uint32, ctypes.POINTER(OptionInfo)]
table = read_table()
described = []
for i in range(lib.dxt_option_count()):
    info = OptionInfo(struct_size=ctypes.sizeof(OptionInfo))
    if lib.dxt_option_describe(i, ctypes.byref(info)) != 0:
        problems.append(f"dxt_option_describe({i}) failed")
        continue
    described.append((info.name.decode(), info.type_name.decode(), info.default_value.decode()))
expected = [(o.name, o.type, o.default) for o in table]
if described != expected:
    problems.append(f"the library describes {described}, the table says {expected} (rebuild the library?)")

# 3. The compiled bindings' builders.
java = (ROOT / "bindings/java/src/main/java/org/dxtext/DxOptions.java").read_text(encoding="utf-8")
rust = (ROOT / "bindings/rust/dxtext/src/options.rs").read_text(encoding="utf-8")
swift = (ROOT / "bindings/swift/Sources/Dxtext/Dxtext.swift").read_text(encoding="utf-8")
for o in table:
    if not re.search(rf"public (static )?DxOptions {o.camel}\(", java):
        problems.append(f"{o.name}: bindings/java DxOptions has no method {o.camel}(...)")
    if not re.search(rf"pub fn {o.name}\(", rust):
        problems.append(f"{o.name}: bindings/rust Options has no method {o.name}(...)")
    if not re.search(rf"public var {o.camel}:", swift):
        problems.append(f"{o.name}: bindings/swift PrivatizeOptions has no property {o.camel}")

# 4. Presets: every row of tools/options/presets.table is named, with its
# number, in the C header and in the Java, Rust and Swift enums.
header = (ROOT / "include/dxtext/dxtext.h").read_text(encoding="utf-8")
java_presets = (ROOT / "bindings/java/src/main/java/org/dxtext/DxPreset.java").read_text(encoding="utf-8")
rust_sys = (ROOT / "bindings/rust/dxtext-sys/src/ffi.rs").read_text(encoding="utf-8")  # bindgen's
presets = read_presets(table)
for p in presets:
    upper, camel = p.name.upper(), p.name[0].upper() + p.name[1:]
    if not re.search(rf"DXT_PRESET_{upper} = {p.number}\b", header):
        problems.append(f"preset {p.name}: include/dxtext/dxtext.h has no DXT_PRESET_{upper} = {p.number}")
    if not re.search(rf"\b{upper}\({p.number}\)", java_presets):
        problems.append(f"preset {p.name}: bindings/java DxPreset has no {upper}({p.number})")
    if not re.search(rf"pub const DXT_PRESET_{upper}: dxt_preset = {p.number};", rust_sys):
        problems.append(f"preset {p.name}: bindings/rust dxtext-sys has no DXT_PRESET_{upper} = {p.number}")
    if not re.search(rf"Preset::{camel} => sys::DXT_PRESET_{upper}|sys::DXT_PRESET_{upper} => Preset::{camel}\b", rust):
        problems.append(f"preset {p.name}: bindings/rust Preset has no {camel}")
    if not re.search(rf"case {p.name} = {p.number}\b", swift):
        problems.append(f"preset {p.name}: bindings/swift Preset has no case {p.name} = {p.number}")
header_presets = set(re.findall(r"DXT_PRESET_([A-Z]+) = \d+", header)) - {"NONE"}
if header_presets != {p.name.upper() for p in presets}:
    problems.append(f"include/dxtext/dxtext.h names presets {sorted(header_presets)}, the table {[p.name for p in presets]}")

# 5. A preset's `parameters` column: generated as tests/unit/test_presets.cpp
# spells it, and the options a preset may not set are refused.
import tempfile  # noqa: E402

from generate import PRESETS, preset_table  # noqa: E402

with tempfile.TemporaryDirectory() as directory:
    trial = Path(directory) / "presets.table"
    source = PRESETS.read_text(encoding="utf-8")
    row = next(line for line in source.splitlines() if line.startswith("readable |"))
    cells = row.split(" | ")
    cells[-2] = "vickrey_t=0.5 sampler=permute-and-flip"
    trial.write_text(source.replace(row, " | ".join(cells)), encoding="utf-8")
    code = preset_table(table, read_presets(table, trial))
    for expected in ('{"vickrey_t", "0.5", &dxt_privatize_options::vickrey_t, nullptr, 0.5, 0.75}',
                     '{"sampler", "permute-and-flip", nullptr, &dxt_privatize_options::exponential_sampler, 2, 1}'):
        if expected not in code:
            problems.append(f"generate.py does not write preset parameters as {expected}")
    for bad in ("epsilon=3", "placeholder=x", "search=ivf", "bogus=1", "vickrey_t=high", "sampler=fast"):
        cells[-2] = bad
        trial.write_text(source.replace(row, " | ".join(cells)), encoding="utf-8")
        try:
            read_presets(table, trial)
            problems.append(f"generate.py accepts the preset parameter {bad}")
        except SystemExit:
            pass

# 6. A new row of each column type reaches every generated surface with no
# hand edit (what other branches adding options rely on).
from generate import outputs  # noqa: E402

with tempfile.TemporaryDirectory() as directory:
    trial = Path(directory) / "privatize_options.table"
    extra = [
        "trial_weight | trial_weight | double | 0.5 | - | [0, 1] | a trial double",
        "trial_count | trial_count | uint32 | 0 | - | 0 .. 9 | a trial uint32",
        "trial_label | trial_label | string | x | - | UTF-8 | a trial string",
        "trial_mode | trial_mode | enum | first | - | first=1 second-one=2 | a trial enum",
        "trial_words | trial_words | words | none | - | the model's words | a trial word list",
    ]
    trial.write_text(TABLE.read_text(encoding="utf-8").rstrip("\n") + "\n" + "\n".join(extra) + "\n", encoding="utf-8")
    generated = {path.name: text for path, text in outputs(read_table(trial)).items()}
    expected = {
        "option_table.inc": ['{"trial_weight", OptionType::kDouble', 'true, 0.0, false, true, 9.0, false, "0 .. 9"',
                             '{"trial_mode", OptionType::kEnum', '{"second-one", 2u}', '{"trial_words", OptionType::kWords'],
        "_options_table.py": ["trial_weight: float", "trial_count: int", "trial_label: str",
                              'trial_mode: Union[Literal["first", "second-one"], int]'],
        "index.d.ts": ["trialWeight?: number;", "trialMode?: 'first' | 'second-one';", "trialWords?: OutputSet | string[];"],
        "DxOptions.java": ["public DxOptions trialWeight(double value)", "public DxOptions trialCount(long value)",
                           "public DxOptions trialMode(Enum<?> value)", "public DxOptions trialWords(List<String> words)"],
        "options.rs": ["pub fn trial_weight(self, value: f64)", "pub fn trial_label(self, value: &str) -> Result<Options>",
                       "pub fn trial_mode(self, value: impl OptionName)", "pub fn trial_words(self, words: impl OptionWords)"],
        "options.md": ["| trial_words |"],
    }
    for name, needles in expected.items():
        for needle in needles:
            if needle not in generated.get(name, ""):
                problems.append(f"generate.py: a new row does not reach {name} as {needle!r}")

# 7. A new member of a C enumeration reaches the Rust and Java enums, their
# conversions and option names, with no hand edit (tools/options/from_header.py).
import c_header  # noqa: E402
import from_header  # noqa: E402

with tempfile.TemporaryDirectory() as directory:
    trial = Path(directory) / "dxtext.h"
    text = header
    for last, added in (("DXT_MECHANISM_ORDERING = 8", "DXT_MECHANISM_TRIAL_KIND = 99 /**< a trial mechanism */"),
                        ("DXT_BOUND_ANY_INPUTS = 4", "DXT_BOUND_TRIAL = 5 /**< a trial bound */")):
        if text.count(last) != 1:
            problems.append(f"check_options.py: no single {last!r} in the header to add a trial member after")
        text = text.replace(last, f"{last},\n  {added}")
    trial.write_text(text, encoding="utf-8")
    h = c_header.read(trial)
    generated = {
        "options.rs": "\n".join(from_header.rust_enums(h, "options")),
        "report.rs": "\n".join(from_header.rust_enums(h, "report")),
        "DxMechanism.java": from_header.java_enum(h, "dxt_mechanism"),
        "DxReleaseRecord.java": "\n".join(from_header.java_record_enums(h)),
    }
    expected = {
        "options.rs": ["/// `DXT_MECHANISM_TRIAL_KIND`: A trial mechanism.\n    TrialKind,",
                       "sys::DXT_MECHANISM_TRIAL_KIND => Mechanism::TrialKind,",
                       'Mechanism::TrialKind => "trial-kind",'],
        "report.rs": ["    Trial,\n", "sys::DXT_BOUND_TRIAL => Bound::Trial,"],
        "DxMechanism.java": ["/** A trial mechanism. */\n  TRIAL_KIND(99);"],
        "DxReleaseRecord.java": ["/** A trial bound. */\n    TRIAL\n"],
    }
    for name, needles in expected.items():
        for needle in needles:
            if needle not in generated[name]:
                problems.append(f"from_header.py: a new enum member does not reach {name} as {needle!r}")

# 8. A new field of the release record and a new status reach every
# binding's record and errors with no hand edit (the done-when of "thin
# bindings": adding a field to the record or an error kind touches no
# binding by hand); so does a new field of the model info or the ledger
# totals in Java, Python and Rust.
with tempfile.TemporaryDirectory() as directory:
    trial = Path(directory) / "dxtext.h"
    text = header
    for old, new in (("} dxt_release_record;", "  double trial_loss; /**< a trial loss */\n} dxt_release_record;"),
                     ("  DXT_E_LEDGER_ROLLBACK = 20\n};",
                      "  DXT_E_LEDGER_ROLLBACK = 20,\n  DXT_E_TRIAL_STATUS = 21 /**< A trial status. */\n};"),
                     ("} dxt_model_info;", "  uint32_t trial_count;\n} dxt_model_info;"),
                     ("} dxt_ledger_totals;", "  double trial_total; /**< a trial total */\n} dxt_ledger_totals;")):
        if text.count(old) != 1:
            problems.append(f"check_options.py: no single {old!r} in the header to add a trial to")
        text = text.replace(old, new)
    trial.write_text(text, encoding="utf-8")
    h = c_header.read(trial)
    generated = {
        "dxtext_node.c": "\n".join(from_header.node_setters(h)),
        "shared.js": from_header.js_record(h),
        "index.d.ts": "\n".join(from_header.ts_record_members(h, "  ")),
        "dxtext_wasm_layout.c": from_header.wasm_layout(h),
        "dxtext_jni.c": "\n".join(from_header.jni_structs(h)),
        "DxReleaseRecord.java": "\n".join(from_header.java_record_fields(h)),
        "DxModelInfo.java": "\n".join(from_header.java_struct_fields(h, "dxt_model_info")),
        "DxLedgerTotals.java": "\n".join(from_header.java_struct_fields(h, "dxt_ledger_totals")),
        "DxStatus.java": from_header.java_status(h),
        "report.rs": "\n".join(from_header.rust_record_fields(h)),
        "error.rs": "\n".join(from_header.rust_error_kind(h)),
        "model.rs": "\n".join(from_header.rust_struct(h, "dxt_model_info")),
        "ledger.rs": "\n".join(from_header.rust_struct(h, "dxt_ledger_totals")),
        "_library.py": "\n".join(from_header.python_declarations(h)),
        "errors.py": "\n".join(from_header.python_errors(h)),
        "reports.py": "\n".join(from_header.python_struct_fields(h, "dxt_model_info")),
        "ledger.py": "\n".join(from_header.python_struct_fields(h, "dxt_ledger_totals")),
        "Dxtext.swift": "\n".join(from_header.swift_record_fields(h) + from_header.swift_record_init(h) +
                                   from_header.swift_statuses(h)),
    }
    expected = {
        "dxtext_node.c": ['set_number(env, o, "trialLoss", (double)r->trial_loss);'],
        "shared.js": ["{ name: 'trialLoss', c: 'trial_loss', kind: 'f64'"],
        "index.d.ts": ["/** a trial loss */\n  readonly trialLoss: number;"],
        "dxtext_wasm_layout.c": ["DXTW_FIELD(dxt_release_record, trial_loss)"],
        "dxtext_jni.c": ["(jdouble)r->trial_loss;", "(jdouble)r->trial_count;", "(jdouble)r->trial_total;"],
        "DxReleaseRecord.java": ["public double getTrialLoss() {"],
        "DxModelInfo.java": ["public final int trialCount;", "trialCount = (int) v[8];"],
        "DxLedgerTotals.java": ["/** A trial total. */\n  public double getTrialTotal() {", "trialTotal = v[7];"],
        "DxStatus.java": ["TRIAL_STATUS(21"],
        "report.rs": ["pub fn trial_loss(&self) -> f64 {\n        self.raw.trial_loss"],
        "error.rs": ["TrialStatus,", "sys::DXT_E_TRIAL_STATUS => ErrorKind::TrialStatus,"],
        "model.rs": ["    pub trial_count: u32,", "trial_count: raw.trial_count,"],
        "ledger.rs": ["    /// A trial total.\n    pub trial_total: f64,", "trial_total: raw.trial_total,"],
        "_library.py": ['("trial_loss", ctypes.c_double)'],
        "errors.py": ["class TrialStatusError("],
        "reports.py": ["    trial_count: int"],
        "ledger.py": ["    trial_total: float  # a trial total"],
        "Dxtext.swift": ["public let trialLoss: Double", "trialLoss = r.trial_loss",
                         "public static let trialStatus: Int32 = 21"],
    }
    for name, needles in expected.items():
        for needle in needles:
            if needle not in generated[name]:
                problems.append(f"from_header.py: a new record field or status does not reach {name} as {needle!r}")

for p in problems:
    print("FAIL " + p)
print(f"{len(table)} options and {len(presets)} presets checked: {len(problems)} problems")
sys.exit(1 if problems else 0)
