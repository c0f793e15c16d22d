# lit configuration for the dit test suite; run by `cargo test` (tools/dit-opt/tests/lit.rs)
# or directly: DIT_BIN_DIR=target/debug /usr/lib/llvm-22/bin/lit -sv test
import os

import lit.formats

config.name = "dit"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".mlir"]
config.test_source_root = os.path.dirname(os.path.abspath(__file__))
repo_root = os.path.dirname(config.test_source_root)
# Keep lit's Output/ directories out of the source tree.
config.test_exec_root = os.path.join(repo_root, "target", "lit")
# Inputs read by other tests, not tests themselves.
config.excludes = ["Inputs", "corpus", "lit.cfg.py"]

llvm_bin = os.environ.get("DIT_LLVM_BIN", "/usr/lib/llvm-22/bin")
dit_bin = os.environ.get("DIT_BIN_DIR", os.path.join(repo_root, "target", "debug"))
for tool in ("dit-opt", "dit-run"):
    if not os.path.exists(os.path.join(dit_bin, tool)):
        lit_config.fatal(f"{tool} not found in {dit_bin}: build first or set DIT_BIN_DIR")
for tool in ("FileCheck", "not"):
    if not os.path.exists(os.path.join(llvm_bin, tool)):
        lit_config.fatal(f"{tool} not found in {llvm_bin}: run scripts/setup.sh")

config.environment["PATH"] = os.pathsep.join(
    [dit_bin, llvm_bin, config.environment.get("PATH", os.environ.get("PATH", ""))]
)
config.substitutions.append(("%dit_root", repo_root))
