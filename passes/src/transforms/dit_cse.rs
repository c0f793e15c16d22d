//! Common-subexpression elimination inside dit's own rewrite loops (dit-canonicalize, the torch
//! conversion, auto-fuse's duplicate check). The `dit-cse` pass itself is upstream `cse`.

use crate::transforms::dit_dce::is_side_effect_free;
use dit_dialect::ir::Op;
use std::collections::{hash_map::Entry, HashMap};
use std::hash::{BuildHasherDefault, Hasher};

/// Everything that decides an op's value: name, attributes, operands, result types. Names,
/// operands, attributes and types are uniqued by MLIR, so their addresses identify them.
pub(crate) fn key(op: Op) -> Vec<usize> {
    let (operands, results) = (op.num_operands(), op.num_results());
    // Room for the separators and a few attributes (most dit ops carry none to three).
    let mut key = Vec::with_capacity(12 + operands + results);
    op.push_name_and_attr_keys(&mut key);
    key.extend((0..operands).map(|i| op.operand(i).key()));
    key.push(usize::MAX);
    key.extend((0..results).map(|i| op.result(i).type_key()));
    key
}

/// A hasher for keys of addresses (FxHash's multiply-rotate): the keys are MLIR's own
/// uniqued addresses, not attacker-chosen, and SipHash cost a third of CSE.
#[derive(Default)]
pub(crate) struct AddressHasher(u64);

impl Hasher for AddressHasher {
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for chunk in &mut chunks {
            let mut word = [0u8; 8];
            word.copy_from_slice(chunk);
            self.write_u64(u64::from_ne_bytes(word));
        }
        for &b in chunks.remainder() {
            self.write_u64(u64::from(b));
        }
    }

    fn write_u64(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }

    fn write_usize(&mut self, word: usize) {
        self.write_u64(word as u64);
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

/// A map keyed by [`key`]s.
pub(crate) type KeyMap<V> = HashMap<Vec<usize>, V, BuildHasherDefault<AddressHasher>>;

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
            let mut seen: KeyMap<Op> = KeyMap::default();
            for inner in block.ops() {
                if inner.num_regions() > 0 {
                    visit(inner, replaced);
                    continue;
                }
                if !is_side_effect_free(inner) {
                    continue;
                }
                match seen.entry(key(inner)) {
                    Entry::Occupied(earlier) => {
                        for (old, new) in inner.results().into_iter().zip(earlier.get().results()) {
                            old.replace_all_uses_with(new);
                        }
                        // SAFETY: its results' uses moved to `earlier`; `inner` has no regions, the
                        // block's op list was taken first, and `seen` holds only kept ops.
                        unsafe { inner.erase() };
                        *replaced += 1;
                    }
                    Entry::Vacant(slot) => {
                        slot.insert(inner);
                    }
                }
            }
        }
    }
}
