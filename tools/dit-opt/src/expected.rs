//! `--verify-diagnostics`: `expected-error|warning|note|remark [@+N|@-N|@above|@below]
//! {{text}}` comments, checked against the diagnostics a chunk produced, as mlir-opt does.

use dit_dialect::diagnostics::{Diagnostic, Severity};

/// One expectation from a comment.
#[derive(Clone, Debug)]
pub struct Expected {
    pub severity: Severity,
    /// The line (file numbering) the diagnostic must be reported on.
    pub line: u32,
    /// The line and column of the comment, for reporting a miss.
    pub at: (u32, u32),
    pub text: String,
    pub matched: bool,
}

/// Parses every expectation in `chunk`, whose first line is file line `line_offset + 1`.
/// Malformed expectation comments are returned as errors (line, column, message).
pub fn parse(chunk: &str, line_offset: u32) -> (Vec<Expected>, Vec<(u32, u32, String)>) {
    let (mut found, mut problems) = (Vec::new(), Vec::new());
    for (i, line_text) in chunk.lines().enumerate() {
        let line = line_offset + i as u32 + 1;
        let mut rest = line_text;
        while let Some(pos) = rest.find("expected-") {
            let column = (line_text.len() - rest.len() + pos) as u32 + 1;
            let after = &rest[pos + "expected-".len()..];
            rest = after;
            let (severity, word) = match () {
                _ if after.starts_with("error") => (Severity::Error, "error"),
                _ if after.starts_with("warning") => (Severity::Warning, "warning"),
                _ if after.starts_with("note") => (Severity::Note, "note"),
                _ if after.starts_with("remark") => (Severity::Remark, "remark"),
                _ => continue,
            };
            let mut spec = after[word.len()..].trim_start();
            let mut target = line;
            if let Some(s) = spec.strip_prefix('@') {
                let end = s
                    .find(|c: char| c.is_whitespace() || c == '{')
                    .unwrap_or(s.len());
                let offset = match &s[..end] {
                    "above" => Some(-1),
                    "below" => Some(1),
                    o => o.strip_prefix('+').unwrap_or(o).parse::<i64>().ok(),
                };
                match offset.and_then(|o| u32::try_from(line as i64 + o).ok()) {
                    Some(t) if t > 0 => target = t,
                    _ => {
                        problems.push((
                            line,
                            column,
                            format!("invalid expected-{word} location '@{}'", &s[..end]),
                        ));
                        continue;
                    }
                }
                spec = s[end..].trim_start();
            }
            let Some(body) = spec.strip_prefix("{{") else {
                problems.push((
                    line,
                    column,
                    format!("expected-{word} must be followed by {{{{text}}}}"),
                ));
                continue;
            };
            let Some(close) = body.find("}}") else {
                problems.push((line, column, format!("expected-{word}: unterminated {{{{")));
                continue;
            };
            found.push(Expected {
                severity,
                line: target,
                at: (line, column),
                text: body[..close].to_string(),
                matched: false,
            });
        }
    }
    (found, problems)
}

/// Flattens diagnostics with their notes. MLIR's "see current operation" notes are dropped,
/// as mlir-opt does not print them under --verify-diagnostics.
pub fn flatten(diagnostics: Vec<Diagnostic>) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for mut d in diagnostics {
        let notes = std::mem::take(&mut d.notes);
        out.push(d);
        out.extend(
            flatten(notes)
                .into_iter()
                .filter(|n| !n.message.starts_with("see current operation")),
        );
    }
    out
}

/// Matches diagnostics against expectations; returns the mismatch messages as
/// (line, column, message) in file numbering.
pub fn check(mut expected: Vec<Expected>, diagnostics: Vec<Diagnostic>) -> Vec<(u32, u32, String)> {
    let mut problems = Vec::new();
    for d in flatten(diagnostics) {
        let line = d.point.as_ref().map(|p| p.line);
        let hit = expected.iter_mut().find(|e| {
            !e.matched
                && e.severity == d.severity
                && Some(e.line) == line
                && d.message.contains(&e.text)
        });
        match hit {
            Some(e) => e.matched = true,
            None => {
                let (l, c) = d.point.as_ref().map_or((1, 1), |p| (p.line, p.column));
                problems.push((
                    l,
                    c,
                    format!("unexpected {}: {}", d.severity.word(), d.message),
                ));
            }
        }
    }
    for e in expected.iter().filter(|e| !e.matched) {
        problems.push((
            e.at.0,
            e.at.1,
            format!(
                "expected {} \"{}\" was not produced",
                e.severity.word(),
                e.text
            ),
        ));
    }
    problems.sort();
    problems
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_offsets() {
        let src = "x\n// expected-error @+1 {{bad thing}}\ny\nz // expected-note {{here}}\n// expected-warning@above {{w}}";
        let (e, p) = parse(src, 10);
        assert!(p.is_empty(), "{p:?}");
        let got: Vec<_> = e
            .iter()
            .map(|e| (e.severity, e.line, e.text.as_str()))
            .collect();
        assert_eq!(
            got,
            [
                (Severity::Error, 13, "bad thing"),
                (Severity::Note, 14, "here"),
                (Severity::Warning, 14, "w")
            ]
        );
    }

    #[test]
    fn reports_malformed_expectations() {
        let (_, p) = parse("// expected-error @x {{a}}\n// expected-error oops", 0);
        assert_eq!(p.len(), 2);
    }
}
