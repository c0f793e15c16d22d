//! Checks on an input's text before MLIR's parser sees it (shared by dit-opt and dit-run):
//! UTF-8 and NUL bytes, the nesting-depth guard, and constructs that crash MLIR 22's parser.

use crate::diagnostics::{Diagnostic, Severity, SourcePoint};

/// Deepest bracket nesting accepted. MLIR's parser recurses once per nested region, type or
/// attribute; real DiT graphs nest a few levels, and this bound keeps a hostile input from
/// exhausting the stack.
pub const MAX_NESTING: usize = 256;

/// A located error about the input as a whole.
pub fn input_error(file: &str, line: u32, column: u32, message: String) -> Diagnostic {
    Diagnostic {
        severity: Severity::Error,
        point: Some(SourcePoint {
            file: file.to_string(),
            line,
            column,
        }),
        message,
        notes: vec![],
    }
}

/// Decodes the input as UTF-8, pointing at the first bad byte otherwise. NUL bytes are
/// rejected too: MLIR's parser takes a C string and cannot see past one.
pub fn decode(file: &str, bytes: Vec<u8>) -> Result<String, Diagnostic> {
    let text = String::from_utf8(bytes).map_err(|e| {
        let valid = e.utf8_error().valid_up_to();
        let bad = e.as_bytes()[valid];
        let (line, column) = position(&e.as_bytes()[..valid]);
        input_error(
            file,
            line,
            column,
            format!("input is not valid UTF-8 (byte 0x{bad:02x})"),
        )
    })?;
    if let Some(at) = text.find('\0') {
        let (line, column) = position(&text.as_bytes()[..at]);
        return Err(input_error(
            file,
            line,
            column,
            "input contains a NUL byte".into(),
        ));
    }
    Ok(text)
}

/// The 1-based line and column (in characters) just after `before`, a valid UTF-8 prefix.
fn position(before: &[u8]) -> (u32, u32) {
    let line = before.iter().filter(|b| **b == b'\n').count() as u32 + 1;
    let line_start = before
        .iter()
        .rposition(|b| *b == b'\n')
        .map_or(0, |p| p + 1);
    let column = String::from_utf8_lossy(&before[line_start..])
        .chars()
        .count() as u32
        + 1;
    (line, column)
}

/// [`CLASSES`]: whitespace (newlines included), which is neither content nor the end of a
/// run of `-`.
const SPACE: u8 = 0;
/// [`CLASSES`]: content that opens, closes or negates nothing (letters, digits, most
/// punctuation, UTF-8 bytes).
const PLAIN: u8 = 1;
/// [`CLASSES`]: any other byte, looked at one by one.
const SPECIAL: u8 = 2;

/// The class of every byte, built at compile time: runs of space and plain bytes are skipped
/// with one table lookup per byte (a full FLUX.1-dev import is 1.7 MB of text, and a
/// per-byte `match` cost 5% of dit-opt's run).
const CLASSES: [u8; 256] = {
    let mut table = [PLAIN; 256];
    let space = [b' ', b'\t', b'\n', b'\r', 0x0b, 0x0c];
    let mut i = 0;
    while i < space.len() {
        table[space[i] as usize] = SPACE;
        i += 1;
    }
    let special = *b"\"/-#<([{)]}>";
    let mut i = 0;
    while i < special.len() {
        table[special[i] as usize] = SPECIAL;
        i += 1;
    }
    table
};

/// Rejects inputs nested deeper than [`MAX_NESTING`], and inputs with nothing but
/// whitespace and comments. Brackets inside strings and comments do not count.
///
/// Nesting is what makes MLIR's parser recurse: open brackets (`>` only closes a `<`: the
/// `->` of a function type and the `>=` of an integer set close nothing), and runs of `-`
/// (each one a nested negation in an affine expression).
pub fn check_shape(file: &str, text: &str) -> Result<(), Diagnostic> {
    // Works on bytes: every character that matters is ASCII, and UTF-8 continuation bytes
    // (0b10xx_xxxx) never look like ASCII. Lines and columns are only counted for an error.
    let bytes = text.as_bytes();
    let n = bytes.len();
    let error_at = |at: usize, message: String| {
        let (line, column) = position(&bytes[..at]);
        Err(input_error(file, line, column, message))
    };
    let too_deep = |at: usize, what: &str| {
        error_at(
            at,
            format!("input nests {what} deeper than {MAX_NESTING} levels"),
        )
    };
    let mut open: Vec<u8> = Vec::new();
    let mut minus_run = 0usize;
    let mut content = false;
    let mut i = 0;
    while i < n {
        // A run of space and plain bytes; any plain one is content and ends a run of `-`.
        let mut plain = SPACE;
        while i < n {
            let class = CLASSES[bytes[i] as usize];
            if class == SPECIAL {
                break;
            }
            plain |= class;
            i += 1;
        }
        if plain == PLAIN {
            content = true;
            minus_run = 0;
        }
        if i == n {
            break;
        }
        let c = bytes[i];
        let next = bytes.get(i + 1).copied();
        if c == b'/' && next == Some(b'/') {
            // A comment runs to the end of its line.
            i = bytes[i..]
                .iter()
                .position(|&b| b == b'\n')
                .map_or(n, |p| i + p);
            continue;
        }
        content = true;
        if c != b'-' {
            minus_run = 0;
        }
        match c {
            b'"' => {
                // A string runs to its closing quote (a `\\` escapes the next byte) or to the
                // end of its line.
                i += 1;
                while i < n {
                    match bytes[i] {
                        b'\n' => break,
                        b'"' => {
                            i += 1;
                            break;
                        }
                        b'\\' if bytes.get(i + 1) != Some(&b'\n') => i += 2,
                        _ => i += 1,
                    }
                }
                continue;
            }
            b'-' if next == Some(b'>') => {
                // The arrow `->`: neither a negation nor a closing bracket.
                i += 2;
                minus_run = 0;
                continue;
            }
            b'-' => {
                minus_run += 1;
                if minus_run > MAX_NESTING {
                    return too_deep(i, "negations ('-')");
                }
            }
            b'#' if huge_result_number(bytes, i) => {
                return error_at(
                    i,
                    format!(
                        "result number after '#' is over {MAX_RESULT_NUMBER}: no op has that many \
                         results"
                    ),
                );
            }
            b'<' if is_index_dense_array(bytes, i) => {
                return error_at(
                    i,
                    "a dense array cannot hold 'index' elements: use array<i64: ...>".into(),
                );
            }
            b'(' | b'[' | b'{' | b'<' => {
                open.push(c);
                if open.len() > MAX_NESTING {
                    return too_deep(i, "brackets");
                }
            }
            b')' | b']' | b'}' | b'>' => {
                let opener = match c {
                    b')' => b'(',
                    b']' => b'[',
                    b'}' => b'{',
                    _ => b'<',
                };
                // A closer that does not match the innermost opener closes nothing (the
                // parser rejects it anyway); counting it would let `>`s hide real depth.
                if open.last() == Some(&opener) {
                    open.pop();
                }
            }
            _ => {}
        }
        i += 1;
    }
    if !content {
        return Err(input_error(
            file,
            1,
            1,
            "input is empty: expected a module or operations".into(),
        ));
    }
    Ok(())
}

/// The largest `%value#N` result number accepted. MLIR 22's parser sizes its forward-reference
/// table by N before it knows the op, so `%a#2147483647` allocates until the process is killed;
/// no real op has this many results.
pub const MAX_RESULT_NUMBER: u64 = 1 << 20;

/// Whether the `#` at `at` follows an SSA name (`%a#`) and starts a result number over
/// [`MAX_RESULT_NUMBER`].
fn huge_result_number(bytes: &[u8], at: usize) -> bool {
    // The name before `#`: `%` then identifier characters.
    let name_start = bytes[..at]
        .iter()
        .rposition(|b| !(b.is_ascii_alphanumeric() || matches!(b, b'_' | b'$' | b'.' | b'-')));
    if name_start.is_none_or(|s| bytes[s] != b'%') {
        return false;
    }
    let digits: Vec<u8> = bytes[at + 1..]
        .iter()
        .take_while(|b| b.is_ascii_digit())
        .copied()
        .collect();
    // More digits than u64 holds is over the bound too.
    !digits.is_empty()
        && std::str::from_utf8(&digits)
            .ok()
            .and_then(|d| d.parse::<u64>().ok())
            .is_none_or(|n| n > MAX_RESULT_NUMBER)
}

/// Whether the `<` at `at` opens `array<index ...>`. MLIR 22's parser accepts `index` as a
/// dense array's element type and then asks it for a bit width, which crashes (SIGSEGV in
/// release builds): such an input is refused before it reaches the parser.
fn is_index_dense_array(bytes: &[u8], at: usize) -> bool {
    let word_start = at.checked_sub(5);
    let after_word = |b: Option<&u8>| !b.is_some_and(|b| b.is_ascii_alphanumeric() || *b == b'_');
    if word_start.is_none_or(|s| &bytes[s..at] != b"array")
        || word_start.is_some_and(|s| s > 0 && !after_word(bytes.get(s - 1)))
    {
        return false;
    }
    let rest = &bytes[at + 1..];
    let skip = rest
        .iter()
        .position(|b| !b.is_ascii_whitespace())
        .unwrap_or(rest.len());
    rest[skip..].starts_with(b"index") && after_word(rest.get(skip + 5))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_utf8_is_located() {
        let d = decode("f", b"ab\ncd\xffe".to_vec()).unwrap_err();
        let p = d.point.unwrap();
        assert_eq!((p.line, p.column), (2, 3));
    }

    #[test]
    fn nesting_and_emptiness_are_checked() {
        let deep = "(".repeat(MAX_NESTING + 1);
        assert!(check_shape("f", &deep)
            .unwrap_err()
            .message
            .contains("deeper"));
        assert!(check_shape("f", "  // only a comment\n")
            .unwrap_err()
            .message
            .contains("empty"));
        assert!(check_shape("f", "\"((((\" // (((\nmodule {}").is_ok());
    }

    #[test]
    fn nul_bytes_are_located() {
        let d = decode("f", b"module {\n  \0}".to_vec()).unwrap_err();
        let p = d.point.unwrap();
        assert_eq!((p.line, p.column), (2, 3));
        assert!(d.message.contains("NUL"));
    }

    #[test]
    fn arrows_and_comparisons_do_not_hide_depth() {
        // `()->(` opens two brackets and closes one plus an arrow: it must still count.
        let nested_functions = format!(
            "{}i32{}",
            "()->(".repeat(MAX_NESTING + 1),
            ")".repeat(MAX_NESTING + 1)
        );
        assert!(check_shape("f", &nested_functions)
            .unwrap_err()
            .message
            .contains("brackets"));
        let nested_sets = format!(
            "{}d0{}",
            "(d0 >= ".repeat(MAX_NESTING + 1),
            ")".repeat(MAX_NESTING + 1)
        );
        assert!(check_shape("f", &nested_sets).is_err());
        let ok = "#m = affine_map<(d0) -> (d0)>\n#s = affine_set<(d0) : (d0 >= 0)>\nfunc.func private @f(tensor<4xvector<2xf32>>) -> (() -> i32)";
        assert!(check_shape("f", &ok.repeat(MAX_NESTING * 2)).is_ok());
    }

    #[test]
    fn huge_result_numbers_are_refused() {
        let e = check_shape("f", "%r = \"dit.exp\"(%a#2147483647)").unwrap_err();
        assert!(e.to_string().contains("f:1:18"), "{e}");
        assert!(check_shape("f", "%r = \"dit.exp\"(%a#99999999999999999999999)").is_err());
        assert!(check_shape("f", "%r = \"dit.exp\"(%a#3), x = \"%b#9999999999\"").is_ok());
        assert!(check_shape("f", "x = #map3, y = affine_map<(d0) -> (d0)>").is_ok());
    }

    #[test]
    fn index_dense_arrays_are_refused() {
        let e = check_shape("f", "x = {perm = array<index: 1, 0>}").unwrap_err();
        assert_eq!(e.point.map(|p| (p.line, p.column)), Some((1, 18)));
        assert!(check_shape("f", "{p = array< index>}").is_err());
        assert!(check_shape("f", "{p = array<i64: 1>, q = \"array<index\"}").is_ok());
        assert!(check_shape("f", "{p = myarray<index>, q = array<indexed>}").is_ok());
    }

    #[test]
    fn runs_of_negations_are_bounded() {
        let negations = format!(
            "#m = affine_map<(d0) -> ({}d0)>",
            "- ".repeat(MAX_NESTING + 1)
        );
        assert!(check_shape("f", &negations)
            .unwrap_err()
            .message
            .contains("negations"));
        let few = format!("#m = affine_map<(d0) -> ({}d0)>", "-".repeat(MAX_NESTING));
        assert!(check_shape("f", &few).is_ok());
        assert!(check_shape("f", &format!("// {}\nmodule {{}}", "-".repeat(1000))).is_ok());
    }
}
