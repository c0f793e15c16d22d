"""Import an ExportedProgram with torch-mlir's FX importer and print it in generic form.

This is torch-mlir's own path (`torch_mlir.fx.export_and_import(..., output_type="raw")`),
without its decomposition table (which would take aten.linear, aten.gelu and the norms apart)
and without lowering: the result is torch-dialect MLIR exactly as the importer builds it, plus
two presentational steps:

1. every function argument gets a `dit.arg_name` argument attribute (its state-dict key or
   input name);
2. `properties_to_attributes` rewrites MLIR's properties syntax `"op"() <{value = 1 : i64}>`
   into a plain attribute dictionary `"op"() {value = 1 : i64}`. MLIR parses both into the
   same operation for registered ops (inherent attributes given in the attribute dictionary
   become properties); for a reader that does not register the torch dialect (dit-opt parses
   it as an unregistered dialect) the plain form gives ordinary attributes. `roundtrip_check`
   proves the rewrite lossless on every file: it parses the rewritten text in a context with
   the torch dialect registered and compares the generic print with torch-mlir's own.
"""

from __future__ import annotations

import torch_mlir
from torch_mlir import ir
from torch_mlir.dialects import torch as torch_d
from torch_mlir.extras.fx_importer import FxImporter


def _context():
    ctx = ir.Context()
    torch_d.register_dialect(ctx)
    return ctx


def import_program(program, func_name, arg_names):
    """-> (module text in torch-mlir's generic form, module text with plain attributes)."""
    ctx = _context()
    importer = FxImporter(context=ctx)
    importer.import_program(program, func_name=func_name)
    module = importer.module
    with ctx:
        funcs = [op for op in module.body.operations if op.operation.name == "func.func"]
        assert len(funcs) == 1, "one function per program"
        func = funcs[0]
        n_args = len(ir.FunctionType(ir.TypeAttr(func.attributes["function_type"]).value).inputs)
        if n_args != len(arg_names):
            raise RuntimeError(f"importer made {n_args} arguments, expected {len(arg_names)}")
        func.attributes["arg_attrs"] = ir.ArrayAttr.get(
            [ir.DictAttr.get({"dit.arg_name": ir.StringAttr.get(n)}) for n in arg_names]
        )
    native = module.operation.get_asm(print_generic_op_form=True)
    return native, properties_to_attributes(native)


def _scan_balanced(s, i):
    """s[i] is an opening bracket; return the index just past its match. Skips strings."""
    pairs = {"{": "}", "[": "]", "(": ")", "<": ">"}
    stack = []
    j = i
    while j < len(s):
        c = s[j]
        if c == '"':
            j += 1
            while s[j] != '"':
                j += 2 if s[j] == "\\" else 1
        elif c in "{[(":
            stack.append(pairs[c])
        elif c == "<":
            # '<' opens a bracket only in `<{` (properties), `<[` or after a type/attr keyword;
            # inside properties it appears in types such as !torch.vtensor<[1,2],f32> and
            # array<i64: 1>, always balanced, and never as a comparison.
            stack.append(">")
        elif c in "}])>":
            if c == ">" and j > 0 and s[j - 1] == "-":  # the `->` of a function type
                j += 1
                continue
            if not stack or stack[-1] != c:
                raise ValueError(f"unbalanced {c!r} at {j} in: {s[:200]}")
            stack.pop()
            if not stack:
                return j + 1
        j += 1
    raise ValueError(f"unterminated bracket in: {s[:200]}")


def properties_to_attributes(text: str) -> str:
    out = []
    pending = []  # (indent, props) of region ops waiting for their closing line
    for line in text.split("\n"):
        stripped = line.lstrip(" ")
        indent = len(line) - len(stripped)
        if pending and pending[-1][0] == indent and stripped.startswith("})"):
            props = pending.pop()[1]
            rest = stripped[2:]
            if rest.startswith(" {"):
                end = _scan_balanced(rest, 1)
                rest = " {" + props + ", " + rest[2 : end - 1] + "}" + rest[end:]
            else:
                rest = " {" + props + "}" + rest
            out.append(" " * indent + "})" + rest)
            continue
        k = line.find(") <{")
        if k < 0 or '"' not in line[:k]:
            out.append(line)
            continue
        start = k + 2  # at '<'
        end = _scan_balanced(line, start)  # just past '}>'
        props = line[start + 2 : end - 2]
        head, rest = line[: k + 1], line[end:]
        if rest.startswith(" ({"):
            pending.append((indent, props))
            out.append(head + rest)
        elif rest.startswith(" {"):
            aend = _scan_balanced(rest, 1)
            out.append(head + " {" + props + ", " + rest[2 : aend - 1] + "}" + rest[aend:])
        else:
            out.append(head + " {" + props + "}" + rest)
    if pending:
        raise ValueError("a region op's closing line was not found")
    return "\n".join(out)


def roundtrip_check(native: str, plain: str) -> None:
    """Parse `plain` with the torch dialect registered; its generic print must equal `native`."""
    ctx = _context()
    module = ir.Module.parse(plain, context=ctx)
    if not module.operation.verify():
        raise RuntimeError("the rewritten module does not verify")
    again = module.operation.get_asm(print_generic_op_form=True)
    if again != native:
        import difflib

        diff = "\n".join(list(difflib.unified_diff(native.split("\n"), again.split("\n"), lineterm=""))[:40])
        raise RuntimeError("properties_to_attributes changed the module:\n" + diff)


def version():
    try:
        from importlib.metadata import version as v

        return v("torch-mlir")
    except Exception:  # pragma: no cover
        return getattr(torch_mlir, "__version__", "unknown")
