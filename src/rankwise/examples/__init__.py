"""Tables from the source papers, bundled so that every worked example can be rerun by name."""

from __future__ import annotations

from importlib import resources

from ..errors import RankwiseError

#: name -> (file, description, convention that reproduces the paper's printed numbers)
EXAMPLES = {
    "demsar2006_table2": ("demsar2006_table2_auc.csv",
                          "Demšar (2006) Table 2: AUC of C4.5 and C4.5+m on 14 data sets", "paper"),
    "demsar2006_table6": ("demsar2006_table6_auc.csv",
                          "Demšar (2006) Table 6 as printed: AUC of 4 C4.5 variants, 14 data sets",
                          "paper"),
    "demsar2006_table6_tiebreak": ("demsar2006_table6_auc_paper_tiebreak.csv",
                                   "Demšar (2006) Table 6 with the 'voting' tie broken as the paper"
                                   " ranked it (reproduces chi2_F = 9.28, F_F = 3.69)", "paper"),
    "garcia2008": ("garcia2008_table2_accuracy.csv",
                   "García & Herrera (2008) Table 2: accuracy of 5 classifiers on 30 data sets",
                   "paper"),
    "garcia2010": ("garcia2010_table3_accuracy.csv",
                   "García et al. (2010) Table 3: accuracy of 4 algorithms on 24 data sets", "paper"),
    "brennan2001_synthetic4": ("brennan2001_synthetic4.csv",
                               "Brennan (2001) synthetic data set No. 4: 10 persons (as"
                               " learners) x 12 items (as data sets), scores 1-9; its G- and"
                               " D-study numbers are the book's (rankwise.stats"
                               ".generalizability)", "default"),
    "folds_demo": ("folds_demo.csv",
                   "made-up long table: 4 learners, 5 data sets, 5 repeats x 2 folds, criteria"
                   " accuracy and runtime (use --criterion)", "default"),
    "demo_results": ("demo_results.csv",
                     "the bundled demo experiment run by rankwise run --example demo and"
                     " exported: 4 learners, 4 data sets, 5 repeats x 2 folds, 9 criteria"
                     " (accuracy, auc, ..., fit_time, predict_time; use --criterion)", "default"),
    "pilot": ("pilot_results.csv",
              "the bundled pilot experiment run by rankwise run (tools/make_pilot_example.py)"
              " and exported: 5 learners, 12 data sets, 20 repeats x 5 folds, criteria accuracy"
              " and balanced_accuracy, with fit_time and predict_time (use --criterion)",
              "default"),
    "amlb": ("amlb_results.csv",
             "made-up AutoML-benchmark results.csv: 4 frameworks, 8 tasks (5 scored by auc,"
             " 3 by neg_logloss), 5 folds, failed jobs with their messages", "default"),
    "amlb_older": ("amlb_older_results.csv",
                   "made-up AutoML-benchmark results in its older format (no metric column):"
                   " 3 frameworks, 3 tasks (2 binary by auc, 1 multi-class by logloss), 2 folds,"
                   " a failed job (use --criterion result)", "default"),
    "amlb_reruns": ("amlb_reruns_results.csv",
                    "made-up AutoML-benchmark results.csv: 3 frameworks under 2 constraints, 4"
                    " tasks, 2 folds, a failed job (a long traceback) and its re-run appended",
                    "default"),
    "weka": ("weka_cv10x5.arff",
             "WEKA 3.6 Experimenter results (written by WEKA): ZeroR, J48 and NaiveBayes on"
             " iris, glass and breast-cancer, 5 x 10-fold cross-validation, Percent_correct"
             " and 49 other measures (try --per-dataset)", "default"),
    "tabarena": ("tabarena_results_per_split.csv",
                 "TabArena's own per-split results (its example evaluation, subset lite, as"
                 " its repository holds it): 78 methods x 51 data sets, fold 0, metric_error,"
                 " train and infer times, imputed flags, problem_type (try rankwise"
                 " leaderboard --example tabarena --anchor 'RF (default)')", "default"),
    "openml": ("openml_evaluations.csv",
               "made-up OpenML evaluation listing: predictive_accuracy of 5 flows (one with two"
               " setups) on 10 data sets", "default"),
    "mlr3": ("mlr3_benchmark.csv",
             "made-up mlr3 benchmark table: 4 learners, 6 tasks, 5-fold CV, measures classif.ce"
             " and classif.auc (use --criterion)", "default"),
}


#: Bundled model evaluations scored item by item (``compare --example NAME`` reads them as
#: items; :func:`load_items_example`).
ITEM_EXAMPLES = {
    "evals": ("evals_items.csv",
              "simulated model evaluations scored item by item: 4 models x 4 tasks (164 code"
              " items, 400 trivia, 480 reading questions on 60 passages in a cluster column,"
              " 120 arithmetic), 0/1 scores (tools/make_items_example.py)"),
    "eval-records": ("eval_records_samples.jsonl",
                     "30 items of the code and arithmetic tasks of 'evals', 4 models, as Every"
                     " Eval Ever instance-level records, schema 0.3.0"
                     " (tools/make_eval_records_example.py)"),
}


#: Bundled pairs of runs (``rankwise gate --example NAME``; :func:`load_gate_example`).
GATE_EXAMPLES = {
    "nightly": (("gate_baseline.csv", "gate_candidate.csv"),
                "a released model (v1.4) and tonight's candidate (v1.5) on the items of three"
                " tasks (120 arithmetic, 164 code, 300 trivia), five trials each, 0/1 scores; the"
                " candidate is worse on code (tools/make_gate_example.py)"),
}


def load_gate_example(name: str = "nightly", missing: str = "refuse") -> tuple:
    """A bundled pair of runs (baseline, candidate) as two
    :class:`~rankwise.tables.items.ItemTable`.

    Examples
    --------
    >>> from rankwise.examples import load_gate_example
    >>> base, cand = load_gate_example()
    >>> base.models, cand.models, cand.tasks
    (('v1.4',), ('v1.5',), ('arith', 'code', 'trivia'))
    """
    from dataclasses import replace

    from ..tables.items import read_items

    if name not in GATE_EXAMPLES:
        raise RankwiseError(f"no bundled pair of runs named {name!r}; choose one of"
                            f" {', '.join(GATE_EXAMPLES)}")
    runs = []
    for file, run in zip(GATE_EXAMPLES[name][0], ("baseline", "candidate")):
        with resources.as_file(resources.files(__name__).joinpath(file)) as path:
            table = read_items(path, reader="items", missing=missing)
        runs.append(replace(table, source=f"example:{name} ({run})"))
    return tuple(runs)


#: Bundled curves (performance over a budget; ``rankwise curves --example NAME``,
#: :func:`load_curves_example`).
CURVE_EXAMPLES = {
    "learning": ("learning_curves.csv",
                 "learning curves made with rankwise run --budgets: 4 learners (naive Bayes,"
                 " logistic regression, a random forest, 15-NN) x 12 synthetic classification"
                 " data sets, 2 x 5-fold CV, accuracy at 5, 10, 25, 50 and 100% of each"
                 " training part (tools/make_curves_example.py)"),
    "bbob": ("bbob",
             "optimizer traces written by IOHprofiler's own logger (ioh 0.4.2): random search,"
             " a (1+1)-ES, compass search and differential evolution on 8 BBOB functions in 5"
             " dimensions, instances 1-5, 1,000 evaluations (tools/make_bbob_example.py)"),
}
#: How each bundled curves example is read (its reader, and the direction where the file
#: does not say it).
_CURVE_READS = {"learning": {"reader": "curves", "higher_is_better": True},
                "bbob": {"reader": "ioh"}}


def load_curves_example(name: str = "learning"):
    """A bundled example of performance over a budget as :class:`~rankwise.Curves`.

    Examples
    --------
    >>> from rankwise import load_curves_example
    >>> c = load_curves_example()
    >>> c.learners, c.values.shape
    (('forest', 'knn', 'logistic', 'naive_bayes'), (4, 12, 10, 5))
    >>> c.grid.tolist()
    [0.05, 0.1, 0.25, 0.5, 1.0]
    >>> b = load_curves_example("bbob")
    >>> b.learners, len(b.problems), b.maximize
    (('DE', 'OnePlusOneES', 'PatternSearch', 'RandomSearch'), 8, False)
    """
    from ..tables.curves import read_curves

    return _bundled(name, CURVE_EXAMPLES, "curves example",
                    lambda path: read_curves(path, **_CURVE_READS[name]))


#: Bundled vote logs (pairwise votes of an arena; :func:`load_votes_example`).
VOTE_EXAMPLES = {
    "arena": ("arena_votes.csv",
              "made-up arena vote log: 3,000 votes between 7 models on 600 prompts in 4"
              " categories, ties and both-bad ties, response lengths in tokens of each side"
              " (tools/make_votes_example.py)"),
}


def load_votes_example(name: str = "arena", missing_winner: str = "refuse"):
    """A bundled vote log as :class:`~rankwise.tables.battles.Votes`.

    Examples
    --------
    >>> from rankwise import load_votes_example
    >>> v = load_votes_example()
    >>> len(v.models), v.n_votes, v.feature_names
    (7, 3000, ('sum_assistant_a_tokens', 'sum_assistant_b_tokens'))
    """
    from ..tables.battle_readers import read_votes

    return _bundled(name, VOTE_EXAMPLES, "vote log", lambda path: read_votes(
        path, source="votes", missing_winner=missing_winner))


def load_items_example(name: str, missing: str = "refuse"):
    """A bundled item-level example as an :class:`~rankwise.tables.items.ItemTable`
    (``missing`` as :func:`rankwise.read_items` takes it).

    Examples
    --------
    >>> from rankwise import load_items_example
    >>> t = load_items_example("evals")
    >>> t.models, t.tasks
    (('alpha', 'beta', 'gamma', 'delta'), ('code', 'trivia', 'reading', 'arith'))
    """
    from ..tables.items import read_items

    return _bundled(name, ITEM_EXAMPLES, "item example",
                    lambda path: read_items(path, missing=missing))   # its format detected


def example_path(name: str):
    """Path of a bundled example table (a context-free ``Traversable``)."""
    if name not in EXAMPLES:
        raise RankwiseError(f"no bundled example named {name!r}; choose one of "
                            f"{', '.join(EXAMPLES)}")
    return resources.files(__name__).joinpath(EXAMPLES[name][0])


#: The criterion each wide example table measures (the long folds_demo names its own).
CRITERIA = {"demsar2006_table2": "auc", "demsar2006_table6": "auc",
            "demsar2006_table6_tiebreak": "auc", "garcia2008": "accuracy",
            "garcia2010": "accuracy"}


def load_example(name: str, **options):
    """Load a bundled example as a :class:`~rankwise.tables.ScoreTable` (options as load_table).

    Examples
    --------
    >>> from rankwise import load_example
    >>> t = load_example("demsar2006_table6")
    >>> t.n_datasets, t.learners
    (14, ('C4.5', 'C4.5+m', 'C4.5+cf', 'C4.5+m+cf'))
    >>> load_example("mlr3", criterion="classif.ce").higher_is_better
    False
    """
    from ..tables import load_table

    if options.get("criterion") is None and name in CRITERIA:
        options["criterion"] = CRITERIA[name]
    with resources.as_file(example_path(name)) as path:
        try:
            table = load_table(path, **options)
        except RankwiseError as error:  # name the example, not where it is installed
            raise RankwiseError(str(error).replace(str(path), f"example:{name}")) from None
    from dataclasses import replace
    from functools import partial

    return replace(table, source=f"example:{name}", reread=partial(load_example, name, **{
        **table.reread.keywords}))


EXPERIMENTS = {"demo": "demo_experiment.toml", "race": "race_experiment.toml"}


def experiment_path(name: str):
    """Context manager giving the path of a bundled experiment file."""
    if name not in EXPERIMENTS:
        raise RankwiseError(f"no bundled experiment named {name!r}; choose one of"
                            f" {', '.join(EXPERIMENTS)}")
    return resources.as_file(resources.files(__name__).joinpath(EXPERIMENTS[name]))


def _bundled(name: str, table: dict, what: str, read):
    """The bundled file ``name`` of ``table`` read by ``read(path)``, its source named
    ``example:NAME``; an unknown name is one line naming the others."""
    from dataclasses import replace

    if name not in table:
        raise RankwiseError(f"no bundled {what} named {name!r}; choose one of"
                            f" {', '.join(table)}")
    with resources.as_file(resources.files(__name__).joinpath(table[name][0])) as path:
        found = read(path)
    return replace(found, source=f"example:{name}")
