"""The documentation site: generated from the code, complete, and built by the README's
command (``.ci/run`` runs it before the tests; where no build exists and Sphinx is installed,
the ``site`` fixture builds one)."""

from pathlib import Path

import pytest

ROOT = Path(__file__).parents[1]


def test_cli_reference_is_generated_from_the_application(site):
    """Every option of every command is on the CLI page, as the application spells it."""
    from typer.main import get_command

    from rankwise.cli import app

    page = (site / "cli.html").read_text(encoding="utf-8")
    root = get_command(app)
    seen = 0
    for name, command in root.commands.items():
        assert f"rankwise {name}" in page, name
        for param in command.params:
            if param.param_type_name == "option" and not param.hidden:  # typer's click
                for opt in param.opts + param.secondary_opts:
                    assert opt in page, (name, opt)
                    if opt.startswith("--"):  # an anchor of its own, linked to
                        anchor = f'id="cmdoption-rankwise-{name}-{opt[2:]}"'
                        assert anchor in page, (name, opt)
                    seen += 1
    assert seen > 100


def test_every_public_name_is_in_the_api_reference():
    import importlib

    listed = (ROOT / "docs" / "api" / "index.rst").read_text(encoding="utf-8").split()
    import rankwise

    public = {name for name in rankwise.__all__ if name != "__version__"}
    for module in ("stats", "tables", "analysis", "report", "experiment", "power", "bayes"):
        mod = importlib.import_module(f"rankwise.{module}")
        for name in mod.__all__:
            public.add(name if name in rankwise.__all__ else f"{module}.{name}")
    missing = sorted(name for name in public if name not in listed)
    assert missing == []


def test_site_has_every_page_the_issue_lists(site):
    for page in ("getting-started", "guide/choosing-a-test", "guide/large-k", "coming-from-r",
                 "coming-from-python", "cli", "json", "changelog", "reference/index",
                 "examples/demsar2006", "examples/garcia-herrera2008", "examples/garcia2010",
                 "api/generated/rankwise.friedman", "gallery/plot_power_curves", "install",
                 "how-do-i", "glossary"):
        assert (site / f"{page}.html").exists(), page


def test_ci_runs_the_readme_docs_and_test_commands():
    import re

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    commands = re.findall(r"```bash\n(python3 -m venv .*)\n```", readme)
    assert len(commands) == 3  # the main job, the tests, the docs
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    docs = next(c for c in commands if "sphinx" in c)
    tests = next(c for c in commands if "pytest" in c)
    assert docs in ci and tests in ci and ci.index(docs) < ci.index(tests)


def test_coming_from_scikit_posthocs_rows_are_identical():
    """The rows docs/coming-from-python.md marks identical, on García & Herrera's table."""
    import numpy as np
    import pytest

    sp = pytest.importorskip("scikit_posthocs")
    import rankwise as r

    x = r.load_example("garcia2008").values
    off = ~np.eye(5, dtype=bool)
    paper = r.pairwise_statistics(x, "friedman", convention="paper")
    pairs = [
        (r.nemenyi_pvalues(np.abs(paper.statistics), 5), sp.posthoc_nemenyi_friedman(x)),
        (r.pairwise_statistics(x, "friedman_conover").pvalues,
         sp.posthoc_conover_friedman(x, p_adjust=None)),
        (paper.pvalues, sp.posthoc_siegel_friedman(x, p_adjust=None)),
        (r.pairwise_statistics(x, "quade_conover").pvalues, sp.posthoc_quade(x, p_adjust=None)),
    ]
    for ours, theirs in pairs:
        assert np.abs(ours - np.asarray(theirs))[off].max() < 1e-12


def test_install_page_and_citation_give_this_version():
    import re

    import rankwise

    cff = (ROOT / "CITATION.cff").read_text(encoding="utf-8")
    assert re.search(r"^version: (\S+)$", cff, re.M).group(1) == rankwise.__version__
    page = (ROOT / "docs" / "install.md").read_text(encoding="utf-8")
    assert re.search(r"version = \{([^}]+)\}", page).group(1) == rankwise.__version__
    for extra in ("bayes", "dask", "parquet", "test", "docs"):
        assert f"| `{extra}` |" in page, extra


def how_do_i_blocks() -> list:
    """Each ``bash`` block of "How do I…" as it runs: ``(files, commands)``, the files its
    here-documents write (``cat > NAME <<'EOF'``) and the words of each ``rankwise`` line in
    order (continued lines joined, comments left out, quotes as the shell reads them)."""
    import re
    import shlex

    page = (ROOT / "docs" / "how-do-i.md").read_text(encoding="utf-8")
    blocks = []
    for block in re.findall(r"```bash\n(.*?)```", page, re.S):
        heredoc = r"^cat > (\S+) <<'EOF'\n(.*?)^EOF\n"
        files = tuple(re.findall(heredoc, block, re.S | re.M))
        lines = re.sub(heredoc, "", block, flags=re.S | re.M).replace("\\\n", " ")
        commands = tuple(tuple(shlex.split(line, comments=True)) for line in lines.splitlines()
                         if line.startswith("rankwise "))
        blocks.append((files, commands))
    return blocks


def how_do_i_commands() -> list:
    return [list(command) for _, commands in how_do_i_blocks() for command in commands]


@pytest.mark.parametrize("block", how_do_i_blocks(), ids=lambda b: " ".join(b[1][0][1:4]))
def test_every_how_do_i_command_runs(block, tmp_path, monkeypatch, capsys, cli):
    """Each answer of the "How do I…" page runs as written, its commands in order in a folder
    of their own (after the files its here-documents write), each exiting with 0."""
    files, commands = block
    monkeypatch.chdir(tmp_path)
    for name, text in files:
        (tmp_path / name).write_text(text, encoding="utf-8")
    for args in commands:
        if args[1] == "power" and "--draws" not in args:
            args = [*args, "--draws", "100"]   # as written but for the draws: a tenth of the time
        code, out, err = cli(*args[1:])
        # the gate exits 1 when it shows a regression, as the page says
        assert code == (1 if args[1] == "gate" else 0), (args, err)
        assert "Traceback" not in err


def test_how_do_i_has_an_answer_for_every_command_under_headings():
    """Every command of the command line has an answer; the answers are headings (### under
    a ## per area, so that the page's contents list them), each runs an example in a bash
    block and links a guide page."""
    import re

    import typer.main

    from rankwise.cli import app

    page = (ROOT / "docs" / "how-do-i.md").read_text(encoding="utf-8")
    shown = {args[1] for args in how_do_i_commands()}
    assert shown == set(typer.main.get_command(app).commands), shown
    assert len(re.findall(r"^## \w", page, re.M)) >= 10
    assert not re.search(r"^\*\*", page, re.M)   # no answer left as a bold paragraph
    answers = page.split("\n### ")[1:]
    assert len(answers) >= 25 and all(len(b[1]) >= 1 for b in how_do_i_blocks())
    for answer in answers:
        assert re.search(r"\{doc\}`guide/[\w-]+`", answer), answer[:60]
    runs = [a for a in answers if "```bash" in a or "```python" in a]   # Python: doctested
    assert len(runs) == len(answers)
    for files, commands in how_do_i_blocks():   # on a bundled example, or what the block made
        made = {name for name, _ in files}
        for args in commands:
            assert "--example" in args or args[1] == "examples" or args[2] in made, args
            made |= {value for flag, value in zip(args, args[1:])
                     if flag in ("-o", "--output", "--results", "-r")}


def test_glossary_defines_the_words_of_the_reports(site):
    page = (site / "glossary.html").read_text(encoding="utf-8")
    for term in ("omnibus-test", "APV", "CD", "clique", "ROPE", "convention", "verdict"):
        assert f'id="term-{term}"' in page, term


# --- the JSON contract (docs/json.md) against the JSON written -----------------------------

def _documented_keys(title: str) -> list:
    """The keys of each table of docs/json.md's section ``title``: the backquoted names of each
    row's first cell, one set per table."""
    import re

    text = (ROOT / "docs" / "json.md").read_text(encoding="utf-8")
    section = text.split(f"\n## {title}\n", 1)[1].split("\n## ", 1)[0]
    tables, rows = [], None
    for line in section.splitlines():
        if line.startswith("| key |"):
            rows = set()
            tables.append(rows)
        elif rows is not None and line.startswith("| ") and not line.startswith("| ---"):
            rows.update(re.findall(r"`([^`]+)`", line.split(" | ")[0]))
        elif not line.startswith("|"):
            rows = None
    return tables


def _written(kind: str) -> dict:
    import json

    import rankwise
    from rankwise.analysis.audit import audit

    if kind == "compare":
        return json.loads(rankwise.compare(rankwise.load_example("garcia2008")).to_json())
    if kind == "items":
        return json.loads(rankwise.compare_items(rankwise.load_items_example("evals")).to_json())
    if kind == "audit":
        board = ROOT / "tests" / "data" / "items" / "board_to_markdown.md"
        return json.loads(audit(board, counts={"MATH": 5000}).to_json())
    if kind == "gate":
        from rankwise.examples import load_gate_example

        return json.loads(rankwise.gate(*load_gate_example("nightly")).to_json())
    if kind == "race":
        return json.loads(rankwise.race(rankwise.load_example("garcia2008"),
                                        order="given").to_json())
    if kind == "votes":   # every key a board of votes can write: style control asked
        return json.loads(rankwise.leaderboard(rankwise.load_votes_example("arena"), draws=20,
                                               style="auto").to_json())
    return json.loads(rankwise.leaderboard(rankwise.load_example("garcia2008"),
                                           draws=20).to_json())


@pytest.mark.parametrize("kind, title", [
    ("compare", "Compare"), ("items", "Items"), ("audit", "The audit of a published board"),
    ("race", "The race"), ("leaderboard", "The leaderboard"), ("votes", "The leaderboard"),
    ("gate", "The gate")])
def test_the_json_page_lists_the_keys_each_analysis_writes(kind, title):
    """Every top-level key written is documented and every documented key is written (the
    first keys, ``schema`` and ``rankwise_version``, are the page's opening); the items' and
    the audit's ``per_dataset`` objects, and a board of votes' rows and ``votes`` object, have
    a table of their own, checked the same way."""
    data = _written(kind)
    tables = _documented_keys(title)
    assert tables[0] | {"schema", "rankwise_version"} == set(data), kind
    if kind in ("items", "audit", "gate"):
        written = set().union(*(set(entry) for entry in data["per_dataset"]))
        assert tables[1] == written, kind
    if kind == "votes":   # a vote board's rows and its votes object have tables of their own
        board = data["boards"][0]
        assert tables[1] == set().union(*(set(row) for row in board["rows"])), kind
        assert tables[2] == set(board["votes"]), kind


def test_the_json_page_reads_old_items_and_audits_with_the_new_keys():
    """docs/json.md's ``new_keys`` turns a rankwise.items/2 or rankwise.audit/1 document (the
    keys models, tasks, task) into the keys written now."""
    import doctest

    text = (ROOT / "docs" / "json.md").read_text(encoding="utf-8")
    found = next(e.source for e in doctest.DocTestParser().get_examples(text)
                 if e.source.startswith("def new_keys"))
    space = {}
    exec(found, space)
    for kind in ("items", "audit"):
        new = _written(kind)
        words = {"learners": "models", "dataset": "task"}
        old = {words.get(k, k): v for k, v in new.items() if k not in ("datasets", "per_dataset")}
        old["tasks"] = [{words.get(k, k): v for k, v in t.items()} for t in new["per_dataset"]]
        assert space["new_keys"](old) == new, kind
