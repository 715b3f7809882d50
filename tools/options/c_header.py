# SPDX-License-Identifier: Apache-2.0
"""A reader of include/dxtext/dxtext.h: its status codes, enumerations, flag
constants, structs and functions, with their doc comments. It reads the
header's own style (one declaration per line or statement, `/** */` and
`/**< */` comments), not C in general; anything it does not understand in a
place it reads stops it with the line, so a change of style cannot pass
unnoticed.

generate.py writes what the bindings repeat of the header from this: the
ctypes declarations of the Python package, the error classes and status
enums of Python, Java and Rust, and the enumerations of Python.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, List, Tuple

HEADER = Path(__file__).resolve().parents[2] / "include" / "dxtext" / "dxtext.h"


@dataclass
class Constant:
    name: str  # as in C, e.g. DXT_E_INVALID_EPSILON
    value: int
    doc: str


@dataclass
class Enum:
    c_name: str  # e.g. dxt_release_shape
    prefix: str  # what its members' names share, e.g. DXT_SHAPE_
    members: List[Constant]
    doc: str = ""  # the comment just before its typedef


@dataclass
class Field:
    c_type: str  # the declaration without its name and dimensions
    name: str
    dims: List[str] = field(default_factory=list)
    doc: str = ""  # its `/** */` comment before it or `/**< */` after it


@dataclass
class Struct:
    c_name: str
    fields: List[Field]


@dataclass
class Parameter:
    c_type: str
    name: str
    dims: List[str] = field(default_factory=list)


@dataclass
class Function:
    name: str
    returns: str
    parameters: List[Parameter]


@dataclass
class Header:
    statuses: List[Constant]
    enums: List[Enum]
    flags: Dict[str, List[Constant]]  # prefix (DXT_REVEALS_) -> its #defines
    defines: Dict[str, str]  # every other #define NAME VALUE
    structs: List[Struct]
    opaque: List[str]  # typedef struct X X;
    functions: List[Function]
    inits: List[str] = field(default_factory=list)  # structs with a static inline NAME_init


def _clean(doc: str) -> str:
    """A doc comment's text on one line."""
    doc = re.sub(r"^/\*\*<?|\*/$", "", doc.strip())
    lines = [re.sub(r"^\s*\*?\s?", "", line).strip() for line in doc.split("\n")]
    return " ".join(line for line in lines if line).strip()


def _members(body: str, where: str) -> List[Constant]:
    """The NAME = value entries of an enum body, each with its comment (a
    `/** */` before it or a `/**< */` after it)."""
    out: List[Constant] = []
    pending = ""
    pos = 0
    token = re.compile(r"\s*(/\*\*<.*?\*/|/\*\*.*?\*/|/\*.*?\*/|(\w+)\s*=\s*(0x[0-9A-Fa-f]+|-?\d+)u?\s*,?)", re.S)
    while pos < len(body):
        if not body[pos:].strip():
            break
        m = token.match(body, pos)
        if not m:
            raise SystemExit(f"{HEADER.name}: cannot read the enum {where} at {body[pos:pos + 60]!r}")
        pos = m.end()
        text = m.group(1)
        if text.startswith("/**<"):
            if out:
                out[-1].doc = _clean(text)
        elif text.startswith("/**"):
            pending = _clean(text)
        elif text.startswith("/*"):
            continue
        else:
            out.append(Constant(m.group(2), int(m.group(3), 0), pending))
            pending = ""
    return out


def _common_prefix(names: List[str]) -> str:
    if len(names) == 1:
        return names[0][:names[0].rfind("_") + 1]
    prefix = names[0]
    for name in names[1:]:
        while not name.startswith(prefix):
            prefix = prefix[:-1]
    return prefix[:prefix.rfind("_") + 1]


def _declaration(text: str, where: str) -> Tuple[str, str, List[str]]:
    """(type, name, array dimensions) of `const char *name` or `uint8_t x[32]`."""
    m = re.fullmatch(r"(.*?)(\w+)\s*((?:\[[^\]]*\]\s*)*)", " ".join(text.split()))
    if not m or not m.group(1).strip():
        raise SystemExit(f"{HEADER.name}: cannot read the declaration {text!r} in {where}")
    dims = re.findall(r"\[([^\]]*)\]", m.group(3))
    c_type = re.sub(r"\s*\*", " *", m.group(1).strip()).replace("* *", "**").strip()
    return c_type, m.group(2), dims


def _fields(body: str, where: str) -> List[Field]:
    """The fields of a struct body, each with its doc comment. "double a, b"
    is one field each, of the first one's base type, with the same doc."""
    fields: List[Field] = []
    pending = ""
    pos = 0
    token = re.compile(r"\s*(/\*\*<.*?\*/|/\*\*.*?\*/|/\*.*?\*/|[^;/]+;)", re.S)
    while body[pos:].strip():
        m = token.match(body, pos)
        if not m:
            raise SystemExit(f"{HEADER.name}: cannot read the struct {where} at {body[pos:pos + 60]!r}")
        pos = m.end()
        text = m.group(1)
        if text.startswith("/**<"):
            if fields:
                fields[-1].doc = _clean(text)
        elif text.startswith("/**"):
            pending = _clean(text)
        elif not text.startswith("/*"):
            first, *more = text.rstrip(";").split(",")
            c_type, name, dims = _declaration(first, where)
            fields.append(Field(c_type, name, dims, pending))
            for other in more:
                fields.append(Field(*_declaration(c_type.rstrip(" *") + " " + other, where), pending))
            pending = ""
    return fields


def _strip_comments(text: str) -> str:
    return re.sub(r"/\*.*?\*/", " ", text, flags=re.S)


def read(path: Path = HEADER) -> Header:
    text = path.read_text(encoding="utf-8")
    block = re.search(r"typedef int32_t dxt_status;\s*enum \{(.*?)\};", text, flags=re.S)
    if not block:
        raise SystemExit(f"{path.name}: no enum of dxt_status codes")
    statuses = _members(block.group(1), "dxt_status")
    if not statuses or (statuses[0].name, statuses[0].value) != ("DXT_OK", 0):
        raise SystemExit(f"{path.name}: the dxt_status codes do not start with DXT_OK = 0")

    enums = []
    for m in re.finditer(r"(/\*\*(?:(?!\*/).)*\*/\s*)?typedef enum (dxt_\w+) \{(.*?)\} \2;", text, flags=re.S):
        members = _members(m.group(3), m.group(2))
        doc = _clean(m.group(1)) if m.group(1) else ""
        enums.append(Enum(m.group(2), _common_prefix([c.name for c in members]), members, doc))

    flags: Dict[str, List[Constant]] = {}
    defines: Dict[str, str] = {}
    lines = text.split("\n")
    for i, line in enumerate(lines):
        m = re.match(r"#define (DXT_[A-Z0-9_]+) (.+?)\s*(/\*\*<.*\*/)?$", line)
        if not m:
            continue
        name, value, trailing = m.groups()
        hexed = re.fullmatch(r"0x([0-9A-Fa-f]+)u", value)
        prefix = name[:name.rfind("_") + 1]
        if hexed and prefix.startswith("DXT_REVEALS_"):
            prefix = "DXT_REVEALS_"
        if hexed and prefix == "DXT_REVEALS_":
            doc = _clean(trailing) if trailing else ""
            j = i - 1
            if not doc and lines[j].rstrip().endswith("*/"):
                start = j
                while "/**" not in lines[start]:
                    start -= 1
                doc = _clean("\n".join(lines[start:j + 1]))
            flags.setdefault(prefix, []).append(Constant(name, int(hexed.group(1), 16), doc))
        else:
            defines[name] = value

    code = "\n".join(line for line in _strip_comments(text).split("\n") if not line.lstrip().startswith("#"))
    structs = []
    for m in re.finditer(r"typedef struct (dxt_\w+) \{(.*?)\} \1;", text, flags=re.S):
        structs.append(Struct(m.group(1), _fields(m.group(2), m.group(1))))
    opaque = re.findall(r"typedef struct (dxt_\w+) \1;", code)

    functions = []
    for m in re.finditer(r"DXT_API\s+(?:DXT_NODISCARD\s+)?([^;{]*?)\b(dxt_\w+)\s*\(([^)]*)\)\s*;", code):
        returns = re.sub(r"\s*\*", " *", " ".join(m.group(1).split())).strip()
        parameters = []
        if m.group(3).strip() != "void":
            for p in m.group(3).split(","):
                parameters.append(Parameter(*_declaration(p, m.group(2))))
        functions.append(Function(m.group(2), returns, parameters))
    if len(functions) != len(re.findall(r"^DXT_API ", text, flags=re.M)):
        raise SystemExit(f"{path.name}: a DXT_API declaration is not in the form this reader knows")
    inits = re.findall(r"static inline void (dxt_\w+)_init\(", text)
    return Header(statuses, enums, flags, defines, structs, opaque, functions, inits)


def enum(header: Header, c_name: str) -> Enum:
    for e in header.enums:
        if e.c_name == c_name:
            return e
    raise SystemExit(f"{HEADER.name}: no enum {c_name}")


def camel(snake: str) -> str:
    """invalid_epsilon -> InvalidEpsilon."""
    return "".join(part.capitalize() for part in snake.lower().split("_"))


if __name__ == "__main__":
    h = read()
    print(f"{len(h.statuses)} statuses, {len(h.enums)} enums, {len(h.structs)} structs, "
          f"{len(h.opaque)} opaque types, {len(h.functions)} functions")
    for e in h.enums:
        print(e.c_name, e.prefix, [(c.name[len(e.prefix):], c.value) for c in e.members])
    for s in h.structs:
        print(s.c_name, [(f.c_type, f.name, f.dims) for f in s.fields])
    for f in h.functions:
        print(f.returns, f.name, [(p.c_type, p.name, p.dims) for p in f.parameters])
    for prefix, cs in h.flags.items():
        print(prefix, [(c.name, c.value, c.doc[:30]) for c in cs])
    print([(c.name, c.value, c.doc[:40]) for c in h.statuses])
