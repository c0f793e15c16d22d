//! Commuted copies of the PDL patterns (issue 13): a pattern written `op<dit.mul>(a, b)` must
//! match `b·a` as well, and no author should have to remember to write the mirror. build.rs
//! runs [`expand`] on mlir-pdll's output: for each pattern, every dit.add / dit.mul in the
//! match part whose operands may come in either order is a swap site, and the pattern is
//! repeated once per non-empty subset of its swap sites with those operand pairs swapped (a
//! copy named `<pattern>__commuted<mask>`, so its switch, the name before `__`, is the same).
//!
//! A copy whose match is one a hand-written pattern already has (a mirror written before
//! this expansion existed, kept because its report detail names the order it matches) is not
//! generated: two patterns matching the same ops would race, and the report would name
//! whichever won.
//!
//! Not a swap site: an op whose two operands are one PDL value (x·x), or where one operand is
//! bound to a constant (a result of `arith.constant`, or checked by a constant constraint):
//! dit-fuse-patterns moves constants to the right of add/mul before matching, so the mirror of
//! such an op never occurs.

/// The ops whose operand order does not change their value (or their result type: dit
/// elementwise binaries broadcast symmetrically).
const COMMUTATIVE: [&str; 2] = ["dit.add", "dit.mul"];
/// Native constraints whose first argument must be a constant.
const CONSTANT_CONSTRAINTS: [&str; 2] = ["ConstNear", "IsEpsilon"];
/// Past this many swap sites a pattern would be copied 2^n times: refuse rather than blow up
/// the matcher (split the pattern, or check the order in a native).
pub const MAX_SWAP_SITES: usize = 6;

/// `%n = operation "dit.add"(%a, %b : !pdl.value, !pdl.value) …` split into the text before the
/// first operand, the two operands, and the rest (from the ` : ` on).
fn binary_operation(line: &str) -> Option<(&str, &str, &str, &str)> {
    let name_start = line.find("= operation \"")? + "= operation \"".len();
    let name_end = name_start + line[name_start..].find('"')?;
    let name = &line[name_start..name_end];
    if !COMMUTATIVE.contains(&name) {
        return None;
    }
    let open = name_end + 1;
    let rest = line[open..].strip_prefix('(')?;
    let (operands, tail) = rest.split_once(" : !pdl.value, !pdl.value)")?;
    let (a, b) = operands.split_once(", ")?;
    if !a.starts_with('%') || !b.starts_with('%') || b.contains(',') {
        return None;
    }
    let tail_start = line.len() - tail.len() - " : !pdl.value, !pdl.value)".len();
    Some((&line[..open + 1], a, b, &line[tail_start..]))
}

/// The SSA name a line defines (`%7 = …`).
fn defined(line: &str) -> Option<&str> {
    let (lhs, _) = line.trim_start().split_once(" = ")?;
    lhs.starts_with('%').then_some(lhs)
}

/// The PDL values of a match part that are bound to constants.
fn constants(lines: &[&str]) -> Vec<String> {
    let mut constant_ops = Vec::new();
    let mut out = Vec::new();
    for line in lines {
        let t = line.trim_start();
        if t.contains("= operation \"arith.constant\"") {
            constant_ops.extend(defined(line).map(str::to_string));
        }
        if let (Some(v), Some((_, of))) = (defined(line), t.split_once(" = result ")) {
            if let Some(op) = of.split_whitespace().nth(2) {
                if constant_ops.iter().any(|c| c == op) {
                    out.push(v.to_string());
                }
            }
        }
        for c in CONSTANT_CONSTRAINTS {
            if let Some(args) = t.strip_prefix(&format!("apply_native_constraint \"{c}\"(")) {
                let first = args.split([',', ' ', ':']).next().unwrap_or_default();
                out.push(first.to_string());
            }
        }
    }
    out
}

/// The line indices (within `body`) of a pattern's swap sites.
fn swap_sites(body: &[&str]) -> Vec<usize> {
    let end = body
        .iter()
        .position(|l| l.trim_start().starts_with("rewrite "))
        .unwrap_or(body.len());
    let matched = &body[..end];
    let constants = constants(matched);
    let is_constant = |v: &str| constants.iter().any(|c| c == v);
    matched
        .iter()
        .enumerate()
        .filter_map(|(i, l)| {
            let (_, a, b, _) = binary_operation(l)?;
            (a != b && !is_constant(a) && !is_constant(b)).then_some(i)
        })
        .collect()
}

/// `line` without its trailing ` loc(…)`.
fn without_loc(line: &str) -> &str {
    let t = line.trim();
    t.rfind(" loc(").map_or(t, |i| t[..i].trim_end())
}

/// The `%name` tokens of `text`, with their byte ranges.
fn references(text: &str) -> Vec<(usize, usize)> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let start = i;
            i += 1;
            while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                i += 1;
            }
            out.push((start, i));
        } else {
            i += 1;
        }
    }
    out
}

/// What a pattern's match says, independent of the order and SSA names mlir-pdll gave its
/// lines: the DAG under the rewritten root, written depth first with back references, and the
/// sorted native constraints over it.
fn signature(header: &str, body: &[&str]) -> String {
    use std::collections::HashMap;
    let end = body
        .iter()
        .position(|l| l.trim_start().starts_with("rewrite "))
        .unwrap_or(body.len());
    let root = body
        .get(end)
        .and_then(|l| l.trim_start().strip_prefix("rewrite "))
        .and_then(|r| r.split_whitespace().next())
        .unwrap_or_default();
    let mut definitions: HashMap<&str, &str> = HashMap::new();
    let mut constraints = Vec::new();
    for line in &body[..end] {
        let t = without_loc(line);
        match t.split_once(" = ") {
            Some((name, definition)) if name.starts_with('%') => {
                definitions.insert(name, definition);
            }
            _ => constraints.push(t),
        }
    }
    struct Walk<'a> {
        definitions: HashMap<&'a str, &'a str>,
        seen: HashMap<&'a str, usize>,
    }
    impl<'a> Walk<'a> {
        fn canon(&mut self, value: &'a str, number: bool) -> String {
            if let Some(i) = self.seen.get(value) {
                return format!("^{i}");
            }
            let Some(definition) = self.definitions.get(value).copied() else {
                return value.to_string();
            };
            if number {
                let i = self.seen.len();
                self.seen.insert(value, i);
            }
            expand_refs(definition, |r| self.canon(r, number))
        }
    }
    fn expand_refs<'a>(text: &'a str, mut f: impl FnMut(&'a str) -> String) -> String {
        let mut out = String::new();
        let mut last = 0;
        for (start, end) in references(text) {
            out.push_str(&text[last..start]);
            out.push_str(&f(&text[start..end]));
            last = end;
        }
        out.push_str(&text[last..]);
        out
    }
    let mut walk = Walk {
        definitions,
        seen: HashMap::new(),
    };
    let benefit = header.split("benefit(").nth(1).unwrap_or_default();
    let dag = walk.canon(root, true);
    // Ops the root does not reach still constrain the match.
    let mut detached: Vec<&str> = walk
        .definitions
        .iter()
        .filter(|(_, d)| d.starts_with("operation "))
        .map(|(v, _)| *v)
        .collect();
    detached.sort();
    detached.retain(|v| !walk.seen.contains_key(v));
    let mut others: Vec<String> = detached.into_iter().map(|v| walk.canon(v, false)).collect();
    others.sort();
    let mut checks: Vec<String> = constraints
        .iter()
        .map(|c| expand_refs(c, |r| walk.canon(r, false)))
        .collect();
    checks.sort();
    format!(
        "benefit({benefit} {dag} | {} | {}",
        others.join(" | "),
        checks.join(" | ")
    )
}

/// The pattern's name from its header line `pdl.pattern @name : benefit(n) {`.
fn pattern_name(header: &str) -> Option<&str> {
    let rest = header.trim_start().strip_prefix("pdl.pattern @")?;
    rest.split([' ', ':']).next()
}

/// The line closing the pattern that starts at `start`.
fn pattern_end(lines: &[&str], start: usize) -> Option<usize> {
    let indent = lines[start].len() - lines[start].trim_start().len();
    (start + 1..lines.len()).find(|&j| {
        let l = lines[j];
        l.len() - l.trim_start().len() == indent && l.trim_start().starts_with('}')
    })
}

/// mlir-pdll's output with every pattern followed by its commuted copies. Errors name a
/// pattern with more than [`MAX_SWAP_SITES`] swap sites.
pub fn expand(pdl: &str) -> Result<String, String> {
    let lines: Vec<&str> = pdl.lines().collect();
    let mut written = std::collections::HashSet::new();
    let mut i = 0;
    while i < lines.len() {
        if let Some(name) = pattern_name(lines[i]) {
            let close =
                pattern_end(&lines, i).ok_or_else(|| format!("pattern @{name} has no end"))?;
            written.insert(signature(lines[i], &lines[i + 1..close]));
            i = close;
        }
        i += 1;
    }
    let mut out = String::with_capacity(pdl.len() * 3);
    let mut i = 0;
    while i < lines.len() {
        let Some(name) = pattern_name(lines[i]) else {
            out.push_str(lines[i]);
            out.push('\n');
            i += 1;
            continue;
        };
        let close = pattern_end(&lines, i).ok_or_else(|| format!("pattern @{name} has no end"))?;
        let pattern = &lines[i..=close];
        for l in pattern {
            out.push_str(l);
            out.push('\n');
        }
        let sites = swap_sites(&pattern[1..]);
        if sites.len() > MAX_SWAP_SITES {
            return Err(format!(
                "pattern @{name} has {} commutative ops with free operand order (at most {MAX_SWAP_SITES})",
                sites.len()
            ));
        }
        for mask in 1u32..(1 << sites.len()) {
            let body: Vec<String> = pattern[1..]
                .iter()
                .enumerate()
                .map(|(j, l)| {
                    let site = sites.iter().position(|&s| s == j);
                    match site.filter(|k| mask & (1 << k) != 0) {
                        Some(_) => {
                            let (head, a, b, tail) = binary_operation(l).expect("a swap site");
                            format!("{head}{b}, {a}{tail}")
                        }
                        None => l.to_string(),
                    }
                })
                .collect();
            let refs: Vec<&str> = body.iter().map(String::as_str).collect();
            if !written.insert(signature(lines[i], &refs)) {
                continue;
            }
            let header = lines[i].replacen(
                &format!("@{name} "),
                &format!("@{name}__commuted{mask} "),
                1,
            );
            out.push_str(&header);
            out.push('\n');
            for l in body {
                out.push_str(&l);
                out.push('\n');
            }
        }
        i = close + 1;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    const PATTERN: &str = r#"module {
  pdl.pattern @enable_x__p : benefit(0) {
    %0 = operand loc(#loc1)
    %1 = operand loc(#loc2)
    %2 = types loc(#loc3)
    %3 = operation "dit.mul"(%0, %1 : !pdl.value, !pdl.value)  -> (%2 : !pdl.range<type>) loc(#loc4)
    %4 = result 0 of %3 loc(#loc5)
    %5 = operand loc(#loc6)
    %6 = attribute = 1.000000e+00 : f64 loc(#loc7)
    apply_native_constraint "ConstNear"(%5, %6, %6 : !pdl.value, !pdl.attribute, !pdl.attribute) loc(#loc8)
    apply_native_constraint "IsF32"(%0 : !pdl.value) loc(#loc9)
    %7 = type loc(#loc9)
    %8 = operation "dit.add"(%4, %5 : !pdl.value, !pdl.value)  -> (%7 : !pdl.type) loc(#loc10)
    %9 = operation "dit.mul"(%0, %0 : !pdl.value, !pdl.value)  -> (%2 : !pdl.range<type>) loc(#loc11)
    %10 = operation "dit.sub"(%0, %1 : !pdl.value, !pdl.value)  -> (%2 : !pdl.range<type>) loc(#loc12)
    rewrite %8 {
      %11 = operation "dit.mul"(%1, %0 : !pdl.value, !pdl.value)  -> (%7 : !pdl.type) loc(#loc13)
      replace %8 with %11 loc(#loc14)
    } loc(#loc15)
  } loc(#loc16)
}
"#;

    #[test]
    fn copies_once_per_free_operand_pair() {
        let out = expand(PATTERN).expect("expands");
        assert_eq!(out.matches("pdl.pattern @").count(), 2);
        assert!(out.contains("pdl.pattern @enable_x__p__commuted1 : benefit(0) {"));
        assert!(out.contains(r#"%3 = operation "dit.mul"(%1, %0 : !pdl.value, !pdl.value)  -> (%2 : !pdl.range<type>) loc(#loc4)"#));
        // The constant's add, x·x, the sub and the rewrite part are left as written.
        assert_eq!(out.matches(r#""dit.add"(%4, %5 "#).count(), 2);
        assert_eq!(out.matches(r#""dit.mul"(%0, %0 "#).count(), 2);
        assert_eq!(out.matches(r#""dit.sub"(%0, %1 "#).count(), 2);
        assert_eq!(
            out.matches(r#""dit.mul"(%1, %0 : !pdl.value, !pdl.value)  -> (%7"#)
                .count(),
            2
        );
    }

    #[test]
    fn every_subset_of_sites_is_a_copy() {
        let two = PATTERN.replace(r#""dit.add"(%4, %5 "#, r#""dit.add"(%4, %1 "#);
        let out = expand(&two).expect("expands");
        for name in ["p ", "p__commuted1 ", "p__commuted2 ", "p__commuted3 "] {
            assert!(out.contains(&format!("@enable_x__{name}")), "{name}");
        }
        assert!(out.contains(r#""dit.add"(%1, %4 "#));
    }

    #[test]
    fn a_written_mirror_is_not_copied_again() {
        // The commuted pattern as a hand-written mirror, with mlir-pdll's other numbering (the
        // two operands' names exchanged).
        let commuted = PATTERN.replace(
            r#""dit.mul"(%0, %1 : !pdl.value, !pdl.value)  -> (%2"#,
            r#""dit.mul"(%1, %0 : !pdl.value, !pdl.value)  -> (%2"#,
        );
        let mirror = commuted
            .replace("%0", "%TMP")
            .replace("%1", "%0")
            .replace("%TMP", "%1")
            .replace("@enable_x__p ", "@enable_x__q ");
        let module = |a: &str, b: &str| {
            a.trim_end().trim_end_matches('}').to_string() + b.trim_start_matches("module {\n")
        };
        let out = expand(&module(PATTERN, &mirror)).expect("expands");
        assert_eq!(out.matches("pdl.pattern @").count(), 2, "{out}");
        // A mirror that differs elsewhere is no duplicate.
        let other = mirror.replace("\"dit.sub\"(%1, %0", "\"dit.sub\"(%0, %1");
        let out = expand(&module(PATTERN, &other)).expect("expands");
        assert_eq!(out.matches("pdl.pattern @").count(), 4, "{out}");
    }

    #[test]
    fn too_many_sites_are_refused() {
        let mut many = String::from("  pdl.pattern @enable_x__big : benefit(0) {\n");
        for k in 0..=MAX_SWAP_SITES {
            many.push_str(&format!(
                "    %{k} = operation \"dit.add\"(%a{k}, %b{k} : !pdl.value, !pdl.value)  -> (%t : !pdl.type)\n"
            ));
        }
        many.push_str("  } loc(#l)\n");
        assert!(expand(&many).unwrap_err().contains("@enable_x__big"));
    }
}
