# The Phobos lit suite. Run through `cargo test` (cli/tests/suite.rs), which passes the
# binaries it built: --param phobos_opt=... --param phobos=... ; or by hand:
#   lit tests/lit --param phobos_opt=target/debug/phobos-opt --param phobos=target/debug/phobos
import os
import shutil

import lit.formats

config.name = "Phobos"
config.test_format = lit.formats.ShTest(execute_external=True)
config.suffixes = [".mlir", ".phobos", ".test"]
config.excludes = ["lit.cfg.py", "tools", "inputs", "Inputs"]
config.test_source_root = os.path.dirname(__file__)
root = os.path.abspath(os.path.join(config.test_source_root, "..", ".."))
config.test_exec_root = lit_config.params.get("build_dir", os.path.join(root, "target", "lit"))

llvm_bin = lit_config.params.get("llvm_bin", "/usr/lib/llvm-22/bin")
bins = {}
for name in ("phobos_opt", "phobos"):
    path = lit_config.params.get(name)
    if path is None:
        lit_config.fatal(f"pass --param {name}=PATH (cargo test does)")
    bins[name] = os.path.abspath(path)

# The tools tests call by name: phobos-opt, phobos, FileCheck, not, count.
tool_dir = os.path.join(config.test_exec_root, "bin")
os.makedirs(tool_dir, exist_ok=True)
for name, path in (("phobos-opt", bins["phobos_opt"]), ("phobos", bins["phobos"])):
    link = os.path.join(tool_dir, name)
    if os.path.lexists(link):
        os.remove(link)
    os.symlink(path, link)
# The binary itself (not the link), for tests that read its ELF headers.
config.substitutions.append(("%phobos-bin", bins["phobos"]))
config.environment["PATH"] = os.pathsep.join([tool_dir, llvm_bin, config.environment.get("PATH", os.environ["PATH"])])
config.environment["FILECHECK_OPTS"] = "--enable-var-scope"
for var in ("HOME", "TMPDIR", "PHOBOS_LOG"):
    if var in os.environ:
        config.environment[var] = os.environ[var]

# ptxas from third_party/install.sh (.tools/cuda) or PATH: PTX tests need it.
ptxas = os.path.join(root, ".tools", "cuda", "nvidia", "cuda_nvcc", "bin", "ptxas")
if not os.path.exists(ptxas):
    ptxas = shutil.which("ptxas") or ""
# Longer names first: lit substitutes in list order, and %ptxas is a prefix of %ptxas-check.
config.substitutions.append(("%ptxas-check", f"bash {os.path.join(config.test_source_root, 'tools', 'ptxas-check.sh')} {ptxas}"))
if ptxas:
    config.available_features.add("ptxas")
elif os.environ.get("CI") in ("true", "1"):
    # Without ptxas the PTX tests would report UNSUPPORTED: on CI that is a failure.
    lit_config.fatal("CI=true and no ptxas (third_party/install.sh installs it)")
    config.substitutions.append(("%ptxas", ptxas))
libdevice = os.path.join(root, ".tools", "cuda", "nvidia", "cuda_nvcc", "nvvm", "libdevice", "libdevice.10.bc")
config.substitutions.append(("%libdevice", libdevice))
config.substitutions.append(("%expect-exit", f"bash {os.path.join(config.test_source_root, 'tools', 'expect-exit.sh')}"))
config.substitutions.append(("%examples", os.path.join(root, "examples")))
config.substitutions.append(("%inputs", os.path.join(config.test_source_root, "inputs")))

# NumPy (third_party/install.sh puts it in .tools/python) for the `phobos run` tests.
pydir = os.path.join(root, ".tools", "python")
config.environment["PYTHONPATH"] = pydir
config.substitutions.append(("%npy", f"python3 {os.path.join(config.test_source_root, 'tools', 'npy.py')}"))
import subprocess
if subprocess.run(["python3", "-c", "import numpy"], env={**os.environ, "PYTHONPATH": pydir}, capture_output=True).returncode == 0:
    config.available_features.add("numpy")

# SASS tests: nvdisasm from PATH, or the one Triton's wheel carries (the anchors' venv,
# bench/anchors); optional (third_party/install.sh does not install it).
import glob
nvdisasm = shutil.which("nvdisasm") or next(
    iter(sorted(glob.glob(os.path.expanduser("~/.cache/phobos-anchors/venv/lib/python3*/site-packages/triton/backends/nvidia/bin/nvdisasm")))), "")
if nvdisasm and ptxas:
    config.available_features.add("nvdisasm")
    config.substitutions.append(("%sass-loop", f"python3 {os.path.join(config.test_source_root, 'tools', 'sass_loop.py')} {ptxas} {nvdisasm}"))

# GPU tests: only where a CUDA driver is present.
if os.path.exists("/dev/nvidia0") or os.path.exists("/dev/nvidiactl"):
    config.available_features.add("cuda")

# Compiled kernels are cached here, not in the user's cache directory.
config.environment["PHOBOS_CACHE_DIR"] = os.path.join(config.test_exec_root, "kernel-cache")
