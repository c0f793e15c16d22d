//! Conversions across dialects: torch to dit on the way in, dit to aclnn calls and fused groups to linalg on the way out (test/Conversion).

pub mod dit_convert_torch_to_dit;
pub mod dit_lower_fused_to_linalg;
pub mod dit_lower_to_aclnn;
pub mod torch;
