"""A pytest plugin (`-p tests.shared_guard`, in pyproject's addopts): the suite needs nothing outside
the repository, and a run with the shared folder hidden proves it.

`JXMJ_SHARED` names the project's shared folder of photos, tile art and tools (`datasets.tiles.SHARED`,
default `../shared` beside the checkout). A run with `JXMJ_SHARED` set to a path that does not exist is
the *no-shared pass* (`.ci/run` makes one; a user's fresh clone has no `../shared` at all):

- a test that opens, lists or globs anything under the real `../shared` fails (a Python audit hook sees
  every `open`, `os.listdir`, `os.scandir` and `glob.glob`; C-level reads such as `cv2.imread` and child
  processes are not seen);
- the summary line names the pass and counts its skips.

In every run each skip must name what it needs: its reason starts with ``needs `` (``pytest.skip("needs
/dev/full")``, ``importorskip(..., reason="needs onnx (the train extra)")``); any other skip, and any
xfail or xpass, fails the run with the test named.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
BESIDE = (REPO.parent / "shared").resolve()
"""The shared folder a checkout finds beside itself (what CI has and a user does not)."""

_EVENTS = {"open", "os.listdir", "os.scandir", "glob.glob", "glob.glob/2"}
_touched: list[str] = []
_unnamed: list[str] = []


def no_shared_pass() -> bool:
    """Whether this run hides the shared folder (`JXMJ_SHARED` points at a path that does not exist)."""
    where = os.environ.get("JXMJ_SHARED")
    return where is not None and not Path(where).exists()


def _under_beside(path: object) -> bool:
    if isinstance(path, bytes):
        path = os.fsdecode(path)
    if not isinstance(path, str | os.PathLike):
        return False
    p = os.path.abspath(os.fspath(path))
    root = str(BESIDE)
    return p == root or p.startswith(root + os.sep)


def _audit(event: str, args: tuple) -> None:
    if event in _EVENTS and args and _under_beside(args[0]):
        _touched.append(os.fspath(args[0]) if not isinstance(args[0], bytes) else os.fsdecode(args[0]))


def pytest_configure(config: pytest.Config) -> None:
    if no_shared_pass():
        sys.addaudithook(_audit)  # cannot be removed: the whole process is the no-shared pass


@pytest.fixture(autouse=True)
def _no_read_of_the_shared_folder():
    """In the no-shared pass, a test that read `../shared` fails (in its teardown, naming the path)."""
    _touched.clear()
    yield
    if _touched:
        seen = sorted(set(_touched))
        _touched.clear()
        pytest.fail(f"read {BESIDE} with the shared folder hidden (JXMJ_SHARED): {seen[:3]}", pytrace=False)


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    if hasattr(report, "wasxfail"):
        _unnamed.append(f"{report.nodeid}: xfail / xpass ({report.wasxfail or 'no reason'})")
    elif report.skipped and isinstance(report.longrepr, tuple):
        reason = str(report.longrepr[2]).removeprefix("Skipped: ")
        if not reason.startswith("needs "):
            _unnamed.append(f"{report.nodeid}: skipped without naming what it needs ({reason!r})")


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    if _unnamed and exitstatus == 0:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


def pytest_terminal_summary(terminalreporter, exitstatus: int, config: pytest.Config) -> None:
    if no_shared_pass():
        skipped = len(terminalreporter.stats.get("skipped", []))
        terminalreporter.write_line(
            f"no-shared pass (JXMJ_SHARED={os.environ['JXMJ_SHARED']}): nothing under {BESIDE} was read; "
            f"{skipped} skipped, each naming what it needs"
            if not _unnamed
            else f"no-shared pass (JXMJ_SHARED={os.environ['JXMJ_SHARED']})"
        )
    for line in _unnamed:
        terminalreporter.write_line(f"shared_guard: {line}", red=True)
