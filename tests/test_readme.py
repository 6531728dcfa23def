"""The README's examples run, and its tables say what the command line and the settings are.

(Its Python examples are doctests: pytest collects README.md itself, see pyproject.toml.)
"""

import re
import shlex
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

import mjscore
from mjscore.cli import app
from mjscore.model.settings import ROTATION, SETTINGS

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")
runner = CliRunner()


def blocks(language):
    return [m.group(2) for m in re.finditer(r"```(\w*)\n(.*?)```", README, re.S) if m.group(1) == language]


def section(title):
    start = README.index(f"\n## {title}\n")
    end = README.find("\n## ", start + 1)
    return README[start:end if end > 0 else None]


def table_rows(text):
    return [line for line in text.splitlines() if line.startswith("| ") and not line.startswith("|---")][1:]


@pytest.fixture
def folder(tmp_path, monkeypatch):
    """A folder holding the sample hands and the Kajongg databases of the tests, as a user's
    would after a clone."""
    shutil.copytree(ROOT / "sample_hands", tmp_path / "sample_hands")
    shutil.copytree(ROOT / "tests" / "data", tmp_path / "tests" / "data")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def run(line):
    """One command line of the README, as a shell would split it (`# comments` and `> FILE` too)."""
    words = shlex.split(line, comments=True)
    assert words[0] == "mjscore", line
    if words[1] == "serve":
        return serve(words)
    out = None
    if ">" in words:
        at = words.index(">")
        words, out = words[:at], words[at + 1]
    stdin = None
    if words[:2] == ["mjscore", "add"] and "-e" not in words and len(words) == 3:
        stdin = "E: score 10 win self; S: ...; W: ...; N: ...\n"      # what would be typed at the prompts
    result = runner.invoke(app, words[1:], input=stdin)
    if out is not None:
        Path(out).write_text(result.stdout)
    return result


def serve(words):
    """`mjscore serve` runs until stopped: started, its address read, stopped with Ctrl-C (on
    127.0.0.1 and a free port, whatever the README's line asks, and on an evening of its own)."""
    import signal
    import subprocess
    import sys
    from types import SimpleNamespace

    args = [w for w in words[1:] if w != "--lan"]
    if args[1].endswith("/"):
        # A night: a folder of two tables' evenings, made for it.
        import mjscore

        night = Path(args[1])
        night.mkdir()
        mjscore.Evening(night / "table-1.mj").start(("Ann", "Bob", "Cid", "Dee"))
        mjscore.Evening(night / "table-2.mj").start(("Eve", "Fay", "Gus", "Hal"))
    else:
        args[1] = "served-" + args[1]
    proc = subprocess.Popen([sys.executable, "-m", "mjscore", *args, "--port", "0"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    first = proc.stdout.readline()
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=30)
    ok = first.startswith("Open http://127.0.0.1:") and proc.returncode == 0
    return SimpleNamespace(exit_code=0 if ok else 1, stdout=first + out, stderr=err)


def test_the_two_command_lines():
    first, second = blocks("sh")[:2]
    assert first.strip() == ("python3 -m venv .venv && .venv/bin/pip install -q . && "
                             ".venv/bin/mjscore score sample_hands/win-on-discard.mj")
    assert second.strip() == ("python3 -m venv .venv && .venv/bin/pip install -q -e '.[test]' && "
                              ".venv/bin/python -m pytest")
    assert second.strip() in (ROOT / ".ci" / "run").read_text()          # CI runs the README's test command


def test_every_command_line_of_the_readme_runs(folder):
    lines = [ln.strip() for block in blocks("sh") for ln in block.splitlines() if ln.strip().startswith("mjscore ")]
    assert len(lines) >= 4
    for line in lines:
        result = run(line)
        assert result.exit_code == 0, (line, result.stdout, result.stderr)


@pytest.mark.usefixtures("unwrapped")
def test_the_shown_commands_print_what_the_readme_shows(folder):
    shown = [b for b in blocks("") if b.startswith("$ mjscore")]
    assert shown
    for block in shown:
        command, *expected = block.rstrip("\n").split("\n")
        result = run(command[2:])
        assert (result.stdout + result.stderr).rstrip("\n").split("\n") == expected, command


def test_the_evening_file_is_what_add_writes(folder):
    add = [ln for block in blocks("sh") for ln in block.splitlines() if ln.startswith("mjscore add") and "-e" in ln]
    for line in add:
        assert run(line).exit_code == 0
    [shown] = [b for b in blocks("") if b.startswith("players Ann Bob Cid Dee\n---")]
    written = Path("evening.mj").read_text()
    assert written.startswith(shown.split("...\n")[0].rstrip(".\n"))


def test_the_notation_example_and_its_yaml_form_are_one_table():
    [compact] = [b for b in blocks("") if b.startswith("# hand 12")]
    [table] = mjscore.parse(compact)
    [as_yaml] = [b for b in blocks("yaml") if b.startswith("round: S")]
    [same] = mjscore.parse(as_yaml, name="table.yaml")
    assert same == table
    assert mjscore.score(compact).to_dict() == mjscore.score(as_yaml).to_dict()


def test_the_house_rules_example_loads_and_diffs(folder):
    [house] = [b for b in blocks("yaml") if b.startswith("scheme: our-club")]
    Path("our-club.yaml").write_text(house)
    scheme = mjscore.load_scheme(Path("our-club.yaml"))
    assert (scheme.name, scheme.limit, scheme.rule("mahjong").points) == ("our-club", 2000, 30)
    result = runner.invoke(app, ["schemes", "diff", "classical", "our-club.yaml"])
    assert result.exit_code == 0 and "limit" in result.stdout


def commands_of_the_cli():
    """Every command the CLI has, as `score`, `schemes show`, ..."""
    import typer.main

    group = typer.main.get_command(app)
    out = set()
    for name, command in group.commands.items():
        out.add(name)
        out.update(f"{name} {sub}" for sub in getattr(command, "commands", {}))
    return out


def help_of(command):
    result = runner.invoke(app, [*command.split(), "--help"], env={"COLUMNS": "200"})
    assert result.exit_code == 0, command
    return result.stdout


def test_the_command_table_names_every_command_and_only_options_that_exist():
    rows = table_rows(section("Commands"))
    named = set()
    for row in rows:
        first, text = row.split(" | ", 1)
        words = first.strip("| `").split()
        if words[1].startswith("--"):
            assert words[1] in help_of(""), row                    # mjscore --version
            continue
        command = words[1]
        named.add(command)
        if len(words) > 2 and f"{command} {words[2]}" in commands_of_the_cli():
            command = f"{command} {words[2]}"              # a group's command: mjscore import kajongg
            named.add(command)
        subs = re.findall(r"`schemes (\w+)", text)
        named.update(f"schemes {s}" for s in subs)
        for option in re.findall(r"(?<![\w-])(--[a-z][a-z-]*)", text):
            holders = [command] + [f"schemes {s}" for s in subs]
            assert any(option in help_of(c) for c in holders), (command, option)
    assert named == commands_of_the_cli()


def test_the_settings_table_has_a_row_for_every_setting_with_its_flag_header_and_scheme_key():
    rows = table_rows(section("Settlement"))
    for setting in SETTINGS + ROTATION:
        [row] = [r for r in rows if re.search(rf"`--{setting.word}[` ]", r)]
        line, flag, header, scheme = [c.strip() for c in row.strip("|").split(" | ")]
        assert f"`{setting.word} " in header, setting.name
        assert f"{setting.section}: {{{setting.name}: " in scheme, setting.name
        assert all(f"--{setting.word}" in help_of(c) for c in ("score", "batch", "session", "add")
                   if setting in SETTINGS or c in ("session", "add"))
