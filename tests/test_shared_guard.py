"""`tests/shared_guard.py`: the no-shared pass fails a test that reads ../shared, and every run fails a
skip that does not name what it needs (each case runs a small test file in a child pytest)."""

from __future__ import annotations

import pytest

from tests import shared_guard

READS = f"""
def test_reads_the_shared_folder():
    try:
        open({str(shared_guard.BESIDE / "tools" / "README.md")!r}).close()
    except OSError:
        pass  # a fresh clone has no ../shared: the read is what fails the test
"""


@pytest.fixture
def run(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch):
    """`run(body, hidden)`: the test file `body` in a child pytest with the guard, the shared folder
    hidden (`JXMJ_SHARED` a path that does not exist) or not (an existing folder)."""

    def go(body: str, hidden: bool) -> pytest.RunResult:
        pytester.makepyfile(test_case=body)
        monkeypatch.setenv("PYTHONPATH", str(shared_guard.REPO))
        monkeypatch.setenv("JXMJ_SHARED", str(pytester.path / "no-shared" if hidden else pytester.path))
        return pytester.runpytest_subprocess("-p", "tests.shared_guard", "-p", "no:cacheprovider")

    return go


def test_a_read_of_the_shared_folder_fails_the_no_shared_pass(run):
    result = run(READS, hidden=True)
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    result.stdout.fnmatch_lines(["*read * with the shared folder hidden (JXMJ_SHARED)*"])


def test_the_same_read_passes_when_the_shared_folder_is_not_hidden(run):
    assert run(READS, hidden=False).ret == pytest.ExitCode.OK


@pytest.mark.parametrize(
    ("body", "ok"),
    [
        ("import pytest\ndef test_x():\n    pytest.skip('needs /dev/full')\n", True),
        ("import pytest\ndef test_x():\n    pytest.skip('not today')\n", False),
        ("import pytest\n@pytest.mark.xfail\ndef test_x():\n    assert False\n", False),
    ],
)
def test_a_skip_must_name_what_it_needs(run, body, ok):
    result = run(body, hidden=False)
    assert (result.ret == pytest.ExitCode.OK) is ok, result.stdout.str()
