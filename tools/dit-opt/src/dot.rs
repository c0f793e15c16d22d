//! `--emit-fusion-dot=FILE`: the graph after the passes as Graphviz, each `dit.fused` kernel a
//! cluster of the ops it computes. Node names follow walk order, so the output is deterministic.

use dit_dialect::ir::{Op, Val};
use dit_dialect::ops::{OpKind, DIALECT_PREFIX};
use std::{collections::HashMap, fmt::Write};

/// Renders every function under `root`.
pub fn render(root: Op) -> String {
    let mut out =
        String::from("digraph dit {\n  rankdir=TB;\n  node [shape=box, fontname=\"monospace\"];\n");
    let mut ids: HashMap<usize, String> = HashMap::new();
    let mut next = 0usize;
    let mut funcs = Vec::new();
    root.walk(&mut |op| {
        if op.is("func.func") {
            funcs.push(op);
        }
    });
    for (f, func) in funcs.iter().enumerate() {
        let name = func
            .attr("sym_name")
            .and_then(|a| a.as_str())
            .unwrap_or_default();
        let _ = writeln!(
            out,
            "  subgraph cluster_func_{f} {{\n    label=\"{name}\";\n    style=dashed;"
        );
        for block in func.region_blocks(0) {
            for (i, arg) in block.arguments().into_iter().enumerate() {
                let id = format!("n{next}");
                next += 1;
                let _ = writeln!(out, "    {id} [label=\"arg {i}\", shape=ellipse];");
                ids.insert(arg.key(), id);
            }
            for op in block.ops() {
                node(op, &mut out, &mut ids, &mut next, "    ");
            }
        }
        out.push_str("  }\n");
    }
    out.push_str("}\n");
    out
}

fn short(op: Op) -> String {
    op.name().trim_start_matches(DIALECT_PREFIX).to_string()
}

/// Writes `op` (a cluster for dit.fused) and the edges from its operands' producers.
fn node(
    op: Op,
    out: &mut String,
    ids: &mut HashMap<usize, String>,
    next: &mut usize,
    indent: &str,
) {
    if op.is("func.return") || op.is_kind(OpKind::Yield) || op.is("arith.constant") {
        edges_into(op, "return", out, ids, indent);
        return;
    }
    if op.is_kind(OpKind::Fused) {
        let kernel = op
            .attr("kernel")
            .and_then(|a| a.as_str())
            .unwrap_or_default();
        let _ = writeln!(out, "{indent}subgraph cluster_{kernel} {{\n{indent}  label=\"{kernel}\";\n{indent}  style=filled;\n{indent}  color=lightblue;");
        let captured = op.operands();
        for block in op.region_blocks(0) {
            // Inside, a block argument stands for the captured value.
            for (arg, value) in block.arguments().into_iter().zip(&captured) {
                if let Some(id) = ids.get(&value.key()).cloned() {
                    ids.insert(arg.key(), id);
                }
            }
            let inner = format!("{indent}  ");
            for inner_op in block.ops() {
                node(inner_op, out, ids, next, &inner);
            }
            // The fused op's results are what its yield returns.
            if let Some(y) = block.ops().into_iter().find(|o| o.is_kind(OpKind::Yield)) {
                for (result, yielded) in op.results().into_iter().zip(y.operands()) {
                    if let Some(id) = ids.get(&yielded.key()).cloned() {
                        ids.insert(result.key(), id);
                    }
                }
            }
        }
        let _ = writeln!(out, "{indent}}}");
        return;
    }
    let id = format!("n{next}");
    *next += 1;
    // Views (no kernel of their own) are drawn dotted.
    let style = if dit_passes::is_view(op) {
        ", style=dotted"
    } else {
        ""
    };
    let _ = writeln!(out, "{indent}{id} [label=\"{}\"{style}];", short(op));
    edges_into(op, &id, out, ids, indent);
    for r in op.results() {
        ids.insert(r.key(), id.clone());
    }
}

fn edges_into(op: Op, target: &str, out: &mut String, ids: &HashMap<usize, String>, indent: &str) {
    if target == "return" {
        return;
    }
    let operands: Vec<Val> = op.operands();
    for v in operands {
        if let Some(src) = ids.get(&v.key()) {
            let _ = writeln!(out, "{indent}{src} -> {target};");
        }
    }
}
