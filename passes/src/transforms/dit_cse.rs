//! Common-subexpression elimination inside dit's own rewrite loops (dit-canonicalize, the torch
//! conversion, auto-fuse's duplicate check). The `dit-cse` pass itself is upstream `cse`.

use crate::transforms::dit_dce::is_side_effect_free;
use dit_dialect::ir::Op;
use std::collections::HashMap;

/// Everything that decides an op's value: name, operands, attributes, result types. Operands,
/// attributes and types are uniqued by MLIR, so their addresses identify them.
pub(crate) fn key(op: Op) -> Vec<usize> {
    let mut key = Vec::with_capacity(16);
    let name = op.name();
    key.push(name.len());
    key.extend(name.bytes().map(usize::from));
    key.push(usize::MAX);
    key.extend(op.operands().into_iter().map(|v| v.key()));
    key.push(usize::MAX);
    for (attr_name, attr) in op.attrs() {
        key.extend(attr_name.bytes().map(usize::from));
        key.push(attr.key());
    }
    key.push(usize::MAX);
    key.extend(op.results().into_iter().map(|v| v.type_key()));
    key
}

/// Replaces each op that repeats an earlier identical op of the same block; returns how many
/// were replaced (and erased).
pub fn eliminate_common_subexpressions(root: Op) -> usize {
    let mut replaced = 0;
    visit(root, &mut replaced);
    replaced
}

fn visit(op: Op, replaced: &mut usize) {
    for region in 0..op.num_regions() {
        for block in op.region_blocks(region) {
            // A fresh scope per block: values of an earlier block or an enclosing region are
            // not reused, which is always sound (dit.fused bodies are isolated from above).
            let mut seen: HashMap<Vec<usize>, Op> = HashMap::new();
            for inner in block.ops() {
                if inner.num_regions() > 0 {
                    visit(inner, replaced);
                    continue;
                }
                if !is_side_effect_free(inner) {
                    continue;
                }
                match seen.get(&key(inner)) {
                    Some(earlier) => {
                        for (old, new) in inner.results().into_iter().zip(earlier.results()) {
                            old.replace_all_uses_with(new);
                        }
                        inner.erase();
                        *replaced += 1;
                    }
                    None => {
                        seen.insert(key(inner), inner);
                    }
                }
            }
        }
    }
}
