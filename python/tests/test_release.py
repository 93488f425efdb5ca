"""The release's identity: one version everywhere, and bake's description of it.

VERSION is the version; the programs print it (``--PrintVersion``), every
JSON record carries it (``rudp_version``), and pyproject.toml, the Python
package, CITATION.cff, CHANGES.md and bakeconf.xml (its tag) say the same.
"""

from __future__ import annotations

import json
import re
import subprocess
import tomllib
from pathlib import Path
from xml.etree import ElementTree

import pytest

import rudp
from rudp import paths

ROOT = paths.REPO_ROOT
VERSION = (ROOT / "VERSION").read_text(encoding="utf-8").strip()

#: Every program built from examples/ (each parses its command line with RudpCommandLine).
PROGRAMS = sorted(p.stem for p in (ROOT / "examples").glob("*.cc"))


def test_the_version_is_one_number_everywhere() -> None:
    assert re.fullmatch(r"\d+\.\d+\.\d+", VERSION), VERSION
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert pyproject["project"]["version"] == VERSION
    assert rudp.__version__ == VERSION
    citation = (ROOT / "CITATION.cff").read_text(encoding="utf-8")
    assert re.search(rf'^version: "{re.escape(VERSION)}"$', citation, re.M)
    # CHANGES.md: the newest release first, with the date CITATION.cff gives.
    releases = re.findall(
        r"^## (\d+\.\d+\.\d+) \((\d{4}-\d{2}-\d{2})\)$",
        (ROOT / "CHANGES.md").read_text(encoding="utf-8"),
        re.M,
    )
    assert releases and releases[0][0] == VERSION
    assert f'date-released: "{releases[0][1]}"' in citation
    assert releases[-1][0] == "0.1.0"  # every release since the first


def test_bakeconf_describes_this_release_as_an_ns3_contrib_module() -> None:
    root = ElementTree.parse(ROOT / "bakeconf.xml").getroot()
    assert root.tag == "configuration"
    (module,) = root.findall("./modules/module")
    assert module.get("name") == "rudp"
    assert module.get("type") == "ns-contrib"
    # The releases the module is verified on (doc/rudp.rst, "Supported ns-3 versions").
    assert (module.get("min_version"), module.get("max_version")) == ("ns-3.35", "ns-3.48")
    supported = " ".join((ROOT / "doc" / "rudp.rst").read_text(encoding="utf-8").split())
    assert (
        "builds in ns-3.35 (waf, ``wscript``) and in every CMake release from ns-3.36 to ns-3.48"
        in (supported)
    )
    source = module.find("source")
    assert source is not None and source.get("type") == "git"
    attributes = {a.get("name"): a.get("value") for a in source.findall("attribute")}
    assert attributes["module_directory"] == "rudp"  # contrib/rudp, the module's name
    assert attributes["revision"] == f"v{VERSION}"
    url = attributes["url"] or ""
    assert url.startswith("https://") and url.endswith(".git"), url
    build = module.find("build")
    assert build is not None and build.get("type") == "none"  # ns-3's build compiles it


@pytest.mark.programs(*PROGRAMS)
@pytest.mark.parametrize("option", ["--PrintVersion", "--version"])
def test_every_program_prints_the_version(option: str) -> None:
    for program in PROGRAMS:
        done = subprocess.run(
            [str(paths.program(program)), option],
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
        assert done.returncode == 0, (program, done.stderr)
        line = done.stdout.strip()
        assert re.fullmatch(
            rf"{program}: rudp {re.escape(VERSION)} \((ns-3\.\d+|ns-3-dev), "
            r"(SHA-256 from OpenSSL|portable SHA-256)\)",
            line,
        ), line


@pytest.mark.programs("rudp-file-transfer", "rudp-cmt")
def test_every_record_carries_the_version(tmp_path: Path) -> None:
    runs = {
        "rudp-file-transfer": ["--size=2000"],
        "rudp-cmt": ["--duration=1s", "--warmup=0.5s"],
    }
    for program, args in runs.items():
        output = tmp_path / f"{program}.json"
        done = subprocess.run(
            [str(paths.program(program)), *args, f"--output={output}"],
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        assert done.returncode == 0, done.stderr
        assert json.loads(output.read_text())["rudp_version"] == VERSION
