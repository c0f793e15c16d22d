//! The pass registry: one table from which dit-opt's flags, `--help`, `--list-passes` and
//! docs/Passes.md are generated. Adding a pass means adding one entry here.

use dit_dialect::{ir::Op, Target};

/// What every pass run gets besides the module.
#[derive(Clone, Copy, Debug)]
pub struct PassContext {
    /// The hardware the pipeline targets (`--target`).
    pub target: &'static Target,
}

/// A pass failed; what went wrong has already been reported as located diagnostics.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("pass failed (see the diagnostics above)")]
pub struct PassFailed;

/// A pass. `run` reports problems as located diagnostics and returns `Err(PassFailed)`.
pub trait DitPass {
    fn run(&mut self, module: Op, context: &PassContext) -> Result<(), PassFailed>;
}

/// One option a pass takes in a pipeline (`dit-x{name=value}`).
#[derive(Clone, Copy, Debug)]
pub struct PassOptionInfo {
    pub name: &'static str,
    pub help: &'static str,
    pub default: &'static str,
}

/// Builds a pass from its `{name=value}` options (already checked against `options`).
pub type PassFactory = fn(&[(String, String)]) -> Result<Box<dyn DitPass>, String>;

/// One registered pass.
#[derive(Clone, Copy)]
pub struct PassInfo {
    /// Command-line flag and pipeline name, dit-prefixed kebab-case.
    pub flag: &'static str,
    /// One line for `--help` and `--list-passes`.
    pub summary: &'static str,
    /// Longer text for docs/Passes.md.
    pub description: &'static str,
    pub options: &'static [PassOptionInfo],
    /// Whether the dit verifier runs after the pass (not after `dit-verify` itself).
    pub verify_after: bool,
    pub create: PassFactory,
}

/// Every pass, in the order `--list-passes` shows them.
pub static PASSES: &[PassInfo] = &[
    PassInfo {
        flag: "dit-verify",
        summary: "Check the dit rules that IRDL cannot express",
        description:
            "Runs the dit verifier on every dit op: element types per op, enum values and \
kinds of optional attributes, operand segments, and static shape rules (contraction dims, \
broadcasting, permutations, split sizes, element counts, even split dims). Each violation is an \
error at the op's location naming the op and the rule. The same verifier also runs after parsing \
and after every other pass.",
        options: &[],
        verify_after: false,
        create: |_| Ok(Box::new(crate::dit_verify::Verify)),
    },
    PassInfo {
        flag: "dit-dce",
        summary: "Erase dit ops (and constants) whose results are unused",
        description:
            "IRDL ops carry no traits, so MLIR does not know they are free of side effects \
and upstream dead-code elimination keeps them. This pass erases every unused dit op and \
`arith.constant`, innermost regions first and each block from the back, so whole dead chains go \
in one run. `dit.opaque` (unknown semantics) and dit.fused regions containing one are kept.",
        options: &[],
        verify_after: true,
        create: |_| Ok(Box::new(crate::dit_dce::Dce)),
    },
    PassInfo {
        flag: "dit-cse",
        summary: "Merge identical dit ops (and constants) on the same operands",
        description:
            "Two side-effect-free ops with the same name, operands, attributes and result \
types compute the same value; the later one is replaced by the earlier. Works block by block; \
each region starts a fresh scope (dit.fused bodies are isolated from above). Region-holding ops \
and `dit.opaque` are never merged.",
        options: &[],
        verify_after: true,
        create: |_| Ok(Box::new(crate::dit_cse::Cse)),
    },
    PassInfo {
        flag: "dit-canonicalize",
        summary: "Fold shape no-ops, then CSE and DCE, to a fixed point",
        description:
            "Folds reshape∘reshape into one reshape, identity reshapes/broadcasts/casts/bitcasts \
(result type equals input type) into their input, identity transposes into their input, \
transpose∘transpose into one transpose with the composed permutation (or nothing), and \
bitcast∘bitcast into one bitcast; then runs dit-cse and dit-dce, repeating until nothing changes.",
        options: &[],
        verify_after: true,
        create: |_| Ok(Box::new(crate::dit_canonicalize::Canonicalize::default())),
    },
];

/// The registered pass with this flag.
pub fn lookup(flag: &str) -> Option<&'static PassInfo> {
    PASSES.iter().find(|p| p.flag == flag)
}

/// docs/Passes.md, generated from the registry.
pub fn passes_markdown() -> String {
    let mut out = String::from(
        "# dit passes\n\n<!-- Generated from passes/src/registry.rs by `dit-opt --print-passes-doc`; \
a test fails when this file is stale. -->\n\nEvery pass runs as `dit-opt --<flag>` or inside \
`--pass-pipeline='builtin.module(<flag>{option=value})'`. Passes that depend on hardware read \
`--target` (default ascend910b).\n",
    );
    for p in PASSES {
        out.push_str(&format!(
            "\n## `--{}`\n\n{}.\n\n{}\n",
            p.flag, p.summary, p.description
        ));
        if !p.options.is_empty() {
            out.push_str("\n| option | default | meaning |\n|---|---|---|\n");
            for o in p.options {
                out.push_str(&format!(
                    "| `{}` | `{}` | {} |\n",
                    o.name, o.default, o.help
                ));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flags_are_dit_prefixed_kebab_case_and_unique() {
        for (i, p) in PASSES.iter().enumerate() {
            assert!(p.flag.starts_with("dit-"), "{}", p.flag);
            assert!(
                p.flag.chars().all(|c| c.is_ascii_lowercase() || c == '-'),
                "{}",
                p.flag
            );
            assert!(
                PASSES[..i].iter().all(|q| q.flag != p.flag),
                "duplicate {}",
                p.flag
            );
        }
    }

    #[test]
    fn every_pass_has_a_lit_test_and_a_source_file() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        for p in PASSES {
            let test = root.join(format!("test/Transforms/{}.mlir", p.flag));
            assert!(test.exists(), "missing {}", test.display());
            let file = p.flag.replace('-', "_");
            let src = root.join(format!("passes/src/{file}.rs"));
            assert!(src.exists(), "missing {}", src.display());
        }
    }
}
