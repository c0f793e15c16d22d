//! The fusion report: what every rewrite pass matched, applied and skipped (with the reason
//! and the location), and the kernel count before and after, as text or as JSON shaped like
//! CANN's fusion_result.json (match_times / effect_times).

use crate::analysis::cost::{human_bytes, GraphCost, DYNAMIC_DIM};
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

/// The number of kernels one call of a module launches (see [`crate::analysis::cost::placement`]).
pub fn count_kernels(root: Op) -> usize {
    crate::analysis::cost::measure(root).kernels
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
    /// Kernels the lowered per-call entry launches after the passes.
    pub kernels_after: usize,
    /// Kernels the lowered init entry launches once, at load time (weight re-layouts), and the
    /// DDR bytes they move then; not part of `kernels_after` or `ddr_bytes_after`.
    pub prepack_kernels_after: usize,
    pub prepack_bytes_after: u64,
    /// Constants uploaded once per device and kept resident (FIA's causal attenMask), after.
    pub resident_bytes_after: u64,
    /// DDR bytes all kernels read and write, before and after.
    pub ddr_bytes_before: u64,
    pub ddr_bytes_after: u64,
    /// Inputs and weights read once, outputs written once.
    pub lower_bound_bytes: u64,
    /// The kernel with the most DDR traffic after the passes, as `op at location (bytes)`.
    pub largest_kernel_after: Option<String>,
    /// What a dynamic dim counts as in the byte counts.
    pub dynamic_dim_counted_as: i64,
    /// Uses of dynamic dims that no `--shape-hint` bound (each counted as
    /// `dynamic_dim_counted_as`), after the fusions.
    pub unbound_dynamic_dims: usize,
    /// Per function: kernels and DDR bytes before and after.
    pub functions: Vec<FunctionSummary>,
}

/// One function's cost before and after the passes.
#[derive(Clone, Debug, Serialize)]
pub struct FunctionSummary {
    pub name: String,
    pub kernels_before: usize,
    pub kernels_after: usize,
    /// Kernels and DDR bytes of the function's init entry (load-time pre-pack).
    pub prepack_kernels_after: usize,
    pub prepack_bytes_after: u64,
    pub ddr_bytes_before: u64,
    pub ddr_bytes_after: u64,
    pub lower_bound_bytes: u64,
}

impl ReportSummary {
    /// Builds the summary; `locate` turns a raw point into `file:line:col`.
    pub fn new(
        events: &[FusionEvent],
        before: &GraphCost,
        after: &GraphCost,
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
            kernels_before: before.kernels,
            kernels_after: after.kernels,
            prepack_kernels_after: after.prepack_kernels,
            prepack_bytes_after: after.prepack_bytes,
            resident_bytes_after: after.resident_bytes,
            ddr_bytes_before: before.ddr_bytes,
            ddr_bytes_after: after.ddr_bytes,
            lower_bound_bytes: after.lower_bound_bytes,
            largest_kernel_after: after.largest.as_ref().map(|l| {
                format!(
                    "{} at {} ({})",
                    l.op,
                    locate(&l.point),
                    human_bytes(l.bytes)
                )
            }),
            dynamic_dim_counted_as: DYNAMIC_DIM,
            unbound_dynamic_dims: after.unbound_dynamic_dims,
            functions: Vec::new(),
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
            "kernels: {} before, {} after (launches per call of the lowered program)\n",
            self.kernels_before, self.kernels_after
        ));
        out.push_str(&format!(
            "pre-pack (init entry, once at load): {} kernel{}, {} moved\n",
            self.prepack_kernels_after,
            if self.prepack_kernels_after == 1 {
                ""
            } else {
                "s"
            },
            human_bytes(self.prepack_bytes_after)
        ));
        if self.resident_bytes_after > 0 {
            out.push_str(&format!(
                "device-resident constants (uploaded once per device, no kernel): {} (the \
                 causal attenMask of FusedInferAttentionScore)\n",
                human_bytes(self.resident_bytes_after)
            ));
        }
        let ratio = |b: u64| match self.lower_bound_bytes {
            0 => 0.0,
            bound => b as f64 / bound as f64,
        };
        out.push_str(&format!(
            "DDR bytes: {} before, {} after; lower bound {} ({:.2}x -> {:.2}x of it; {})\n",
            human_bytes(self.ddr_bytes_before),
            human_bytes(self.ddr_bytes_after),
            human_bytes(self.lower_bound_bytes),
            ratio(self.ddr_bytes_before),
            ratio(self.ddr_bytes_after),
            if self.unbound_dynamic_dims == 0 {
                "all dims static or bound by --shape-hint".to_string()
            } else {
                format!(
                    "{} unbound dynamic dim uses counted as {}: bind them with --shape-hint",
                    self.unbound_dynamic_dims, self.dynamic_dim_counted_as
                )
            }
        ));
        if self.functions.len() > 1 {
            for f in &self.functions {
                out.push_str(&format!(
                    "  {}: kernels {} -> {} (+{} pre-pack), DDR {} -> {} (lower bound {})\n",
                    f.name,
                    f.kernels_before,
                    f.kernels_after,
                    f.prepack_kernels_after,
                    human_bytes(f.ddr_bytes_before),
                    human_bytes(f.ddr_bytes_after),
                    human_bytes(f.lower_bound_bytes)
                ));
            }
        }
        if let Some(largest) = &self.largest_kernel_after {
            out.push_str(&format!("largest kernel after: {largest}\n"));
        }
        out
    }

    /// Adds the per-function costs (same functions before and after, in module order).
    pub fn with_functions(
        mut self,
        before: &[(String, GraphCost)],
        after: &[(String, GraphCost)],
    ) -> Self {
        self.functions = before
            .iter()
            .map(|(name, b)| {
                let a = after
                    .iter()
                    .find(|(n, _)| n == name)
                    .map(|(_, a)| a.clone())
                    .unwrap_or_default();
                FunctionSummary {
                    name: name.clone(),
                    kernels_before: b.kernels,
                    kernels_after: a.kernels,
                    prepack_kernels_after: a.prepack_kernels,
                    prepack_bytes_after: a.prepack_bytes,
                    ddr_bytes_before: b.ddr_bytes,
                    ddr_bytes_after: a.ddr_bytes,
                    lower_bound_bytes: a.lower_bound_bytes,
                }
            })
            .collect();
        self
    }

    /// The JSON form.
    pub fn json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"))
    }
}
