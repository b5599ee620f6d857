#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The register-map generator: regmap/collnet.json -> the SystemVerilog packages, the C++
header firmware/regmap.hpp, the register table firmware/regmap_table.hpp, the catalogue of
the node's sizes firmware/rtl_sizes.hpp and the tables in docs/ (between
<!-- regmap: NAME --> and <!-- /regmap --> markers).

The description is the one source of truth for registers, fields and packet layouts; every
generated file says so in its first lines and is never edited by hand.

  regmap_gen.py            write every generated file that differs from what it should be
  regmap_gen.py --check    write nothing; list the stale files and exit 1 if there are any
  --root DIR               the source tree to read and write (default: this file's parent's parent)

Before writing anything the generator checks the description: every value resolves, every
field lies inside its word and overlaps no other, no two registers share an address,
registers are 8-byte aligned and inside the address space, flag bits are distinct, and
each package's "checks" hold; every address window is a power of two in size, aligned to
it, inside what it lies in (the bus or its parent window) and clear of its siblings;
every register lies inside its window, and a register array decodes by address bits. Each
size of the catalogue has its default within its limits, and that default is the one its
top module declares. An error names the package, item and entry (or window)
at fault.
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
ALIGN_BITS = 3         # log2(ALIGN)
SV_LINE = 100          # generated SystemVerilog lines wrap their comments at this width


class DescriptionError(Exception):
    pass


# The catalogue's defaults ("sizes"), read before the packages: a register whose reset is
# "sizes" holds them, each in the field that names it ("size"); SIZE_FIELDS records where.
SIZE_DEFAULTS = {}
SIZE_FIELDS = {}  # size key -> (register name, lsb, width)


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

    def __init__(self, pkg, outer=None, owners=None):
        self.pkg = pkg
        self.values = {}
        self.exprs = {}     # name -> expression text as written (a number or an expression)
        self.outer = outer or {}
        self.owners = owners or {}  # an outer name -> the package that defines it

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
        """The value as SystemVerilog: literals as numbers, expressions as written, and an
        expression naming a constant of an earlier package as its value (Yosys cannot read
        one package's constant inside another)."""
        if self.is_literal(v):
            return str(int(str(v).replace("_", ""), 0))
        if any(name and name not in self.values and name in self.owners for _, name, _ in tokens(v)):
            return str(self.eval(v, f"{self.pkg}: {v}"))
        return str(v)

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


GETTERS_NOTE = "Field getters: each reads only its field of the word it is given."


class Section:
    """A titled group of constants, and the functions that go with them in each language."""

    def __init__(self, title, doc=(), consts=(), sv_funcs=(), cpp_funcs=(), funcs_note=GETTERS_NOTE):
        self.title, self.doc, self.consts = title, list(doc), list(consts)
        self.sv_funcs, self.cpp_funcs, self.funcs_note = list(sv_funcs), list(cpp_funcs), funcs_note


class Window:
    """An address window of the register bus: [base, base + size), size a power of two."""

    def __init__(self, name, base, size, doc):
        self.name, self.base, self.size, self.doc = name, base, size, doc
        self.bits = size.bit_length() - 1
        self.end = base + size

    def span(self):
        return f"0x{self.base:03x}–0x{self.end - 1:03x}"


# Access kinds: how software may reach a register (docs/register-map.md explains them).
ACCESS = ("RW", "RO", "WO", "W1C")


class Row:
    """One register of the register table (firmware/regmap_table.hpp): an element of an array
    or a mirror in a window is a row of its own."""

    def __init__(self, reg, name, addr_text, access, pops, vector, reset_text, priv_read, priv_write, errors,
                 clears_text):
        self.reg, self.name, self.addr_text, self.access = reg, name, addr_text, access
        self.pops, self.vector, self.reset_text = pops, vector, reset_text
        self.priv_read, self.priv_write, self.errors, self.clears_text = priv_read, priv_write, errors, clears_text


class Package:
    def __init__(self, desc, outer, windows, registers, owners=None):
        self.name = need(desc, "name", "a package")
        self.path = need(desc, "path", self.name)
        self.title = need(desc, "title", self.name)
        self.functions = desc.get("functions")
        self.scope = Scope(self.name, outer, owners)
        self.windows = windows      # window name -> Window, shared by every package
        self.all_registers = registers  # register name -> address, shared by every package
        self.sections = []   # [Section]
        self.tables = {}     # docs table name -> markdown
        self.checks = []     # (expr, why) for C++ static_assert
        self.registers = []  # (offset, end, name) for overlap checks
        self.layouts = {}    # layout id -> title, for registers that name their layout
        self.rows = []       # [Row] of the register table
        self.later = []      # (constant name, where): reset values named before their constant
        self.refusals = {}   # errors (register, bad-access bit, privilege bit) -> the registers that set them
        for item in need(desc, "items", self.name):
            kind = need(item, "kind", self.name)
            handler = getattr(self, "item_" + kind, None)
            if handler is None:
                raise DescriptionError(f"{self.name}: unknown item kind {kind!r}")
            handler(item)
        for name, where in self.later:
            if name not in self.scope.values and name not in self.scope.outer:
                raise DescriptionError(f"{self.name}: {where}: reset names {name}, which is not defined")

    @property
    def prefix(self):
        """The package's short name in C++ table names: cn_pkg -> Cn."""
        return self.name.split("_")[0].capitalize()

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
        """Checks a register (or an array of count elements, stride bytes each) and returns its end."""
        if offset % ALIGN:
            raise DescriptionError(f"{self.name}: {where}: offset {offset:#x} is not a multiple of {ALIGN}")
        end = offset + count * stride
        if end > (1 << addr_bits):
            raise DescriptionError(f"{self.name}: {where}: ends at {end:#x}, beyond the {addr_bits}-bit address space")
        for lo, hi, other in self.registers:
            if offset < hi and lo < end:
                raise DescriptionError(f"{self.name}: {where}: addresses {offset:#x}..{end - 1:#x} overlap {other}")
        self.registers.append((offset, end, name))
        return end

    def window(self, name, where):
        if name not in self.windows:
            raise DescriptionError(f"{self.name}: {where}: names window {name!r}, which the description has not "
                                   f"(known: {', '.join(self.windows) or 'none'})")
        return self.windows[name]

    def inside(self, win, offset, end, where):
        if offset < win.base or end > win.end:
            raise DescriptionError(f"{self.name}: {where}: addresses {offset:#x}..{end - 1:#x} lie outside "
                                   f"window {win.name} ({win.span()})")

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
        self.sections.append(Section(title, _lines(item.get("doc")), consts))

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
        self.sections.append(Section(title, _lines(item.get("doc")), consts))
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
        self.sections.append(Section(title, _lines(item.get("doc")) + _field_comment(rows), [total] + consts, funcs))
        self.tables[f"{self.name}.{need(item, 'id', title)}"] = _field_table(rows)
        self.layouts[item["id"]] = title

    def item_windows(self, item):
        """The register bus's address windows, nested: a decode function and constants for each."""
        title = need(item, "title", self.name)
        bits_text = need(item, "bits", title)
        if not (Scope.is_literal(bits_text) or bits_text in self.scope.values):
            raise DescriptionError(f"{self.name}: {title}: \"bits\" must be a number or a constant of {self.name} "
                                   f"(the decode functions name it), not {bits_text!r}")
        bits = self.scope.eval(bits_text, f"{self.name}: {title}")
        consts, sv_funcs, cpp_funcs, rows = [], [], [], []

        def place(entries, parent):
            placed = []
            for w in entries:
                name = need(w, "name", title)
                where = f"{title}: window {name}"
                base = self.scope.eval(need(w, "base", where), f"{self.name}: {where}")
                size = self.scope.eval(need(w, "size", where), f"{self.name}: {where}")
                if size < ALIGN or size & (size - 1):
                    raise DescriptionError(f"{self.name}: {where}: size {size:#x} is not a power of two of at "
                                           f"least {ALIGN} bytes, so no compare of address bits decodes it")
                if base % size:
                    raise DescriptionError(f"{self.name}: {where}: base {base:#x} is not aligned to its size "
                                           f"{size:#x}, so no compare of address bits decodes it")
                lo, hi = (0, 1 << bits) if parent is None else (parent.base, parent.end)
                outer = f"the bus's {bits}-bit address space" if parent is None else f"window {parent.name}"
                if base < lo or base + size > hi:
                    raise DescriptionError(f"{self.name}: {where}: {base:#x}..{base + size - 1:#x} lies outside "
                                           f"{outer} ({lo:#x}..{hi - 1:#x})")
                if size == hi - lo:
                    raise DescriptionError(f"{self.name}: {where}: fills {outer}: a window is smaller than what it "
                                           f"lies in")
                for other in placed:
                    if base < other.end and other.base < base + size:
                        raise DescriptionError(f"{self.name}: {where}: {base:#x}..{base + size - 1:#x} overlaps "
                                               f"window {other.name} ({other.span()})")
                if name in self.windows:
                    raise DescriptionError(f"{self.name}: {where}: window {name} is defined twice")
                win = Window(name, base, size, w.get("doc", ""))
                self.windows[name] = win
                placed.append(win)
                prefix = f"Win{name}"
                fn = f"in_win_{snake(name)}"
                consts.append(self.const(prefix + "Base", f"0x{base:03x}", where, bits=bits, kind="addr",
                                         doc=win.doc))
                consts.append(self.const(prefix + "Size", f"0x{size:x}", where))
                consts.append(self.const(prefix + "Bits", str(win.bits), where))
                top = f"{self.scope.sv(bits_text)}-1"
                sv_funcs.append(f"  function automatic logic {fn}(input logic [{top}:0] a);\n"
                                f"    {fn} = (a[{top}:{prefix}Bits] == {prefix}Base[{top}:{prefix}Bits]);\n"
                                f"  endfunction")
                cpp_funcs.append(f"inline constexpr bool {fn}(uint32_t addr) {{\n"
                                 f"  return (addr & field_mask({self.scope.cpp(bits_text)})) >> k{prefix}Bits == "
                                 f"k{prefix}Base >> k{prefix}Bits;\n"
                                 f"}}")
                inside = "the bus" if parent is None else f"`Win{parent.name}`"
                rows.append(f"| {win.span()} | `{prefix}` | {inside} | `{fn}` | {win.doc} |")
                place(w.get("windows", []), win)

        place(need(item, "windows", title), None)
        self.run_checks(item, title)
        doc = (item.get("doc", "") + " Per window W: WinWBase, WinWSize (bytes) and WinWBits (log2 of the size: "
               "the offset in the window is the address's bits below it).")
        self.sections.append(Section(title, _lines(doc), consts, sv_funcs, cpp_funcs,
                                     funcs_note="Decodes: whether a bus address lies in the window (each "
                                                "compares only the bits above the window's size)."))
        self.tables[f"{self.name}.{need(item, 'id', title)}"] = (
            "| addresses | window | inside | decode | what answers there |\n|---|---|---|---|---|\n" + "\n".join(rows))

    def array_decoders(self, name, offset, count, count_text, stride, addr_bits, addr_bits_text, where):
        """SV and C++ decode functions of a register array: whether an address names an element
        (8-byte aligned, the element's index below count), and which."""
        if stride < ALIGN or stride & (stride - 1):
            raise DescriptionError(f"{self.name}: {where}: stride {stride:#x} is not a power of two of at least "
                                   f"{ALIGN} bytes, so no address bits name an element")
        idx_lo = stride.bit_length() - 1
        idx_w = max(1, (count - 1).bit_length())
        hi_lsb = idx_lo + idx_w
        if offset % (1 << hi_lsb):
            raise DescriptionError(f"{self.name}: {where}: offset {offset:#x} is not aligned to the array's span "
                                   f"({1 << hi_lsb:#x} bytes: {1 << idx_w} elements of {stride:#x}), so no compare "
                                   f"of address bits decodes it")
        top = addr_bits - 1
        fn_in, fn_idx = f"in_{snake(name)}", f"{snake(name)}_index"
        full = count == (1 << idx_w)
        sv_in = f"(a[{top}:{hi_lsb}] == {name}[{top}:{hi_lsb}]) && (a[{ALIGN_BITS - 1}:0] == {ALIGN_BITS}'d0)"
        cpp_in = f"(addr & field_mask({self.scope.cpp(addr_bits_text)})) >> {hi_lsb} == k{name} >> {hi_lsb} && addr % {ALIGN} == 0"
        if not full:
            sv_in += f" &&\n        (32'(a[{hi_lsb - 1}:{idx_lo}]) < {self.scope.sv(count_text)})"
            cpp_in += f" &&\n         {fn_idx}(addr) < {self.scope.cpp(count_text)}"
        ret = "logic" if idx_w == 1 else f"logic [{idx_w - 1}:0]"
        sv = [f"  function automatic {ret} {fn_idx}(input logic [{top}:0] a);\n"
              f"    {fn_idx} = a[{hi_lsb - 1}:{idx_lo}];\n"
              f"  endfunction",
              f"  function automatic logic {fn_in}(input logic [{top}:0] a);\n"
              f"    {fn_in} = {sv_in};\n"
              f"  endfunction"]
        cpp = [f"inline constexpr unsigned {fn_idx}(uint32_t addr) {{ return (addr >> {idx_lo}) & "
               f"{(1 << idx_w) - 1:#x}u; }}",
               f"inline constexpr bool {fn_in}(uint32_t addr) {{\n  return {cpp_in};\n}}"]
        return sv, cpp

    def access_of(self, r, where):
        access = need(r, "access", where)
        if access not in ACCESS:
            raise DescriptionError(f"{self.name}: {where}: access {access!r} is none of {', '.join(ACCESS)}")
        if r.get("pops") and access != "RO":
            raise DescriptionError(f"{self.name}: {where}: only a read-only register pops")
        if ("clears" in r) != (access == "W1C"):
            raise DescriptionError(f"{self.name}: {where}: a W1C register, and only one, names the register it "
                                   f"clears (\"clears\")")
        return access

    @staticmethod
    def access_text(access, vector, pops):
        return access + (" (vector)" if vector else "") + (", pops" if pops else "")

    def errors_of(self, spec, where):
        """(register, bad-access bit, privilege bit) a refused access sets, as names (or None)."""
        reg = need(spec, "register", f"{where}: errors")
        if reg not in self.all_registers:
            raise DescriptionError(f"{self.name}: {where}: errors: {reg} is not a register defined before")
        out = [reg]
        for key in ("bad_access", "privilege"):
            bit = spec.get(key)
            if bit is not None:
                self.scope.eval(bit, f"{self.name}: {where}: errors: {key}")
            out.append(bit)
        return tuple(out)

    def reset_of(self, r, fields, where):
        """(text for the docs, text for C++) of a register's reset value, or (None, None)."""
        reset = r.get("reset")
        if reset is None:
            return None, None
        if reset == "sizes":  # the node's sizes as built: the catalogue's defaults in the default build
            value, parts = 0, []
            for f in fields:
                key = f.get("size")
                if key is None:
                    continue
                if key not in SIZE_DEFAULTS or key in SIZE_FIELDS:
                    raise DescriptionError(f"{self.name}: {where}: field {f['name']} names size {key!r}, which the "
                                           f"catalogue has not, or another field holds too")
                lsb, width = self.scope.eval(f["lsb"], where), self.scope.eval(f["width"], where)
                if SIZE_DEFAULTS[key] >= 1 << width:
                    raise DescriptionError(f"{self.name}: {where}: {key}'s default does not fit field {f['name']}")
                value |= SIZE_DEFAULTS[key] << lsb
                SIZE_FIELDS[key] = (r["name"], lsb, width)
                parts.append(f"{f['name']} = {SIZE_DEFAULTS[key]}")
            return "the sizes as built; by default " + ", ".join(parts), f"0x{value:x}ULL"
        if isinstance(reset, dict):  # a value per field (every instance of a repeated one)
            value, parts = 0, []
            for fname, v in reset.items():
                f = next((f for f in fields if f["name"] == fname), None)
                if f is None:
                    raise DescriptionError(f"{self.name}: {where}: reset names field {fname!r}, which it has not")
                ev = lambda x: self.scope.eval(x, f"{self.name}: {where}: reset")  # noqa: E731
                lsb, width, count = ev(f["lsb"]), ev(f["width"]), ev(f.get("count", 1))
                stride, val = ev(f.get("stride", f["width"])), ev(v)
                if val >= 1 << width:
                    raise DescriptionError(f"{self.name}: {where}: reset {fname} = {val} does not fit in {width} bits")
                for k in range(count):
                    value |= val << (lsb + k * stride)
                parts.append(f"{fname} = `{v}`" + (" each" if count > 1 else ""))
            return ", ".join(parts), f"0x{value:x}ULL"
        if Scope.is_literal(reset):
            value = self.scope.eval(reset, f"{self.name}: {where}: reset")
            return f"0x{value:x}", f"0x{value:x}ULL"
        if not isinstance(reset, str) or not re.fullmatch(r"[A-Za-z_]\w*", reset):
            raise DescriptionError(f"{self.name}: {where}: reset {reset!r} is none of a number, a constant's name "
                                   f"and a value per field")
        self.later.append((reset, where))  # a constant of this package, defined before or after
        return f"`{reset}`", f"k{reset}"

    def item_registers(self, item):
        title = need(item, "title", self.name)
        addr_bits_text = item.get("addr_bits", "BusAddrBits")
        addr_bits = self.scope.eval(addr_bits_text, f"{self.name}: {title}")
        consts, field_sections, rows, sv_funcs, cpp_funcs = [], [], [], [], []
        item_window = item.get("window")
        item_errors = item.get("errors")
        pending = []  # (Row fields..., errors spec, where): errors resolve once every register is defined
        arrays = []   # register arrays, decoded once every register is placed (overlaps are refused first)
        defined = {}  # register name -> (its description, its access), for the mirrors
        for r in need(item, "registers", title):
            name = need(r, "name", title)
            where = f"{title}: {name}"
            offset = self.scope.eval(need(r, "offset", where), f"{self.name}: {where}")
            count_text = r.get("count", 1)
            count = self.scope.eval(count_text, f"{self.name}: {where}")
            stride = self.scope.eval(r.get("stride", ALIGN), f"{self.name}: {where}")
            end = self.register_address(name, offset, count, stride, addr_bits, where)
            win_name = r.get("window", item_window)
            if win_name is None:
                raise DescriptionError(f"{self.name}: {where}: names no window (\"window\", of the register or "
                                       f"its item)")
            self.inside(self.window(win_name, where), offset, end, where)
            access = self.access_of(r, where)
            vector, pops = bool(r.get("vector")), bool(r.get("pops"))
            access_text = self.access_text(access, vector, pops)
            c = self.const(name, f"0x{offset:03x}", where, bits=addr_bits, kind="addr",
                           doc=f"{access_text:<3} {r.get('doc', '')}")
            consts.append(c)
            self.all_registers[name] = offset
            index = r.get("index", "k")
            addr = f"0x{offset:03x}" if count == 1 else f"0x{offset:03x} + {stride}·{index}"
            meaning = r.get("doc", "")
            priv_from = r.get("priv_write_from")
            priv_from_value = None if priv_from is None else self.scope.eval(priv_from, f"{self.name}: {where}")
            if priv_from is not None and count == 1:
                raise DescriptionError(f"{self.name}: {where}: priv_write_from needs an array")
            if count > 1:
                consts.append(self.const(name + "Stride", stride, where, doc=f"{name} + {index} * this"))
                meaning += f" ({index} = 0..{count - 1})"
                arrays.append((name, offset, count, count_text, stride, where))
            if priv_from is not None:
                access_text += f"; writes to {index} ≥ {priv_from_value} privileged"
            if "layout" in r:
                lt = self.layouts.get(r["layout"])
                if lt is None:
                    raise DescriptionError(f"{self.name}: {where}: unknown layout {r['layout']!r}")
                meaning += f"; fields: the {lt} layout"
            word = VECTOR_BITS if vector else REG_BITS
            if "fields" in r:
                fc, _, frows = self.fields_of(need(r, "prefix", where), r["fields"], word, where)
                field_sections.append((f"{name} fields", fc))
                self.tables[f"{self.name}.{name}"] = _field_table(frows)
            reset_doc, reset_cpp = self.reset_of(r, r.get("fields", []), where)
            rows.append(f"| {addr} | `{name}` | {access_text} | {reset_doc or '—'} | {meaning} |")
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
            errors = r.get("errors", item_errors)
            if errors is None:
                raise DescriptionError(f"{self.name}: {where}: names no error register (\"errors\", of the register "
                                       f"or its item)")
            defined[name] = (r, access)
            for i in range(count):
                row_name = name if count == 1 else f"{name}[{i}]"
                addr_text = f"k{name}" if count == 1 else f"{snake(name)}({i})"
                priv_write = priv_from_value is not None and i >= priv_from_value
                pending.append((Row(name, row_name, addr_text, access, pops, vector, reset_cpp,
                                    False, priv_write, None, r.get("clears")), errors, where))
        for m in item.get("mirrors", []):
            name = need(m, "name", title)
            where = f"{title}: {name}"
            win = self.window(need(m, "window", where), where)
            errors = m.get("errors", item_errors)
            if errors is None:
                raise DescriptionError(f"{self.name}: {where}: names no error register")
            names = need(m, "registers", where)
            for reg in names:
                if reg not in defined or defined[reg][0].get("count", 1) != 1:
                    raise DescriptionError(f"{self.name}: {where}: mirrors {reg!r}, which is no single register of "
                                           f"{title}")
                r, access = defined[reg]
                a = self.all_registers[reg] + win.base
                self.inside(win, a, a + ALIGN, f"{where}: {reg}")
                for lo, hi, other in self.registers:
                    if lo <= a < hi:
                        raise DescriptionError(f"{self.name}: {where}: {reg} at {a:#x} overlaps {other}")
                pending.append((Row(name, f"{name} + {reg}", f"k{name} + k{reg}", access, bool(r.get("pops")),
                                    bool(r.get("vector")), None, True, True, None, r.get("clears")), errors, where))
            listed = ", ".join(names[:-1]) + " and " + names[-1] if len(names) > 1 else names[0]
            priv_bit = errors.get("privilege")
            doc = (f"{m.get('doc', '')}: {listed} at this offset plus theirs; privileged (an access without the "
                   f"privileged bit is refused" + (f" and sets {priv_bit})" if priv_bit else ")"))
            consts.append(self.const(name, f"0x{win.base:03x}", where, bits=addr_bits, kind="addr", doc=doc))
            rows.append(f"| 0x{win.base:03x} + the above | `{name}` | privileged window | — | {doc} |")
        for name, offset, count, count_text, stride, where in arrays:
            sv, cpp = self.array_decoders(name, offset, count, count_text, stride, addr_bits, addr_bits_text, where)
            sv_funcs += sv
            cpp_funcs += cpp
        for row, errors, where in pending:
            row.errors = self.errors_of(errors, where)
            if row.clears_text is not None and row.clears_text not in self.all_registers:
                raise DescriptionError(f"{self.name}: {where}: clears {row.clears_text}, which is not a register")
            if (row.priv_read or row.priv_write) and row.errors[2] is None:
                raise DescriptionError(f"{self.name}: {where}: needs the privileged bit, but its errors name no "
                                       f"\"privilege\" bit")
            self.rows.append(row)
            group = self.refusals.setdefault(row.errors, [])
            if row.reg not in group:
                group.append(row.reg)
        self.run_checks(item, title)
        self.sections.append(Section(title, _lines(item.get("doc")), consts, sv_funcs, cpp_funcs,
                                     funcs_note="Decodes of the register arrays: whether an address names an "
                                                "element (8-byte aligned, below the count), and its index."))
        for t, fc in field_sections:
            self.sections.append(Section(t, [], fc))
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
    for sec in pkg.sections:
        out.append(f"  // ---------------------------------------------------------------- {sec.title}")
        out += [f"  // {line}" for line in sec.doc]
        width = max(len(c.name) for c in sec.consts) if sec.consts else 0
        for c in sec.consts:
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
        if sec.sv_funcs:
            out += [f"  // {line}" for line in _wrap(sec.funcs_note, SV_LINE - 5)]
            out.append("  /* verilator lint_off UNUSEDSIGNAL */")
            out += sec.sv_funcs
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
        "// The node's register map as software sees it: the address windows of the register bus and",
        "// their decodes, the combining network's registers, packet header and class-route",
        "// encoding, the barrier network's, the torus's and the link layer's.",
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
        for sec in p.sections:
            out.append(f"// ------------------------------------------------------------------ {p.name}: {sec.title}")
            for c in sec.consts:
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
            if sec.cpp_funcs:
                out += [f"// {line}" for line in _wrap(sec.funcs_note, 88)]
                out += sec.cpp_funcs
        for expr, why in p.checks:
            out.append(f"static_assert({p.scope.cpp(expr)}, \"{why}\");")
        out.append("")
    out.append(f"}}  // namespace {ns}")
    return "\n".join(out) + "\n"


TABLE_HEAD = """// SPDX-License-Identifier: Apache-2.0
// Every register of the node as a table: its address, how software may access it, its value
// after reset, whether it needs the privileged bit, and the error bits a refused access sets.
// The register testbenches (tb/register_table_checks.hpp) and the node's register test
// iterate it. GENERATED by {gen} from {desc}, like {cpp}.
// Do not edit: change the description and run `make regmap`.
#pragma once

#include <cstdint>
#include <iterator>

#include "{cpp}"

namespace {ns} {{

// How software may reach a register (docs/register-map.md, "Access kinds").
enum class Access : uint8_t {{
  RW,   // read-write
  RO,   // read-only: a write changes nothing and sets the bad-access bit, where its block has one
  WO,   // write-only: a read returns zero and sets the bad-access bit, where its block has one
  W1C,  // write-only; each one written clears that bit of the register `clears` names
}};

inline constexpr int kNoBit = -1;  // a block that flags nothing for such an access

struct RegisterInfo {{
  const char* name;    // the register; an array's element i is "Name[i]", a mirror "Window + Name"
  uint32_t addr;       // its byte address on the node's register bus
  Access access;
  bool pops;           // a read pops a FIFO
  bool vector;         // a vector register: an access moves VectorWords words
  bool has_reset;      // whether `reset` is the value it reads after reset
  uint64_t reset;
  bool priv_read;      // a read needs the privileged bit
  bool priv_write;     // a write needs the privileged bit
  uint32_t err_reg;    // the register holding the two bits below
  int bad_access_bit;  // set by a write to a read-only or a read of a write-only register
  int priv_bit;        // set by an access refused for want of the privileged bit
  uint32_t clears;     // W1C: the register whose bits a write of ones clears (else 0)
}};
"""


def emit_table(pkgs, cpp):
    out = [TABLE_HEAD.format(gen=GENERATOR, desc=DESCRIPTION, cpp=cpp["path"], ns=cpp["namespace"])]
    tables = []
    for p in pkgs:
        if not p.rows:
            continue
        name = f"k{p.prefix}Registers"
        tables.append((p.name, name))
        out.append(f"// {p.name}: name, address, access, pops, vector, has reset, reset, privileged read and write,")
        out.append("// error register, bad-access bit, privilege bit, the register a W1C clears.")
        out.append(f"inline constexpr RegisterInfo {name}[] = {{")
        for r in p.rows:
            err_reg, bad, priv = r.errors
            fields = [f'"{r.name}"', r.addr_text, f"Access::{r.access}", _b(r.pops), _b(r.vector),
                      _b(r.reset_text is not None), r.reset_text or "0", _b(r.priv_read), _b(r.priv_write),
                      f"k{err_reg}", f"k{bad}" if bad else "kNoBit", f"k{priv}" if priv else "kNoBit",
                      f"k{r.clears_text}" if r.clears_text else "0"]
            out.append(f"    {{{', '.join(fields)}}},")
        out.append("};")
        out.append("")
    out.append("// Every package's table, for whatever checks the whole node.")
    out.append("struct RegisterTable {")
    out.append("  const char* package;")
    out.append("  const RegisterInfo* begin;")
    out.append("  const RegisterInfo* end;")
    out.append("};")
    out.append("inline constexpr RegisterTable kRegisterTables[] = {")
    for pkg, name in tables:
        out.append(f'    {{"{pkg}", std::begin({name}), std::end({name})}},')
    out.append("};")
    out.append("")
    out.append(f"}}  // namespace {cpp['namespace']}")
    return "\n".join(out) + "\n"


def _b(v):
    return "true" if v else "false"


def refusals_table(pkgs):
    """The docs' table of what a refused access sets, one row per block of registers."""
    rows = ["| registers | error register | a write to a read-only or a read of a write-only register sets "
            "| an access without the privileged bit it needs sets |", "|---|---|---|---|"]
    for p in pkgs:
        for (err_reg, bad, priv), regs in p.refusals.items():
            rows.append(f"| {', '.join(f'`{r}`' for r in regs)} | `{err_reg}` | "
                        f"{f'`{bad}`' if bad else 'nothing: the write is ignored, the read returns zero'} | "
                        f"{f'`{priv}`' if priv else '—'} |")
    return "\n".join(rows)


MARK = re.compile(r"(<!-- regmap: ([\w.]+) -->\n)(.*?)(<!-- /regmap -->)", re.S)


def fill_doc(text, tables, path):
    def sub(m):
        name = m.group(2)
        if name not in tables:
            raise DescriptionError(f"{path}: marker names table {name!r}, which the description has not "
                                   f"(known: {', '.join(sorted(tables))})")
        return f"{m.group(1)}{tables[name]}\n{m.group(4)}"
    return MARK.sub(sub, text)


# ------------------------------------------------------------------ sizes

SIZE_KEYS = {"key", "top", "param", "default", "min", "max", "multiple_of", "power_of_two", "doc",
             "limits"}
SIZE_KEY = re.compile(r"^(tree|torus)\.[a-z][a-z_]*$")


def rtl_default(root, top, param, outer, where):
    """The default `top` (rtl/node/<top>.sv) declares for `param`, resolved over the packages."""
    path = root / "rtl" / "node" / f"{top}.sv"
    m = re.search(rf"parameter\s+int\s+{param}\s*=\s*([\w:]+)", path.read_text())
    if not m:
        raise DescriptionError(f"{where}: {path.relative_to(root)} declares no parameter int {param}")
    text = m.group(1)
    if text.isdigit():
        return int(text)
    name = text.split("::")[-1]
    if name not in outer:
        raise DescriptionError(f"{where}: {top}'s default for {param}, {text}, is no package constant")
    return outer[name]


def check_sizes(sizes, root, outer, registers):
    params = need(sizes, "parameters", "sizes")
    seen = set()
    for i, e in enumerate(params):
        where = f"sizes.parameters[{i}]"
        for k in ("key", "top", "param", "default", "min", "max", "doc", "limits"):
            need(e, k, where)
        where = f"sizes: {e['key']}"
        if set(e) - SIZE_KEYS:
            raise DescriptionError(f"{where}: unknown entries {sorted(set(e) - SIZE_KEYS)}")
        if not SIZE_KEY.match(e["key"]) or e["key"] in seen:
            raise DescriptionError(f"{where}: a key is tree.NAME or torus.NAME, in lower case, and appears once")
        seen.add(e["key"])
        lo, hi, d, mult = e["min"], e["max"], e["default"], e.get("multiple_of", 1)
        fits = lambda v: lo <= v <= hi and v % mult == 0 and (not e.get("power_of_two") or v & (v - 1) == 0)
        if not (0 <= lo <= hi) or not fits(lo) or not fits(hi) or not fits(d):
            raise DescriptionError(f"{where}: the default {d} and the bounds {lo}..{hi} must be allowed values")
        rtl = rtl_default(root, e["top"], e["param"], outer, where)
        if rtl != d:
            raise DescriptionError(f"{where}: the default is {d}, but {e['top']} declares {e['param']} = {rtl}")
        if e["key"] not in SIZE_FIELDS:
            raise DescriptionError(f"{where}: no register field holds it (a field with \"size\": \"{e['key']}\" "
                                   f"in a register whose reset is \"sizes\")")
        reg, lsb, width = SIZE_FIELDS[e["key"]]
        e["_reg"], e["_addr"], e["_lsb"], e["_width"] = reg, registers[reg], lsb, width
    return params


def emit_sizes(params, sizes):
    out = [
        "// SPDX-License-Identifier: Apache-2.0",
        "// The node's sizes that a machine file's \"rtl\" section may set, each the parameter of a",
        "// side's top with its default and limits (docs/design-space.md).",
        f"// GENERATED by {GENERATOR} from {DESCRIPTION} (\"sizes\"). Do not edit: change the",
        "// description and run `make regmap`.",
        "#pragma once",
        "",
        "#include <cstdint>",
        "",
        "namespace collnet::fw::regmap {",
        "",
        "struct SizeParam {",
        "  const char* key;         // under a machine file's \"rtl\": \"tree.NAME\" or \"torus.NAME\"",
        "  const char* top;         // the side's top module (nd_tree_net or nd_torus_net)",
        "  const char* param;       // the parameter's name there",
        "  unsigned def, min, max;  // the default and the bounds, inclusive",
        "  unsigned multiple_of;    // values are multiples of this (1: any)",
        "  bool power_of_two;       // values are powers of two",
        "  const char* doc;         // what it sizes",
        "  const char* limits;      // why the bounds are what they are",
        "  uint32_t reg;            // the register that reports it as built (RegSizes, RegTrSizes)",
        "  unsigned lsb, width;     // and its field there",
        "};",
        "",
        "inline constexpr SizeParam kSizes[] = {",
    ]
    q = lambda t: json.dumps(t, ensure_ascii=False)
    for e in params:
        out.append(f"    {{{q(e['key'])}, {q(e['top'])}, {q(e['param'])}, {e['default']}, "
                   f"{e['min']}, {e['max']}, {e.get('multiple_of', 1)}, {_b(e.get('power_of_two', False))},")
        out.append(f"     {q(e['doc'])},")
        out.append(f"     {q(e['limits'])},")
        out.append(f"     0x{e['_addr']:03x} /* {e['_reg']} */, {e['_lsb']}, {e['_width']}}},")
    out += ["};", "", "}  // namespace collnet::fw::regmap", ""]
    return "\n".join(out)


def sizes_table(params):
    rows = ["| key | RTL parameter | default | values | what it sizes | limits |", "|---|---|---|---|---|---|"]
    for e in params:
        values = f"{e['min']}..{e['max']}"
        if e.get("power_of_two"):
            values += ", powers of two"
        if e.get("multiple_of", 1) > 1:
            values += f", multiples of {e['multiple_of']}"
        rows.append(f"| `{e['key']}` | `{e['top']}.{e['param']}` | {e['default']} | {values} | {e['doc']} | "
                    f"{e['limits']} |")
    return "\n".join(rows)


# ------------------------------------------------------------------ main

def generate(root):
    """{relative path: text} for every generated file."""
    desc_path = root / DESCRIPTION
    try:
        desc = json.loads(desc_path.read_text())
    except json.JSONDecodeError as e:
        raise DescriptionError(f"{DESCRIPTION}: not valid JSON: {e}") from None
    outer, owners, pkgs, files, tables, windows, registers = {}, {}, [], {}, {}, {}, {}
    sizes = need(desc, "sizes", DESCRIPTION)
    SIZE_DEFAULTS.clear()
    SIZE_FIELDS.clear()
    SIZE_DEFAULTS.update({e.get("key"): e.get("default") for e in need(sizes, "parameters", "sizes")})
    for d in need(desc, "packages", DESCRIPTION):
        p = Package(d, dict(outer), windows, registers, dict(owners))
        outer.update(p.scope.values)
        owners.update({name: p.name for name in p.scope.values})
        pkgs.append(p)
        tables.update(p.tables)
        files[p.path] = emit_sv(p, root)
    cpp = need(desc, "cpp", DESCRIPTION)
    files[cpp["path"]] = emit_cpp(pkgs, cpp)
    files[need(cpp, "table_path", "cpp")] = emit_table(pkgs, cpp)
    tables["regmap.refusals"] = refusals_table(pkgs)
    params = check_sizes(sizes, root, outer, registers)
    files[need(sizes, "cpp_path", "sizes")] = emit_sizes(params, sizes)
    tables["regmap.sizes"] = sizes_table(params)
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
