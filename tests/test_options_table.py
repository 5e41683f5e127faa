"""The option table (``rankwise.option_table``) against every copy of it: ``compare``'s
signature, defaults and docstring, ``Options``, the command line's parameters, flags, defaults,
help and panels, the JSON ``settings`` echo, and the command lines the multiverse prints, which
must run the analysis they describe."""

import inspect
import json
import shlex

import pytest
import typer.main

from rankwise import RankwiseError, compare, load_example
from rankwise import cli as cli_module
from rankwise.analysis.options import Options, validate
from rankwise.analysis.option_groups import CLASSES, grouped
from rankwise.option_table import (BY_NAME, COMMANDS, COMPARE, FRONTS, GROUPS, ITEMS, KEYWORDS, NAMES, READ,
                                   api_values,
                                   command_words, echoed)


#: compare's command-line parameters that are not options of the analysis: the input, how it
#: is read (``READ``) and what is written where.
OUTPUT_PARAMS = {"input", "example", "fmt", "output", "report", "pairs", "significant_pairs",
                 "include_table", "figure_width", "latex_fragment", "no_effects"}


def _signature_options():
    params = inspect.signature(compare).parameters
    return {name: p.default for name, p in params.items()
            if p.kind is inspect.Parameter.KEYWORD_ONLY}


def _click_compare():
    command = typer.main.get_command(cli_module.app)
    return command.commands["compare"]


def test_compare_takes_exactly_the_table_keywords_with_their_defaults():
    declared = _signature_options()
    assert tuple(declared) == KEYWORDS and len(KEYWORDS) <= 25
    for option in COMPARE:
        if option.group is None:
            assert declared[option.name] == option.default, option.name
        else:   # a group's keyword defaults to None: every field at its default
            assert declared[option.group] is None
            field = CLASSES[option.group].__dataclass_fields__[option.in_group]
            assert field.default == option.default, option.name


def test_a_group_keyword_takes_its_class_its_lead_value_and_the_old_flat_keyword():
    from rankwise import BayesianOptions, PosthocOptions

    table = load_example("garcia2008")
    by_class = compare(table, posthoc=PosthocOptions("all", procedures="holm"),
                       bayesian=BayesianOptions("signed-rank", rope=0.01))
    by_lead = compare(table, posthoc="all", bayesian="signed-rank")
    assert by_class.options["procedures"] == ("holm",) and by_class.options["rope"] == 0.01
    assert by_lead.options["posthoc"] == "all" and by_lead.options["rope"] == 0.0
    with pytest.warns(FutureWarning, match=r"compare\(rope=...\) is bayesian=BayesianOptions"
                                           r"\(rope=...\) since rankwise 0.9"):
        flat = compare(table, posthoc=PosthocOptions("all", procedures="holm"),
                       bayesian="signed-rank", rope=0.01)
    assert flat.options == by_class.options
    with pytest.raises(RankwiseError, match="rope is given twice"), \
            pytest.warns(FutureWarning):
        compare(table, bayesian=BayesianOptions("signed-rank", rope=0.01), rope=0.02)
    with pytest.raises(RankwiseError, match=r"wilcoxon= takes a WilcoxonOptions\(...\)"):
        compare(table, wilcoxon="pratt")
    assert grouped(flat.options)["posthoc"] == PosthocOptions("all", procedures=("holm",))


def test_options_has_a_field_per_option_then_what_the_analysis_made_of_them():
    from dataclasses import fields

    names = [f.name for f in fields(Options)]
    assert tuple(names[:len(NAMES)]) == NAMES
    assert names[len(NAMES):] == ["used_pair", "family", "used_tests", "complete",
                                  "used_confidence"]


def test_the_docstring_describes_every_keyword_and_field_in_order():
    from numpydoc.docscrape import FunctionDoc

    documented = FunctionDoc(compare)["Parameters"]
    assert [p.name for p in documented] == ["data", *KEYWORDS]
    for group in GROUPS:
        described = "\n".join(next(p for p in documented if p.name == group.name).desc)
        listed = [line.split(" : ")[0] for line in described.splitlines()
                  if " : " in line and not line.startswith(" ")]
        names = [name.strip() for entry in listed for name in entry.split(",")]
        assert names == [o.in_group for o in group.options], group.name


def test_the_command_line_declares_each_option_as_the_table_does():
    params = {p.name: p for p in _click_compare().params}
    read_flags = {o.long_flag for o in READ + ITEMS + FRONTS}
    for option in COMPARE:
        param = params[option.cli_param]
        assert option.long_flag in param.opts, option.name
        assert param.default == option.command_default, option.name
        assert param.help == option.help or param.help.startswith(option.help), option.name
        assert getattr(param, "rich_help_panel", option.panel) == option.panel, option.name
    for name, param in params.items():
        if name in OUTPUT_PARAMS or name in {o.cli_param for o in COMPARE}:
            continue
        assert set(param.opts) & read_flags, f"--{name} is in no table"


def test_the_command_lines_defaults_are_compares_defaults():
    """The command line with no option runs compare's defaults."""
    table = load_example("garcia2008")
    params = {p.name: p.default for p in _click_compare().params}
    given = api_values(params)
    from rankwise.analysis.option_groups import flat_settings

    assert validate(table, given) == validate(table, flat_settings(_signature_options()))


OPTION_VALUES = {
    "alpha": 0.1, "convention": "paper", "decimals": 3, "tests": ("friedman", "quade"),
    "pair": ("C4.5", "CN2"), "trend": ("Kernel", "CN2", "1-NN"), "zero_method": "pratt", "wilcoxon_method": "normal",
    "sign_ties": "drop", "alternative": "greater", "continuity_correction": True,
    "friedman_method": "chi2", "posthoc": "both", "control": "CN2",
    "procedures": ("holm", "nemenyi"), "rankings": ("friedman", "quade"),
    "force_posthoc": True, "bh_time_budget": 3.0, "verdict_procedure": "hochberg",
    "diagram_procedure": "shaffer", "effects": "verdict", "confidence": 0.9,
    "bayesian": "signed-rank", "rope": 0.01, "draws": 2000, "seed": 7, "threshold": 0.9,
    "rank_intervals": True, "digits": 3, "figure_title": True, "top": 3, "pool_check": True,
    "mcm": "holm", "groups": "scott-knott-esd", "verdict": "bayesian", "rank_sets": "scores",
    "rank_sets_marginal": True, "dataset_check": True, "multiverse": True,
    "per_dataset": "5x2cv", "per_dataset_adjust": "holm", "per_dataset_marks": "weka",
    "test_fraction": 0.2,
}


def test_every_option_has_a_value_in_this_test():
    assert set(OPTION_VALUES) == set(NAMES)


@pytest.mark.parametrize("name", NAMES)
def test_each_option_written_by_the_table_reads_back_as_the_same_value(name):
    """``command_words`` of one option, parsed by the command line, is that option's value."""
    value = OPTION_VALUES[name]
    words = command_words({name: value})
    assert words, name
    command = _click_compare()
    ctx = command.make_context("compare", ["--example", "garcia2008", *words])
    assert BY_NAME[name].from_cli(ctx.params[BY_NAME[name].cli_param]) == \
        _cli_shape(name, value), name


def _cli_shape(name, value):
    """The value as the command line hands it to compare (lists as their comma text)."""
    if BY_NAME[name].kind == "list":
        return ",".join(value)
    return value


@pytest.mark.parametrize("value, words", [
    (True, ["--mcm", "plain"]), ("holm", ["--mcm", "holm"]), (False, [])])
def test_spelled_values(value, words):
    assert command_words({"mcm": value}) == words


def test_inferred_defaults_are_written_as_nothing():
    assert command_words({"effects": "auto", "confidence": None, "top": 30, "mcm": False,
                          "rank_sets": None}) == []
    assert command_words({"top": None}) == ["--top", "0"]


def test_the_settings_echo_every_option_the_table_says():
    from rankwise import WilcoxonOptions

    cmp = compare(load_example("garcia2008"), wilcoxon=WilcoxonOptions(zero_method="pratt"),
                  sign_ties="drop", friedman_method="chi2")
    for option in COMPARE:
        if option.settings_key:
            assert cmp.settings[option.settings_key] == cmp.options[option.name]
    assert echoed(validate(cmp.table, cmp.options)).items() <= cmp.settings.items()


from rankwise import PosthocOptions, Presentation, WilcoxonOptions  # noqa: E402

#: Option combinations under which each multiverse entry's command is run on its own.
MULTIVERSE_CASES = {
    "issue": dict(wilcoxon=WilcoxonOptions(continuity_correction=True, method="normal"),
                  mcm=True, multiverse={"basis": ["wilcoxon-holm", "sign-holm", "mcm"]}),
    "tests": dict(wilcoxon=WilcoxonOptions(zero_method="pratt"), sign_ties="drop",
                  alternative="greater", friedman_method="chi2", alpha=0.1, confidence=0.9,
                  multiverse={"decimals": [12, 2], "basis": ["friedman-holm", "sign-holm"]}),
    "posthoc": dict(posthoc=PosthocOptions("both", control="CN2", procedures="holm,nemenyi",
                                           rankings="friedman,quade"),
                    verdict_procedure="hochberg", diagram_procedure="shaffer",
                    presentation=Presentation(top=3, digits=3, rank_intervals=True),
                    multiverse={"basis": ["friedman-holm", "wilcoxon-holm"]}),
    "convention": dict(convention="paper", tests="friedman,iman_davenport",
                       pair=("C4.5", "CN2"), posthoc=PosthocOptions(force=True),
                       effects="verdict", multiverse={"basis": ["friedman-holm", "mcm"]}),
}


def _verdict_and_settings(document: dict) -> tuple:
    return (document["report"]["verdict"], document["settings"], document["alpha"],
            document["convention"], document["decimals"])


@pytest.mark.parametrize("case", MULTIVERSE_CASES)
def test_each_multiverse_entry_command_runs_that_entry(case, capsys, cli):
    """Every printed command, run on its own, gives the entry's verdict and settings."""
    base = compare(load_example("garcia2008"), **MULTIVERSE_CASES[case])
    ran_some = False
    for entry in base.multiverse.entries:
        words = shlex.split(entry.command)
        assert words[:2] == ["rankwise", "compare"]
        code, out, err = cli(*words[1:], "--format", "json")
        if entry.error is not None:   # an analysis the table does not allow fails alike
            assert code == 2 and entry.error in err, (entry.command, err)
            continue
        ran_some = True
        assert code == 0, (entry.command, err)
        ran = json.loads(out)
        expected = json.loads(compare(load_example("garcia2008"),
                                      **grouped(entry.options)).to_json())
        assert _verdict_and_settings(ran) == _verdict_and_settings(expected), entry.command
    assert ran_some


def _api_of(command):
    """The Python function behind a command whose options the table declares."""
    from rankwise import compare_curves, gate, leaderboard, plan, race
    from rankwise.analysis.audit import audit
    from rankwise.power import power_study

    return {"power": power_study, "race": race, "leaderboard": leaderboard,
            "curves": compare_curves, "audit": audit, "gate": gate, "plan": plan}[command]


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_other_commands_take_the_table_options_with_their_defaults(command):
    """power and race: the Python function's defaults, the command line's flags, defaults,
    help and panels are the table's; a shared option keeps compare's flag."""
    api = inspect.signature(_api_of(command)).parameters
    params = {p.name: p for p in typer.main.get_command(cli_module.app).commands[command].params}
    for option in COMMANDS[command]:
        if option.name in {"goal", "sample_size", "decimals"}:   # a word on the command line, see below
            assert api[option.name].default == option.default, option.name
        else:
            assert api[option.name].default == option.default == option.command_default, \
                option.name
        param = params[option.cli_param]
        assert option.long_flag in param.opts, option.name
        assert param.default == option.command_default, option.name
        assert param.help == option.help and param.rich_help_panel == option.panel, option.name
        if option.name in BY_NAME:
            assert option.flag == BY_NAME[option.name].flag, option.name


def test_the_command_lines_words_for_goal_and_sample_size_mean_the_python_defaults():
    from rankwise.cli import _decimals, _goal

    board_options = {o.name: o for o in COMMANDS["leaderboard"]}
    assert _decimals(board_options["decimals"].command_default) == board_options["decimals"].default
    assert _decimals("none") is None and _decimals("NONE") is None
    from rankwise.power.study import parse_sample_sizes

    race_options = {o.name: o for o in COMMANDS["race"]}
    assert _goal(race_options["goal"].command_default) == race_options["goal"].default
    power_options = {o.name: o for o in COMMANDS["power"]}
    from rankwise.power.study import DEFAULT_SAMPLE_SIZE

    assert parse_sample_sizes(power_options["sample_size"].command_default) == \
        parse_sample_sizes(DEFAULT_SAMPLE_SIZE)


def test_no_help_text_holds_a_bracket_the_boxed_help_would_take_for_markup():
    """The boxed help (120 columns and more) reads help text as markup: "[default: raw ...]"
    was dropped whole from curves' and run's help. Defaults in words go in parentheses."""
    import re

    from rankwise import option_table

    every = list(COMPARE) + [o for opts in COMMANDS.values() for o in opts]
    every += [o for name in dir(option_table) if name.isupper()
              for o in (getattr(option_table, name) if isinstance(getattr(option_table, name),
                                                                   tuple) else ())
              if isinstance(o, option_table.Option)]
    bad = sorted({o.flag for o in every if o.help and re.search(r"\[[A-Za-z/]", o.help)})
    assert not bad, bad
