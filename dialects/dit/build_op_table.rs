//! Generates the Rust op table of the dit-ops crate (dialects/dit-ops/src/op_table.rs) from the
//! TableGen records of include/dit/DitOps.td (`llvm-tblgen --dump-json`): one `OpKind` variant
//! per op of the dit dialect, in .td order, with its name, operand slots (plain, `Optional`,
//! `Variadic`), attributes (`OptionalAttr` or not), result and region counts, traits and
//! `substitution`. The ODS records are the one definition; the committed table is compared with
//! this output by a test of dit-dialect (src/ops.rs).

use serde_json::Value;
use std::{fmt::Write, path::Path};

/// The traits the table records: (ODS def name, `Traits` constant of dit-ops).
const TRAITS: &[(&str, &str)] = &[
    ("Pure", "PURE"),
    ("Terminator", "TERMINATOR"),
    ("Dit_Elementwise", "ELEMENTWISE"),
    ("Dit_ViewLike", "VIEW_LIKE"),
    ("Dit_RowWise", "ROW_WISE"),
    ("Dit_RowWiseOnLastDim", "ROW_WISE_ON_LAST_DIM"),
    ("Dit_Cube", "CUBE"),
    ("Dit_Library", "LIBRARY"),
];

/// One op record, as the table needs it.
struct OpRecord {
    variant: String,
    name: String,
    summary: String,
    operands: Vec<(String, &'static str)>,
    attributes: Vec<(String, bool)>,
    results: Option<usize>,
    regions: usize,
    traits: Vec<&'static str>,
    substitution: Option<String>,
    line: u64,
}

/// Reads the records JSON and writes the table to `output`. A record that does not have the
/// shape ODS gives every op stops the build with what is wrong.
pub fn write(records: &Path, output: &Path) {
    let text = std::fs::read_to_string(records).expect("read the TableGen records");
    let all: Value = serde_json::from_str(&text).expect("TableGen records are JSON");
    let mut ops: Vec<OpRecord> = all["!instanceof"]["Op"]
        .as_array()
        .expect("records list the Op instances")
        .iter()
        .map(|n| n.as_str().expect("record names are strings"))
        .filter(|n| all[*n]["opDialect"]["def"] == "Dit_Dialect")
        .map(|n| op_record(&all, n))
        .collect();
    ops.sort_by_key(|o| o.line);
    std::fs::write(output, render(&ops)).expect("write the op table");
}

/// The superclasses of the record that an argument or trait names.
fn superclasses<'a>(all: &'a Value, def: &str) -> Vec<&'a str> {
    all[def]["!superclasses"]
        .as_array()
        .unwrap_or_else(|| panic!("record {def} has no superclasses"))
        .iter()
        .filter_map(Value::as_str)
        .collect()
}

fn op_record(all: &Value, def: &str) -> OpRecord {
    let record = &all[def];
    let variant = def
        .strip_prefix("Dit_")
        .and_then(|d| d.strip_suffix("Op"))
        .unwrap_or_else(|| panic!("op record {def} is not named Dit_<Name>Op"))
        .to_string();
    let mnemonic = record["opName"].as_str().expect("an op has opName");
    // "DitOps.td:80": the .td order is the contract's order.
    let line = record["!locs"][0]
        .as_str()
        .and_then(|l| l.rsplit(':').next())
        .and_then(|l| l.parse().ok())
        .unwrap_or_else(|| panic!("op record {def} has no location"));
    let mut operands = Vec::new();
    let mut attributes = Vec::new();
    for arg in record["arguments"]["args"]
        .as_array()
        .expect("an op has arguments")
    {
        let constraint = arg[0]["def"]
            .as_str()
            .expect("an argument names its constraint");
        let name = arg[1].as_str().expect("an argument is named").to_string();
        let classes = superclasses(all, constraint);
        if classes.contains(&"TypeConstraint") {
            let arity = if classes.contains(&"Variadic") {
                "Variadic"
            } else if classes.contains(&"Optional") {
                "Optional"
            } else {
                "One"
            };
            operands.push((name, arity));
        } else if classes.contains(&"AttrConstraint") {
            attributes.push((name, classes.contains(&"OptionalAttr")));
        } else {
            panic!("{def}: argument {name} is neither an operand nor an attribute");
        }
    }
    let results = record["results"]["args"]
        .as_array()
        .expect("an op has results");
    let variadic_results = results.iter().any(|r| {
        r[0]["def"]
            .as_str()
            .is_some_and(|c| superclasses(all, c).contains(&"Variadic"))
    });
    let traits = record["traits"]
        .as_array()
        .expect("an op has traits")
        .iter()
        .filter_map(|t| t["def"].as_str())
        .filter_map(|t| TRAITS.iter().find(|(d, _)| *d == t).map(|(_, c)| *c))
        .collect();
    let substitution = record["substitution"]
        .as_str()
        .filter(|s| !s.is_empty())
        .map(str::to_string);
    OpRecord {
        variant,
        name: format!("dit.{mnemonic}"),
        summary: record["summary"].as_str().unwrap_or_default().to_string(),
        operands,
        attributes,
        results: (!variadic_results).then_some(results.len()),
        regions: record["regions"]["args"].as_array().map_or(0, Vec::len),
        traits,
        substitution,
        line,
    }
}

/// The Rust source of the table. It is `include!`d by dit-ops, which rustfmt does not format,
/// so the layout here is the committed one.
fn render(ops: &[OpRecord]) -> String {
    let n = ops.len();
    let mut s = String::new();
    s.push_str(
        "// @generated by dialects/dit/build.rs (build_op_table.rs) from the records of\n\
         // dialects/dit/include/dit/DitOps.td: do not edit. After a change to the .td files,\n\
         // regenerate it with `DIT_REGENERATE=1 cargo test -p dit-dialect op_table_is_current`.\n\n",
    );
    s.push_str(
        "/// A dit op: one variant per op of DitOps.td, in its order.\n\
         #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]\n\
         pub enum OpKind {\n",
    );
    for op in ops {
        let summary = op.summary.replace('[', "\\[").replace(']', "\\]");
        writeln!(s, "    /// `{}`: {summary}.", op.name).unwrap();
        writeln!(s, "    {},", op.variant).unwrap();
    }
    s.push_str("}\n\nimpl OpKind {\n    /// Every op, in the order of DitOps.td.\n");
    writeln!(s, "    pub const ALL: [OpKind; {n}] = [").unwrap();
    for op in ops {
        writeln!(s, "        OpKind::{},", op.variant).unwrap();
    }
    s.push_str("    ];\n}\n\n");
    s.push_str("/// Each op's record, indexed by `OpKind as usize`.\n");
    writeln!(s, "static SPECS: [OpSpec; {n}] = [").unwrap();
    for op in ops {
        s.push_str("    OpSpec {\n");
        writeln!(s, "        kind: OpKind::{},", op.variant).unwrap();
        writeln!(s, "        name: {:?},", op.name).unwrap();
        let operands: Vec<String> = op
            .operands
            .iter()
            .map(|(name, arity)| format!("({name:?}, Arity::{arity})"))
            .collect();
        writeln!(s, "        operands: &[{}],", operands.join(", ")).unwrap();
        let attributes: Vec<String> = op
            .attributes
            .iter()
            .map(|(name, optional)| format!("AttrSpec {{ name: {name:?}, optional: {optional} }}"))
            .collect();
        writeln!(s, "        attributes: &[{}],", attributes.join(", ")).unwrap();
        match op.results {
            Some(r) => writeln!(s, "        results: Some({r}),").unwrap(),
            None => s.push_str("        results: None,\n"),
        }
        writeln!(s, "        regions: {},", op.regions).unwrap();
        let traits = op.traits.iter().fold("Traits::NONE".to_string(), |acc, t| {
            format!("{acc}.with(Traits::{t})")
        });
        writeln!(s, "        traits: {traits},").unwrap();
        match &op.substitution {
            Some(text) => writeln!(s, "        substitution: Some({text:?}),").unwrap(),
            None => s.push_str("        substitution: None,\n"),
        }
        s.push_str("    },\n");
    }
    s.push_str("];\n\n");
    let mut sorted: Vec<&OpRecord> = ops.iter().collect();
    sorted.sort_by(|a, b| a.name.cmp(&b.name));
    s.push_str("/// The op names in byte order, for `OpKind::from_name`'s binary search.\n");
    writeln!(s, "static SORTED_NAMES: [(&str, OpKind); {n}] = [").unwrap();
    for op in sorted {
        writeln!(s, "    ({:?}, OpKind::{}),", op.name, op.variant).unwrap();
    }
    s.push_str("];\n");
    s
}
