"""The bundled optimizer traces (``rankwise curves --example bbob``), written by IOHprofiler's
own logger: four optimizers on eight BBOB functions in 5 dimensions, instances 1 to 5 (one
run each), 1,000 evaluations, logged by ``ioh.logger.Analyzer`` as it logs by default (on
every improvement) into one folder per optimizer.

Run it where IOHexperimenter is installed (it is not a dependency of rankwise):

    pip install ioh==0.4.2 numpy
    python tools/make_bbob_example.py src/rankwise/examples/bbob
"""
import shutil
import sys
from pathlib import Path

import ioh
import numpy as np

DIM, BUDGET = 5, 1000
FUNCTIONS = (1, 2, 3, 6, 8, 10, 15, 20)
INSTANCES = (1, 2, 3, 4, 5)
LOW, HIGH = -5.0, 5.0


def random_search(f, rng):
    for _ in range(BUDGET):
        f(rng.uniform(LOW, HIGH, DIM))


def one_plus_one_es(f, rng):
    """(1+1)-ES with the 1/5th success rule."""
    x = rng.uniform(LOW, HIGH, DIM)
    fx, sigma = f(x), 1.0
    for _ in range(BUDGET - 1):
        y = np.clip(x + sigma * rng.normal(size=DIM), LOW, HIGH)
        fy = f(y)
        if fy <= fx:
            x, fx, sigma = y, fy, sigma * 1.5
        else:
            sigma *= 1.5 ** -0.25


def pattern_search(f, rng):
    """Compass search: a step along each coordinate, halved when none improves."""
    x = rng.uniform(LOW, HIGH, DIM)
    fx, step, used = f(x), 2.0, 1
    while used < BUDGET:
        better = False
        for i in rng.permutation(DIM):
            for sign in (1.0, -1.0):
                if used >= BUDGET:
                    return
                y = x.copy()
                y[i] = np.clip(y[i] + sign * step, LOW, HIGH)
                fy = f(y)
                used += 1
                if fy < fx:
                    x, fx, better = y, fy, True
                    break
        if not better:
            step /= 2


def differential_evolution(f, rng, size=20, weight=0.5, crossover=0.9):
    """DE/rand/1/bin."""
    pop = rng.uniform(LOW, HIGH, (size, DIM))
    fit = np.array([f(x) for x in pop])
    used = size
    while used < BUDGET:
        for i in range(size):
            if used >= BUDGET:
                return
            a, b, c = pop[rng.choice([j for j in range(size) if j != i], 3, replace=False)]
            mutant = np.clip(a + weight * (b - c), LOW, HIGH)
            cross = rng.random(DIM) < crossover
            cross[rng.integers(DIM)] = True
            trial = np.where(cross, mutant, pop[i])
            ft = f(trial)
            used += 1
            if ft <= fit[i]:
                pop[i], fit[i] = trial, ft


OPTIMIZERS = {"RandomSearch": random_search, "OnePlusOneES": one_plus_one_es,
              "PatternSearch": pattern_search, "DE": differential_evolution}


def main(out: Path) -> None:
    work = out.parent / (out.name + ".tmp")
    shutil.rmtree(work, ignore_errors=True)
    for seed, (name, optimizer) in enumerate(OPTIMIZERS.items()):
        logger = ioh.logger.Analyzer(root=str(work), folder_name=name, algorithm_name=name,
                                     algorithm_info="tools/make_bbob_example.py")
        for fid in FUNCTIONS:
            for instance in INSTANCES:
                problem = ioh.get_problem(fid, instance=instance, dimension=DIM)
                problem.attach_logger(logger)
                optimizer(problem, np.random.default_rng([seed, fid, instance]))
                problem.reset()
        logger.close()
    shutil.rmtree(out, ignore_errors=True)
    work.rename(out)


if __name__ == "__main__":
    main(Path(sys.argv[1]))
