//! `dit-fold-transpose-quant-matmul-limit`: CANN's QuantBatchMatmulV3TransposeLimitFusionPass,
//! the supplementary rule for inputs whose inner dim exceeds 65535 on targets without the bf16
//! L1→BT move. Same matching and rewriting as the normal rule; only the shape condition differs.

use crate::{
    registry::{DitPass, PassContext, PassFailed},
    transforms::dit_fold_transpose_quant_matmul::{run_rule, Rule},
};
use dit_dialect::ir::Op;

/// The limit rule as a pass.
pub struct FoldTransposeQuantMatmulLimit;

impl DitPass for FoldTransposeQuantMatmulLimit {
    fn run(&mut self, module: Op, context: &PassContext) -> Result<(), PassFailed> {
        run_rule(module, context, Rule::Limit);
        Ok(())
    }
}
