//! `dit-fuse-patterns`: applies the PDL fusion patterns (patterns/*.pdll) whose switches are
//! on. Options are the fusion switches (`enable_gelu_mul=false`, …), on top of the defaults
//! or of `--fuse` / `--no-fuse` / `--fusion-config`.

use crate::{
    fusion::{FusionSwitches, SWITCHES},
    patterns::native::NativeState,
    patterns::pdl,
    registry::{DitPass, PassContext, PassFailed, PassOptionInfo},
    transforms::dit_canonicalize::constant_to_rhs,
    transforms::dit_dce::eliminate_dead_code,
};
use dit_dialect::{diagnostics::emit_error, ir::Op};

/// The pass: the pipeline's switches (`--fuse`, `--no-fuse`, `--fusion-config`, in the pass
/// context) with this pass's own options on top.
pub struct FusePatterns {
    overrides: Vec<(String, bool)>,
}

impl FusePatterns {
    /// Builds the pass from pipeline options `enable_x=true|false`.
    pub fn from_options(options: &[(String, String)]) -> Result<Self, String> {
        let mut overrides = Vec::new();
        for (key, value) in options {
            let on = value
                .parse::<bool>()
                .map_err(|_| format!("option '{key}' must be true or false, got '{value}'"))?;
            FusionSwitches::none().set(key, on)?;
            overrides.push((key.clone(), on));
        }
        Ok(Self { overrides })
    }

    /// The switches this run uses.
    pub fn switches(&self, context: &PassContext) -> FusionSwitches {
        let mut switches = context.switches.clone();
        for (key, on) in &self.overrides {
            // Checked in from_options.
            let _ = switches.set(key, *on);
        }
        switches
    }
}

/// The pass's options: one per fusion switch.
pub fn options() -> Vec<PassOptionInfo> {
    SWITCHES
        .iter()
        .map(|s| PassOptionInfo {
            name: s.name,
            help: s.summary,
            default: if s.default { "true" } else { "false" },
        })
        .collect()
}

impl DitPass for FusePatterns {
    fn run(&mut self, module: Op, context: &PassContext) -> Result<(), PassFailed> {
        let state = NativeState {
            report: context.report.clone(),
            target: context.target,
        };
        // Patterns match constants on the right of add/mul only.
        module.walk(&mut |op| {
            constant_to_rhs(op);
        });
        pdl::apply(module, &self.switches(context), &state).map_err(|message| {
            emit_error(module.location(), &message);
            PassFailed
        })?;
        // PDL replaces a pattern's root; the intermediates it made dead go here (IRDL ops are
        // not known to be side-effect free, so the greedy driver keeps them).
        eliminate_dead_code(module);
        Ok(())
    }
}
