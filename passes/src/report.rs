//! The fusion report: what every rewrite pass matched, applied and skipped (with the reason
//! and the location), and the kernel count before and after, as text or as JSON shaped like
//! CANN's fusion_result.json (match_times / effect_times).

use dit_dialect::{diagnostics::file_line_col, ir::Op};
use serde::Serialize;
use std::{cell::RefCell, collections::BTreeMap, rc::Rc};

/// Where something happened, as MLIR located it (file, line, column of the parsed buffer).
pub type RawPoint = Option<(String, u32, u32)>;

/// One decision of a pass about one match.
#[derive(Clone, Debug)]
pub struct FusionEvent {
    /// The pass (or pattern) that decided.
    pub pattern: &'static str,
    pub applied: bool,
    pub point: RawPoint,
    /// What was done, or why not.
    pub detail: String,
}

/// Collects events during a pipeline run; shared by the passes of one run.
#[derive(Clone, Debug, Default)]
pub struct FusionReport {
    events: Rc<RefCell<Vec<FusionEvent>>>,
}

impl FusionReport {
    /// Records that `pattern` rewrote the match at `op`.
    pub fn applied(&self, pattern: &'static str, op: Op, detail: impl Into<String>) {
        self.push(pattern, true, op, detail.into());
    }

    /// Records that `pattern` matched at `op` but did not rewrite, and why. A pattern driver
    /// may look at the same match more than once: the same skip is recorded once.
    pub fn skipped(&self, pattern: &'static str, op: Op, reason: impl Into<String>) {
        let reason = reason.into();
        let point = file_line_col(op.location().to_raw());
        let seen =
            self.events.borrow().iter().any(|e| {
                !e.applied && e.pattern == pattern && e.point == point && e.detail == reason
            });
        if !seen {
            self.push(pattern, false, op, reason);
        }
    }

    fn push(&self, pattern: &'static str, applied: bool, op: Op, detail: String) {
        let point = file_line_col(op.location().to_raw());
        self.events.borrow_mut().push(FusionEvent {
            pattern,
            applied,
            point,
            detail,
        });
    }

    /// Every event so far, in order.
    pub fn events(&self) -> Vec<FusionEvent> {
        self.events.borrow().clone()
    }
}

/// Ops that are no kernel of their own: views and reshapes of memory, and the terminator.
const NOT_KERNELS: &[&str] = &["dit.reshape", "dit.bitcast", "dit.broadcast", "dit.yield"];

/// The number of kernels a module launches: every dit op except views (reshape, bitcast,
/// broadcast); a `dit.fused` region counts once, whatever it holds.
pub fn count_kernels(root: Op) -> usize {
    let mut count = 0;
    root.walk(&mut |op| {
        let name = op.name();
        let inside_fused = op.parent().is_some_and(|p| p.is("dit.fused"));
        if name.starts_with("dit.") && !NOT_KERNELS.contains(&name.as_str()) && !inside_fused {
            count += 1;
        }
    });
    count
}

/// A located line of the text report, or a JSON entry.
#[derive(Clone, Debug, Serialize)]
pub struct ReportEntry {
    pub location: String,
    pub detail: String,
}

/// One pattern's totals.
#[derive(Clone, Debug, Default, Serialize)]
pub struct PatternSummary {
    pub match_times: usize,
    pub effect_times: usize,
    pub applied: Vec<ReportEntry>,
    pub skipped: Vec<ReportEntry>,
}

/// The whole report of one input.
#[derive(Clone, Debug, Serialize)]
pub struct ReportSummary {
    pub patterns: BTreeMap<&'static str, PatternSummary>,
    pub kernels_before: usize,
    pub kernels_after: usize,
}

impl ReportSummary {
    /// Builds the summary; `locate` turns a raw point into `file:line:col`.
    pub fn new(
        events: &[FusionEvent],
        kernels_before: usize,
        kernels_after: usize,
        locate: &dyn Fn(&RawPoint) -> String,
    ) -> Self {
        let mut patterns: BTreeMap<&'static str, PatternSummary> = BTreeMap::new();
        for e in events {
            let entry = patterns.entry(e.pattern).or_default();
            entry.match_times += 1;
            let line = ReportEntry {
                location: locate(&e.point),
                detail: e.detail.clone(),
            };
            if e.applied {
                entry.effect_times += 1;
                entry.applied.push(line);
            } else {
                entry.skipped.push(line);
            }
        }
        Self {
            patterns,
            kernels_before,
            kernels_after,
        }
    }

    /// The text form: per pattern its counts, then one located line per decision.
    pub fn text(&self) -> String {
        let mut out = String::from("fusion report:\n");
        for (name, p) in &self.patterns {
            out.push_str(&format!(
                "  {name}: matched {}, applied {}, skipped {}\n",
                p.match_times,
                p.effect_times,
                p.skipped.len()
            ));
            for a in &p.applied {
                out.push_str(&format!("    applied at {}: {}\n", a.location, a.detail));
            }
            for s in &p.skipped {
                out.push_str(&format!("    skipped at {}: {}\n", s.location, s.detail));
            }
        }
        out.push_str(&format!(
            "kernels: {} before, {} after\n",
            self.kernels_before, self.kernels_after
        ));
        out
    }

    /// The JSON form.
    pub fn json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"))
    }
}
