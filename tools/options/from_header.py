# SPDX-License-Identifier: Apache-2.0
"""What the bindings repeat of include/dxtext/dxtext.h, written from it
(c_header.py reads the header; generate.py writes these into the files):

- Python: the ctypes structs and function signatures (_library.py), the
  enumerations (enums.py) and one exception class per status (errors.py);
- Java: DxStatus.java;
- Rust: ErrorKind and its mapping from dxt_status (error.rs).

(Node.js and WebAssembly get their status table from js_shared.js; Swift and
the Rust -sys crate read the header itself.) A new status, enumeration
member, struct field or function then reaches these bindings with no hand
edit: run tools/options/generate.py.
"""

from __future__ import annotations

import textwrap
from typing import Dict, List

from c_header import Enum, Header, camel, enum

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
    if stars == 1 and base in SCALARS and not in_struct:
        return f"ctypes.POINTER({SCALARS[base]})"
    if stars == 1:
        return "ctypes.c_void_p"  # an opaque handle, bytes, or a pointer to read by hand
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


# --------------------------------------------------------------------------
# Rust


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
