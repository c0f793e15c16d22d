"""dit-import: diffusers DiT blocks into torch-dialect MLIR."""
