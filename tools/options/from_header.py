# SPDX-License-Identifier: Apache-2.0
"""What the bindings repeat of include/dxtext/dxtext.h, written from it
(c_header.py reads the header; generate.py writes these into the files):

- Python: the ctypes structs and function signatures (_library.py), the
  enumerations (enums.py) and one exception class per status (errors.py);
- Java: DxStatus.java, the enumerations (DxMechanism.java and the other
  files of JAVA_ENUMS) and those of DxReleaseRecord (JAVA_RECORD_ENUMS and
  Reveals, from the DXT_REVEALS_* bits); the record's getters and the
  fields of DxModelInfo, DxCalibration and DxLedgerTotals (JAVA_STRUCTS),
  with the JNI code that fills them (jni_structs);
- Rust: ErrorKind and its mapping from dxt_status (error.rs), and the
  enumerations of RUST_ENUMS with their conversions and OptionName impls
  (options.rs, report.rs, model.rs).

(Node.js and WebAssembly get their status table from js_shared.js; Swift and
the Rust -sys crate read the header itself.) A new status, enumeration
member, struct field or function then reaches these bindings with no hand
edit: run tools/options/generate.py.
"""

from __future__ import annotations

import re
import textwrap
from dataclasses import dataclass
from typing import Dict, List, Tuple

from c_header import Constant, Enum, Header, camel, enum

# The statuses that say a model file or buffer is unusable: ModelError's
# subclasses in Python, is_model_error in Rust, isModelError in Java.
MODEL_STATUSES = {"NOT_A_MODEL", "UNSUPPORTED_VERSION", "CORRUPT_MODEL", "TRUNCATED_MODEL", "DIGEST_MISMATCH"}

# --------------------------------------------------------------------------
# Python

# The built-in exception each status's class also derives from, so that
# `except ValueError` catches a bad argument; a status not named here derives
# from DxtextError (or ModelError) alone.
PY_ERROR_BASES = {
    "INVALID_ARGUMENT": "ValueError",
    "INVALID_EPSILON": "ValueError",
    "IO": "OSError",
    "OUT_OF_MEMORY": "MemoryError",
    "INVALID_UTF8": "ValueError",
    "NOT_FOUND": "LookupError",
    "INPUT_TOO_LARGE": "ValueError",
    "PARSE": "ValueError",
    "CONTEXT_BUSY": "RuntimeError",
}
# Class names that would shadow a built-in exception.
PY_ERROR_NAMES = {"IO": "DxtextIOError", "OUT_OF_MEMORY": "DxtextMemoryError"}

# The enumerations of the Python package: C name -> Python name.
PY_ENUMS = {
    "dxt_geometry": "Geometry",
    "dxt_quantization": "Quantization",
    "dxt_mechanism": "Mechanism",
    "dxt_metric": "Metric",
    "dxt_release_kind": "ReleaseKind",
    "dxt_bound": "Bound",
    "dxt_release_shape": "ReleaseShape",
    "dxt_output_kind": "OutputKind",
    "dxt_exponential_sampler": "Sampler",
    "dxt_search": "Search",
    "dxt_rng_mode": "RngMode",
    "dxt_token_policy": "Policy",
    "dxt_token_class": "TokenClass",
}

# Structs a binding passes as opaque pointers: it sets options by name
# (dxt_options_set) and passes dxt_options_get's pointer through. (The struct
# is declared all the same, for tests of its layout.)
OPAQUE_STRUCTS = {"dxt_privatize_options"}

SCALARS = {
    "uint8_t": "ctypes.c_uint8",
    "int32_t": "ctypes.c_int32",
    "uint32_t": "ctypes.c_uint32",
    "uint64_t": "ctypes.c_uint64",
    "size_t": "ctypes.c_size_t",
    "double": "ctypes.c_double",
    "float": "ctypes.c_float",
    "bool": "ctypes.c_bool",
    "dxt_status": "ctypes.c_int32",
}


def python_status_name(status: str) -> str:
    name = status[len("DXT_E_"):]
    return PY_ERROR_NAMES.get(name, camel(name) + "Error")


def _wrapped(text: str, indent: str, width: int = 100) -> List[str]:
    return textwrap.wrap(text, width=width - len(indent), initial_indent=indent, subsequent_indent=indent) or [indent]


def _docstring(text: str, indent: str) -> List[str]:
    text = text.replace("\\", "\\\\").replace('"""', "'''")
    lines = _wrapped(text, indent)
    lines[0] = indent + '"""' + lines[0][len(indent):]
    if len(lines[-1]) + 3 <= 100:
        lines[-1] += '"""'
    else:
        lines.append(indent + '"""')
    return lines


def python_errors(h: Header) -> List[str]:
    """One exception class per non-zero status, and _BY_STATUS."""
    out: List[str] = []
    for s in h.statuses[1:]:
        if not s.doc:
            raise SystemExit(f"dxtext.h: {s.name} has no doc comment")
        short = s.name[len("DXT_E_"):]
        bases = ["ModelError" if short in MODEL_STATUSES else "DxtextError"]
        if short in PY_ERROR_BASES:
            bases.append(PY_ERROR_BASES[short])
        out += ["", "", f"class {python_status_name(s.name)}({', '.join(bases)}):"]
        out += _docstring(f"{s.name}: {s.doc}", "    ")
        out += ["", f"    status = {s.value}"]
    names = ["DxtextError", "ModelError", "LibraryNotFoundError"] + [python_status_name(s.name) for s in h.statuses[1:]]
    out += ["", "", "__all__ = ["] + [f'    "{n}",' for n in sorted(names)] + ["]"]
    out += ["", "", "_BY_STATUS: Dict[int, Type[DxtextError]] = {"]
    out += [f"    {s.value}: {python_status_name(s.name)}," for s in h.statuses[1:]]
    out += ["}", ""]
    return out


def _enum_member_name(e: Enum, c_name: str) -> str:
    return c_name[len(e.prefix):]


def python_enums(h: Header) -> List[str]:
    out: List[str] = []
    for c_name, py_name in PY_ENUMS.items():
        e = enum(h, c_name)
        out += ["", "", f"class {py_name}(enum.IntEnum):"]
        out += _docstring(f"{e.doc or c_name} ({c_name})", "    ")
        out.append("")
        for m in e.members:
            line = f"    {_enum_member_name(e, m.name)} = {m.value}"
            if m.doc:
                line += "  # " + m.doc
                if len(line) > 110:
                    line = line[:106].rstrip() + " ..."
            out.append(line)
    for prefix, constants in h.flags.items():
        py_name = camel(prefix[len("DXT_"):].rstrip("_"))
        out += ["", "", f"class {py_name}(enum.IntFlag):"]
        out += _docstring(f"The {prefix}* bits of the C API: features of the input a release shows as they are.",
                          "    ")
        out += ["", "    NOTHING = 0"]
        for c in constants:
            line = f"    {c.name[len(prefix):]} = {hex(c.value)}"
            if c.doc:
                line += "  # " + c.doc
                if len(line) > 110:
                    line = line[:106].rstrip() + " ..."
            out.append(line)
    out.append("")
    return out


def _dimension(h: Header, dim: str) -> int:
    value = h.defines.get(dim, dim).rstrip("u")
    try:
        return int(value, 0)
    except ValueError:
        raise SystemExit(f"dxtext.h: the array dimension {dim} is not a number")


def _ctype(h: Header, c_type: str, in_struct: bool) -> str:
    """The ctypes type of a parameter or field of C type `c_type`."""
    structs = {s.c_name for s in h.structs} - OPAQUE_STRUCTS
    base = c_type.replace("const ", "").replace(" ", "")
    stars = base.count("*")
    base = base.rstrip("*")
    if c_type.replace(" ", "") == "constchar*const*":
        return "ctypes.POINTER(ctypes.c_char_p)"  # an array of NUL-terminated strings, read by the library
    if stars == 0:
        if base == "void":
            return "None"
        if base in SCALARS:
            return SCALARS[base]
        raise SystemExit(f"dxtext.h: no ctypes type for {c_type!r}")
    if base in structs:
        t = base
        for _ in range(stars):
            t = f"ctypes.POINTER({t})"
        return t
    if base == "char" and stars == 1:
        # A string the library reads (bytes); a buffer it writes or a text it
        # frees, and in a struct a pointer to read with ctypes.string_at (it
        # need not end in NUL): a plain pointer.
        return "ctypes.c_char_p" if c_type.startswith("const ") and not in_struct else "ctypes.c_void_p"
    if stars == 1 and base in SCALARS and base != "uint8_t" and not in_struct:
        return f"ctypes.POINTER({SCALARS[base]})"
    if stars == 1:
        return "ctypes.c_void_p"  # an opaque handle, bytes (uint8_t *), or a pointer to read by hand
    return "ctypes.POINTER(ctypes.c_void_p)"  # where the library writes a handle or pointer


def python_declarations(h: Header) -> List[str]:
    out: List[str] = []
    for s in h.structs:
        out += ["", "", f"class {s.c_name}(ctypes.Structure):", "    _fields_ = ["]
        for f in s.fields:
            t = _ctype(h, f.c_type, in_struct=True)
            for dim in reversed(f.dims):
                t = f"({t} * {_dimension(h, dim)})"
            out.append(f'        ("{f.name}", {t}),')
        out.append("    ]")
    out += ["", "", "# name: (return type, parameter types), for every DXT_API function.", "SIGNATURES = {"]
    for fn in h.functions:
        params = []
        for p in fn.parameters:
            params.append(f"ctypes.POINTER({_ctype(h, p.c_type, False)})" if p.dims else _ctype(h, p.c_type, False))
        line = f'    "{fn.name}": ({_ctype(h, fn.returns, False)}, [{", ".join(params)}]),'
        if len(line) <= 100:
            out.append(line)
        else:
            out += [f'    "{fn.name}": (', f"        {_ctype(h, fn.returns, False)},", "        ["]
            out += [f"            {p}," for p in params] + ["        ],", "    ),"]
    out += ["}", ""]
    return out


# --------------------------------------------------------------------------
# Shared by the enumerations of Java and Rust

# The members that name no value but "not set" or "not known": a binding's
# enumeration has no constant for them (Rust: from_raw gives None or
# Unknown; Java: of() gives its fallback).
UNSET_MEMBERS = ("UNKNOWN", "DEFAULT")


def _short(e: Enum, c_name: str) -> str:
    return c_name[len(e.prefix):]


def _values(e: Enum, skip: Tuple[str, ...] = ()) -> List[Constant]:
    """The members of `e` a binding names, in the header's order."""
    return [m for m in e.members if _short(e, m.name) not in UNSET_MEMBERS + skip]


def _sentence(doc: str) -> str:
    """A member's doc as a sentence: capitalised when it starts with a plain
    lowercase word (not an identifier such as dxt_syntf, nor a variable as
    in "z = ..."), with a full stop."""
    doc = doc.strip()
    if re.match(r"[a-z]+(?=[:,;]|$| [A-Za-z(\"'])", doc):
        doc = doc[0].upper() + doc[1:]
    if doc and doc[-1] not in ".!?":
        doc += "."
    return doc


# --------------------------------------------------------------------------
# Java


def java_status(h: Header) -> str:
    lines = [
        "// SPDX-License-Identifier: Apache-2.0",
        "// Generated by tools/options/generate.py from include/dxtext/dxtext.h: do not edit.",
        "package org.dxtext;",
        "",
        "/** The status codes of the C API ({@code dxt_status}), with their numbers. */",
        "public enum DxStatus {",
    ]
    for s in h.statuses:
        name = "OK" if s.name == "DXT_OK" else s.name[len("DXT_E_"):]
        doc = s.doc.replace("*/", "* /")
        if len(doc) + 9 <= 100:
            lines.append(f"  /** {doc} */")
        else:
            lines += ["  /**"] + _wrapped(doc, "   * ") + ["   */"]
        lines.append(f"  {name}({s.value}),")
    lines += [
        "  /** A status this binding does not know (a newer library). */",
        "  UNKNOWN(-1);",
        "",
        "  private final int code;",
        "",
        "  DxStatus(int code) {",
        "    this.code = code;",
        "  }",
        "",
        "  /** The numeric {@code dxt_status}. */",
        "  public int code() {",
        "    return code;",
        "  }",
        "",
        "  static DxStatus of(int code) {",
        "    for (DxStatus s : values()) {",
        "      if (s.code == code) {",
        "        return s;",
        "      }",
        "    }",
        "    return UNKNOWN;",
        "  }",
        "",
        "  /** True for the statuses that say a model file or buffer is unusable. */",
        "  public boolean isModelError() {",
    ]
    model = [s.name[len("DXT_E_"):] for s in h.statuses if s.name[len("DXT_E_"):] in MODEL_STATUSES]
    lines.append("    return " + "\n        || ".join(f"this == {m}" for m in model) + ";")
    lines += ["  }", "}", ""]
    return "\n".join(lines)


@dataclass(frozen=True)
class JavaEnum:
    name: str  # the class, in a file of its own
    fallback: str = "null"  # what of(code) gives for a code it does not know: a constant's name or null


# The enumerations of the Java package that have files of their own: C name
# -> class. Each constant holds its C value (code); of(code) maps back.
JAVA_ENUMS = {
    "dxt_mechanism": JavaEnum("DxMechanism"),
    "dxt_preset": JavaEnum("DxPreset", fallback="NONE"),
    "dxt_release_shape": JavaEnum("DxReleaseShape", fallback="KEEP"),
    "dxt_token_policy": JavaEnum("DxPolicy"),
    "dxt_exponential_sampler": JavaEnum("DxSampler"),
    "dxt_search": JavaEnum("DxSearch"),
    "dxt_token_class": JavaEnum("DxTokenClass"),
}

# The enumerations nested in DxReleaseRecord: C name -> name. Their
# constants are every member, UNKNOWN too, so that a value is its
# constant's ordinal (DxReleaseRecord.of); Reveals follows, one constant per
# DXT_REVEALS_* bit, bit i its ordinal i.
JAVA_RECORD_ENUMS = {
    "dxt_release_kind": "Release",
    "dxt_metric": "Metric",
    "dxt_bound": "Bound",
    "dxt_rng_mode": "RngMode",
    "dxt_output_kind": "OutputKind",
}
JAVA_REVEALS_DOC = "Features of the input that the output shows as they are (DXT_REVEALS_* bits, in order)."


def _javadoc(text: str, indent: str) -> List[str]:
    text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("@", "{@literal @}")
    text = re.sub(r"`([^`]*)`", r"{@code \1}", text).replace("*/", "* /")
    if len(indent) + len(text) + 7 <= 100:
        return [f"{indent}/** {text} */"]
    return [f"{indent}/**"] + _wrapped(text, f"{indent} * ") + [f"{indent} */"]


def _java_constant_lines(e: Enum, members: List[Constant], indent: str, with_code: bool) -> List[str]:
    out: List[str] = []
    for i, m in enumerate(members):
        if m.doc:
            out += _javadoc(_sentence(m.doc), indent)
        name = _short(e, m.name)
        out.append(f"{indent}{name}({m.value})" if with_code else f"{indent}{name}")
        out[-1] += ";" if with_code and i == len(members) - 1 else "," if i < len(members) - 1 else ""
    return out


def java_enum(h: Header, c_name: str) -> str:
    """The file of one enumeration of JAVA_ENUMS."""
    spec = JAVA_ENUMS[c_name]
    e = enum(h, c_name)
    members = _values(e)
    names = [_short(e, m.name) for m in members]
    if spec.fallback != "null" and spec.fallback not in names:
        raise SystemExit(f"from_header.py: {spec.name}'s fallback {spec.fallback} is not a member of {c_name}")
    unknown = "null" if spec.fallback == "null" else f"{{@link #{spec.fallback}}}"
    lines = [
        "// SPDX-License-Identifier: Apache-2.0",
        "// Generated by tools/options/generate.py from include/dxtext/dxtext.h: do not edit.",
        "package org.dxtext;",
        "",
    ]
    lines += _javadoc(f"{e.doc} The C API's `{c_name}`." if e.doc else f"The C API's `{c_name}`.", "")
    lines.append(f"public enum {spec.name} {{")
    lines += _java_constant_lines(e, members, "  ", with_code=True)
    lines += [
        "",
        "  final int code;",
        "",
        f"  {spec.name}(int code) {{",
        "    this.code = code;",
        "  }",
        "",
        f"  /** The constant whose code is {{@code code}}; {unknown} if there is none. */",
        f"  static {spec.name} of(int code) {{",
        f"    for ({spec.name} c : values()) {{",
        "      if (c.code == code) {",
        "        return c;",
        "      }",
        "    }",
        f"    return {spec.fallback};",
        "  }",
        "}",
        "",
    ]
    return "\n".join(lines)


def _java_nested_enum(h: Header, c_name: str, where: str) -> List[str]:
    """The enumeration `where` (Class.Name) nested in a class: every member
    of `c_name`, UNKNOWN too, so that a value is its constant's ordinal."""
    e = enum(h, c_name)
    if [m.value for m in e.members] != list(range(len(e.members))):
        raise SystemExit(f"dxtext.h: the values of {c_name} are not 0, 1, 2...: {where} needs them to be its "
                         "ordinals")
    out = _javadoc(f"{e.doc} The C API's `{c_name}`." if e.doc else f"The C API's `{c_name}`.", "  ")
    out.append(f"  public enum {where.split('.')[-1]} {{")
    return out + _java_constant_lines(e, e.members, "    ", with_code=False) + ["  }"]


def java_record_enums(h: Header) -> List[str]:
    """The enumerations nested in DxReleaseRecord (its "generated: enums" section)."""
    out: List[str] = []
    for c_name, name in JAVA_RECORD_ENUMS.items():
        out += _java_nested_enum(h, c_name, f"DxReleaseRecord.{name}") + [""]
    constants = h.flags["DXT_REVEALS_"]
    if [c.value for c in constants] != [1 << i for i in range(len(constants))]:
        raise SystemExit("dxtext.h: the DXT_REVEALS_* bits are not 1, 2, 4...: DxReleaseRecord.Reveals needs "
                         "bit i to be its constant of ordinal i")
    flags = Enum("DXT_REVEALS_*", "DXT_REVEALS_", constants)
    out += _javadoc(JAVA_REVEALS_DOC, "  ")
    out.append("  public enum Reveals {")
    out += _java_constant_lines(flags, constants, "    ", with_code=False)
    out.append("  }")
    return out


# --------------------------------------------------------------------------
# Rust


@dataclass(frozen=True)
class RustEnum:
    name: str
    module: str  # the file of bindings/rust/dxtext/src it is declared in, between "generated: enums" markers
    # An Unknown variant (the last) for the C UNKNOWN member and for values this
    # crate does not know: from_raw gives it. Without one, from_raw gives None.
    unknown: bool = False
    non_exhaustive: bool = False
    # Members (after the prefix) that are no variant, beside UNSET_MEMBERS.
    skip: Tuple[str, ...] = ()
    # Each variant's discriminant is its C value (`class as usize` indexes by it).
    discriminants: bool = False
    from_raw: bool = False  # pub(crate) fn from_raw(sys value)
    to_raw: bool = False  # pub(crate) fn to_raw(self): the sys value (None for Unknown)
    # The option of tools/options/privatize_options.table whose values the
    # variants are (an OptionName impl: Sampler::PermuteAndFlip is
    # "permute-and-flip"); generate.py checks each name and number against it.
    option: str = ""


# The enumerations of the Rust crate: C name -> how it is declared.
RUST_ENUMS = {
    "dxt_mechanism": RustEnum("Mechanism", "options", non_exhaustive=True, from_raw=True, option="mechanism"),
    "dxt_token_class": RustEnum("TokenClass", "options", discriminants=True),
    "dxt_token_policy": RustEnum("Policy", "options", discriminants=True, option="in_vocabulary"),
    "dxt_exponential_sampler": RustEnum("Sampler", "options", option="sampler"),
    "dxt_search": RustEnum("Search", "options", option="search"),
    "dxt_release_shape": RustEnum("ReleaseShape", "options", from_raw=True, option="release_shape"),
    "dxt_preset": RustEnum("Preset", "options", non_exhaustive=True, skip=("NONE",), from_raw=True, option="preset"),
    "dxt_metric": RustEnum("Metric", "report", unknown=True, non_exhaustive=True, from_raw=True),
    "dxt_release_kind": RustEnum("ReleaseKind", "report", unknown=True, non_exhaustive=True, from_raw=True),
    "dxt_bound": RustEnum("Bound", "report", unknown=True, non_exhaustive=True, from_raw=True),
    "dxt_rng_mode": RustEnum("RngMode", "report", unknown=True, non_exhaustive=True, from_raw=True),
    "dxt_output_kind": RustEnum("OutputKind", "report", unknown=True, non_exhaustive=True, from_raw=True),
    "dxt_geometry": RustEnum("Geometry", "model", unknown=True, from_raw=True, to_raw=True),
    "dxt_quantization": RustEnum("Quantization", "model", unknown=True, from_raw=True),
}

# A doc line that would start with one of these reads as Markdown (a list, a
# quote, a heading): the word moves up to the line before.
_MARKDOWN_STARTS = re.compile(r"([-+*>#]|\d+[.)])(\s|$)")


def _rust_doc(text: str, indent: str) -> List[str]:
    prefix = indent + "/// "
    lines = textwrap.wrap(text, width=100 - len(prefix), break_on_hyphens=False, break_long_words=False)
    i = 1
    while i < len(lines):
        if _MARKDOWN_STARTS.match(lines[i]):
            head, _, last = lines[i - 1].rpartition(" ")
            if head:
                lines[i - 1], lines[i] = head, last + " " + lines[i]
                continue
        i += 1
    return [prefix + line for line in lines]


def rust_variants(c_name: str, e: Enum) -> List[Tuple[Constant, str]]:
    """(member, variant name) of each variant of RUST_ENUMS[c_name] but Unknown."""
    spec = RUST_ENUMS[c_name]
    return [(m, camel(_short(e, m.name))) for m in _values(e, spec.skip)]


def rust_option_names(h: Header, c_name: str) -> List[Tuple[str, int]]:
    """(option value name, C value) of each variant with an OptionName impl."""
    return [(_short(enum(h, c_name), m.name).lower().replace("_", "-"), m.value)
            for m, _ in rust_variants(c_name, enum(h, c_name))]


def rust_enums(h: Header, module: str) -> List[str]:
    """The enumerations of RUST_ENUMS declared in src/<module>.rs, with their
    conversions (its "generated: enums" section)."""
    out: List[str] = []
    for c_name, spec in RUST_ENUMS.items():
        if spec.module != module:
            continue
        e = enum(h, c_name)
        t = spec.name
        variants = rust_variants(c_name, e)
        unknown = [m for m in e.members if _short(e, m.name) == "UNKNOWN"]
        if spec.unknown and spec.discriminants:
            raise SystemExit(f"from_header.py: {t} cannot have both an Unknown variant and discriminants")
        if out:
            out.append("")
        out += (_rust_doc(e.doc, "") + ["///"] if e.doc else []) + [f"/// The C API's `{c_name}`."]
        out.append("#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]")
        if spec.non_exhaustive:
            out.append("#[non_exhaustive]")
        out.append(f"pub enum {t} {{")
        for m, v in variants:
            out += _rust_doc(f"`{m.name}`: {_sentence(m.doc)}" if m.doc else f"`{m.name}`.", "    ")
            out.append(f"    {v} = {m.value}," if spec.discriminants else f"    {v},")
        if spec.unknown:
            which = f"`{unknown[0].name}`, or a" if unknown else "A"
            out += _rust_doc(f"{which} value this crate does not know (a newer library).", "    ")
            out.append("    Unknown,")
        out.append("}")
        raw = f"sys::{c_name}"
        methods: List[str] = []
        if spec.from_raw:
            if spec.unknown:
                methods += [f"    pub(crate) fn from_raw(raw: {raw}) -> {t} {{", "        match raw {"]
                methods += [f"            sys::{m.name} => {t}::{v}," for m, v in variants]
                methods += [f"            _ => {t}::Unknown,", "        }", "    }"]
            else:
                methods += [f"    pub(crate) fn from_raw(raw: {raw}) -> Option<{t}> {{", "        Some(match raw {"]
                methods += [f"            sys::{m.name} => {t}::{v}," for m, v in variants]
                methods += ["            _ => return None,", "        })", "    }"]
        if spec.to_raw:
            if methods:
                methods.append("")
            if spec.unknown:
                methods += [f"    pub(crate) fn to_raw(self) -> Option<{raw}> {{", "        match self {"]
                methods += [f"            {t}::{v} => Some(sys::{m.name})," for m, v in variants]
                methods += [f"            {t}::Unknown => None,", "        }", "    }"]
            else:
                methods += [f"    pub(crate) fn to_raw(self) -> {raw} {{", "        match self {"]
                methods += [f"            {t}::{v} => sys::{m.name}," for m, v in variants]
                methods += ["        }", "    }"]
        if methods:
            out += ["", f"impl {t} {{"] + methods + ["}"]
        if spec.option:
            if spec.unknown:
                raise SystemExit(f"from_header.py: {t} has an Unknown variant, which no option value names")
            names = rust_option_names(h, c_name)
            out += ["", f"impl OptionName for {t} {{", "    fn option_name(&self) -> String {", "        match self {"]
            out += [f'            {t}::{v} => "{n}",' for (_, v), (n, _) in zip(variants, names)]
            out += ["        }", "        .to_string()", "    }", "}"]
    return out


def rust_error_kind(h: Header) -> List[str]:
    out = ["/// What went wrong: one variant per `dxt_status` of the C API.",
           "#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]", "#[non_exhaustive]", "pub enum ErrorKind {"]
    names: Dict[str, str] = {}
    for s in h.statuses[1:]:
        short = s.name[len("DXT_E_"):]
        names[s.name] = camel(short)
        out += _wrapped(f"`{s.name}`: {s.doc}", "    /// ")
        out.append(f"    {names[s.name]},")
    out += ["    /// A status this crate does not know (a newer library).", "    Other(i32),", "}", "",
            "impl ErrorKind {", "    pub(crate) fn from_status(status: sys::dxt_status) -> ErrorKind {",
            "        match status {"]
    out += [f"            sys::{c} => ErrorKind::{r}," for c, r in names.items()]
    out += ["            other => ErrorKind::Other(other),", "        }", "    }", "",
            "    /// True for the kinds that say a model file or buffer is unusable.",
            "    pub fn is_model_error(self) -> bool {",
            "        matches!(", "            self,"]
    model = [names[s.name] for s in h.statuses if s.name[len("DXT_E_"):] in MODEL_STATUSES]
    out.append("            " + "\n                | ".join(f"ErrorKind::{m}" for m in model))
    out += ["        )", "    }", "}"]
    return out


# --------------------------------------------------------------------------
# The release record, as every binding shows it
#
# Its fields are the struct's (c_header reads them), each shown as the kind
# of value its C type is; a new field of one of these types reaches the
# Node.js, WebAssembly and Java records with no hand edit. The fields whose
# value is a member of an enumeration, and the one of DXT_REVEALS_* bits:
RECORD_ENUMS = {
    "mechanism": "dxt_mechanism",
    "metric": "dxt_metric",
    "rng_mode": "dxt_rng_mode",
    "release": "dxt_release_kind",
    "bound": "dxt_bound",
    "release_shape": "dxt_release_shape",
    "output_kind": "dxt_output_kind",
    "preset": "dxt_preset",
}
RECORD_REVEALS = "reveals"
# A field present only when a bool field says so (null without it), and the
# fields that are no value of their own.
RECORD_PRESENT = {"model_fingerprint": "fingerprint_valid"}
RECORD_HIDDEN = {"struct_size", "fingerprint_valid"}
_RECORD_KINDS = {"uint32_t": "u32", "uint64_t": "u64", "double": "f64", "bool": "bool"}


@dataclass(frozen=True)
class RecordField:
    name: str  # as in C
    kind: str  # u32, u64, f64, bool, or bytes (uint8_t[size])
    size: int  # the bytes of a bytes field, 0 otherwise
    enum: str  # its enumeration (C name), "reveals" for the bits, or ""
    present: str  # the bool field that says it is present, or ""
    doc: str

    @property
    def js_name(self) -> str:
        return lower_camel(self.name)


def lower_camel(snake: str) -> str:
    """rng_mode -> rngMode."""
    first, *rest = snake.split("_")
    return first + "".join(part.capitalize() for part in rest)


def record_fields(h: Header) -> List[RecordField]:
    """The fields of dxt_release_record a binding shows, in the struct's order."""
    struct = next(s for s in h.structs if s.c_name == "dxt_release_record")
    out = []
    for f in struct.fields:
        if f.name in RECORD_HIDDEN:
            continue
        if f.c_type == "uint8_t" and len(f.dims) == 1 and f.dims[0].isdigit():
            kind, size = "bytes", int(f.dims[0])
        elif f.c_type in _RECORD_KINDS and not f.dims:
            kind, size = _RECORD_KINDS[f.c_type], 0
        else:
            raise SystemExit(f"dxtext.h: dxt_release_record.{f.name} ({f.c_type}) is of no type a binding's record "
                             "knows: add it to from_header.py's _RECORD_KINDS and its emitters")
        kinds = "reveals" if f.name == RECORD_REVEALS else RECORD_ENUMS.get(f.name, "")
        out.append(RecordField(f.name, kind, size, kinds, RECORD_PRESENT.get(f.name, ""), f.doc))
    return out


def _record_doc(f: RecordField) -> str:
    """A field's doc comment when it says more than its type, else ""."""
    if not f.doc or re.fullmatch(r"dxt_\w+|DXT_\w+\* bits", f.doc) or f.doc.startswith("Appended"):
        return ""
    return f.doc


# The structs the Node.js addon returns as JavaScript objects, and the C
# function of each that sets its fields onto one (node_setters).
NODE_STRUCTS = {
    "dxt_release_record": "set_record_fields",
    "dxt_model_info": "set_model_info_fields",
    "dxt_calibration": "set_calibration_fields",
    "dxt_ledger_totals": "set_ledger_totals_fields",
}


def _scalar_fields(h: Header, c_name: str) -> List[RecordField]:
    """The fields of a struct of numbers and bools, less struct_size."""
    struct = next(s for s in h.structs if s.c_name == c_name)
    out = []
    for f in struct.fields:
        if f.name == "struct_size":
            continue
        if f.c_type not in _RECORD_KINDS or f.dims:
            raise SystemExit(f"dxtext.h: {c_name}.{f.name} ({f.c_type}) is no number or bool")
        out.append(RecordField(f.name, _RECORD_KINDS[f.c_type], 0, "", "", f.doc))
    return out


def node_setters(h: Header) -> List[str]:
    """The functions of the Node.js addon that set every field of a struct
    of NODE_STRUCTS onto a JS object, by its camelCase name, as numbers,
    booleans and hex strings; the JavaScript names an enumeration's values
    (js_shared.js, recordOf)."""
    out: List[str] = []
    for c_name, function in NODE_STRUCTS.items():
        fields = record_fields(h) if c_name == "dxt_release_record" else _scalar_fields(h, c_name)
        if out:
            out.append("")
        out.append(f"static void {function}(napi_env env, napi_value o, const {c_name} *r) {{")
        for f in fields:
            if f.kind == "bytes":
                data = f"r->{f.present} ? r->{f.name} : NULL" if f.present else f"r->{f.name}"
                out.append(f'  set_hex(env, o, "{f.js_name}", {data}, {f.size});')
            elif f.kind == "bool":
                out.append(f'  set_boolean(env, o, "{f.js_name}", r->{f.name});')
            else:
                out.append(f'  set_number(env, o, "{f.js_name}", (double)r->{f.name});')
        out.append("}")
    return out


def js_enum_names(h: Header) -> Dict[str, List[str]]:
    """The JavaScript tables of names by number: JS_ENUM_TABLES's names, and
    REVEALS (the DXT_REVEALS_* bits in bit order)."""
    tables = {}
    for c_name in sorted(set(RECORD_ENUMS.values()) | set(JS_ENUM_TABLES)):
        e = enum(h, c_name)
        names = ["unknown"] * (max(m.value for m in e.members) + 1)
        for m in e.members:
            names[m.value] = JS_ENUM_ALIASES.get(m.name, lower_camel(m.name[len(e.prefix):].lower()))
        tables[JS_ENUM_TABLES[c_name]] = names
    tables["REVEALS"] = [lower_camel(c.name[len("DXT_REVEALS_"):].lower()) for c in h.flags["DXT_REVEALS_"]]
    return tables


def _js_table(f: RecordField) -> str:
    """The JavaScript table of names of a record field's values, or ""."""
    return "REVEALS" if f.enum == "reveals" else JS_ENUM_TABLES[f.enum] if f.enum else ""


def js_record(h: Header) -> str:
    """The enumerations' names by number and RECORD_FIELDS, for js_shared.js."""
    lines = ["// Names of the C enums' values by number (include/dxtext/dxtext.h), and of",
             "// the DXT_REVEALS_* bits in bit order."]
    lines += [f"const {table} = [{', '.join(repr(n) for n in names)}];" for table, names in js_enum_names(h).items()]
    lines += ["", "// The fields of dxt_release_record a record shows: { name (camelCase), c (its C",
              "// name), kind (u32, u64, f64, bool or bytes), size (of bytes), names (of an",
              "// enumeration's values or of the bits), present (the C bool field without",
              "// which it is null) }.", "const RECORD_FIELDS = Object.freeze(["]
    for f in record_fields(h):
        names = _js_table(f) or "null"
        present = f"'{f.present}'" if f.present else "null"
        lines.append(f"  {{ name: '{f.js_name}', c: '{f.name}', kind: '{f.kind}', size: {f.size}, names: {names}, "
                     f"present: {present} }},")
    lines.append("]);")
    return "\n".join(lines) + "\n\n"


# The JavaScript tables of enumerations' names (js_record), by C name; a
# value's name is its member's, in camelCase, but for these.
JS_ENUM_TABLES = {
    "dxt_mechanism": "MECHANISMS",
    "dxt_geometry": "GEOMETRIES",
    "dxt_quantization": "QUANTIZATIONS",
    "dxt_metric": "METRICS",
    "dxt_rng_mode": "RNG_MODES",
    "dxt_release_kind": "RELEASES",
    "dxt_bound": "BOUNDS",
    "dxt_release_shape": "SHAPES",
    "dxt_output_kind": "OUTPUT_KINDS",
    "dxt_preset": "PRESETS",
    "dxt_token_class": "TOKEN_CLASSES",
}
JS_ENUM_ALIASES = {"DXT_SHAPE_DEFAULT": "keep"}


def ts_record_members(h: Header, indent: str) -> List[str]:
    """The fields of the ReleaseRecord interface (js_shared.d.ts), typed,
    each with its doc comment of the header when that is one short line."""
    tables = js_enum_names(h)
    out = []
    for f in record_fields(h):
        values = list(dict.fromkeys(tables[_js_table(f)])) if f.enum else []
        if f.enum == "reveals":
            kind = "Array<" + " | ".join(f"'{n}'" for n in values) + ">"
        elif f.enum:
            kind = " | ".join(f"'{n}'" for n in values + ["unknown"] * ("unknown" not in values))
        elif f.kind == "bytes":
            kind = "string | null"
        else:
            kind = "boolean" if f.kind == "bool" else "number"
        doc = _record_doc(f)
        if doc and len(doc) <= 100 - len(indent) - 7:
            out.append(f"{indent}/** {doc} */")
        out.append(f"{indent}readonly {f.js_name}: {kind};")
    return out


def wasm_layout(h: Header) -> str:
    """bindings/wasm/src/dxtext_wasm_layout.c: the offset of every field and
    the size of every public struct in the wasm32 build, and their _init."""
    rows = []
    for s in h.structs:
        rows.append(f"    DXTW_STRUCT({s.c_name}),")
        rows += [f"    DXTW_FIELD({s.c_name}, {f.name})," for f in s.fields]
    inits = [s.c_name for s in h.structs if s.c_name in h.inits]
    init_lines = []
    for i, name in enumerate(inits):
        keyword = "if" if i == 0 else "else if"
        init_lines += [f'  {keyword} (strcmp(type, "{name}") == 0)', f"    {name}_init(memory);"]
    return "\n".join([
        "/* SPDX-License-Identifier: Apache-2.0 */",
        "/* Generated by tools/options/generate.py from include/dxtext/dxtext.h: do not edit. */",
        "/*",
        " * What the JavaScript wrapper needs to know about the public structs, taken",
        " * from the compiler rather than written by hand: each field's offset and each",
        " * struct's size in this (wasm32) build, and the struct's _init call. Only",
        " * the WebAssembly module exports these two functions; they are not part of",
        " * the C ABI.",
        " */",
        "#include <stddef.h>",
        "#include <string.h>",
        "",
        '#include "dxtext/dxtext.h"',
        "",
        "#define DXTW_STRUCT(type) \\",
        '  { #type, "sizeof", sizeof(type) }',
        "#define DXTW_FIELD(type, field) \\",
        "  { #type, #field, offsetof(type, field) }",
        "",
        "static const struct {",
        "  const char *type;",
        "  const char *field;",
        "  size_t value;",
        "} kLayout[] = {",
        *rows,
        "};",
        "",
        "/**",
        ' * @param[in] type   a struct name, e.g. "dxt_release_record"',
        ' * @param[in] field  a field name, or "sizeof" for the struct\'s size',
        " * @return the offset or size in bytes, or -1 when the pair is unknown",
        " */",
        "long dxtwasm_layout(const char *type, const char *field) {",
        "  size_t i;",
        "  if (type == NULL || field == NULL) return -1;",
        "  for (i = 0; i < sizeof kLayout / sizeof kLayout[0]; ++i)",
        "    if (strcmp(kLayout[i].type, type) == 0 && strcmp(kLayout[i].field, field) == 0) "
        "return (long)kLayout[i].value;",
        "  return -1;",
        "}",
        "",
        "/**",
        " * Fill the struct at @p memory (of dxtwasm_layout(type, \"sizeof\") bytes)",
        " * with its _init function. @return 0, or -1 for a type without one.",
        " */",
        "int dxtwasm_init(const char *type, void *memory) {",
        "  if (type == NULL || memory == NULL) return -1;",
        *init_lines,
        "  else",
        "    return -1;",
        "  return 0;",
        "}",
        "",
    ])


def _record_layout(h: Header) -> Tuple[List[RecordField], List[str], Dict[str, int]]:
    """What the JNI passes a record as: a double of each field that is no
    bytes field, then one of each `present` flag; and a byte array of the
    bytes fields one after the other, at their offsets."""
    fields = record_fields(h)
    values = [f.name for f in fields if f.kind != "bytes"] + [f.present for f in fields if f.present]
    offsets, at = {}, 0
    for f in fields:
        if f.kind == "bytes":
            offsets[f.name], at = at, at + f.size
    offsets[""] = at
    return fields, values, offsets


@dataclass(frozen=True)
class JavaStruct:
    name: str  # the class
    getters: bool  # private fields, each with a getter; else public final fields
    # The fields whose value is a member of an enumeration: field -> (C
    # enumeration, the enum nested in the class, whose ordinals are its values).
    enums: Tuple[Tuple[str, str, str], ...] = ()


# The structs of numbers and bools that the JNI library passes to Java as an
# array of doubles, one per field in the struct's order (less struct_size),
# and the class that reads it: C name -> class.
JAVA_STRUCTS = {
    "dxt_model_info": JavaStruct("DxModelInfo", getters=False, enums=(("geometry", "dxt_geometry", "Geometry"),
                                                                      ("quantization", "dxt_quantization",
                                                                       "Quantization"))),
    "dxt_calibration": JavaStruct("DxCalibration", getters=False),
    "dxt_ledger_totals": JavaStruct("DxLedgerTotals", getters=True),
}
_JAVA_STRUCT_KINDS = {"u32": "int", "u64": "long", "f64": "double", "bool": "boolean"}


def jni_structs(h: Header) -> List[str]:
    """What the JNI library copies structs into Java arrays with:
    record_values (the record as DxReleaseRecord reads it), and one function
    per struct of JAVA_STRUCTS that returns its array (new_doubles)."""
    fields, values, offsets = _record_layout(h)
    out = [f"enum {{ RECORD_VALUES = {len(values)}, RECORD_BYTES = {offsets['']} }};", "",
           "/* The record as DxReleaseRecord's arrays (of RECORD_VALUES and RECORD_BYTES). */",
           "static void record_values(const dxt_release_record *r, jdouble *v, jbyte *bytes) {"]
    for i, name in enumerate(values):
        out.append(f"  v[{i}] = (jdouble)r->{name};")
    for f in fields:
        if f.kind == "bytes":
            out.append(f"  memcpy(bytes + {offsets[f.name]}, r->{f.name}, {f.size});")
    out.append("}")
    for c_name, spec in JAVA_STRUCTS.items():
        fields = _scalar_fields(h, c_name)
        out += ["", f"/* The {c_name} as the array {spec.name}(double[]) reads. */",
                f"static jdoubleArray {c_name[len('dxt_'):]}_array(JNIEnv *env, const {c_name} *r) {{",
                f"  jdouble v[{len(fields)}];"]
        out += [f"  v[{i}] = (jdouble)r->{f.name};" for i, f in enumerate(fields)]
        out += [f"  return new_doubles(env, v, {len(fields)});", "}"]
    return out


def _java_getter(f: RecordField, offsets: Dict[str, int]) -> Tuple[str, str]:
    """(the type, the expression) of a DxReleaseRecord getter."""
    value = f"values[{f.name.upper()}]"
    if f.enum == "reveals":
        return "Set<Reveals>", f"bits(Reveals.class, {value})"
    if f.enum in JAVA_ENUMS:
        return JAVA_ENUMS[f.enum].name, f"{JAVA_ENUMS[f.enum].name}.of((int) {value})"
    if f.enum in JAVA_RECORD_ENUMS:
        return JAVA_RECORD_ENUMS[f.enum], f"of({JAVA_RECORD_ENUMS[f.enum]}.class, {value})"
    if f.enum:
        raise SystemExit(f"from_header.py: dxt_release_record.{f.name} is a {f.enum}, which Java has no enum of: "
                         "add it to JAVA_ENUMS or JAVA_RECORD_ENUMS")
    if f.kind == "bytes":
        copy = f"Arrays.copyOfRange(bytes, {offsets[f.name]}, {offsets[f.name] + f.size})"
        if f.present:
            return "byte[]", f"values[{f.present.upper()}] != 0 ? {copy} : null"
        return "byte[]", copy
    if f.kind == "bool":
        return "boolean", f"{value} != 0"
    if f.kind in ("u32", "u64"):
        return "long", f"(long) {value}"
    return "double", value


def java_record_fields(h: Header) -> List[str]:
    """DxReleaseRecord's layout of the JNI's arrays and its getters (its
    "generated: fields" section)."""
    fields, values, offsets = _record_layout(h)
    out = ["  // Layout of the arrays the native code fills (record_values in dxtext_jni.c)."]
    out += [f"  static final int {name.upper()} = {i};" for i, name in enumerate(values)]
    out += [f"  static final int VALUES = {len(values)}, BYTES = {offsets['']};"]
    for f in fields:
        kind, expression = _java_getter(f, offsets)
        name = lower_camel(f.name) if f.name.startswith("is_") else "get" + camel(f.name)
        out.append("")
        doc = _record_doc(f)
        if f.present:
            doc = (doc.rstrip(".") + ", or null when the record does not carry it.") if doc else ""
        if doc:
            out += _javadoc(_sentence(doc), "  ")
        out += [f"  public {kind} {name}() {{", f"    return {expression};", "  }"]
    return out


def java_struct_fields(h: Header, c_name: str) -> List[str]:
    """The "generated: fields" section of a class of JAVA_STRUCTS: its
    nested enums, its fields (with getters) and the constructor that reads
    them from the JNI's array (jni_structs)."""
    spec = JAVA_STRUCTS[c_name]
    enums = {field: (c_enum, name) for field, c_enum, name in spec.enums}
    fields = _scalar_fields(h, c_name)
    out: List[str] = []
    for f in fields:
        if f.name in enums:
            out += _java_nested_enum(h, enums[f.name][0], f"{spec.name}.{enums[f.name][1]}") + [""]
    declarations, assignments, getters = [], [], []
    for i, f in enumerate(fields):
        name = lower_camel(f.name)
        if f.name in enums:
            c_enum, kind = enums[f.name]
            unknown = enum(h, c_enum).members[0]
            value = (f"v[{i}] < {kind}.values().length ? {kind}.values()[(int) v[{i}]] : "
                     f"{kind}.{_short(enum(h, c_enum), unknown.name)}")
        else:
            kind = _JAVA_STRUCT_KINDS[f.kind]
            value = {"int": f"(int) v[{i}]", "long": f"(long) v[{i}]", "double": f"v[{i}]",
                     "boolean": f"v[{i}] != 0"}[kind]
        doc = _javadoc(_sentence(f.doc), "  ") if _record_doc(f) else []
        assignment = f"    {name} = {value};"
        if len(assignment) > 100 and " : " in value:
            head, _, tail = value.rpartition(" : ")
            assignment = f"    {name} = {head}\n        : {tail};"
        assignments.append(assignment)
        if spec.getters:
            declarations.append(f"  private final {kind} {name};")
            getter = lower_camel(f.name) if f.name.startswith("is_") else "get" + camel(f.name)
            getters += [""] + doc + [f"  public {kind} {getter}() {{", f"    return {name};", "  }"]
        else:
            declarations += doc + [f"  public final {kind} {name};"]
    return out + declarations + ["", f"  {spec.name}(double[] v) {{"] + assignments + ["  }"] + getters


# What a Rust accessor of an enumeration whose from_raw gives an Option falls
# back to, when it has one (0, DXT_SHAPE_DEFAULT, is keep).
RUST_RECORD_FALLBACKS = {"release_shape": "ReleaseShape::Keep"}


def rust_record_fields(h: Header) -> List[str]:
    """ReleaseRecord's accessors (report.rs, its "generated: fields" section)."""
    out = ["impl ReleaseRecord {"]
    for f in record_fields(h):
        raw = f"self.raw.{f.name}"
        if f.enum and f.enum != "reveals":
            spec = RUST_ENUMS.get(f.enum)
            if spec is None or not spec.from_raw:
                raise SystemExit(f"from_header.py: dxt_release_record.{f.name} is a {f.enum}, which Rust has no "
                                 "enum with from_raw of: add it to RUST_ENUMS")
            kind, expression = spec.name, f"{spec.name}::from_raw({raw})"
            if not spec.unknown and f.name in RUST_RECORD_FALLBACKS:
                expression += f".unwrap_or({RUST_RECORD_FALLBACKS[f.name]})"
            elif not spec.unknown:
                kind = f"Option<{spec.name}>"
        elif f.kind == "bytes" and f.present:
            kind, expression = f"Option<[u8; {f.size}]>", f"self.raw.{f.present}.then_some({raw})"
        else:
            kind = {"u32": "u32", "u64": "u64", "f64": "f64", "bool": "bool", "bytes": f"[u8; {f.size}]"}[f.kind]
            expression = raw
        if len(out) > 1:
            out.append("")
        doc = _record_doc(f)
        if f.present:
            doc = (doc.rstrip(".") + ", when the record carries it.") if doc else ""
        if doc:
            out += _rust_doc(_sentence(doc), "    ")
        out += [f"    pub fn {f.name}(&self) -> {kind} {{", f"        {expression}", "    }"]
    out.append("}")
    return out


# The Rust structs of the C structs of numbers the crate returns, by the file
# of bindings/rust/dxtext/src they are declared in ("generated: NAME").
RUST_STRUCTS = {
    "dxt_model_info": ("model.rs", "ModelInfo"),
    "dxt_calibration": ("report.rs", "Calibration"),
    "dxt_ledger_totals": ("ledger.rs", "LedgerTotals"),
}
_RUST_KINDS = {"u32": "u32", "u64": "u64", "f64": "f64", "bool": "bool"}


def rust_struct(h: Header, c_name: str) -> List[str]:
    """A RUST_STRUCTS struct (its doc comment and derives are the crate's):
    each field of the C struct, an enumeration's (its doc names it) as the
    crate's enum, and from_raw, which copies them from the C struct."""
    name = RUST_STRUCTS[c_name][1]
    fields, copies = [], []
    for f in _scalar_fields(h, c_name):
        kind, value = _RUST_KINDS[f.kind], f"raw.{f.name}"
        spec = RUST_ENUMS.get(f.doc)
        if spec is not None:
            if not (spec.from_raw and spec.unknown):
                raise SystemExit(f"from_header.py: {c_name}.{f.name} is a {f.doc}, whose Rust enum needs "
                                 "from_raw and an Unknown variant (RUST_ENUMS)")
            kind, value = spec.name, f"{spec.name}::from_raw(raw.{f.name})"
        elif _record_doc(f):
            fields += _rust_doc(_sentence(f.doc), "    ")
        fields.append(f"    pub {f.name}: {kind},")
        copies.append(f"            {f.name}: {value},")
    return ([f"pub struct {name} {{"] + fields + ["}", "", f"impl {name} {{",
            f"    pub(crate) fn from_raw(raw: &sys::{c_name}) -> {name} {{", f"        {name} {{"] + copies +
            ["        }", "    }", "}"])


def python_record_types(h: Header) -> List[str]:
    """ReleaseRecord._TYPES of the Python package (reports.py): the
    enumeration of each field that holds one, and Reveals for the bits."""
    out = ["    _TYPES: Dict[str, Any] = {"]
    for f in record_fields(h):
        if f.enum:
            # Preset is made from the presets' table (enums.py), not from the header.
            name = "Reveals" if f.enum == "reveals" else {**PY_ENUMS, "dxt_preset": "Preset"}[f.enum]
            out.append(f'        "{f.name}": {name},')
    return out + ["    }"]


# The Python package's dataclasses of the structs of numbers it returns, by
# module and class: their fields (python_struct_fields) are the struct's.
PY_STRUCTS = {
    "dxt_model_info": ("reports.py", "ModelInfo"),
    "dxt_calibration": ("reports.py", "Calibration"),
    "dxt_ledger_totals": ("ledger.py", "LedgerTotals"),
}
_PY_KINDS = {"u32": "int", "u64": "int", "f64": "float", "bool": "bool"}


def python_struct_fields(h: Header, c_name: str) -> List[str]:
    """The fields of a PY_STRUCTS dataclass ("generated: CLASS"):
    each field of the C struct, an enumeration's (its doc names it) as the
    package's enum, with the header's comment when it says more."""
    out: List[str] = []
    previous = ""
    for f in _scalar_fields(h, c_name):
        kind = PY_ENUMS.get(f.doc, _PY_KINDS[f.kind])
        line = f"    {f.name}: {kind}"
        if _record_doc(f) and f.doc != previous:
            line += f"  # {f.doc}"
        previous = f.doc
        out.append(line)
    return out


# --------------------------------------------------------------------------
# Swift (Sources/Dxtext/Dxtext.swift: the status codes of DxtextError and
# the fields of ReleaseRecord)

# The record's enumerations that the Swift package has an enum of, and what
# a value it does not know becomes ("" for nil); any other enumeration's
# field is its UInt32.
SWIFT_RECORD_ENUMS = {"dxt_release_shape": ("ReleaseShape", ".keep"), "dxt_preset": ("Preset", "")}
_SWIFT_KINDS = {"u32": "UInt32", "u64": "UInt64", "f64": "Double", "bool": "Bool"}


# Swift keywords that a name of the header may be: written `quoted`.
SWIFT_KEYWORDS = {"internal", "public", "private", "default", "import", "class", "struct", "enum", "case", "in",
                  "is", "as", "operator", "protocol", "return", "self", "static", "subscript", "throws", "true",
                  "false", "nil", "var", "let", "func", "init", "deinit", "extension", "where", "while", "repeat"}


def swift_statuses(h: Header) -> List[str]:
    out = []
    for s in h.statuses[1:]:
        name = lower_camel(s.name[len("DXT_E_"):].lower())
        out += _wrapped(_sentence(s.doc), "    /// ")
        out.append(f"    public static let {f'`{name}`' if name in SWIFT_KEYWORDS else name}: Int32 = {s.value}")
    return out


def _swift_field(f: RecordField) -> Tuple[str, str]:
    """(the type, the expression from `r`, a dxt_release_record) of a field."""
    raw = f"r.{f.name}"
    if f.enum in SWIFT_RECORD_ENUMS:
        name, fallback = SWIFT_RECORD_ENUMS[f.enum]
        if fallback:
            return name, f"{name}(rawValue: {raw}) ?? {fallback}"
        return f"{name}?", f"{name}(rawValue: {raw})"
    if f.kind == "bytes":
        copy = f"withUnsafeBytes(of: {raw}) {{ Array($0) }}"
        return ("[UInt8]?", f"r.{f.present} ? {copy} : nil") if f.present else ("[UInt8]", copy)
    return _SWIFT_KINDS[f.kind], raw


def swift_record_fields(h: Header) -> List[str]:
    out = []
    for f in record_fields(h):
        kind, _ = _swift_field(f)
        doc = _record_doc(f)
        if doc:
            out += _wrapped(_sentence(doc), "    /// ")
        out.append(f"    public let {f.js_name}: {kind}")
    return out


def swift_record_init(h: Header) -> List[str]:
    return [f"        {f.js_name} = {_swift_field(f)[1]}" for f in record_fields(h)]
