# lit configuration for the dit test suite; run by `cargo test` (tools/dit-opt/tests/lit.rs)
# or directly: DIT_BIN_DIR=target/debug /usr/lib/llvm-22/bin/lit -sv test
import os

import lit.formats

config.name = "dit"
config.test_format = lit.formats.ShTest(execute_external=False)
# .c: the C API tests of test/Plugin (compiled and run by their RUN lines).
config.suffixes = [".mlir", ".c"]
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

# libdit_plugin.so (tools/dit-plugin): the dit dialect and passes for upstream mlir-opt, and
# the C API for C programs (test/Plugin). tools/dit-opt/tests/lit.rs builds it with dit-run;
# a missing plugin is an error, not a reason to skip those tests.
dit_plugin = os.path.join(dit_bin, "libdit_plugin.so")
if not os.path.exists(dit_plugin):
    lit_config.fatal(f"libdit_plugin.so not found in {dit_bin}: run `cargo build -p dit-plugin`")
config.substitutions.append(("%dit_plugin", dit_plugin))
# mlir-opt with the dialect and every dit pass loaded from the plugin.
config.substitutions.append(
    ("%mlir_opt_dit", f"mlir-opt --load-dialect-plugin={dit_plugin} --load-pass-plugin={dit_plugin}")
)
# Compiling and linking a C program against the plugin's C API (dit-c/*.h) and MLIR's
# (mlir-c/*.h, from libdit_mlir_capi.so, which the plugin build writes beside it).
llvm_include = os.path.join(os.path.dirname(llvm_bin), "include")
config.substitutions.append(("%cc", os.environ.get("CC", "cc")))
config.substitutions.append(
    (
        "%dit_capi_flags",
        " ".join(
            [
                "-I" + os.path.join(repo_root, "dialects", "dit", "include"),
                "-I" + llvm_include,
                "-L" + dit_bin,
                "-ldit_plugin",
                "-ldit_mlir_capi",
                "-Wl,-rpath," + dit_bin,
            ]
        ),
    )
)

# Huawei's AscendNPU-IR compiler, installed by scripts/setup-bishengir.sh (issue 15). Tests that
# need it say `REQUIRES: bishengir`; without it lit reports them UNSUPPORTED and this note says
# why, so they never pass silently.
bishengir_dir = os.path.join(repo_root, "target", "bishengir")
bishengir_status_file = os.path.join(bishengir_dir, "status")
if os.path.exists(bishengir_status_file):
    with open(bishengir_status_file) as f:
        bishengir_status = f.readline().strip()
else:
    bishengir_status = "unavailable: scripts/setup-bishengir.sh has not run"
if bishengir_status.startswith("ok "):
    config.available_features.add("bishengir")
    bishengir_bin = os.path.join(bishengir_dir, "bin")
    # The stand-in hivmc sits beside the compilers: bishengir-compile finds it on PATH.
    config.environment["PATH"] = os.pathsep.join([bishengir_bin, config.environment["PATH"]])
    for name in ("bishengir-compile-a5", "bishengir-compile", "bishengir-opt-a5", "bishengir-opt"):
        config.substitutions.append(("%" + name, os.path.join(bishengir_bin, name)))
    config.substitutions.append(("%bishengir", os.path.join(bishengir_bin, "bishengir-compile")))
else:
    lit_config.note(f"bishengir tests skipped: {bishengir_status}")
