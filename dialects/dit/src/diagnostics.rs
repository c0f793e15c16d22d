//! Diagnostics with source locations: a handler attached to the MLIR context before parsing
//! collects every diagnostic (parser, IRDL verifier, dit verifier, passes) so that tools print
//! them as `file:line:col: error: message` or check them against `expected-error` comments.

use melior::{
    diagnostic::{DiagnosticHandlerId, DiagnosticSeverity},
    ir::Location,
    Context,
};
use mlir_sys::{
    mlirEmitError, mlirIdentifierStr, mlirLocationCallSiteGetCallee,
    mlirLocationFileLineColRangeGetFilename, mlirLocationFileLineColRangeGetStartColumn,
    mlirLocationFileLineColRangeGetStartLine, mlirLocationFusedGetLocations,
    mlirLocationFusedGetNumLocations, mlirLocationIsACallSite, mlirLocationIsAFileLineColRange,
    mlirLocationIsAFused, mlirLocationIsAName, mlirLocationNameGetChildLoc,
    mlirLocationNameGetName, MlirLocation,
};
use std::{cell::RefCell, ffi::CString, fmt, rc::Rc};

/// How serious a diagnostic is; mirrors MLIR's severities.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Severity {
    Error,
    Warning,
    Note,
    Remark,
}

impl Severity {
    /// The word MLIR tools print and `expected-<word>` comments use.
    pub fn word(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Note => "note",
            Severity::Remark => "remark",
        }
    }
}

/// A point in a source file, with 1-based line and column.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SourcePoint {
    pub file: String,
    pub line: u32,
    pub column: u32,
}

/// One diagnostic, its location already mapped back to the user's file.
#[derive(Clone, Debug)]
pub struct Diagnostic {
    pub severity: Severity,
    pub point: Option<SourcePoint>,
    pub message: String,
    pub notes: Vec<Diagnostic>,
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(p) = &self.point {
            write!(f, "{}:{}:{}: ", p.file, p.line, p.column)?;
        }
        write!(f, "{}: {}", self.severity.word(), self.message)
    }
}

/// The buffer being parsed: how locations inside it map back to the user's file. A chunk of
/// `--split-input-file` input starts `line_offset` lines into the file.
#[derive(Clone, Debug, Default)]
pub struct SourceBuffer {
    /// What the user called the input (`-` is standard input, shown as `<stdin>`).
    pub display_name: String,
    /// Lines of the file before this buffer.
    pub line_offset: u32,
    /// The full text of the file, for printing the offending line under an error.
    pub text: Rc<str>,
}

impl SourceBuffer {
    /// A buffer for a whole file.
    pub fn new(display_name: &str, text: &str) -> Self {
        Self {
            display_name: display_name.to_string(),
            line_offset: 0,
            text: Rc::from(text),
        }
    }

    /// The line `line` (1-based, file numbering) of the file, if it exists.
    pub fn line_text(&self, line: u32) -> Option<&str> {
        self.text.lines().nth(line.checked_sub(1)? as usize)
    }
}

#[derive(Default)]
struct SinkState {
    buffer: SourceBuffer,
    collected: Vec<Diagnostic>,
}

/// Collects the diagnostics of one context. Cheap to clone: clones share the collection.
#[derive(Clone, Default)]
pub struct DiagnosticSink {
    state: Rc<RefCell<SinkState>>,
}

impl DiagnosticSink {
    /// Creates a sink and attaches it to `context`; every diagnostic MLIR emits is captured
    /// (none reaches MLIR's default printer).
    pub fn attach(context: &Context) -> (Self, DiagnosticHandlerId) {
        let sink = Self::default();
        let handler_sink = sink.clone();
        let id = context.attach_diagnostic_handler(move |diagnostic| {
            let converted = handler_sink.convert(&diagnostic);
            handler_sink.state.borrow_mut().collected.push(converted);
            true
        });
        (sink, id)
    }

    /// Sets the buffer that the next parse reads; locations are mapped through it.
    pub fn set_buffer(&self, buffer: SourceBuffer) {
        self.state.borrow_mut().buffer = buffer;
    }

    /// The buffer currently set.
    pub fn buffer(&self) -> SourceBuffer {
        self.state.borrow().buffer.clone()
    }

    /// Takes every diagnostic collected so far.
    pub fn take(&self) -> Vec<Diagnostic> {
        std::mem::take(&mut self.state.borrow_mut().collected)
    }

    /// Whether an error has been collected and not yet taken.
    pub fn has_errors(&self) -> bool {
        self.state
            .borrow()
            .collected
            .iter()
            .any(|d| d.severity == Severity::Error)
    }

    /// Adds a diagnostic produced outside MLIR (for example an I/O problem).
    pub fn push(&self, diagnostic: Diagnostic) {
        self.state.borrow_mut().collected.push(diagnostic);
    }

    /// Renders a diagnostic as tools print it: the located line, then the offending source
    /// line with a caret under the column, then its notes.
    pub fn render(&self, diagnostic: &Diagnostic) -> String {
        let buffer = self.buffer();
        let mut out = String::new();
        render_into(&buffer, diagnostic, &mut out);
        out
    }

    fn convert(&self, diagnostic: &melior::diagnostic::Diagnostic) -> Diagnostic {
        let severity = match diagnostic.severity() {
            DiagnosticSeverity::Error => Severity::Error,
            DiagnosticSeverity::Warning => Severity::Warning,
            DiagnosticSeverity::Note => Severity::Note,
            DiagnosticSeverity::Remark => Severity::Remark,
        };
        let notes = (0..diagnostic.note_count())
            .filter_map(|i| diagnostic.note(i).ok())
            .map(|note| self.convert(&note))
            .collect();
        let raw = diagnostic.location().to_raw();
        let point = self
            .map_location(raw)
            .or_else(|| Some(self.fallback_point(raw)));
        Diagnostic {
            severity,
            point,
            message: diagnostic.to_string(),
            notes,
        }
    }

    /// Maps an MLIR location to a point in the user's file. Locations produced by parsing the
    /// current buffer carry the buffer's line numbers; they are shifted by its offset.
    fn map_location(&self, location: MlirLocation) -> Option<SourcePoint> {
        let (file, line, column) = file_line_col(location)?;
        Some(self.map_point(file, line, column))
    }

    /// Where a diagnostic without a file:line:col points: at the `loc("name")` of a name
    /// location in the buffer's text (the op that carries it, or its alias), else at the start
    /// of the buffer (the chunk being processed). An error must always say where.
    fn fallback_point(&self, location: MlirLocation) -> SourcePoint {
        let state = self.state.borrow();
        let buffer = &state.buffer;
        let chunk_start = buffer
            .text
            .split_inclusive('\n')
            .take(buffer.line_offset as usize)
            .map(str::len)
            .sum::<usize>();
        let found = innermost_name(location).and_then(|name| {
            let needle = format!("loc(\"{name}\"");
            let at = chunk_start + buffer.text.get(chunk_start..)?.find(&needle)?;
            let before = &buffer.text[..at];
            let line = before.matches('\n').count() as u32 + 1;
            let line_start = before.rfind('\n').map_or(0, |p| p + 1);
            let column = before[line_start..].chars().count() as u32 + 1;
            Some((line, column))
        });
        let (line, column) = found.unwrap_or((buffer.line_offset + 1, 1));
        SourcePoint {
            file: buffer.display_name.clone(),
            line,
            column,
        }
    }

    /// Maps a file:line:col that MLIR gave for the current buffer to the user's file
    /// (buffer name, and the line offset of a `--split-input-file` chunk). Line 0 is the
    /// location MLIR gives the implicit module around a bare list of ops: it stands for the
    /// buffer's first line.
    pub fn map_point(&self, file: String, line: u32, column: u32) -> SourcePoint {
        let state = self.state.borrow();
        let buffer = &state.buffer;
        if file.is_empty() || file == "-" || file == buffer.display_name {
            let (line, column) = if line == 0 { (1, 1) } else { (line, column) };
            SourcePoint {
                file: buffer.display_name.clone(),
                line: line + buffer.line_offset,
                column,
            }
        } else {
            SourcePoint { file, line, column }
        }
    }
}

fn render_into(buffer: &SourceBuffer, diagnostic: &Diagnostic, out: &mut String) {
    let located = match &diagnostic.point {
        Some(_) => diagnostic.to_string(),
        // An error must always say where: without a location, point at the input as a whole.
        None => format!("{}: {}", buffer.display_name, diagnostic),
    };
    out.push_str(&located);
    out.push('\n');
    if let Some(point) = &diagnostic.point {
        if point.file == buffer.display_name {
            if let Some(line) = buffer.line_text(point.line) {
                out.push_str(line);
                out.push('\n');
                let pad = line
                    .chars()
                    .take(point.column.saturating_sub(1) as usize)
                    .map(|c| if c == '\t' { '\t' } else { ' ' })
                    .collect::<String>();
                out.push_str(&pad);
                out.push_str("^\n");
            }
        }
    }
    for note in &diagnostic.notes {
        render_into(buffer, note, out);
    }
}

/// The first file:line:col inside an MLIR location (looking through names, call sites and
/// fused locations), if there is one.
pub fn file_line_col(location: MlirLocation) -> Option<(String, u32, u32)> {
    // SAFETY: all calls only read the uniqued location storage owned by the context.
    unsafe {
        if mlirLocationIsAFileLineColRange(location) {
            let name = mlirIdentifierStr(mlirLocationFileLineColRangeGetFilename(location));
            let bytes = std::slice::from_raw_parts(name.data as *const u8, name.length);
            let file = String::from_utf8_lossy(bytes).into_owned();
            let line = mlirLocationFileLineColRangeGetStartLine(location).max(0) as u32;
            let column = mlirLocationFileLineColRangeGetStartColumn(location).max(0) as u32;
            return Some((file, line, column));
        }
        if mlirLocationIsAName(location) {
            return file_line_col(mlirLocationNameGetChildLoc(location));
        }
        if mlirLocationIsACallSite(location) {
            return file_line_col(mlirLocationCallSiteGetCallee(location));
        }
        if mlirLocationIsAFused(location) {
            let count = mlirLocationFusedGetNumLocations(location) as usize;
            let mut parts = vec![location; count];
            mlirLocationFusedGetLocations(location, parts.as_mut_ptr());
            return parts.into_iter().find_map(file_line_col);
        }
        None
    }
}

/// The name of the innermost name location inside `location` (looking through call sites and
/// fused locations), if there is one.
fn innermost_name(location: MlirLocation) -> Option<String> {
    // SAFETY: only reads the uniqued location storage owned by the context.
    unsafe {
        if mlirLocationIsAName(location) {
            let child = mlirLocationNameGetChildLoc(location);
            return innermost_name(child).or_else(|| location_name(location));
        }
        if mlirLocationIsACallSite(location) {
            return innermost_name(mlirLocationCallSiteGetCallee(location));
        }
        if mlirLocationIsAFused(location) {
            let count = mlirLocationFusedGetNumLocations(location) as usize;
            let mut parts = vec![location; count];
            mlirLocationFusedGetLocations(location, parts.as_mut_ptr());
            return parts.into_iter().find_map(innermost_name);
        }
        None
    }
}

/// The location to report a problem of `op` at: its own when it names a file:line:col or a
/// name (which the sink finds in the text), else the nearest enclosing op's that does, so that
/// an op written with `loc(unknown)` is still reported inside its function.
pub fn nearest_location(op: crate::ir::Op<'_>) -> Location<'_> {
    let own = op.location();
    let raw = own.to_raw();
    if file_line_col(raw).is_some() || innermost_name(raw).is_some() {
        return own;
    }
    let mut at = op.parent();
    while let Some(parent) = at {
        let loc = parent.location();
        if file_line_col(loc.to_raw()).is_some() {
            return loc;
        }
        at = parent.parent();
    }
    own
}

/// The name of a name location (`loc("ff.net.0.proj")`), if `location` is one.
pub fn location_name(location: MlirLocation) -> Option<String> {
    // SAFETY: only reads the uniqued location storage owned by the context.
    unsafe {
        if !mlirLocationIsAName(location) {
            return None;
        }
        let name = mlirIdentifierStr(mlirLocationNameGetName(location));
        if name.data.is_null() {
            return Some(String::new());
        }
        let bytes = std::slice::from_raw_parts(name.data as *const u8, name.length);
        Some(String::from_utf8_lossy(bytes).into_owned())
    }
}

/// Emits an error at `location` through the context's diagnostic engine, so that it reaches
/// the attached sink like any MLIR diagnostic.
pub fn emit_error(location: Location, message: &str) {
    let text = CString::new(message.replace('\0', " ")).unwrap_or_default();
    // SAFETY: the location belongs to a live context; MLIR copies the message.
    unsafe { mlirEmitError(location.to_raw(), text.as_ptr()) }
}

/// Splits `text` at lines that are exactly `// -----` (mlir-opt's `--split-input-file`): each
/// chunk with the number of file lines before it, so diagnostics map back to the file.
pub fn split_input(text: &str) -> Vec<(&str, u32)> {
    let mut chunks = Vec::new();
    let (mut start, mut start_line, mut line) = (0usize, 0u32, 0u32);
    let mut pos = 0usize;
    for raw in text.split_inclusive('\n') {
        if raw.trim_end() == "// -----" {
            chunks.push((&text[start..pos], start_line));
            start = pos + raw.len();
            start_line = line + 1;
        }
        pos += raw.len();
        line += 1;
    }
    chunks.push((&text[start..], start_line));
    chunks
}
