#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The register-map generator: regmap/collnet.json -> the SystemVerilog packages, the C++
header firmware/regmap.hpp and the tables in docs/ (between <!-- regmap: NAME --> and
<!-- /regmap --> markers).

The description is the one source of truth for registers, fields and packet layouts; every
generated file says so in its first lines and is never edited by hand.

  regmap_gen.py            write every generated file that differs from what it should be
  regmap_gen.py --check    write nothing; list the stale files and exit 1 if there are any
  --root DIR               the source tree to read and write (default: this file's parent's parent)

Before writing anything the generator checks the description: every value resolves, every
field lies inside its word and overlaps no other, no two registers share an address,
registers are 8-byte aligned and inside the address space, flag bits are distinct, and
each package's "checks" hold. An error names the package, item and entry at fault.
"""
import argparse
import json
import pathlib
import re
import sys

DESCRIPTION = "regmap/collnet.json"
GENERATOR = "regmap/regmap_gen.py"
DOC_GLOB = "docs/*.md"
REG_BITS = 64          # an ordinary register
VECTOR_BITS = 256      # a vector register access (VectorWords * 64)
ALIGN = 8              # register byte alignment
SV_LINE = 100          # generated SystemVerilog lines wrap their comments at this width


class DescriptionError(Exception):
    pass


# ------------------------------------------------------------------ values and expressions

_TOKEN = re.compile(r"\s*(?:(0x[0-9a-fA-F_]+|\d+)|([A-Za-z_]\w*)|(<<|>>|[-+*/%()<>=!]=?|&&|\|\|))")


def tokens(expr):
    pos, out = 0, []
    expr = expr.strip()
    while pos < len(expr):
        m = _TOKEN.match(expr, pos)
        if not m or m.end() == pos:
            raise DescriptionError(f"cannot read the expression {expr!r} at {expr[pos:]!r}")
        out.append(m.groups())
        pos = m.end()
    return out


class Scope:
    """Named integer values of one package (and, read-only, the packages before it)."""

    def __init__(self, pkg, outer=None):
        self.pkg = pkg
        self.values = {}
        self.exprs = {}     # name -> expression text as written (a number or an expression)
        self.outer = outer or {}

    def define(self, name, value, where):
        if name in self.values or name in self.outer:
            raise DescriptionError(f"{where}: {name} is defined twice")
        self.values[name] = value

    def eval(self, v, where):
        """An int, a numeric string or an expression over names defined before."""
        if isinstance(v, bool) or v is None:
            raise DescriptionError(f"{where}: expected a number or an expression, got {v!r}")
        if isinstance(v, int):
            return v
        if not isinstance(v, str):
            raise DescriptionError(f"{where}: expected a number or an expression, got {v!r}")
        py = []
        for num, name, op in tokens(v):
            if num:
                py.append(str(int(num.replace("_", ""), 0)))
            elif name:
                if name in self.values:
                    py.append(str(self.values[name]))
                elif name in self.outer:
                    py.append(str(self.outer[name]))
                else:
                    raise DescriptionError(f"{where}: {v!r} names {name}, which is not defined before it")
            else:
                py.append({"&&": " and ", "||": " or ", "/": "//"}.get(op, op))
        try:
            r = eval("".join(py), {"__builtins__": {}})  # only numbers and operators reach here
        except Exception as e:  # noqa: BLE001 - any failure is the description's
            raise DescriptionError(f"{where}: cannot evaluate {v!r}: {e}") from None
        if isinstance(r, bool):
            return int(r)
        return r

    @staticmethod
    def is_literal(v):
        return isinstance(v, int) or (isinstance(v, str) and re.fullmatch(r"\s*(0x[0-9a-fA-F_]+|\d+)\s*", v))

    def sv(self, v):
        """The value as SystemVerilog: literals as numbers, expressions as written."""
        return str(int(str(v).replace("_", ""), 0)) if self.is_literal(v) else str(v)

    def cpp(self, v):
        """The value as C++: names get the k prefix."""
        if self.is_literal(v):
            return str(int(str(v).replace("_", ""), 0))
        out = []
        for num, name, op in tokens(v):
            out.append(num or (("k" + name) if name else op))
        return " ".join(out)


def snake(name):
    return re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", name).lower()


def need(entry, key, where):
    if key not in entry:
        raise DescriptionError(f"{where}: missing \"{key}\"")
    return entry[key]


# ------------------------------------------------------------------ the model

class Const:
    """One generated constant: name, value (evaluated), text (as written), SV type, doc."""

    def __init__(self, name, value, text, bits=None, kind="int", doc=""):
        self.name, self.value, self.text, self.bits, self.kind, self.doc = name, value, text, bits, kind, doc


class Package:
    def __init__(self, desc, outer):
        self.name = need(desc, "name", "a package")
        self.path = need(desc, "path", self.name)
        self.title = need(desc, "title", self.name)
        self.functions = desc.get("functions")
        self.scope = Scope(self.name, outer)
        self.sections = []   # (title, doc lines, [Const], [SV function text])
        self.tables = {}     # docs table name -> markdown
        self.checks = []     # (expr, why) for C++ static_assert
        self.registers = []  # (offset, end, name) for overlap checks
        self.layouts = {}    # layout id -> title, for registers that name their layout
        for item in need(desc, "items", self.name):
            kind = need(item, "kind", self.name)
            handler = getattr(self, "item_" + kind, None)
            if handler is None:
                raise DescriptionError(f"{self.name}: unknown item kind {kind!r}")
            handler(item)

    # --- helpers
    def const(self, name, value_text, where, bits=None, kind="int", doc=""):
        value = self.scope.eval(value_text, f"{self.name}: {where}")
        if value < 0:
            raise DescriptionError(f"{self.name}: {where}: {name} = {value} is negative")
        if bits is not None and value >= (1 << bits):
            raise DescriptionError(f"{self.name}: {where}: {name} = {value:#x} does not fit in {bits} bits")
        self.scope.define(name, value, f"{self.name}: {where}")
        self.scope.exprs[name] = value_text
        return Const(name, value, value_text, bits, kind, doc)

    def run_checks(self, item, where):
        for chk in item.get("checks", []):
            expr, why = need(chk, "expr", where), need(chk, "why", where)
            if not self.scope.eval(expr, f"{self.name}: {where}: check"):
                raise DescriptionError(f"{self.name}: {where}: check failed: {expr} ({why})")
            self.checks.append((expr, why))

    def fields_of(self, prefix, fields, word_bits, where, getters=False, layout_bits_name=None):
        """Constants (Lsb/W or Bit) for each field, checked to lie inside word_bits without overlap."""
        consts, funcs, rows, used = [], [], [], {}
        for f in fields:
            fname = need(f, "name", where)
            fw = f"{where}, field {fname}"
            lsb = self.scope.eval(need(f, "lsb", fw), f"{self.name}: {fw}")
            width = self.scope.eval(need(f, "width", fw), f"{self.name}: {fw}")
            count = self.scope.eval(f.get("count", 1), f"{self.name}: {fw}")
            stride = self.scope.eval(f.get("stride", width), f"{self.name}: {fw}")
            if width < 1:
                raise DescriptionError(f"{self.name}: {fw}: width {width} must be at least 1")
            if count > 1 and stride < width:
                raise DescriptionError(f"{self.name}: {fw}: stride {stride} is narrower than the field ({width} bits)")
            spans = []
            for k in range(count):
                lo = lsb + k * stride
                hi = lo + width - 1
                if hi >= word_bits:
                    raise DescriptionError(
                        f"{self.name}: {fw}: bits {hi}:{lo} do not fit in a {word_bits}-bit word")
                for b in range(lo, hi + 1):
                    if b in used:
                        raise DescriptionError(f"{self.name}: {fw}: bit {b} is also field {used[b]}")
                    used[b] = fname
                spans.append((hi, lo))
            doc = f.get("doc", "")
            if fname == "Reserved":
                rows.append((spans, "reserved", [], doc))
                continue
            base = prefix + fname
            names = []
            if width == 1 and count == 1:
                consts.append(self.const(base + "Bit", f["lsb"], fw, doc=doc))
                names.append(base + "Bit")
            else:
                consts.append(self.const(base + "Lsb", f["lsb"], fw, doc=doc))
                consts.append(self.const(base + "W", f["width"], fw))
                names += [base + "Lsb", base + "W"]
                if count > 1:
                    consts.append(self.const(base + "Stride", f.get("stride", f["width"]), fw,
                                             doc=f"field k at {base}Lsb + k * {base}Stride"))
                    names.append(base + "Stride")
            if getters:
                fn = snake(base)
                ret = "logic" if width == 1 and count == 1 else f"logic [{base}W-1:0]"
                idx = f"{base}Bit" if width == 1 and count == 1 else f"{base}Lsb +: {base}W"
                funcs.append(f"  function automatic {ret} {fn}(input logic [{layout_bits_name}-1:0] w);\n"
                             f"    {fn} = w[{idx}];\n"
                             f"  endfunction")
            rows.append((spans, fname, names, doc))
        return consts, funcs, rows

    def register_address(self, name, offset, count, stride, addr_bits, where):
        if offset % ALIGN:
            raise DescriptionError(f"{self.name}: {where}: offset {offset:#x} is not a multiple of {ALIGN}")
        end = offset + (count - 1) * stride + ALIGN
        if end > (1 << addr_bits):
            raise DescriptionError(f"{self.name}: {where}: ends at {end:#x}, beyond the {addr_bits}-bit address space")
        for lo, hi, other in self.registers:
            if offset < hi and lo < end:
                raise DescriptionError(f"{self.name}: {where}: addresses {offset:#x}..{end - 1:#x} overlap {other}")
        self.registers.append((offset, end, name))

    # --- item kinds
    def item_constants(self, item):
        title = need(item, "title", self.name)
        consts = []
        for c in need(item, "constants", title):
            name = need(c, "name", title)
            bits = c.get("bits")
            bits = None if bits is None else self.scope.eval(bits, f"{self.name}: {title}: {name}")
            consts.append(self.const(name, need(c, "value", f"{title}: {name}"), f"{title}: {name}",
                                     bits=bits, kind="logic" if bits else "int", doc=c.get("doc", "")))
        self.run_checks(item, title)
        self.sections.append((title, _lines(item.get("doc")), consts, []))

    def item_enum(self, item):
        title = need(item, "title", self.name)
        bits = self.scope.eval(need(item, "bits", title), f"{self.name}: {title}")
        consts, seen = [], {}
        for v in need(item, "values", title):
            name = need(v, "name", title)
            c = self.const(name, need(v, "value", f"{title}: {name}"), f"{title}: {name}", bits=bits,
                           kind="logic", doc=v.get("doc", ""))
            if c.value in seen:
                raise DescriptionError(f"{self.name}: {title}: {name} and {seen[c.value]} are both {c.value}")
            seen[c.value] = name
            consts.append(c)
        self.sections.append((title, _lines(item.get("doc")), consts, []))
        has_identity = any("identity" in v for v in item["values"])
        head = "| code | name | meaning |" + (" identity |" if has_identity else "")
        rule = "|---|---|---|" + ("---|" if has_identity else "")
        rows = [head, rule]
        for v, c in zip(item["values"], consts):
            row = f"| {c.value} | `{c.name}` | {v.get('doc', '')} |"
            if has_identity:
                row += f" {v.get('identity', '—')} |"
            rows.append(row)
        for code in range(1 << bits):
            if code not in seen:
                rows.append(f"| {code} | — | reserved |" + (" — |" if has_identity else ""))
        self.tables[f"{self.name}.{need(item, 'id', title)}"] = "\n".join(rows)

    def item_layout(self, item):
        title = need(item, "title", self.name)
        prefix = need(item, "prefix", title)
        bits_text = need(item, "bits", title)
        total = self.const(prefix + "Bits", bits_text, title, doc=f"the {title}'s width")
        consts, funcs, rows = self.fields_of(prefix, need(item, "fields", title), total.value, title,
                                             getters=True, layout_bits_name=prefix + "Bits")
        self.run_checks(item, title)
        self.sections.append((title, _lines(item.get("doc")) + _field_comment(rows), [total] + consts, funcs))
        self.tables[f"{self.name}.{need(item, 'id', title)}"] = _field_table(rows)
        self.layouts[item["id"]] = title

    def item_registers(self, item):
        title = need(item, "title", self.name)
        addr_bits = self.scope.eval(item.get("addr_bits", 12), f"{self.name}: {title}")
        consts, field_sections, rows = [], [], []
        for r in need(item, "registers", title):
            name = need(r, "name", title)
            where = f"{title}: {name}"
            offset = self.scope.eval(need(r, "offset", where), f"{self.name}: {where}")
            count = self.scope.eval(r.get("count", 1), f"{self.name}: {where}")
            stride = self.scope.eval(r.get("stride", ALIGN), f"{self.name}: {where}")
            self.register_address(name, offset, count, stride, addr_bits, where)
            access = need(r, "access", where)
            c = self.const(name, f"0x{offset:03x}", where, bits=addr_bits, kind="addr",
                           doc=f"{access:<3} {r.get('doc', '')}")
            consts.append(c)
            index = r.get("index", "k")
            addr = f"0x{offset:03x}" if count == 1 else f"0x{offset:03x} + {stride}·{index}"
            meaning = r.get("doc", "")
            if count > 1:
                consts.append(self.const(name + "Stride", stride, where, doc=f"{name} + {index} * this"))
                meaning += f" ({index} = 0..{count - 1})"
            if "layout" in r:
                lt = self.layouts.get(r["layout"])
                if lt is None:
                    raise DescriptionError(f"{self.name}: {where}: unknown layout {r['layout']!r}")
                meaning += f"; fields: the {lt} layout"
            reset = r.get("reset")
            if reset is None:
                reset_text = "—"
            elif Scope.is_literal(reset):
                reset_text = f"0x{self.scope.eval(reset, where):x}"
            else:  # a constant's name
                reset_text = f"`{reset}`"
            rows.append(f"| {addr} | `{name}` | {access} | {reset_text} | {meaning} |")
            word = VECTOR_BITS if "vector" in access else REG_BITS
            if "fields" in r:
                fc, _, frows = self.fields_of(need(r, "prefix", where), r["fields"], word, where)
                field_sections.append((f"{name} fields", fc))
                self.tables[f"{self.name}.{name}"] = _field_table(frows)
            if "flags" in r:
                fc, frows = [], []
                bits_seen = {}
                prefix = need(r, "prefix", where)
                for fl in r["flags"]:
                    fname = need(fl, "name", where)
                    fwhere = f"{where}, flag {fname}"
                    b = self.scope.eval(need(fl, "bit", fwhere), f"{self.name}: {fwhere}")
                    if b >= word:
                        raise DescriptionError(f"{self.name}: {fwhere}: bit {b} is outside the {word}-bit register")
                    if b in bits_seen:
                        raise DescriptionError(f"{self.name}: {fwhere}: bit {b} is also {bits_seen[b]}")
                    bits_seen[b] = fname
                    fc.append(self.const(prefix + fname, fl["bit"], fwhere, doc=fl.get("doc", "")))
                    frows.append(f"| {b} | `{prefix}{fname}` | {fl.get('doc', '')} |")
                if "count_name" in r:
                    fc.append(self.const(r["count_name"], max(bits_seen) + 1, where, doc=f"bits of {name}"))
                field_sections.append((f"{name} bits", fc))
                self.tables[f"{self.name}.{name}"] = "| bit | name | meaning |\n|---|---|---|\n" + "\n".join(frows)
        for w in item.get("windows", []):
            name = need(w, "name", title)
            where = f"{title}: {name}"
            offset = self.scope.eval(need(w, "offset", where), f"{self.name}: {where}")
            consts.append(self.const(name, f"0x{offset:03x}", where, bits=addr_bits, kind="addr", doc=w.get("doc", "")))
            rows.append(f"| 0x{offset:03x} + the above | `{name}` | privileged window | — | {w.get('doc', '')} |")
        self.run_checks(item, title)
        self.sections.append((title, _lines(item.get("doc")), consts, []))
        for t, fc in field_sections:
            self.sections.append((t, [], fc, []))
        self.tables[f"{self.name}.{need(item, 'id', title)}"] = (
            "| address | name | access | reset | meaning |\n|---|---|---|---|---|\n" + "\n".join(rows))


def _lines(doc):
    return [] if not doc else _wrap(doc, 88)


def _wrap(text, width):
    out, line = [], ""
    for word in text.split():
        if line and len(line) + 1 + len(word) > width:
            out.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    if line:
        out.append(line)
    return out


def _bits(spans):
    return ", ".join(f"{hi}:{lo}" if hi != lo else f"{hi}" for hi, lo in spans)


def _field_comment(rows):
    return [f"[{_bits(spans)}] {name}" for spans, name, _, _ in rows]


def _field_table(rows):
    out = ["| bits | field | constants | meaning |", "|---|---|---|---|"]
    for spans, name, names, doc in sorted(rows, key=lambda r: -r[0][0][0]):
        out.append(f"| {_bits(spans)} | {name} | {', '.join(f'`{n}`' for n in names) or '—'} | {doc} |")
    return "\n".join(out)


# ------------------------------------------------------------------ emitters

SV_HEADER = """// SPDX-License-Identifier: Apache-2.0
// {name}: {title}.
// GENERATED by {gen} from {desc}{fn_note}. Do not edit:
// change the description (or the functions file) and run `make regmap`.
`default_nettype none

// Portability (Verilator, Icarus Verilog 11, Yosys 0.23): modules refer to these items as
// {name}::Name because Yosys cannot import packages, integer constants are "int" because
// Icarus cannot parse "int unsigned", functions assign their name instead of "return"
// (Yosys), and are called from continuous assignments, not always_comb (Icarus loops
// forever when several always_comb processes call the same function).
// A package's constants are not all used by every module that refers to it.
/* verilator lint_off UNUSEDPARAM */
package {name};
"""


def sv_literal(c):
    if c.kind == "int":
        return None
    return f"{c.bits}'h{c.value:0{(c.bits + 3) // 4}x}" if c.kind == "addr" or c.bits > 8 else f"{c.bits}'d{c.value}"


def emit_sv(pkg, root):
    fn_text = ""
    if pkg.functions:
        p = root / pkg.functions
        if not p.is_file():
            raise DescriptionError(f"{pkg.name}: functions file {pkg.functions} does not exist")
        fn_text = p.read_text()
    out = [SV_HEADER.format(name=pkg.name, title=pkg.title, gen=GENERATOR, desc=DESCRIPTION,
                            fn_note=f" and {pkg.functions}" if pkg.functions else "")]
    for title, doc, consts, funcs in pkg.sections:
        out.append(f"  // ---------------------------------------------------------------- {title}")
        out += [f"  // {line}" for line in doc]
        width = max(len(c.name) for c in consts) if consts else 0
        for c in consts:
            name = f"{c.name:<{width}}"
            if c.kind == "int":
                decl = f"  localparam int {name} = {pkg.scope.sv(c.text)};"
            else:
                decl = f"  localparam logic [{c.bits - 1}:0] {name} = {sv_literal(c)};"
            if c.doc and len(decl) + len(c.doc) + 5 > SV_LINE:
                out += [f"  // {line}" for line in _wrap(c.doc, SV_LINE - 5)]
                out.append(decl)
            else:
                out.append(decl + (f"  // {c.doc}" if c.doc else ""))
        if funcs:
            out.append("  // Field getters: each reads only its field of the word it is given.")
            out.append("  /* verilator lint_off UNUSEDSIGNAL */")
            out += funcs
            out.append("  /* verilator lint_on UNUSEDSIGNAL */")
        out.append("")
    if fn_text:
        out.append(f"  // ---------------------------------------------------------------- from {pkg.functions}")
        out.append(fn_text.rstrip("\n"))
        out.append("")
    out.append(f"endpackage : {pkg.name}")
    out.append("/* verilator lint_on UNUSEDPARAM */")
    out.append("")
    out.append("`default_nettype wire")
    return "\n".join(out) + "\n"


def emit_cpp(pkgs, cpp):
    ns = cpp["namespace"]
    out = [
        "// SPDX-License-Identifier: Apache-2.0",
        "// The node's register map as software sees it: the combining network's registers, packet",
        "// header and class-route encoding, the barrier network's, and the torus packet header.",
        f"// GENERATED by {GENERATOR} from {DESCRIPTION}, like the SystemVerilog packages",
        "// (" + ", ".join(p.path for p in pkgs) + "). Do not edit: change the",
        "// description and run `make regmap`.",
        "#pragma once",
        "",
        "#include <cstdint>",
        "",
        f"namespace {ns} {{",
        "",
        "// The bits [lsb, lsb + width) of a word, and a word with them replaced.",
        "inline constexpr uint64_t field_mask(unsigned width) { return width >= 64 ? ~0ULL : (1ULL << width) - 1; }",
        "inline constexpr uint64_t get_field(uint64_t word, unsigned lsb, unsigned width) {",
        "  return (word >> lsb) & field_mask(width);",
        "}",
        "inline constexpr uint64_t set_field(uint64_t word, unsigned lsb, unsigned width, uint64_t value) {",
        "  return (word & ~(field_mask(width) << lsb)) | ((value & field_mask(width)) << lsb);",
        "}",
        "",
    ]
    for p in pkgs:
        for title, _, consts, _ in p.sections:
            out.append(f"// ------------------------------------------------------------------ {p.name}: {title}")
            for c in consts:
                if c.kind == "addr":
                    ty, val = "uint32_t", f"0x{c.value:03x}"
                elif c.kind == "logic" and c.bits > 32:
                    ty, val = "uint64_t", f"0x{c.value:016x}ULL"
                else:
                    ty, val = "unsigned", p.scope.cpp(c.text)
                line = f"inline constexpr {ty} k{c.name} = {val};"
                out.append(line + (f"  // {c.doc}" if c.doc else ""))
                if c.name.endswith("Stride") and c.name[:-6] in p.scope.values and c.name.startswith("Reg"):
                    base = c.name[:-6]
                    out.append(f"inline constexpr uint32_t {snake(base)}(unsigned i) {{ return k{base} + k{c.name} * i; }}")
        for expr, why in p.checks:
            out.append(f"static_assert({p.scope.cpp(expr)}, \"{why}\");")
        out.append("")
    out.append(f"}}  // namespace {ns}")
    return "\n".join(out) + "\n"


MARK = re.compile(r"(<!-- regmap: ([\w.]+) -->\n)(.*?)(<!-- /regmap -->)", re.S)


def fill_doc(text, tables, path):
    def sub(m):
        name = m.group(2)
        if name not in tables:
            raise DescriptionError(f"{path}: marker names table {name!r}, which the description has not "
                                   f"(known: {', '.join(sorted(tables))})")
        return f"{m.group(1)}{tables[name]}\n{m.group(4)}"
    return MARK.sub(sub, text)


# ------------------------------------------------------------------ main

def generate(root):
    """{relative path: text} for every generated file."""
    desc_path = root / DESCRIPTION
    try:
        desc = json.loads(desc_path.read_text())
    except json.JSONDecodeError as e:
        raise DescriptionError(f"{DESCRIPTION}: not valid JSON: {e}") from None
    outer, pkgs, files, tables = {}, [], {}, {}
    for d in need(desc, "packages", DESCRIPTION):
        p = Package(d, dict(outer))
        outer.update(p.scope.values)
        pkgs.append(p)
        tables.update(p.tables)
        files[p.path] = emit_sv(p, root)
    cpp = need(desc, "cpp", DESCRIPTION)
    files[cpp["path"]] = emit_cpp(pkgs, cpp)
    for doc in sorted(root.glob(DOC_GLOB)):
        text = doc.read_text()
        if MARK.search(text):
            files[str(doc.relative_to(root))] = fill_doc(text, tables, doc.relative_to(root))
    return files


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--check", action="store_true", help="write nothing; exit 1 if a generated file is stale")
    ap.add_argument("--root", type=pathlib.Path, default=pathlib.Path(__file__).resolve().parent.parent)
    args = ap.parse_args(argv)
    try:
        files = generate(args.root)
    except DescriptionError as e:
        print(f"regmap: {e}", file=sys.stderr)
        return 2
    stale = []
    for rel, text in files.items():
        path = args.root / rel
        if not path.is_file() or path.read_text() != text:
            stale.append(rel)
            if not args.check:
                path.write_text(text)
    if args.check:
        if stale:
            print("regmap: these generated files differ from " + DESCRIPTION + ": " + ", ".join(stale), file=sys.stderr)
            print("regmap: run `make regmap` and commit the result (generated files are never edited by hand)",
                  file=sys.stderr)
            return 1
        print(f"regmap: {len(files)} generated files are current")
    elif stale:
        print("regmap: wrote " + ", ".join(stale))
    return 0


if __name__ == "__main__":
    sys.exit(main())
