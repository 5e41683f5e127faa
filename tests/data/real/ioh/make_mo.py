"""Two algorithms on ZDT1 and ZDT2 (5 variables) as IOHinspector's multi-objective examples log
them: the first objective is the problem's value (raw_y), the second a watched attribute F2,
every evaluation logged."""
import math

import ioh
import numpy as np

DIM, BUDGET, RUNS = 5, 25, 2


class Objectives:
    F2 = 0.0


state = Objectives()


def zdt1(x):
    x = np.asarray(x)
    f1 = x[0]
    g = 1 + 9 * x[1:].sum() / (len(x) - 1)
    state.F2 = g * (1 - math.sqrt(f1 / g))
    return f1


def zdt2(x):
    x = np.asarray(x)
    f1 = x[0]
    g = 1 + 9 * x[1:].sum() / (len(x) - 1)
    state.F2 = g * (1 - (f1 / g) ** 2)
    return f1


for function in (zdt1, zdt2):
    ioh.wrap_problem(function, name=f"pymoo_{function.__name__.upper()}",
                     optimization_type=ioh.OptimizationType.MIN, lb=0.0, ub=1.0)


def random_search(problem, rng):
    for _ in range(BUDGET):
        problem(rng.uniform(0, 1, DIM))


def local_search(problem, rng):
    x = rng.uniform(0, 1, DIM)
    for _ in range(BUDGET):
        problem(np.clip(x + rng.normal(0, 0.1, DIM), 0, 1))


for name, algorithm in (("RS", random_search), ("LS", local_search)):
    logger = ioh.logger.Analyzer(triggers=[ioh.logger.trigger.ALWAYS], root="out",
                                 folder_name=name, algorithm_name=name,
                                 algorithm_info="two objectives")
    logger.watch(state, ["F2"])
    for function in ("pymoo_ZDT1", "pymoo_ZDT2"):
        problem = ioh.get_problem(function, dimension=DIM)
        problem.attach_logger(logger)
        for run in range(RUNS):
            algorithm(problem, np.random.default_rng(run))
            problem.reset()
    logger.close()
