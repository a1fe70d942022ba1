"""The wheel (what ``pip install .`` installs) holds the browser client and py.typed."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

from scorpion.build import build

ROOT = Path(__file__).resolve().parents[1]


def test_the_wheel_holds_the_client_every_package_and_py_typed(tmp_path: Path) -> None:
    built = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(tmp_path), str(ROOT)],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert built.returncode == 0, built.stderr
    (wheel,) = tmp_path.glob("scorpion_race-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    client = {
        "scorpion/client/" + p.relative_to(ROOT / "client").as_posix()
        for p in (ROOT / "client").rglob("*")
        if p.is_file()
    }
    assert "scorpion/client/index.html" in client
    assert client <= names, sorted(client - names)
    assert "scorpion/py.typed" in names
    packages = {
        p.parent.relative_to(ROOT / "server").as_posix() + "/__init__.py"
        for p in (ROOT / "server" / "scorpion").rglob("__init__.py")
    }
    assert packages <= names, f"add to [tool.setuptools] packages: {sorted(packages - names)}"
    assert any(n.endswith(".dist-info/licenses/LICENSE") for n in names)
    assert not any(n.startswith(("tests/", "benchmarks/")) for n in names)


def test_version_and_python_dash_m() -> None:
    import scorpion

    for command in (["-m", "scorpion", "--version"], ["-m", "scorpion.cli", "--version"]):
        done = subprocess.run(
            [sys.executable, *command], capture_output=True, text=True, timeout=60
        )
        assert (
            done.returncode == 0
            and done.stdout.strip() == f"scorpion {scorpion.__version__} ({build()} build)"
        )
