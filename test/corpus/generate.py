#!/usr/bin/env python3
"""Writes the robustness corpus (test/corpus/NNN-name.mlir) and its README.md.

Every file is malformed in one way. tools/dit-opt/tests/corpus.rs runs dit-opt on each of them
(plain, with --split-input-file and with --dit-canonicalize) and requires a located
`file:line:col: error:` and exit code 1: never a panic, abort, signal or hang.

The files are committed; this script only documents how the big and binary ones were made and
regenerates the folder deterministically: python3 test/corpus/generate.py
"""

import os
import random

HERE = os.path.dirname(os.path.abspath(__file__))
ENTRIES = []  # (name, description, bytes)


def add(name, description, content):
    if isinstance(content, str):
        content = content.encode("utf-8")
    ENTRIES.append((name, description, content))


def fn(body, args="%x: tensor<4xf32>", results="tensor<4xf32>", name="f"):
    """A func.func around `body` (indented lines, ending in a return)."""
    return f"func.func @{name}({args}) -> {results} {{\n{body}}}\n"


def one_op(op, args="%x: tensor<4xf32>", results="tensor<4xf32>"):
    """A function whose body is `%0 = <op>` followed by `return %0`."""
    return fn(f"  %0 = {op}\n  return %0 : {results}\n", args, results)


VALID = one_op('"dit.relu"(%x) : (tensor<4xf32>) -> tensor<4xf32>')
T2 = "tensor<2x8xf16>"

# ----- truncated files -----
add("trunc-mid-op", "truncated inside an op's operand list",
    'func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {\n  %0 = "dit.relu"(%x')
add("trunc-mid-type", "truncated inside a tensor type",
    'func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {\n  %0 = "dit.relu"(%x) : (tensor<4x')
add("trunc-mid-attribute", "truncated inside an array<i64> attribute",
    'func.func @f(%x: tensor<4x8xf32>) -> tensor<4xf32> {\n'
    '  %0 = "dit.reduce_sum"(%x) {keepdim = false, dims = array<i64: 1, ')
add("trunc-mid-region", "truncated inside a function body (region never closed)",
    'func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {\n'
    '  %0 = "dit.relu"(%x) : (tensor<4xf32>) -> tensor<4xf32>\n  return %0 : tensor<4xf32>\n')
add("trunc-mid-string", "truncated inside a string literal (no closing quote, no newline)",
    'func.func @f(%x: tensor<2x8xf16>) -> tensor<2x8xf16> {\n  %0 = "dit.gelu"(%x) {approximate = "ta')
add("trunc-mid-dense", "truncated inside a dense<...> literal",
    'func.func @f() -> tensor<4xf32> {\n  %c = arith.constant dense<[1.0, 2.')
add("trunc-after-arrow", "truncated right after the '->' of an op's function type",
    'func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {\n  %0 = "dit.relu"(%x) : (tensor<4xf32>) ->')
add("trunc-mid-ssa-name", "truncated after a lone '%'",
    'func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {\n  %')
add("trunc-mid-escape", "truncated after a backslash inside a string",
    'func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {\n  %0 = "dit.opaque"(%x) {name = "abc\\')
add("trunc-mid-nested-region", "truncated inside a dit.fused body",
    'func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {\n  %0 = "dit.fused"(%x) ({\n'
    '  ^bb0(%a: tensor<4xf32>):\n    %1 = "dit.relu"(%a) : (tensor<4xf32>) -> tensor<4xf32>\n')

# ----- invalid UTF-8 and NUL bytes -----
add("utf8-lone-continuation", "lone UTF-8 continuation byte 0x80 in a comment",
    b"// caf\x80\n" + VALID.encode())
add("utf8-truncated-2byte-at-eof", "2-byte UTF-8 sequence cut at end of file (0xc3)",
    VALID.encode() + b"// \xc3")
add("utf8-truncated-3byte-midline", "3-byte UTF-8 sequence cut mid-line (0xe2 0x82 then ASCII)",
    VALID.encode().replace(b"@f", b"@f\xe2\x82x", 1))
add("utf8-byte-ff", "byte 0xff inside a string attribute",
    one_op('"dit.opaque"(%x) {name = "aXb"} : (tensor<4xf32>) -> tensor<4xf32>').encode().replace(b"aXb", b"a\xffb"))
add("utf8-overlong", "overlong encoding of '/' (0xc0 0xaf)",
    b"\xc0\xaf" + VALID.encode())
add("utf8-surrogate", "UTF-8-encoded UTF-16 surrogate (0xed 0xa0 0x80)",
    VALID.encode() + b"// \xed\xa0\x80\n")
add("utf16-bom", "UTF-16LE byte-order mark and UTF-16 text",
    b"\xff\xfe" + "module {}\n".encode("utf-16-le"))
add("nul-byte-in-body", "NUL byte in the middle of a function body",
    VALID.encode().replace(b"  return", b"  \x00return", 1))
add("nul-only", "file of NUL bytes only", b"\x00" * 64)
add("nul-in-string", "NUL byte inside a string attribute",
    one_op('"dit.opaque"(%x) {name = "a\x00b"} : (tensor<4xf32>) -> tensor<4xf32>'))
add("nul-after-valid-module", "valid module followed by a NUL byte", VALID + "\x00")
add("utf8-bom-then-module", "UTF-8 BOM (valid UTF-8, not MLIR) before a module with an error",
    "\ufeff" + one_op('"dit.nosuch"(%x) : (tensor<4xf32>) -> tensor<4xf32>'))

# ----- unknown ops and dialects -----
add("unknown-dit-op", "generic form of an op the dit dialect does not define",
    one_op('"dit.nosuch"(%x) : (tensor<4xf32>) -> tensor<4xf32>'))
add("dit-op-custom-form", "dit op written in a custom form (IRDL ops only have the generic form)",
    one_op("dit.relu %x : tensor<4xf32>"))
add("unknown-dialect-op", "op of an unregistered dialect",
    one_op('"foo.bar"(%x) : (tensor<4xf32>) -> tensor<4xf32>'))
add("unknown-dialect-type", "type of an unregistered dialect",
    one_op('"dit.relu"(%x) : (!foo.bar) -> tensor<4xf32>', "%x: !foo.bar"))
add("unknown-dialect-attr", "attribute of an unregistered dialect",
    one_op('"dit.gelu"(%x) {approximate = #foo.tanh} : (tensor<2x8xf16>) -> tensor<2x8xf16>',
           "%x: tensor<2x8xf16>", T2))
add("unknown-dit-type", "a !dit type (the dialect defines none)",
    one_op('"dit.relu"(%x) : (!dit.tensor<4xf32>) -> tensor<4xf32>', "%x: !dit.tensor<4xf32>"))
add("unknown-builtin-op", "unknown op in the builtin dialect", '"builtin.nosuch"() : () -> ()\n')

# ----- operand and result counts -----
add("add-one-operand", "dit.add with one operand",
    one_op('"dit.add"(%x) : (tensor<4xf32>) -> tensor<4xf32>'))
add("add-three-operands", "dit.add with three operands",
    one_op('"dit.add"(%x, %x, %x) : (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>'))
add("relu-no-result", "dit.relu without a result",
    fn('  "dit.relu"(%x) : (tensor<4xf32>) -> ()\n  return %x : tensor<4xf32>\n'))
add("relu-two-results", "dit.relu with two results",
    fn('  %0:2 = "dit.relu"(%x) : (tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)\n'
       '  return %0#0 : tensor<4xf32>\n'))
add("dynamic-quant-one-result", "dit.dynamic_quant with one result (needs y and scale)",
    one_op('"dit.dynamic_quant"(%x) {operandSegmentSizes = array<i32: 1, 0>} : (tensor<4x8xf16>) -> tensor<4x8xi8>',
           "%x: tensor<4x8xf16>", "tensor<4x8xi8>"))
add("split-results-vs-sizes", "dit.split with three results but two sizes",
    fn('  %0:3 = "dit.split"(%x) {dim = 0 : i64, sizes = array<i64: 2, 2>} : (tensor<4xf32>) -> '
       '(tensor<2xf32>, tensor<2xf32>, tensor<2xf32>)\n  return %0#0 : tensor<2xf32>\n', results="tensor<2xf32>"))
add("ssa-result-count-mismatch", "'%0:3 =' on an op with one result",
    fn('  %0:3 = "dit.relu"(%x) : (tensor<4xf32>) -> tensor<4xf32>\n  return %0#0 : tensor<4xf32>\n'))

# ----- types -----
add("type-scalar-operand", "f32 scalar (not a tensor) operand",
    one_op('"dit.relu"(%x) : (f32) -> f32', "%x: f32", "f32"))
add("type-memref-operand", "memref operand", one_op('"dit.relu"(%x) : (memref<4xf32>) -> memref<4xf32>',
                                                     "%x: memref<4xf32>", "memref<4xf32>"))
add("type-unranked-tensor", "unranked tensor operand and result",
    one_op('"dit.relu"(%x) : (tensor<*xf32>) -> tensor<*xf32>', "%x: tensor<*xf32>", "tensor<*xf32>"))
add("type-f64-element", "f64 element type (not a dialect type)",
    one_op('"dit.exp"(%x) : (tensor<4xf64>) -> tensor<4xf64>', "%x: tensor<4xf64>", "tensor<4xf64>"))
add("type-i16-element", "i16 element type (not a dialect type)",
    one_op('"dit.neg"(%x) : (tensor<4xi16>) -> tensor<4xi16>', "%x: tensor<4xi16>", "tensor<4xi16>"))
add("type-index-element", "index element type",
    one_op('"dit.neg"(%x) : (tensor<4xindex>) -> tensor<4xindex>', "%x: tensor<4xindex>", "tensor<4xindex>"))
add("type-mismatched-shapes", "dit.add of shapes that do not broadcast",
    one_op('"dit.add"(%x, %y) : (tensor<4xf32>, tensor<3xf32>) -> tensor<4xf32>',
           "%x: tensor<4xf32>, %y: tensor<3xf32>"))
add("type-vector", "vector operand", one_op('"dit.relu"(%x) : (vector<4xf32>) -> vector<4xf32>',
                                             "%x: vector<4xf32>", "vector<4xf32>"))
add("type-tensor-of-tensor", "tensor whose element type is a tensor",
    one_op('"dit.relu"(%x) : (tensor<4xtensor<2xf32>>) -> tensor<4xtensor<2xf32>>',
           "%x: tensor<4xtensor<2xf32>>", "tensor<4xtensor<2xf32>>"))
add("type-negative-dim", "negative tensor dimension",
    one_op('"dit.relu"(%x) : (tensor<-1xf32>) -> tensor<-1xf32>', "%x: tensor<-1xf32>", "tensor<-1xf32>"))
add("type-transpose-shape", "dit.transpose whose result shape does not follow perm",
    one_op('"dit.transpose"(%x) {perm = array<i64: 1, 0>} : (tensor<2x3xf32>) -> tensor<2x3xf32>',
           "%x: tensor<2x3xf32>", "tensor<2x3xf32>"))
add("type-matmul-contraction", "dit.matmul with mismatched contraction dimensions",
    one_op('"dit.matmul"(%a, %b) {transpose_a = false, transpose_b = false} : '
           '(tensor<2x3xf32>, tensor<4x5xf32>) -> tensor<2x5xf32>',
           "%a: tensor<2x3xf32>, %b: tensor<4x5xf32>", "tensor<2x5xf32>"))
add("type-op-type-not-function", "op signature that is not a function type",
    one_op('"dit.relu"(%x) : tensor<4xf32>'))
add("type-signature-vs-operands", "signature lists two operand types for one operand",
    one_op('"dit.relu"(%x) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>'))

# ----- enum strings -----
add("enum-gelu-approximate", "dit.gelu approximate = \"fast\"",
    one_op('"dit.gelu"(%x) {approximate = "fast"} : (tensor<2x8xf16>) -> tensor<2x8xf16>', "%x: " + T2, T2))
add("enum-wrong-case", "dit.gelu approximate = \"TANH\" (enums are case-sensitive)",
    one_op('"dit.gelu"(%x) {approximate = "TANH"} : (tensor<2x8xf16>) -> tensor<2x8xf16>', "%x: " + T2, T2))
add("enum-nul-escape", "enum string with an escaped NUL: \"tanh\\00\"",
    one_op('"dit.gelu"(%x) {approximate = "tanh\\00"} : (tensor<2x8xf16>) -> tensor<2x8xf16>', "%x: " + T2, T2))
add("enum-rope-mode", "dit.rope mode = \"full\"",
    one_op('"dit.rope"(%x, %c, %c) {mode = "full"} : (tensor<2x8xf16>, tensor<2x8xf16>, tensor<2x8xf16>) -> tensor<2x8xf16>',
           "%x: tensor<2x8xf16>, %c: tensor<2x8xf16>", T2))
add("enum-attention-layout", "dit.attention layout = \"NCHW\"",
    one_op('"dit.attention"(%q, %q, %q) {scale = 1.0 : f32, layout = "NCHW", operandSegmentSizes = array<i32: 1, 1, 1, 0>} : '
           '(tensor<1x2x4x8xf16>, tensor<1x2x4x8xf16>, tensor<1x2x4x8xf16>) -> tensor<1x2x4x8xf16>',
           "%q: tensor<1x2x4x8xf16>", "tensor<1x2x4x8xf16>"))
add("enum-quant-matmul-x2-format", "dit.quant_matmul x2_format = \"NZ\"",
    one_op('"dit.quant_matmul"(%a, %b, %s) {transpose_x1 = false, transpose_x2 = true, x2_format = "NZ", '
           'operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : '
           '(tensor<4x64xi8>, tensor<128x64xi8>, tensor<128xf32>) -> tensor<4x128xf16>',
           "%a: tensor<4x64xi8>, %b: tensor<128x64xi8>, %s: tensor<128xf32>", "tensor<4x128xf16>"))
add("enum-grouped-matmul-list-type", "dit.grouped_matmul group_list_type = \"prefix\"",
    one_op('"dit.grouped_matmul"(%x, %w, %g) {group_list_type = "prefix", operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : '
           '(tensor<8x16xf16>, tensor<4x16x32xf16>, tensor<4xi64>) -> tensor<8x32xf16>',
           "%x: tensor<8x16xf16>, %w: tensor<4x16x32xf16>, %g: tensor<4xi64>", "tensor<8x32xf16>"))
add("enum-fused-matmul-op-type", "dit.fused_matmul fused_op_type = \"gelu\"",
    one_op('"dit.fused_matmul"(%a, %b) {fused_op_type = "gelu", operandSegmentSizes = array<i32: 1, 1, 0, 0>} : '
           '(tensor<4x8xf16>, tensor<8x16xf16>) -> tensor<4x16xf16>',
           "%a: tensor<4x8xf16>, %b: tensor<8x16xf16>", "tensor<4x16xf16>"))
add("enum-kv-cache-mode", "dit.kv_rms_norm_rope_cache cache_mode = \"Paged\"",
    one_op('"dit.kv_rms_norm_rope_cache"(%kv, %g, %c, %c, %i, %k, %k) {epsilon = 1.0e-05 : f32, cache_mode = "Paged"} : '
           '(tensor<2x1x1x576xf16>, tensor<512xf16>, tensor<2x1x1x64xf16>, tensor<2x1x1x64xf16>, tensor<2xi64>, '
           'tensor<4x1x8x576xf16>, tensor<4x1x8x576xf16>) -> tensor<4x1x8x576xf16>',
           "%kv: tensor<2x1x1x576xf16>, %g: tensor<512xf16>, %c: tensor<2x1x1x64xf16>, %i: tensor<2xi64>, "
           "%k: tensor<4x1x8x576xf16>", "tensor<4x1x8x576xf16>"))

# ----- missing required attributes -----
add("missing-gelu-approximate", "dit.gelu without approximate",
    one_op('"dit.gelu"(%x) : (tensor<2x8xf16>) -> tensor<2x8xf16>', "%x: " + T2, T2))
add("missing-softmax-dim", "dit.softmax without dim",
    one_op('"dit.softmax"(%x) : (tensor<2x8xf16>) -> tensor<2x8xf16>', "%x: " + T2, T2))
add("missing-transpose-perm", "dit.transpose without perm",
    one_op('"dit.transpose"(%x) : (tensor<2x8xf16>) -> tensor<8x2xf16>', "%x: " + T2, "tensor<8x2xf16>"))
add("missing-matmul-transpose-b", "dit.matmul without transpose_b",
    one_op('"dit.matmul"(%a, %b) {transpose_a = false} : (tensor<2x3xf32>, tensor<3x5xf32>) -> tensor<2x5xf32>',
           "%a: tensor<2x3xf32>, %b: tensor<3x5xf32>", "tensor<2x5xf32>"))
add("missing-fused-kernel", "dit.fused without kernel",
    one_op('"dit.fused"(%x) ({\n  ^bb0(%a: tensor<4xf32>):\n    "dit.yield"(%a) : (tensor<4xf32>) -> ()\n'
           '  }) : (tensor<4xf32>) -> tensor<4xf32>'))
add("missing-opaque-name", "dit.opaque without name",
    one_op('"dit.opaque"(%x) : (tensor<4xf32>) -> tensor<4xf32>'))

# ----- wrong attribute kinds -----
add("kind-softmax-dim-string", "dit.softmax dim given as a string",
    one_op('"dit.softmax"(%x) {dim = "1"} : (tensor<2x8xf16>) -> tensor<2x8xf16>', "%x: " + T2, T2))
add("kind-transpose-perm-i32", "dit.transpose perm given as array<i32>",
    one_op('"dit.transpose"(%x) {perm = array<i32: 1, 0>} : (tensor<2x8xf16>) -> tensor<8x2xf16>',
           "%x: " + T2, "tensor<8x2xf16>"))
add("kind-matmul-transpose-int", "dit.matmul transpose_a given as an integer",
    one_op('"dit.matmul"(%a, %b) {transpose_a = 0 : i64, transpose_b = false} : '
           '(tensor<2x3xf32>, tensor<3x5xf32>) -> tensor<2x5xf32>',
           "%a: tensor<2x3xf32>, %b: tensor<3x5xf32>", "tensor<2x5xf32>"))
add("kind-rms-norm-epsilon-f64", "dit.rms_norm epsilon given as f64",
    one_op('"dit.rms_norm"(%x, %g) {epsilon = 1.0e-06 : f64} : (tensor<2x8xf16>, tensor<8xf16>) -> tensor<2x8xf16>',
           "%x: tensor<2x8xf16>, %g: tensor<8xf16>", T2))
add("kind-reduce-dims-dense", "dit.reduce_sum dims given as a dense tensor",
    one_op('"dit.reduce_sum"(%x) {dims = dense<[1]> : tensor<1xi64>, keepdim = false} : (tensor<2x8xf16>) -> tensor<2xf16>',
           "%x: " + T2, "tensor<2xf16>"))
add("kind-gelu-approximate-int", "dit.gelu approximate given as an integer",
    one_op('"dit.gelu"(%x) {approximate = 1 : i64} : (tensor<2x8xf16>) -> tensor<2x8xf16>', "%x: " + T2, T2))
add("kind-attention-scale-string", "dit.attention scale given as a string",
    one_op('"dit.attention"(%q, %q, %q) {scale = "0.125", operandSegmentSizes = array<i32: 1, 1, 1, 0>} : '
           '(tensor<1x2x4x8xf16>, tensor<1x2x4x8xf16>, tensor<1x2x4x8xf16>) -> tensor<1x2x4x8xf16>',
           "%q: tensor<1x2x4x8xf16>", "tensor<1x2x4x8xf16>"))
add("kind-epsilon-nan", "dit.layer_norm epsilon is NaN",
    one_op('"dit.layer_norm"(%x) {epsilon = 0x7FC00000 : f32, operandSegmentSizes = array<i32: 1, 0, 0>} : '
           '(tensor<2x8xf16>) -> tensor<2x8xf16>', "%x: " + T2, T2))
add("kind-duplicate-attribute", "the same attribute given twice",
    one_op('"dit.gelu"(%x) {approximate = "tanh", approximate = "none"} : (tensor<2x8xf16>) -> tensor<2x8xf16>',
           "%x: " + T2, T2))
add("kind-properties-syntax", "attributes given as properties <{...}> (IRDL ops have none)",
    one_op('"dit.gelu"(%x) <{approximate = "tanh"}> : (tensor<2x8xf16>) -> tensor<2x8xf16>', "%x: " + T2, T2))

# ----- operandSegmentSizes -----
LINEAR = ('"dit.linear"(%x, %w) {{operandSegmentSizes = {oss}}} : (tensor<4x8xf32>, tensor<16x8xf32>) -> tensor<4x16xf32>')
LINEAR_ARGS, LINEAR_RES = "%x: tensor<4x8xf32>, %w: tensor<16x8xf32>", "tensor<4x16xf32>"
add("oss-missing", "dit.linear (optional bias) without operandSegmentSizes",
    one_op('"dit.linear"(%x, %w) : (tensor<4x8xf32>, tensor<16x8xf32>) -> tensor<4x16xf32>', LINEAR_ARGS, LINEAR_RES))
for name, oss, what in [
    ("oss-too-short", "array<i32: 1, 1>", "two entries for three slots"),
    ("oss-too-long", "array<i32: 1, 1, 0, 0, 0>", "five entries for three slots"),
    ("oss-wrong-sum", "array<i32: 1, 1, 1>", "adds up to 3 for 2 operands"),
    ("oss-negative", "array<i32: 1, -1, 2>", "negative entry"),
    ("oss-two-for-optional", "array<i32: 1, 0, 2>", "2 values for an optional slot"),
    ("oss-dense", "dense<[1, 1, 0]> : tensor<3xi32>", "dense tensor instead of array<i32>"),
    ("oss-i64", "array<i64: 1, 1, 0>", "array<i64> instead of array<i32>"),
    ("oss-huge", "array<i32: 1, 1, 2147483647>", "i32 max in an optional slot"),
    ("oss-string", '"1,1,0"', "a string"),
]:
    add(name, f"dit.linear operandSegmentSizes: {what}", one_op(LINEAR.format(oss=oss), LINEAR_ARGS, LINEAR_RES))

# ----- deep nesting -----
add("deep-parens-100000", "'(' x 100000", "(" * 100000 + "\n")
add("deep-array-attr-50000", "array attribute nested 50000 deep: [[[[...]]]]",
    one_op('"dit.opaque"(%x) {name = "n", deep = ' + "[" * 50000 + "]" * 50000 + "} : (tensor<4xf32>) -> tensor<4xf32>"))
add("deep-dense-20000", "dense<[[[[...]]]]> nested 20000 deep",
    "func.func @f() -> tensor<1xf32> {\n  %c = arith.constant dense<" + "[" * 20000 + "1.0" + "]" * 20000
    + "> : tensor<1xf32>\n  return %c : tensor<1xf32>\n}\n")
add("deep-tensor-type-5000", "tensor<tensor<...>> nested 5000 deep",
    "func.func private @f(" + "tensor<" * 5000 + "f32" + ">" * 5000 + ")\n")
add("deep-braces-50000", "'{' x 50000 (dictionary attributes / regions)", "module " + "{" * 50000 + "\n")
add("deep-modules-300", "300 nested builtin.module regions", "module {\n" * 300 + "}\n" * 300 + "}\n")
add("deep-fused-300", "300 nested dit.fused regions with a bad kernel at the bottom",
    "func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {\n"
    + '%r = "dit.fused"(%x) ({\n^bb0(%a: tensor<4xf32>):\n' * 300
    + '  "dit.yield"(%a) : (tensor<4xf32>) -> ()\n'
    + '}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>\n"dit.yield"(%r) : (tensor<4xf32>) -> ()\n' * 299
    + '}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>\n  return %r : tensor<4xf32>\n}\n')
add("deep-function-types-arrow", "function types nested 2000 deep, '()->(()->(...))' (each '->' looks like a closing '>')",
    "func.func private @f() -> (" + "()->(" * 2000 + "i32" + ")" * 2000 + ")\n")
add("deep-array-of-function-types", "array attribute nested 2000 deep with a function type at each level",
    one_op('"dit.opaque"(%x) {name = "n", deep = ' + "[()->(), " * 2000 + "0" + "]" * 2000
           + "} : (tensor<4xf32>) -> tensor<4xf32>"))
add("deep-affine-negation-600000", "affine expression with 600000 nested negations '------d0' (no brackets)",
    "#map = affine_map<(d0) -> (" + "-" * 600000 + "d0)>\nfunc.func private @f() attributes {m = #map}\njunk\n")
add("deep-closers-100000", "')' x 100000 with no opener", ")" * 100000 + "\n")
add("deep-affine-map-parens", "affine_map with an expression nested 10000 deep in parentheses",
    "#map = affine_map<(d0) -> (" + "(" * 10000 + "d0" + ")" * 10000 + ")>\n" + VALID.replace("@f", "@f", 1) + "junk\n")

# ----- empty-ish files -----
add("empty", "empty file", "")
add("whitespace-only", "spaces, tabs, CR and LF only", "  \t\n\r\n   \n\t\t\n")
add("comment-only", "comments only", "// nothing here\n// RUN: nothing\n   // indented comment\n")
add("comment-only-no-newline", "one comment without a trailing newline", "// no newline at the end")
add("vertical-tab-only", "vertical tab and form feed only (whitespace to Rust, not to MLIR)", "\x0b\x0c\n")

# ----- huge dimensions and attribute values -----
BIG = "9223372036854775807"
add("dim-i64-max", f"tensor<{BIG}x2xf32> operand of a mismatching op",
    one_op(f'"dit.add"(%x, %y) : (tensor<{BIG}x2xf32>, tensor<3xf32>) -> tensor<{BIG}x2xf32>',
           f"%x: tensor<{BIG}x2xf32>, %y: tensor<3xf32>", f"tensor<{BIG}x2xf32>"))
add("dim-overflow", "tensor<99999999999999999999xf32> (dimension does not fit in i64)",
    one_op('"dit.relu"(%x) : (tensor<99999999999999999999xf32>) -> tensor<99999999999999999999xf32>',
           "%x: tensor<99999999999999999999xf32>", "tensor<99999999999999999999xf32>"))
add("split-sizes-overflow", "dit.split sizes whose sum overflows i64",
    fn(f'  %0:2 = "dit.split"(%x) {{dim = 0 : i64, sizes = array<i64: {BIG}, {BIG}>}} : (tensor<8xf32>) -> '
       '(tensor<4xf32>, tensor<4xf32>)\n  return %0#0 : tensor<4xf32>\n', "%x: tensor<8xf32>"))
add("slice-step-i64-max", "dit.slice step = i64 max (ceil-division overflows)",
    one_op(f'"dit.slice"(%x) {{dim = 0 : i64, start = 0 : i64, end = 8 : i64, step = {BIG} : i64}} : '
           '(tensor<8xf32>) -> tensor<2xf32>', "%x: tensor<8xf32>", "tensor<2xf32>"))
add("slice-huge-bounds", "dit.slice start = i64 min, end = i64 max, wrong result shape",
    one_op(f'"dit.slice"(%x) {{dim = 0 : i64, start = -9223372036854775808 : i64, end = {BIG} : i64, step = 1 : i64}} : '
           '(tensor<8xf32>) -> tensor<3xf32>', "%x: tensor<8xf32>", "tensor<3xf32>"))
add("slice-dim-i64-min", "dit.slice dim = i64 min",
    one_op('"dit.slice"(%x) {dim = -9223372036854775808 : i64, start = 0 : i64, end = 2 : i64, step = 1 : i64} : '
           '(tensor<8xf32>) -> tensor<2xf32>', "%x: tensor<8xf32>", "tensor<2xf32>"))
add("transpose-huge-perm", "dit.transpose perm with i64 max and i64 min",
    one_op(f'"dit.transpose"(%x) {{perm = array<i64: {BIG}, -9223372036854775808>}} : (tensor<2x3xf32>) -> tensor<3x2xf32>',
           "%x: tensor<2x3xf32>", "tensor<3x2xf32>"))
add("reduce-huge-dims", "dit.reduce_mean dims = [i64 min]",
    one_op('"dit.reduce_mean"(%x) {dims = array<i64: -9223372036854775808>, keepdim = true} : (tensor<2x3xf32>) -> tensor<2x1xf32>',
           "%x: tensor<2x3xf32>", "tensor<2x1xf32>"))
add("softmax-dim-i64-max", "dit.softmax dim = i64 max",
    one_op(f'"dit.softmax"(%x) {{dim = {BIG} : i64}} : (tensor<2x8xf16>) -> tensor<2x8xf16>', "%x: " + T2, T2))
add("bitcast-huge-size", "dit.bitcast 2^62 f32 -> 2^62 f16 (bit counts overflow u64 and differ)",
    one_op('"dit.bitcast"(%x) : (tensor<4611686018427387904xf32>) -> tensor<4611686018427387904xf16>',
           "%x: tensor<4611686018427387904xf32>", "tensor<4611686018427387904xf16>"))
add("concat-dims-overflow", "dit.concat of two i64-max-long tensors (sum overflows)",
    one_op(f'"dit.concat"(%x, %x) {{dim = 0 : i64}} : (tensor<{BIG}xf32>, tensor<{BIG}xf32>) -> tensor<?xf32>',
           f"%x: tensor<{BIG}xf32>", "tensor<?xf32>"))
add("reshape-huge-elements", "dit.reshape between shapes whose element counts overflow i64",
    one_op(f'"dit.reshape"(%x) : (tensor<{BIG}x{BIG}xf32>) -> tensor<4xf32>', f"%x: tensor<{BIG}x{BIG}xf32>"))
add("huge-integer-attr", "integer attribute that does not fit in i64",
    one_op('"dit.softmax"(%x) {dim = 99999999999999999999999999 : i64} : (tensor<2x8xf16>) -> tensor<2x8xf16>', "%x: " + T2, T2))
add("huge-float-attr", "f32 attribute 1.0e999 (out of range)",
    one_op('"dit.rms_norm"(%x, %g) {epsilon = 1.0e999 : f32} : (tensor<2x8xf16>, tensor<8xf16>) -> tensor<2x8xf16>',
           "%x: tensor<2x8xf16>, %g: tensor<8xf16>", T2))
add("huge-string-attr", "128 KiB string attribute on an op with a wrong result type",
    one_op('"dit.opaque"(%x) {name = "' + "s" * (128 * 1024) + '"} : (tensor<4xf32>) -> f32', results="f32"))
add("huge-array-attr", "dit.split sizes with 30000 entries for 2 results",
    fn('  %0:2 = "dit.split"(%x) {dim = 0 : i64, sizes = array<i64: ' + ", ".join(["0"] * 30000)
       + '>} : (tensor<4xf32>) -> (tensor<2xf32>, tensor<2xf32>)\n  return %0#0 : tensor<2xf32>\n',
       results="tensor<2xf32>"))
add("huge-rank", "tensor of rank 10000 with a mismatching result rank",
    one_op('"dit.relu"(%x) : (tensor<' + "1x" * 10000 + "f32>) -> tensor<4xf32>", "%x: tensor<" + "1x" * 10000 + "f32>"))
add("many-results", "dit.split with 5000 results and one wrong result type",
    fn('  %0:5000 = "dit.split"(%x) {dim = 0 : i64, sizes = array<i64: ' + ", ".join(["1"] * 5000)
       + '>} : (tensor<5000xf32>) -> (' + ", ".join(["tensor<1xf32>"] * 4999 + ["tensor<2xf32>"])
       + ')\n  return %0#0 : tensor<1xf32>\n', "%x: tensor<5000xf32>", "tensor<1xf32>"))
add("gelu-mul-last-dim-too-big", "dit.gelu_mul with a last dim over 1024",
    one_op('"dit.gelu_mul"(%x) {approximate = "tanh"} : (tensor<2x4096xf16>) -> tensor<2x2048xf16>',
           "%x: tensor<2x4096xf16>", "tensor<2x2048xf16>"))

# ----- long lines -----
add("long-identifier-1mb", "1 MiB symbol name in a function with a missing '{'",
    "func.func @" + "a" * (1 << 20) + "(%x: tensor<4xf32>) -> tensor<4xf32>\n  return %x : tensor<4xf32>\n}\n")
add("long-line-spaces-then-error", "error at column 100001 after 100000 spaces",
    fn(" " * 100000 + '%0 = "dit.nosuch"(%x) : (tensor<4xf32>) -> tensor<4xf32>\n  return %0 : tensor<4xf32>\n'))
add("many-lines-then-error", "error on line 100001 after 100000 empty lines", "\n" * 100000 + "junk\n")

# ----- SSA values -----
add("ssa-undefined", "use of an undefined SSA value",
    one_op('"dit.relu"(%nosuch) : (tensor<4xf32>) -> tensor<4xf32>'))
add("ssa-redefined", "SSA value defined twice",
    fn('  %0 = "dit.relu"(%x) : (tensor<4xf32>) -> tensor<4xf32>\n'
       '  %0 = "dit.neg"(%x) : (tensor<4xf32>) -> tensor<4xf32>\n  return %0 : tensor<4xf32>\n'))
add("ssa-use-before-def", "use of a value before its definition",
    fn('  %0 = "dit.relu"(%1) : (tensor<4xf32>) -> tensor<4xf32>\n'
       '  %1 = "dit.neg"(%x) : (tensor<4xf32>) -> tensor<4xf32>\n  return %0 : tensor<4xf32>\n'))
add("ssa-bad-result-index", "use of result #5 of a one-result op",
    fn('  %0 = "dit.relu"(%x) : (tensor<4xf32>) -> tensor<4xf32>\n  return %0#5 : tensor<4xf32>\n'))
add("ssa-type-mismatch", "use of a value at a different type than its definition",
    one_op('"dit.relu"(%x) : (tensor<8xf32>) -> tensor<4xf32>'))

# ----- dit.fused / dit.yield -----
add("yield-outside-fused", "dit.yield directly in a function body",
    fn('  "dit.yield"(%x) : (tensor<4xf32>) -> ()\n'))
add("yield-top-level", "dit.yield at module level", '"dit.yield"() : () -> ()\n')
add("fused-no-terminator", "dit.fused body without a terminator",
    one_op('"dit.fused"(%x) ({\n  ^bb0(%a: tensor<4xf32>):\n    %1 = "dit.relu"(%a) : (tensor<4xf32>) -> tensor<4xf32>\n'
           '  }) {kernel = "k"} : (tensor<4xf32>) -> tensor<4xf32>'))
add("fused-no-region", "dit.fused without a region", one_op('"dit.fused"(%x) {kernel = "k"} : (tensor<4xf32>) -> tensor<4xf32>'))
add("fused-empty-region", "dit.fused with an empty region", one_op('"dit.fused"(%x) ({\n  }) {kernel = "k"} : (tensor<4xf32>) -> tensor<4xf32>'))
add("fused-two-blocks", "dit.fused body with two blocks",
    one_op('"dit.fused"(%x) ({\n  ^bb0(%a: tensor<4xf32>):\n    "dit.yield"(%a) : (tensor<4xf32>) -> ()\n'
           '  ^bb1:\n    "dit.yield"(%a) : (tensor<4xf32>) -> ()\n  }) {kernel = "k"} : (tensor<4xf32>) -> tensor<4xf32>'))
add("fused-capture-mismatch", "dit.fused body argument type differs from the captured value",
    one_op('"dit.fused"(%x) ({\n  ^bb0(%a: tensor<8xf32>):\n    "dit.yield"(%a) : (tensor<8xf32>) -> ()\n'
           '  }) {kernel = "k"} : (tensor<4xf32>) -> tensor<8xf32>', results="tensor<8xf32>"))
add("fused-yield-type-mismatch", "dit.yield operand type differs from dit.fused's result type",
    one_op('"dit.fused"(%x) ({\n  ^bb0(%a: tensor<4xf32>):\n    "dit.yield"(%a) : (tensor<4xf32>) -> ()\n'
           '  }) {kernel = "k"} : (tensor<4xf32>) -> tensor<4xf16>', results="tensor<4xf16>"))
add("fused-empty-kernel", "dit.fused kernel = \"\"",
    one_op('"dit.fused"(%x) ({\n  ^bb0(%a: tensor<4xf32>):\n    "dit.yield"(%a) : (tensor<4xf32>) -> ()\n'
           '  }) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>'))
add("dit-op-with-successor", "dit.relu with a successor block",
    fn('  %0 = "dit.relu"(%x)[^bb1] : (tensor<4xf32>) -> tensor<4xf32>\n^bb1:\n  return %0 : tensor<4xf32>\n'))
add("dit-op-with-region", "dit.relu with a region",
    one_op('"dit.relu"(%x) ({\n  }) : (tensor<4xf32>) -> tensor<4xf32>'))

# ----- garbage -----
rng = random.Random(20240601)
add("garbage-printable", "4 KiB of random printable ASCII",
    "".join(rng.choice("abcdefghijklmnopqrstuvwxyz0123456789%@#!^()[]{}<>:=,.-\"' \n") for _ in range(4096)))
add("garbage-binary", "4 KiB of random bytes", bytes(rng.randrange(256) for _ in range(4096)))
add("garbage-control-chars", "ASCII control characters (valid UTF-8, no NUL)",
    bytes(rng.choice([c for c in range(1, 32) if c not in (9, 10, 13)] + [127]) for _ in range(512)))
add("elf-header", "the first bytes of an ELF executable",
    b"\x7fELF\x02\x01\x01\x00" + b"\x00" * 8 + b"\x03\x00\x3e\x00\x01\x00\x00\x00" + bytes(range(256)))
add("valid-header-then-junk", "valid function followed by junk tokens", VALID + "%%% $$$ @@@ junk\n")
add("valid-module-then-binary", "valid function followed by binary bytes",
    VALID.encode() + bytes([0x01, 0x02, 0x7f, 0x1b]) + b"\xde\xad\xbe\xef")
add("unicode-identifier", "non-ASCII letters in an SSA name (valid UTF-8, not MLIR syntax)",
    one_op('"dit.relu"(%x) : (tensor<4xf32>) -> tensor<4xf32>').replace("%0", "%ä", 1).replace("return %0", "return %ä"))
add("block-comment", "C-style block comment (MLIR has none)", "/* comment */\n" + VALID)
add("crlf-line-endings", "CRLF line endings with an unknown op on line 2",
    one_op('"dit.nosuch"(%x) : (tensor<4xf32>) -> tensor<4xf32>').replace("\n", "\r\n"))
add("undefined-alias", "use of an undefined attribute alias",
    one_op('"dit.gelu"(%x) {approximate = #nosuch} : (tensor<2x8xf16>) -> tensor<2x8xf16>', "%x: " + T2, T2))
add("alias-self-reference", "attribute alias defined in terms of itself", "#a = [#a]\n" + VALID)
add("alias-redefined", "type alias defined twice", "!t = tensor<4xf32>\n!t = tensor<8xf32>\n" + VALID)
add("resource-bad-hex", "dialect resource blob with a bad hex string",
    "func.func @f() -> tensor<4xf32> {\n  %c = arith.constant dense_resource<blob1> : tensor<4xf32>\n"
    "  return %c : tensor<4xf32>\n}\n{-#\n  dialect_resources: { builtin: { blob1: \"0x08000000ZZ\" } }\n#-}\n")
add("resource-bad-alignment", "dialect resource blob with alignment 0xffffffff",
    "func.func @f() -> tensor<4xf32> {\n  %c = arith.constant dense_resource<blob1> : tensor<4xf32>\n"
    "  return %c : tensor<4xf32>\n}\n{-#\n  dialect_resources: { builtin: { blob1: \"0xFFFFFFFF0000\" } }\n#-}\n")
add("dense-wrong-count", "dense literal with 2 elements for a 3-element tensor",
    "func.func @f() -> tensor<3xf32> {\n  %c = arith.constant dense<[1.0, 2.0]> : tensor<3xf32>\n  return %c : tensor<3xf32>\n}\n")

# ----- --split-input-file separators -----
add("split-separators-without-flag", "'// -----' chunks that only make sense split (duplicate @f), last chunk broken",
    VALID + "\n// -----\n\n" + VALID + "\n// -----\n\n" + one_op('"dit.nosuch"(%x) : (tensor<4xf32>) -> tensor<4xf32>'))
add("split-separator-trailing-text", "'// ----- x' (not a separator) between two chunks, second broken",
    VALID + "// ----- x\n" + one_op('"dit.nosuch"(%x) : (tensor<4xf32>) -> tensor<4xf32>').replace("@f", "@g"))
add("split-only-separators", "nothing but '// -----' lines", "// -----\n// -----\n// -----\n")
add("split-empty-chunks-then-error", "empty chunks, then a chunk with an error",
    "// -----\n\n// -----\n" + one_op('"dit.nosuch"(%x) : (tensor<4xf32>) -> tensor<4xf32>'))
add("split-error-in-first-chunk", "first chunk broken, second valid",
    one_op('"dit.nosuch"(%x) : (tensor<4xf32>) -> tensor<4xf32>') + "// -----\n" + VALID)

# Found by the mutation fuzzer (tools/dit-opt/tests/mutation.rs) and the outside one of issue 13.
add("index-dense-array", "array<index: ...> attribute (MLIR 22's parser crashed on it)",
    one_op('"dit.transpose"(%x) {perm = array<index: 0>} : (tensor<4xf32>) -> tensor<4xf32>'))
add("loc-unknown-verifier-error", "dit-verifier error at an op with loc(unknown)",
    fn('  %0 = "dit.transpose"(%x) {perm = array<i64: 1, 0>} : (tensor<2x8xf16>) -> tensor<2x8xf16> loc(unknown)\n'
       '  return %0 : tensor<2x8xf16>\n', args="%x: tensor<2x8xf16>", results="tensor<2x8xf16>"))
add("loc-name-irdl-error", "IRDL error at an op with a name location",
    one_op('"dit.relu"(%x, %x) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32> loc("ff.net.0.proj")'))
add("loc-callsite-unknown", "IRDL error at an op with a call site of unknown locations",
    one_op('"dit.relu"(%x, %x) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32> loc(callsite(unknown at unknown))'))
add("dim-bytes-overflow-3d", "three dims near 2^62: the byte size overflows even 128 bits",
    one_op('"dit.relu"(%x) : (tensor<4611686018427387904x4611686018427387904x4611686018427387904xf32>) -> tensor<4611686018427387904x4611686018427387904x4611686018427387904xf32>',
           args="%x: tensor<4611686018427387904x4611686018427387904x4611686018427387904xf32>",
           results="tensor<4611686018427387904x4611686018427387904x4611686018427387904xf32>"))
add("dim-bytes-over-i64", "a tensor of i64::MAX x 4 f32: more than 2^63-1 bytes",
    one_op('"dit.neg"(%x) : (tensor<9223372036854775807x4xf32>) -> tensor<9223372036854775807x4xf32>',
           args="%x: tensor<9223372036854775807x4xf32>", results="tensor<9223372036854775807x4xf32>"))
add("split-bad-shapes-in-chunk", "a chunk whose dit.split results have the wrong shapes, then a valid one",
    fn('  %0:2 = "dit.split"(%x) {dim = 1 : i64, sizes = array<i64: 2, 6>} : (tensor<4x8xf32>) -> (tensor<4x2xf32>, tensor<4x2xf32>)\n'
       '  %1 = "dit.relu"(%0#0) : (tensor<4x2xf32>) -> tensor<4x2xf32>\n'
       '  %2 = "dit.add"(%1, %0#1) : (tensor<4x2xf32>, tensor<4x2xf32>) -> tensor<4x2xf32>\n'
       '  return %2 : tensor<4x2xf32>\n', args="%x: tensor<4x8xf32>", results="tensor<4x2xf32>")
    + "// -----\n" + VALID)


def main():
    for old in os.listdir(HERE):
        if old.endswith(".mlir"):
            os.remove(os.path.join(HERE, old))
    lines = [
        "# Robustness corpus for dit-opt",
        "",
        "Each `.mlir` file here is malformed in one way. `tools/dit-opt/tests/corpus.rs` runs",
        "`dit-opt` on every file (plain, with `--split-input-file`, and with `--dit-canonicalize`)",
        "and requires exit code 1 with at least one located `file:line:col: error:` line on stderr,",
        "within 20 s, and no panic, assertion or stack dump. lit ignores this folder.",
        "",
        "The files are generated by `generate.py` (deterministic; run `python3 test/corpus/generate.py`",
        "to rewrite them and this README). Add a case there, not by hand.",
        "",
        "Inputs too big to commit are generated by the test itself (`generated_inputs` in",
        "corpus.rs): function types nested 1.2 million deep as `()->(()->(...))`, which overflowed",
        "the parser's stack before the nesting guard learnt that `->` closes no bracket.",
        "",
        "| file | exercises |",
        "|---|---|",
    ]
    for i, (name, description, content) in enumerate(ENTRIES, start=1):
        file = f"{i:03d}-{name}.mlir"
        with open(os.path.join(HERE, file), "wb") as f:
            f.write(content)
        cell = description.replace("|", "\\|").replace("<", "\\<")
        lines.append(f"| `{file}` | {cell} |")
    with open(os.path.join(HERE, "README.md"), "w") as f:
        f.write("\n".join(lines) + "\n")
    print(f"wrote {len(ENTRIES)} files")


if __name__ == "__main__":
    main()
