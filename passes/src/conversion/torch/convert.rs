//! The aten op table: how each supported torch op becomes dit ops. The converters live in one
//! module per topic (convert/linear.rs, convert/activation.rs, ...), each a static table of
//! [`Converter`]s naming the torch ops it handles; [`lookup`] finds an op's converter in one
//! sorted index built from all of them, and [`supported`] (the list docs/torch-ops.md is
//! generated from) derives from the same tables, so the list cannot drift from what converts.
//!
//! A converter returns the values that replace the op's tensor results, or the reason it
//! cannot (arguments the dit contract cannot express); the pass then keeps the op as
//! `dit.opaque`, as it keeps every op outside the tables. Torch semantics the converters rely
//! on:
//!
//! - Elementwise arithmetic computes in the result's dtype (torch's type promotion), so every
//!   tensor operand is cast to the result's element type first and a Python scalar becomes a
//!   0-d constant of that type; `alpha` of add/sub/rsub scales the second operand.
//! - Views (view, reshape, flatten, unflatten, squeeze, unsqueeze, ...) take their shape from
//!   the result's type, so their size lists need not be constants.
//! - Ops that return lists of tensors (split, chunk, unbind) are read through the
//!   `torch.prim.ListUnpack` that unpacks them: its result types give the pieces.

mod activation;
mod attention;
mod cast;
mod constant;
mod elementwise;
mod index;
mod linear;
mod norm;
mod reduce;
mod shape;
mod slice;

use super::{
    emit::{Emitter, Num},
    mlir,
    scalars::{self, Scalar},
};
use dit_dialect::ir::{Op, Val};
use mlir_sys::MlirType;
use std::sync::OnceLock;

/// One torch op to convert: its name without the `torch.` prefix, and its tensor results
/// flattened (a list result contributes its unpacked elements), old values with new types.
pub struct Node<'a> {
    pub op: Op<'a>,
    pub name: String,
    /// The values the op defines that dit must replace, in order.
    pub olds: Vec<Val<'a>>,
    /// Their builtin tensor types.
    pub outs: Vec<MlirType>,
}

/// Replacement values, one per entry of [`Node::outs`]; `None` only for a value without uses
/// (native_layer_norm's mean and rstd).
pub type Replacements<'a> = Vec<Option<Val<'a>>>;

type R<T> = Result<T, String>;

/// One entry of a topic's table: the torch ops one function converts.
pub struct Converter {
    /// The torch ops, by their full torch-dialect names (`torch.aten.gelu`): the names of
    /// another dialect, which dit-opt parses as unregistered ops (a `torch.operator` counts
    /// under the name it carries).
    pub ops: &'static [&'static str],
    /// What they become, for docs/torch-ops.md.
    pub becomes: &'static str,
    /// The conversion; it may read [`Node::name`] to tell the ops of its entry apart.
    pub convert: for<'a> fn(&Node<'a>, &mut Emitter<'a>) -> R<Replacements<'a>>,
}

/// A topic: one module's table.
pub struct Topic {
    /// The module (`convert/<module>.rs`).
    pub module: &'static str,
    /// Its heading in docs/torch-ops.md.
    pub title: &'static str,
    /// Its converters.
    pub converters: &'static [Converter],
}

/// Every table, in the order docs/torch-ops.md lists them.
pub static TOPICS: &[Topic] = &[
    Topic {
        module: "linear",
        title: "Matmuls and linear layers",
        converters: linear::CONVERTERS,
    },
    Topic {
        module: "activation",
        title: "Elementwise unary ops",
        converters: activation::CONVERTERS,
    },
    Topic {
        module: "elementwise",
        title: "Elementwise binary ops",
        converters: elementwise::CONVERTERS,
    },
    Topic {
        module: "reduce",
        title: "Reductions, softmax and cumsum",
        converters: reduce::CONVERTERS,
    },
    Topic {
        module: "norm",
        title: "Norms",
        converters: norm::CONVERTERS,
    },
    Topic {
        module: "attention",
        title: "Attention",
        converters: attention::CONVERTERS,
    },
    Topic {
        module: "index",
        title: "Sorting, gathering and scattering",
        converters: index::CONVERTERS,
    },
    Topic {
        module: "shape",
        title: "Views, layout and broadcasting",
        converters: shape::CONVERTERS,
    },
    Topic {
        module: "slice",
        title: "Concatenation, splitting, slicing and padding",
        converters: slice::CONVERTERS,
    },
    Topic {
        module: "cast",
        title: "Casts and identities",
        converters: cast::CONVERTERS,
    },
    Topic {
        module: "constant",
        title: "Constants",
        converters: constant::CONVERTERS,
    },
];

/// The reason an op outside the tables is kept as `dit.opaque`.
pub const UNSUPPORTED: &str = "no dit op models it";

/// Where the generated list of converted ops is, relative to the repository root.
pub const DOC: &str = "docs/torch-ops.md";

/// One index entry: the op's name without `torch.` (what [`Node::name`] holds), its full
/// name, and its converter.
struct Entry {
    short: &'static str,
    full: &'static str,
    converter: &'static Converter,
}

/// Every op of every table, sorted by name (built once). A name in two tables appears twice
/// (the test `no_op_is_in_two_tables` fails); [`lookup`] then finds one of them.
fn index() -> &'static [Entry] {
    static INDEX: OnceLock<Vec<Entry>> = OnceLock::new();
    INDEX.get_or_init(|| {
        let mut entries: Vec<Entry> = TOPICS
            .iter()
            .flat_map(|t| t.converters)
            .flat_map(|c| {
                c.ops.iter().map(move |full| Entry {
                    short: full.strip_prefix("torch.").unwrap_or(full),
                    full,
                    converter: c,
                })
            })
            .collect();
        // Every name has the `torch.` prefix (a test checks), so the order of the short
        // names is the order of the full ones.
        entries.sort_by_key(|e| e.short);
        entries
    })
}

/// The converter of the torch op `short` (its name without `torch.`, as in [`Node::name`]).
pub fn lookup(short: &str) -> Option<&'static Converter> {
    let index = index();
    index
        .binary_search_by(|e| e.short.cmp(short))
        .ok()
        .map(|i| index[i].converter)
}

/// Every torch op the tables convert, full names (`torch.aten.gelu`), sorted.
pub fn supported() -> Vec<&'static str> {
    index().iter().map(|e| e.full).collect()
}

/// What the fusion report adds to [`UNSUPPORTED`] for the op `short`: how many ops convert
/// and where they are listed, and the overloads of the same op that do convert
/// (`aten.add.out` -> `torch.aten.add.Scalar`, `torch.aten.add.Tensor`), the nearest names a
/// graph could be exported with instead.
pub fn unsupported_note(short: &str) -> String {
    let base: String = short.splitn(3, '.').take(2).collect::<Vec<_>>().join(".");
    let overloads: Vec<&str> = index()
        .iter()
        .filter(|e| {
            e.short == base
                || e.short
                    .strip_prefix(base.as_str())
                    .is_some_and(|rest| rest.starts_with('.'))
        })
        .map(|e| e.full)
        .collect();
    let mut note = format!(
        " (dit-convert-torch-to-dit converts {} torch ops, listed in {DOC}",
        index().len()
    );
    if !overloads.is_empty() {
        note.push_str(&format!(
            "; overloads of torch.{base} it converts: {}",
            overloads.join(", ")
        ));
    }
    note.push(')');
    note
}

/// Converts `node`, creating ops through `e`.
pub fn convert<'a>(node: &Node<'a>, e: &mut Emitter<'a>) -> R<Replacements<'a>> {
    match lookup(&node.name) {
        Some(converter) => (converter.convert)(node, e),
        None => Err(UNSUPPORTED.into()),
    }
}

/// docs/torch-ops.md, generated from the tables.
pub fn ops_markdown() -> String {
    let mut md = format!(
        "# Torch ops `dit-convert-torch-to-dit` converts\n\n<!-- Generated from the converter \
         tables in passes/src/conversion/torch/convert/ by `DIT_UPDATE_TORCH_OPS=1 cargo test -p \
         dit-passes --lib torch_ops_doc`; a test fails when this file is stale. -->\n\n\
         The tables convert {} torch ops, in {} topics (one module of \
         passes/src/conversion/torch/convert/ each). An op outside them, or one whose arguments \
         dit cannot express, is kept as `dit.opaque` and the fusion report says why \
         (`--fusion-report=text`).\n",
        index().len(),
        TOPICS.len()
    );
    for topic in TOPICS {
        let n: usize = topic.converters.iter().map(|c| c.ops.len()).sum();
        md.push_str(&format!(
            "\n## {} ({n} op{}, `convert/{}.rs`)\n\n| torch ops | become |\n|:--|:--|\n",
            topic.title,
            if n == 1 { "" } else { "s" },
            topic.module
        ));
        for c in topic.converters {
            let ops: Vec<String> = c.ops.iter().map(|o| format!("`{o}`")).collect();
            md.push_str(&format!("| {} | {} |\n", ops.join(", "), c.becomes));
        }
    }
    md
}

/// `Ok` of the single replacement `v`.
fn one<'a>(v: Val<'a>) -> R<Replacements<'a>> {
    Ok(vec![Some(v)])
}

impl<'a> Node<'a> {
    /// Operand `i`.
    pub fn arg(&self, i: usize) -> R<Val<'a>> {
        (i < self.op.num_operands())
            .then(|| self.op.operand(i))
            .ok_or_else(|| format!("operand #{i} is missing"))
    }

    /// Operand `i`, which must be a ranked (builtin) tensor.
    fn tensor(&self, i: usize) -> R<Val<'a>> {
        let v = self.arg(i)?;
        v.tensor()
            .map(|_| v)
            .ok_or_else(|| format!("operand #{i} is not a ranked tensor"))
    }

    /// Operand `i` cast to the element type of the first result.
    fn tensor_as_out(&self, e: &mut Emitter<'a>, i: usize) -> R<Val<'a>> {
        let v = self.tensor(i)?;
        e.cast(v, element(self.out(0)?)?)
    }

    /// Optional tensor operand `i` (`torch.constant.none`, or missing, is absent).
    fn optional_tensor(&self, i: usize) -> R<Option<Val<'a>>> {
        match self.arg(i) {
            Err(_) => Ok(None),
            Ok(v) if v.tensor().is_some() => Ok(Some(v)),
            Ok(v) if scalars::is_none(v) => Ok(None),
            Ok(_) => Err(format!("operand #{i} is neither a tensor nor none")),
        }
    }

    /// Result type `i`.
    fn out(&self, i: usize) -> R<MlirType> {
        self.outs
            .get(i)
            .copied()
            .ok_or_else(|| format!("result #{i} is missing"))
    }

    fn int(&self, i: usize, what: &str) -> R<i64> {
        scalars::int(self.arg(i)?).ok_or_else(|| format!("{what} is not a constant integer"))
    }

    fn optional_int(&self, i: usize, what: &str) -> R<Option<i64>> {
        match self.arg(i) {
            Err(_) => Ok(None),
            Ok(v) if scalars::is_none(v) => Ok(None),
            Ok(_) => self.int(i, what).map(Some),
        }
    }

    /// An optional bool operand (`None` or missing: absent).
    fn optional_bool(&self, i: usize, what: &str) -> R<Option<bool>> {
        match self.arg(i) {
            Err(_) => Ok(None),
            Ok(v) if scalars::is_none(v) => Ok(None),
            Ok(v) => scalars::bool(v)
                .map(Some)
                .ok_or_else(|| format!("{what} is not a constant bool")),
        }
    }

    fn float(&self, i: usize, what: &str) -> R<f64> {
        scalars::float(self.arg(i)?).ok_or_else(|| format!("{what} is not a constant number"))
    }

    fn int_list(&self, i: usize, what: &str) -> R<Vec<i64>> {
        scalars::int_list(self.arg(i)?)
            .ok_or_else(|| format!("{what} is not a constant integer list"))
    }

    /// A Python scalar operand as a number (int, float or bool).
    fn number(&self, i: usize) -> R<Num> {
        match scalars::eval(self.arg(i)?) {
            Some(Scalar::Int(v)) => Ok(Num::Int(v)),
            Some(Scalar::Float(v)) => Ok(Num::Float(v)),
            Some(Scalar::Bool(v)) => Ok(Num::Bool(v)),
            _ => Err(format!("operand #{i} is not a constant number")),
        }
    }

    /// `alpha` of add/sub (1 when missing).
    fn alpha(&self, i: usize) -> R<f64> {
        match self.arg(i) {
            Err(_) => Ok(1.0),
            Ok(_) => self.float(i, "alpha"),
        }
    }

    /// Operand `i` must be the constant 1 (addmm's beta and alpha).
    fn require_one(&self, i: usize, what: &str) -> R<()> {
        match self.arg(i) {
            Err(_) => Ok(()),
            Ok(_) if self.float(i, what)? == 1.0 => Ok(()),
            Ok(_) => Err(format!("{what} is not 1")),
        }
    }
}

fn element(ty: MlirType) -> R<MlirType> {
    mlir::element_type(ty).ok_or_else(|| "not a tensor type".to_string())
}

fn rank(v: Val) -> R<usize> {
    v.tensor()
        .map(|t| t.rank())
        .ok_or_else(|| "not a ranked tensor".to_string())
}

fn rank_of(ty: MlirType) -> R<usize> {
    mlir::tensor_info(ty)
        .map(|t| t.rank())
        .ok_or_else(|| "not a ranked tensor".to_string())
}

/// A torch dim (negative counts from the back) as an index below `rank`.
fn normalize_dim(dim: i64, rank: usize) -> R<usize> {
    let r = i64::try_from(rank).map_err(|_| "rank overflows".to_string())?;
    let d = if dim < 0 {
        dim.checked_add(r)
    } else {
        Some(dim)
    };
    match d {
        Some(d) if (0..r.max(1)).contains(&d) => Ok(d as usize),
        _ => Err(format!("dim {dim} is out of range for rank {rank}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::{Path, PathBuf};

    fn repo_root() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
    }

    #[test]
    fn dims_normalize_like_torch() {
        assert_eq!(normalize_dim(-1, 4), Ok(3));
        assert_eq!(normalize_dim(0, 4), Ok(0));
        assert!(normalize_dim(4, 4).is_err());
        assert!(normalize_dim(-5, 4).is_err());
        assert!(normalize_dim(i64::MIN, 4).is_err());
        assert_eq!(normalize_dim(0, 0), Ok(0));
    }

    #[test]
    fn no_op_is_in_two_tables() {
        let mut seen: Vec<(&str, &str)> = Vec::new();
        for topic in TOPICS {
            assert!(
                !topic.converters.is_empty(),
                "{} has no converters",
                topic.module
            );
            for c in topic.converters {
                assert!(
                    !c.ops.is_empty(),
                    "a converter of {} names no op",
                    topic.module
                );
                for op in c.ops {
                    assert!(
                        op.starts_with("torch.") && op.len() > "torch.".len(),
                        "{op} ({}) is not a full torch op name",
                        topic.module
                    );
                    if let Some((_, first)) = seen.iter().find(|(name, _)| name == op) {
                        panic!("{op} is in the tables of {first} and {}", topic.module);
                    }
                    seen.push((op, topic.module));
                }
            }
        }
        let names = supported();
        assert_eq!(names.len(), seen.len());
        assert!(names.windows(2).all(|w| w[0] < w[1]), "sorted and unique");
    }

    #[test]
    fn lookup_finds_exactly_the_tables_ops() {
        for topic in TOPICS {
            for c in topic.converters {
                for op in c.ops {
                    let found = lookup(&op["torch.".len()..]).expect("in the index");
                    assert!(std::ptr::eq(found, c), "{op} finds another converter");
                }
            }
        }
        for name in [
            "aten.tan",
            "aten.add",
            "aten.add.out",
            "torch.aten.gelu",
            "",
            "aten",
        ] {
            assert!(lookup(name).is_none(), "{name}");
        }
    }

    #[test]
    fn the_unsupported_note_counts_the_ops_and_names_the_overloads() {
        let n = supported().len();
        let note = unsupported_note("aten.add.out");
        assert!(
            note.contains(&format!("converts {n} torch ops, listed in {DOC}")),
            "{note}"
        );
        assert!(
            note.ends_with("overloads of torch.aten.add it converts: torch.aten.add.Scalar, torch.aten.add.Tensor)"),
            "{note}"
        );
        // tanh is another op than tan, not an overload of it.
        let note = unsupported_note("aten.tan");
        assert!(!note.contains("overloads"), "{note}");
        assert!(unsupported_note("aten.sort.values").contains("torch.aten.sort.stable"));
    }

    /// Regenerate with `DIT_UPDATE_TORCH_OPS=1 cargo test -p dit-passes --lib torch_ops_doc`.
    #[test]
    fn torch_ops_doc_is_current() {
        let path = repo_root().join(DOC);
        let generated = ops_markdown();
        for op in supported() {
            assert!(
                generated.contains(&format!("`{op}`")),
                "{op} is not in {DOC}"
            );
        }
        if std::env::var("DIT_UPDATE_TORCH_OPS").is_ok_and(|v| v == "1") {
            std::fs::write(&path, &generated).expect("docs/torch-ops.md is writable");
            return;
        }
        let committed = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            committed == generated,
            "{DOC} is stale: regenerate it with \
             `DIT_UPDATE_TORCH_OPS=1 cargo test -p dit-passes --lib torch_ops_doc`"
        );
    }

    /// Table entries no lit test exercises, with the reason.
    const NOT_IN_LIT: &[(&str, &str)] = &[];

    /// Whether `text` names the op `full` (`"torch.aten.sort"` but not `torch.aten.sort.stable`).
    fn names_op(text: &str, full: &str) -> bool {
        text.match_indices(full).any(|(i, _)| {
            let after = text[i + full.len()..].chars().next();
            let before = text[..i].chars().next_back();
            !after.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.')
                && !before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.')
        })
    }

    /// The lit tests that run the conversion: test/Conversion, test/Transforms'
    /// dit-convert-torch-to-dit*, and the imported model graphs.
    fn lit_sources() -> Vec<(PathBuf, String)> {
        let root = repo_root().join("test");
        let mut out = Vec::new();
        let dirs: [(&str, &str); 3] = [
            ("Conversion", ""),
            ("Transforms", "dit-convert-torch-to-dit"),
            ("models/imported", ""),
        ];
        for (dir, prefix) in dirs {
            let Ok(entries) = std::fs::read_dir(root.join(dir)) else {
                continue;
            };
            for entry in entries.flatten() {
                let path = entry.path();
                let name = entry.file_name().to_string_lossy().into_owned();
                if name.ends_with(".mlir") && name.starts_with(prefix) {
                    let text = std::fs::read_to_string(&path).expect("a readable lit test");
                    out.push((path, text));
                }
            }
        }
        out
    }

    #[test]
    fn every_table_entry_is_exercised_by_a_lit_test() {
        let sources = lit_sources();
        assert!(
            sources.len() > 10,
            "the lit tests are not where this test looks"
        );
        let mut untested = Vec::new();
        for op in supported() {
            let tested = sources.iter().any(|(_, text)| names_op(text, op));
            let excused = NOT_IN_LIT.iter().any(|(name, _)| *name == op);
            assert!(
                !(tested && excused),
                "{op} is in NOT_IN_LIT but a lit test uses it"
            );
            if !tested && !excused {
                untested.push(op);
            }
        }
        assert!(
            untested.is_empty(),
            "no lit test under test/Conversion, test/Transforms/dit-convert-torch-to-dit* or \
             test/models/imported uses {untested:?}: add one, or list the op in NOT_IN_LIT \
             with the reason"
        );
        for (name, _) in NOT_IN_LIT {
            assert!(
                supported().contains(name),
                "NOT_IN_LIT names {name}, no table entry"
            );
        }
    }

    #[test]
    fn op_names_match_whole_names_only() {
        assert!(names_op(r#""torch.aten.sort"(%x)"#, "torch.aten.sort"));
        assert!(!names_op(
            r#""torch.aten.sort.stable"(%x)"#,
            "torch.aten.sort"
        ));
        assert!(!names_op("torch.aten.tanh", "torch.aten.tan"));
        assert!(!names_op("xtorch.aten.t", "torch.aten.t"));
    }
}
