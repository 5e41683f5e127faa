"""Reference values from R for the rank sets and the letter display, as the R packages are
installed (csranks 1.2.2 from its source tag, multcompView from the distribution):
``tests/data/reference/csranks.json`` and ``multcomp_letters.json``.

    python tools/make_r_references.py            # needs Rscript with csranks and multcompView

The tests read the stored values always and run R themselves where it is installed.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
OUT = ROOT / "tests" / "data" / "reference"

CSRANKS = """
library(csranks)
args <- commandArgs(trailingOnly = TRUE)
x <- scan(args[1], quiet = TRUE)
S <- as.matrix(read.csv(args[2], header = FALSE))
draws <- as.integer(args[3])
for (simul in c(TRUE, FALSE)) {
  r <- csranks(x, S, coverage = 0.95, simul = simul, R = draws, seed = 1)
  cat(if (simul) "simultaneous" else "marginal", paste(r$L, collapse = ","),
      paste(r$U, collapse = ","), "\\n")
}
best <- cstaubest(x, S, tau = 1, R = draws, seed = 1)
cat("best", paste(as.integer(best), collapse = ","), "\\n")
"""

LETTERS = """
library(multcompView)
args <- commandArgs(trailingOnly = TRUE)
lines <- readLines(args[1])
for (line in lines) {
  parts <- strsplit(line, " ")[[1]]
  names <- strsplit(parts[1], ",")[[1]]
  flags <- as.logical(strsplit(parts[2], ",")[[1]])
  pairs <- combn(names, 2, paste, collapse = "-")
  x <- setNames(flags, pairs)
  l <- multcompLetters(x)$Letters
  cat(paste(names(l), l, sep = "=", collapse = ","), "\\n")
}
"""


def run_r(script: str, *args) -> str:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "script.R"
        path.write_text(script)
        return subprocess.run(["Rscript", str(path), *map(str, args)], check=True,
                              capture_output=True, text=True).stdout


def csranks_reference(x, sigma, draws: int) -> dict:
    """csranks' simultaneous and marginal sets and cstaubest(τ = 1) of (x, Σ), larger first."""
    with tempfile.TemporaryDirectory() as tmp:
        np.savetxt(Path(tmp) / "x.txt", x, fmt="%.17g")
        np.savetxt(Path(tmp) / "S.csv", sigma, fmt="%.17g", delimiter=",")
        out = run_r(CSRANKS, Path(tmp) / "x.txt", Path(tmp) / "S.csv", draws)
    result = {}
    for line in out.strip().splitlines():
        kind, *rest = line.split()
        if kind == "best":
            result["best"] = [v == "1" for v in rest[0].split(",")]
        else:
            result[kind] = {"lower": [int(v) for v in rest[0].split(",")],
                            "upper": [int(v) for v in rest[1].split(",")]}
    return result


def letters_reference(cases) -> list:
    """multcompLetters' groups (letter -> learners) for each (names, k × k decisions)."""
    lines = []
    for names, different in cases:
        k = len(names)
        flags = [str(bool(different[i, j])).upper() for i in range(k) for j in range(i + 1, k)]
        lines.append(f"{','.join(names)} {','.join(flags)}")
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "cases.txt"
        path.write_text("\n".join(lines) + "\n")
        out = run_r(LETTERS, path)
    groups = []
    for line in out.strip().splitlines():
        by_letter = {}
        for item in line.strip().split(","):
            name, letters = item.split("=")
            for letter in letters:
                by_letter.setdefault(letter, []).append(name)
        groups.append(sorted(sorted(v) for v in by_letter.values()))
    return groups


def main():
    from test_rank_sets import REFERENCE_TABLES, rank_inputs
    from test_letters import letter_cases

    OUT.mkdir(parents=True, exist_ok=True)
    ranks = {}
    for name in REFERENCE_TABLES:
        x, sigma = rank_inputs(name)
        ranks[name] = {"x": x.tolist(), "sigma": sigma.tolist(), "draws": 20000,
                       **csranks_reference(x, sigma, 20000)}
    (OUT / "csranks.json").write_text(json.dumps(
        {"csranks": "1.2.2", "tables": ranks}, indent=1) + "\n")
    cases = letter_cases()
    (OUT / "multcomp_letters.json").write_text(json.dumps(
        {"cases": [{"names": list(n), "different": d.astype(int).tolist()} for n, d in cases],
         "groups": letters_reference(cases)}, indent=1) + "\n")


if __name__ == "__main__":
    main()
