"""The `jxmj` front door: version, help for every subcommand."""

import subprocess
import sys

import pytest

from app import cli


def test_version_prints_package_version(capsys):
    with pytest.raises(SystemExit) as exc:
        cli.main(["--version"])
    assert exc.value.code == 0
    assert capsys.readouterr().out.startswith("jxmj ")


@pytest.mark.parametrize("command", ["score", "detect", "photo"])
def test_each_subcommand_has_help(command, capsys):
    with pytest.raises(SystemExit) as exc:
        cli.main([command, "--help"])
    assert exc.value.code == 0
    assert f"jxmj {command}" in capsys.readouterr().out


def test_no_command_is_a_usage_error_on_standard_error_as_argparse_writes_one(capsys):
    """`jxmj` alone: the usage line and a hint to `jxmj --help` on standard error, nothing on
    standard output, exit 2 (it printed the whole help on standard output with exit 2)."""
    assert cli.main([]) == 2
    out = capsys.readouterr()
    assert out.out == ""
    assert out.err == (
        "usage: jxmj [-h] [--version] COMMAND ...\n"
        "jxmj: error: a command is needed; `jxmj --help` lists them\n"
    )


def test_help_lists_every_command_on_standard_output(capsys):
    with pytest.raises(SystemExit) as exc:
        cli.main(["--help"])
    assert exc.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith("usage: jxmj") and all(f"    {c} " in out for c in cli.SUBCOMMANDS)


def test_app_help_names_streamlit_options(capsys):
    assert cli.main(["app", "--help"]) == 0
    assert "--server.port" in capsys.readouterr().out


def test_app_command_passes_server_options_through():
    from app.cmd_app import streamlit_command

    cmd = streamlit_command(["--server.port", "9000", "--server.headless", "true"])
    assert cmd.count("--server.port") == 1
    assert cmd[cmd.index("--server.port") + 1] == "9000"
    assert "--server.headless" in cmd


def test_console_entry_point_runs_as_module():
    out = subprocess.run([sys.executable, "-m", "app", "--version"], capture_output=True, text=True)
    assert out.returncode == 0 and out.stdout.startswith("jxmj ")
