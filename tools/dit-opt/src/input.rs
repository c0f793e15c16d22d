//! Reading the input: the checks before parsing (in `dit_dialect::input`, shared with
//! dit-run) and `--split-input-file` chunks.

pub use dit_dialect::input::{check_shape, decode, input_error};

/// One `--split-input-file` chunk and the number of file lines before it.
pub struct Chunk<'a> {
    pub text: &'a str,
    pub line_offset: u32,
}

/// Splits at lines that are exactly `// -----` (as mlir-opt does).
pub fn split(text: &str) -> Vec<Chunk<'_>> {
    dit_dialect::diagnostics::split_input(text)
        .into_iter()
        .map(|(text, line_offset)| Chunk { text, line_offset })
        .collect()
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
}
