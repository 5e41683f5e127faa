"""Weka's own experiment files and its corrected resampled t-test, as the Debian ``weka`` 3.6
package runs them: the experiment file (ZeroR, J48 and NaiveBayes on iris,
glass and breast-cancer, 5 runs of 10-fold cross-validation, one file as the Experimenter
writes it; bundled as ``--example weka``: ``src/rankwise/examples/weka_cv10x5.arff``),
``weka_5x2.arff`` (the same, 5 runs of 2-fold), ``weka_split66x10.arff`` (the Experimenter's
default design: 10 runs of a random 66 % training split), and
``tests/data/reference/weka_corrected_ttest.json`` (``PairedCorrectedTTester``'s statistics of
every ordered pair on every data set, for Percent_correct and Area_under_ROC).

    python tools/make_weka_references.py      # needs java, javac and /usr/share/java/weka.jar

The tests read the stored values always and run Weka themselves where it is installed.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
JAR = Path("/usr/share/java/weka.jar")
EXAMPLES = Path("/usr/share/doc/weka/examples")
DATA = ROOT / "tests" / "data" / "weka"
OUT = ROOT / "tests" / "data" / "reference"
EXAMPLE = ROOT / "src" / "rankwise" / "examples" / "weka_cv10x5.arff"  # also --example weka
#: The columns compared (1-based, as Weka counts them) and their names.
COLUMNS = {"Percent_correct": 13, "Area_under_ROC": 41}


def compiled(tmp: Path) -> Path:
    subprocess.run(["javac", "-nowarn", "-cp", str(JAR), "-d", str(tmp),
                    str(ROOT / "tools" / "weka" / "RunExp.java"),
                    str(ROOT / "tools" / "weka" / "TTest.java")], check=True,
                   capture_output=True)
    return tmp


def run_experiment(classes: Path, folds: int, runs: int, out: Path,
                   design: str = "cv") -> None:
    """``design``: ``cv`` (``folds``-fold cross-validation) or ``split`` (``folds`` is then
    the training percentage of one random split per run)."""
    datasets = [str(EXAMPLES / f"{name}.arff") for name in ("iris", "glass", "breast-cancer")]
    subprocess.run(["java", "-cp", f"{JAR}:{classes}", "RunExp", design, str(folds),
                    str(runs), str(out), *datasets], check=True, capture_output=True)


def corrected_ttests(classes: Path, results: Path, column: int) -> list:
    done = subprocess.run(["java", "-cp", f"{JAR}:{classes}", "TTest", str(results),
                           str(column)], check=True, capture_output=True, text=True)
    return [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]


def main() -> int:
    if not JAR.exists():
        print(f"no {JAR}: install Debian's weka package", file=sys.stderr)
        return 1
    DATA.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        classes = compiled(Path(tmp))
        run_experiment(classes, 10, 5, EXAMPLE)
        run_experiment(classes, 2, 5, DATA / "weka_5x2.arff")
        run_experiment(classes, 66, 10, DATA / "weka_split66x10.arff", "split")
        reference = {"weka": "3.6.14 (Debian)", "tester": "weka.experiment.PairedCorrectedTTester",
                     "significance_level": 0.05, "files": {}}
        for name, path in (("weka_cv10x5.arff", EXAMPLE),
                           ("weka_5x2.arff", DATA / "weka_5x2.arff"),
                           ("weka_split66x10.arff", DATA / "weka_split66x10.arff")):
            # the split design has no Key_Fold: its measures sit one column earlier
            shift = 1 if "split" in name else 0
            reference["files"][name] = {
                label: corrected_ttests(classes, path, column - shift)
                for label, column in COLUMNS.items()}
    path = OUT / "weka_corrected_ttest.json"
    path.write_text(json.dumps(reference, indent=1) + "\n")
    print(f"wrote {path} and the experiment files in {DATA}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
