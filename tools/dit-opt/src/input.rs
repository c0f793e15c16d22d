//! Reading the input: UTF-8 check, the nesting-depth guard, and `--split-input-file` chunks.

use dit_dialect::diagnostics::{Diagnostic, Severity, SourcePoint};

/// Deepest bracket nesting accepted. MLIR's parser recurses once per nested region, type or
/// attribute; real DiT graphs nest a few levels, and this bound keeps a hostile input from
/// exhausting the stack.
pub const MAX_NESTING: usize = 256;

/// A located error about the input as a whole.
pub fn input_error(file: &str, line: u32, column: u32, message: String) -> Diagnostic {
    Diagnostic {
        severity: Severity::Error,
        point: Some(SourcePoint { file: file.to_string(), line, column }),
        message,
        notes: vec![],
    }
}

/// Decodes the input as UTF-8, pointing at the first bad byte otherwise.
pub fn decode(file: &str, bytes: Vec<u8>) -> Result<String, Diagnostic> {
    String::from_utf8(bytes).map_err(|e| {
        let good = &e.as_bytes()[..e.utf8_error().valid_up_to()];
        let line = good.iter().filter(|b| **b == b'\n').count() as u32 + 1;
        let line_start = good.iter().rposition(|b| *b == b'\n').map_or(0, |p| p + 1);
        let column = String::from_utf8_lossy(&good[line_start..]).chars().count() as u32 + 1;
        let bad = e.as_bytes()[good.len()];
        input_error(file, line, column, format!("input is not valid UTF-8 (byte 0x{bad:02x})"))
    })
}

/// Rejects inputs nested deeper than [`MAX_NESTING`], and inputs with nothing but
/// whitespace and comments. Brackets inside strings and comments do not count.
pub fn check_shape(file: &str, text: &str) -> Result<(), Diagnostic> {
    let (mut depth, mut line, mut column) = (0usize, 1u32, 0u32);
    let mut content = false;
    let mut chars = text.chars().peekable();
    let (mut in_string, mut in_comment, mut escaped) = (false, false, false);
    while let Some(c) = chars.next() {
        column += 1;
        if c == '\n' {
            line += 1;
            column = 0;
            in_comment = false;
            in_string = false;
            continue;
        }
        if in_comment {
            continue;
        }
        if in_string {
            match (escaped, c) {
                (false, '\\') => escaped = true,
                (false, '"') => in_string = false,
                _ => escaped = false,
            }
            continue;
        }
        match c {
            '/' if chars.peek() == Some(&'/') => {
                in_comment = true;
                continue;
            }
            '"' => in_string = true,
            '(' | '[' | '{' | '<' => {
                depth += 1;
                if depth > MAX_NESTING {
                    return Err(input_error(
                        file,
                        line,
                        column,
                        format!("input nests brackets deeper than {MAX_NESTING} levels"),
                    ));
                }
            }
            ')' | ']' | '}' | '>' => depth = depth.saturating_sub(1),
            _ => {}
        }
        if !c.is_whitespace() {
            content = true;
        }
    }
    if !content {
        return Err(input_error(file, 1, 1, "input is empty: expected a module or operations".into()));
    }
    Ok(())
}

/// One `--split-input-file` chunk and the number of file lines before it.
pub struct Chunk<'a> {
    pub text: &'a str,
    pub line_offset: u32,
}

/// Splits at lines that are exactly `// -----` (as mlir-opt does).
pub fn split(text: &str) -> Vec<Chunk<'_>> {
    let mut chunks = Vec::new();
    let (mut start, mut start_line, mut line) = (0usize, 0u32, 0u32);
    let mut pos = 0usize;
    for raw in text.split_inclusive('\n') {
        if raw.trim_end() == "// -----" {
            chunks.push(Chunk { text: &text[start..pos], line_offset: start_line });
            start = pos + raw.len();
            start_line = line + 1;
        }
        pos += raw.len();
        line += 1;
    }
    chunks.push(Chunk { text: &text[start..], line_offset: start_line });
    chunks
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn split_keeps_line_offsets() {
        let chunks = split("a\n// -----\nb\nc\n// -----\nd");
        let got: Vec<_> = chunks.iter().map(|c| (c.text, c.line_offset)).collect();
        assert_eq!(got, [("a\n", 0), ("b\nc\n", 2), ("d", 5)]);
    }

    #[test]
    fn bad_utf8_is_located() {
        let d = decode("f", b"ab\ncd\xffe".to_vec()).unwrap_err();
        let p = d.point.unwrap();
        assert_eq!((p.line, p.column), (2, 3));
    }

    #[test]
    fn nesting_and_emptiness_are_checked() {
        let deep = "(".repeat(MAX_NESTING + 1);
        assert!(check_shape("f", &deep).unwrap_err().message.contains("deeper"));
        assert!(check_shape("f", "  // only a comment\n").unwrap_err().message.contains("empty"));
        assert!(check_shape("f", "\"((((\" // (((\nmodule {}").is_ok());
    }
}
