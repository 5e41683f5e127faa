"""``rankwise run --plan``: after a run, the plan of its results and the next run it asks for.

The runner can add repeats to the data sets it has without discarding a result (a repeat's
splits depend on the seed and the repeat only, so ``--force`` keeps every stored task and runs
the new ones); more folds would change every split, and more data sets are the user's to
choose. So the next run is the fewest repeats that bring Eρ² on these data sets to the
stability, written as the experiment file with its ``repeats`` changed (``NAME.next.toml``
beside it), and the data sets a claim about new data sets would need are said.
"""

from __future__ import annotations

import re
from pathlib import Path

import typer

from ..errors import RankwiseError

#: The experiment file's ``repeats = N`` line (in its [experiment] table).
_REPEATS = re.compile(r"^(\s*repeats\s*=\s*)(\d+)", re.MULTILINE)


def plan_criterion(exp, criterion: str | None) -> str:
    """The criterion ``--plan`` plans on (``criterion``, or the experiment's first), checked
    before the run starts."""
    name = exp.criteria[0] if criterion is None else criterion
    if name not in exp.criteria:
        raise RankwiseError(f"--plan {name}: not a criterion of the experiment; its criteria"
                            f" are {', '.join(exp.criteria)}")
    return name


def next_experiment(experiment) -> Path:
    """Where ``--plan`` writes the next run: ``NAME.next.toml`` beside the experiment."""
    source = Path(experiment)
    return source.with_name(source.stem + ".next.toml")


def plan_after_run(experiment, exp, results: Path, name: str, target: Path | None) -> None:
    """Plan on ``results`` (criterion ``name``, from :func:`plan_criterion`) and say the next
    run; write ``target`` (:func:`next_experiment`, checked before the run) when it needs more
    repeats."""
    from ..analysis.plan import plan
    from ..tables import load_table
    from .staging import current

    p = plan(load_table(results, criterion=name))
    stability = p.options["stability"]
    say = (lambda line: typer.echo(f"rankwise: plan: {line}", err=True))
    now = p.in_hand if p.in_hand is not None else p.current
    say(f"on {name}: {p.design.notation}; on these data sets Eρ² = {now.generalizability:.3f},"
        f" SE of a difference {now.difference_se:.3g}; on new data sets Eρ² ="
        f" {p.current.generalizability:.3f}")
    more = p.needed.get("dataset", {}).get("generalizability")
    if p.components.components["learner"] == 0:
        say("the learners' own component is estimated at 0: on new data sets they do not"
            " differ by more than the data sets make them (no number of data sets orders"
            " them)")
    elif more is not None and more > len(p.levels):
        say(f"a claim about new data sets at Eρ² ≥ {stability} needs {more} data sets"
            f" ({more - len(p.levels)} more: add them under [[datasets]])")
    if "repeat" not in p.design.sizes:
        say("with one repeat the pilot cannot say what more repeats buy: set repeats = 2 and"
            " run again with --force to measure it")
        return
    want = p.needed_in_hand["repeat"]
    if want is None:
        say(f"no number of repeats brings Eρ² on these data sets to {stability}: the folds'"
            " error dominates (more folds, or more data sets)")
        return
    if want <= exp.repeats:
        say(f"the {exp.repeats} repeats already give Eρ² ≥ {stability} on these data sets")
        return
    say(f"{want} repeats give Eρ² ≥ {stability} on these data sets"
        f" ({want - exp.repeats} more)")
    if experiment is None:
        say(f"the bundled experiment is not a file to change: copy it, set repeats = {want},"
            " and run it on the same results file with --force")
        return
    source = Path(experiment)
    text = source.read_text(encoding="utf-8")
    if not _REPEATS.search(text):
        say(f"set repeats = {want} in {source} and run it again with --force")
        return
    current().file(target, _REPEATS.sub(lambda m: f"{m.group(1)}{want}", text, count=1),
                   said=f"rankwise: plan: wrote {target}; continue with: rankwise run"
                        f" {target} --results {results} --force (the stored tasks are kept)")
