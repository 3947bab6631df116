"""The quickstart example runs and checks itself (exit 1 on a mismatch)."""

import subprocess
import sys


def test_quickstart(examples):
    r = subprocess.run([sys.executable, str(examples / "python" / "quickstart.py")], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "lanes_matvec: max |error|" in r.stdout and "softmax: max |error|" in r.stdout
    assert "MISMATCH" not in r.stdout
