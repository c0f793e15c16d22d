//! `dit-verify`: runs the dit verifier as a pass.

use crate::registry::{DitPass, PassContext, PassFailed};
use dit_dialect::{ir::Op, verifier};

/// The verifier as a pass (also useful between passes of a pipeline).
pub struct Verify;

impl DitPass for Verify {
    fn run(&mut self, module: Op, _: &PassContext) -> Result<(), PassFailed> {
        if verifier::verify_and_report(module) {
            Ok(())
        } else {
            Err(PassFailed)
        }
    }
}
