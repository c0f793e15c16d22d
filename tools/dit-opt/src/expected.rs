//! `--verify-diagnostics`: `expected-error|warning|note|remark[-re] [@+N|@-N|@above|@below]
//! {{text}}` comments, checked against the diagnostics a chunk produced, as mlir-opt does
//! (mlir/lib/IR/Diagnostics.cpp, SourceMgrDiagnosticVerifierHandler): the text runs to the
//! last `}}` of the line; in the `-re` forms, `{{regex}}` blocks inside it are regular
//! expressions and the rest is literal.

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
    /// The `-re` forms: `text` compiled (literal parts escaped, `{{…}}` blocks as written).
    pub pattern: Option<regex::Regex>,
    pub matched: bool,
}

impl Expected {
    /// Whether a diagnostic's message satisfies this expectation (a substring or a regex
    /// match anywhere in it, as in mlir-opt).
    fn accepts(&self, message: &str) -> bool {
        match &self.pattern {
            Some(re) => re.is_match(message),
            None => message.contains(&self.text),
        }
    }
}

/// The regex of an `-re` expectation: literal text escaped, `{{re}}` blocks kept as groups.
fn compile_regex(text: &str) -> Result<regex::Regex, String> {
    let (mut pattern, mut rest) = (String::new(), text);
    while let Some(open) = rest.find("{{") {
        pattern.push_str(&regex::escape(&rest[..open]));
        let after = &rest[open + 2..];
        let close = after
            .find("}}")
            .ok_or("found start of regex with no end '}}'")?;
        pattern.push('(');
        pattern.push_str(&after[..close]);
        pattern.push(')');
        rest = &after[close + 2..];
    }
    pattern.push_str(&regex::escape(rest));
    regex::Regex::new(&pattern).map_err(|e| format!("invalid regex: {e}"))
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
            let spec = &after[word.len()..];
            let is_regex = spec.starts_with("-re");
            let mut spec = spec[if is_regex { 3 } else { 0 }..].trim_start();
            let word = if is_regex {
                format!("{word}-re")
            } else {
                word.to_string()
            };
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
            // The text runs to the line's last `}}`, so that `-re` text may hold `{{re}}`.
            let Some(close) = body.rfind("}}") else {
                problems.push((line, column, format!("expected-{word}: unterminated {{{{")));
                continue;
            };
            let text = body[..close].to_string();
            let pattern = match is_regex.then(|| compile_regex(&text)).transpose() {
                Ok(p) => p,
                Err(message) => {
                    problems.push((line, column, format!("expected-{word}: {message}")));
                    continue;
                }
            };
            found.push(Expected {
                severity,
                line: target,
                at: (line, column),
                text,
                pattern,
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
            !e.matched && e.severity == d.severity && Some(e.line) == line && e.accepts(&d.message)
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
    fn regex_expectations_match_as_in_mlir_opt() {
        let src = "// expected-error-re @+1 {{op {{[a-z]+}} failed at {{[0-9]+}}.}}\nx";
        let (e, p) = parse(src, 0);
        assert!(p.is_empty(), "{p:?}");
        assert_eq!(e[0].line, 2);
        assert!(e[0].accepts("'dit.add' op verify failed at 12."));
        // Literal parts are not regexes: `.` is a dot.
        assert!(!e[0].accepts("op verify failed at 12x"));
        assert!(!e[0].accepts("op Verify failed at 12."));
        let (_, p) = parse("// expected-error-re {{a {{[}}}}", 0);
        assert_eq!(p.len(), 1, "a bad regex is reported: {p:?}");
        let (_, p) = parse("// expected-error-re {{a {{b}}", 0);
        assert_eq!(p.len(), 1, "an unterminated block is reported: {p:?}");
    }

    #[test]
    fn reports_malformed_expectations() {
        let (_, p) = parse("// expected-error @x {{a}}\n// expected-error oops", 0);
        assert_eq!(p.len(), 2);
    }
}
