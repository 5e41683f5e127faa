"""The command line's layout: every parameter of every command is declared in the option table
(``rankwise.option_table.LINES``) and nowhere else, the checks every command makes are written
once (in ``rankwise/cli/driver.py``), each command is a short function in a module of its own,
and the entry points run."""

import ast
import subprocess
import sys
from pathlib import Path

import pytest
import typer.main

from rankwise.cli import app
from rankwise.option_table import LINES, REQUIRED

CLI = Path(__file__).parents[1] / "src" / "rankwise" / "cli"
COMMANDS = typer.main.get_command(app).commands


def test_every_command_is_in_the_table_and_the_table_has_every_command():
    assert set(COMMANDS) == set(LINES)


@pytest.mark.parametrize("command", sorted(LINES))
def test_every_parameter_of_every_command_comes_from_the_table(command):
    """Each parameter is the table's entry: its flags, help, default, panel; 0 outside it."""
    table = {o.cli_param: o for o in LINES[command]}
    outside = [p.name for p in COMMANDS[command].params if p.name not in table]
    assert outside == [], f"{command}: declared outside the table: {outside}"
    assert len(COMMANDS[command].params) == len(table), command
    for param in COMMANDS[command].params:
        option = table[param.name]
        if option.kind == "argument":
            assert param.param_type_name == "argument" and not param.opts[0].startswith("-")
        else:
            flags = option.flag.split("/")
            assert set(param.opts) | set(param.secondary_opts) == \
                {*flags, *([option.short] if option.short else [])}, param.name
            assert param.rich_help_panel == option.panel, param.name
            assert param.hidden == option.hidden, param.name
        assert param.help == option.help or param.help.startswith(option.help), param.name
        if option.command_default is REQUIRED:
            assert param.required, param.name
        else:
            assert not param.required and param.default == option.command_default, param.name
        if option.choices and option.listed and "One of:" not in param.help:
            assert param.metavar == "[" + "|".join(option.choices) + "]", param.name


def _modules():
    return sorted(CLI.glob("*.py"))


def test_no_parameter_is_declared_in_the_command_modules():
    """typer.Option / typer.Argument appear only in the app's --version (not a command's)."""
    found = []
    for path in _modules():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Attribute) and node.attr in ("Option", "Argument") \
                    and isinstance(node.value, ast.Name) and node.value.id == "typer":
                found.append(f"{path.name}:{node.lineno}")
    assert found == [f"__init__.py:{_version_line()}"], found


def _version_line() -> int:
    text = (CLI / "__init__.py").read_text(encoding="utf-8")
    return next(i for i, line in enumerate(text.splitlines(), 1) if '"--version"' in line)


def test_the_shared_checks_are_written_once_in_the_driver():
    """The --format check, "give either a FILE or --example NAME", the report folder and the
    one-line error: once each, in the driver (the wording of a refused choice is the table's)."""
    counts = {"must be one of": 0, "give either {": 0, "rankwise: error:": 0,
              "write_report": 0, "except RankwiseError": 0}
    where = {key: set() for key in counts}
    for path in _modules():
        text = path.read_text(encoding="utf-8")
        for key in counts:
            counts[key] += text.count(key)
            if key in text:
                where[key].add(path.name)
    assert where["must be one of"] == set()   # rankwise.option_table.refusal says it
    assert counts["give either {"] == 1 and where["give either {"] == {"driver.py"}
    assert where["write_report"] == {"driver.py"}
    assert where["except RankwiseError"] == {"driver.py"}
    # the driver's one-line error (argv's usage errors print through it too), and run's
    # "every task failed" (exit 1)
    assert where["rankwise: error:"] == {"driver.py", "run.py"}


#: Code lines a command's function may have, its signature and docstring aside.
MAX_COMMAND_LINES = 80


def _code_lines(function: ast.FunctionDef, lines: list) -> int:
    """Lines of the body after the docstring that are neither blank nor only a comment."""
    body = function.body
    if body and isinstance(body[0], ast.Expr) and isinstance(getattr(body[0], "value", None),
                                                             ast.Constant):
        body = body[1:]
    if not body:
        return 0
    text = lines[body[0].lineno - 1:function.end_lineno]
    return sum(1 for line in text if line.strip() and not line.strip().startswith("#"))


def test_each_command_is_short():
    """Each command's function (the one typer runs, and the branches it hands over to) has at
    most 80 code lines: its signature and docstring are not counted, nor blank lines and
    comment lines."""
    functions = {cmd.callback.__name__: cmd.callback for cmd in COMMANDS.values()}
    functions.update({name: None for name in ("compare_table", "compare_items",
                                              "compare_criteria")})
    measured = {}
    for path in _modules():
        text = path.read_text(encoding="utf-8")
        for node in ast.parse(text).body:
            if isinstance(node, ast.FunctionDef) and node.name in functions:
                measured[node.name] = _code_lines(node, text.splitlines())
    assert set(measured) == set(functions)
    assert max(measured.values()) <= MAX_COMMAND_LINES, measured


def test_every_module_of_the_command_line_is_at_most_800_lines():
    paths = [*_modules(), CLI.parent / "cli_options.py", CLI.parent / "option_table.py"]
    sizes = {p.name: len(p.read_text(encoding="utf-8").splitlines()) for p in paths}
    assert max(sizes.values()) <= 800, sizes


@pytest.mark.subprocess
@pytest.mark.parametrize("module", ["rankwise", "rankwise.cli"])
def test_python_dash_m_runs_the_command_line(module):
    out = subprocess.run([sys.executable, "-m", module, "--version"], capture_output=True,
                         text=True)
    assert out.returncode == 0 and out.stdout.startswith("rankwise "), out.stderr


# -- --help in panels ---------------------------------------------------------------------------

def _sections(text: str, boxed: bool) -> dict:
    """``{title: text}`` of a help screen's panels: ``Title:`` headings in the plain layout,
    ``╭─ Title ─╮`` boxes in the boxed one."""
    import re

    text = re.sub(r"\x1b\[[0-9;]*m", "", text)   # colours, where a CI forces them
    sections, title = {}, None
    for line in text.splitlines():
        stripped = line.strip()
        if boxed and stripped.startswith("╭─ "):
            title = stripped[3:].rstrip("─╮ ")
        elif boxed and stripped.startswith("╰"):
            title = None
        elif not boxed and line and not line[0].isspace() and stripped.endswith(":") \
                and not stripped.startswith("Usage"):
            title = stripped[:-1]
        elif title is not None:
            sections[title] = sections.get(title, "") + line.replace("│", " ") + "\n"
    return sections


def _help(name: str, boxed: bool, capsys, monkeypatch) -> str:
    """``rankwise NAME --help`` in the plain layout (piped, 80 columns) or the boxed one (a
    terminal of 160 columns), in this process."""
    command = typer.main.get_command(app).commands[name]
    command.rich_markup_mode = "rich" if boxed else None
    monkeypatch.setenv("COLUMNS", "160" if boxed else "80")
    ctx = command.make_context(name, [], resilient_parsing=True, terminal_width=80)
    plain = command.get_help(ctx)
    return capsys.readouterr().out if boxed else plain


@pytest.mark.parametrize("boxed", [False, True], ids=["plain", "boxed"])
@pytest.mark.parametrize("command", sorted(c for c in LINES if LINES[c]))
def test_every_commands_help_lists_each_option_in_a_named_panel(command, boxed, capsys,
                                                               monkeypatch):
    """Piped, narrow or wide, every command's --help groups its options under named panels
    (the table's, each naming what its options are about): at least two panels with the
    arguments, each option in its own panel, and --help alone in the last, "Help" (typer's
    boxed layout put its generic "Options" panel, with --help, before every named one)."""
    sections = _sections(_help(command, boxed, capsys, monkeypatch), boxed)
    assert "Options" not in sections, (command, list(sections))
    assert len(set(sections) - {"Help"}) >= 2, (command, list(sections))
    assert list(sections)[-1] == "Help", (command, list(sections))
    assert sections["Help"].split()[0] == "--help" and sections["Help"].count("--") == 1
    for option in LINES[command]:
        if option.kind == "argument" or option.hidden:
            continue
        assert option.panel, (command, option.name)
        assert option.long_flag in sections[option.panel], (command, option.long_flag)


def test_compares_help_fits_two_screens_at_80_columns(capsys, monkeypatch):
    """Piped or in an 80-column terminal, compare's --help is at most 160 lines (it was 192:
    every panel's option column at click's 30 columns, and help strings that wrapped), every
    line within 80 columns but an option name too long for any (its help is on the next
    line), and every option still named."""
    text = _help("compare", False, capsys, monkeypatch)
    lines = text.splitlines()
    assert len(lines) <= 160, len(lines)
    assert all(len(line) <= 80 or len(line.split()) <= 3 for line in lines)
    for option in LINES["compare"]:
        if option.kind != "argument" and not option.hidden:
            assert option.long_flag in text, option.long_flag
    # within a panel, every help starts in one column
    import re

    for title, body in _sections(text, False).items():
        starts = {m.start(2) for m in map(re.compile(r"^  (-\S.*?)  +(\S)").match,
                                          body.splitlines()) if m}
        assert len(starts) <= 1, (title, starts)


def test_the_summaries_say_what_each_command_reads():
    """The first sentence of each command's help is its line in ``rankwise --help``, whole;
    compare's names scored items and fronts, and its INPUT says what it takes."""
    from rankwise.cli.helpscreen import summary

    group = typer.main.get_command(app)
    for name, command in group.commands.items():
        assert command.short_help == summary(command.callback), name
        assert command.help.startswith(command.short_help[:-1]), name
    compare = group.commands["compare"]
    assert all(word in compare.short_help for word in ("table", "results file", "items",
                                                       "--items", "front", "--criteria"))
    given = next(p for p in compare.params if p.name == "input").help
    assert all(word in given for word in ("results file", "items", "inspect_ai", "--criteria"))
    group.rich_markup_mode = None   # the plain layout, which cuts what does not fit
    screen = group.get_help(group.make_context("rankwise", [], resilient_parsing=True))
    assert "..." not in screen.split("Commands:")[1]   # no summary cut short


def test_every_flag_a_message_names_is_a_flag_of_the_command_line():
    """A hint must name an option the user can type: the lm-eval reader's note once said
    "choose with --filter" (the option is --item-filter). Every ``--word`` in a string of the
    package is a flag of some command, an old name kept with a FutureWarning, or a docstring's
    placeholder."""
    import ast
    import re

    from rankwise.option_table import RENAMED_FLAGS

    known = {"--help", "--version"}
    for command in COMMANDS.values():
        for param in command.params:
            known.update(param.opts)
            known.update(param.secondary_opts)
    known.update(old for renames in RENAMED_FLAGS.values() for old in renames)
    placeholders = {"--a", "--b", "--flag", "--no-flag"}   # option_table's docstring
    found = {}
    import rankwise

    for path in sorted(Path(rankwise.__file__).parent.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                for flag in re.findall(r"(?<![\w-])(--[a-z][a-z0-9-]*)(?![\w])", node.value):
                    if flag not in known | placeholders:
                        found.setdefault(flag, path.name)
    assert not found, found
