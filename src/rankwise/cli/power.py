"""``rankwise power``: the power study over a pool of data sets (Demšar 2006, §4)."""

from __future__ import annotations

from ..cli_options import D, P
from ..errors import RankwiseError
from .driver import command, read_table

W, WD = P.power, D.power
#: How the pool is read: load_table's options, as power takes them.
READ = ("criterion", "higher_is_better", "missing", "columns", "source_format", "duplicates",
        "where", "sep", "decimal")


def power(
    pool: W.pool = WD.pool, example: W.example = WD.example, criterion: W.criterion = WD.criterion,
    higher_is_better: W.higher_is_better = WD.higher_is_better, missing: W.missing = WD.missing,
    columns: W.columns = WD.columns, source_format: W.source_format = WD.source_format,
    duplicates: W.duplicates = WD.duplicates, where: W.where = WD.where, sep: W.sep = WD.sep,
    decimal: W.decimal = WD.decimal,
    learners: W.learners = WD.learners, control: W.control = WD.control,
    sample_size: W.sample_size = WD.sample_size, bias: W.bias = WD.bias,
    draws: W.draws = WD.draws, seed: W.seed = WD.seed, tests: W.tests = WD.tests,
    procedures: W.procedures = WD.procedures, alpha: W.alpha = WD.alpha,
    target_power: W.target_power = WD.target_power, jobs: W.jobs = WD.jobs,
    dask_scheduler: W.dask_scheduler = WD.dask_scheduler,
    fmt: W.fmt = WD.fmt, report: W.report = WD.report, output: W.output = WD.output,
    figure_width: W.figure_width = WD.figure_width,
):
    """Power and replicability on a pool of results (a table or results database): how many data sets a comparison needs. How often, and how reproducibly, each test rejects on biased samples of the pool's data sets (Demšar 2006, §4)."""
    from ..power import power_study

    given = dict(locals())
    with command("power", given, what="a POOL", source="pool",
                 inputs={"the pool": pool}) as out:
        if missing == "skillings-mack":
            raise RankwiseError("the power study draws complete samples: use --missing"
                                " drop-datasets or drop-learners")
        table = read_table(pool, example, **{name: given[name] for name in READ})
        study = power_study(table, learners=learners, control=control, sample_size=sample_size,
                            biases=bias, draws=draws, seed=seed, tests=tests,
                            procedures=procedures, alpha=alpha, target_power=target_power,
                            jobs=jobs, dask_scheduler=dask_scheduler)
        out.finish(study, lambda: study.render(fmt, width=out.width if fmt == "text" else None))
