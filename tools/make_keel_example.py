"""Regenerate src/rankwise/examples/data/clinic.dat: a small made-up KEEL file with real,
integer and nominal attributes and missing values (? and <null>), for the demo experiment."""

import numpy as np

rng = np.random.default_rng(7)
lines = ["@relation clinic", "@attribute age integer [18, 90]", "@attribute dose real [0.0, 10.0]",
         "@attribute smoker {yes, no}", "@attribute ward {A, B, C}", "@attribute outcome {good, bad}",
         "@inputs age, dose, smoker, ward", "@outputs outcome", "@data"]
for i in range(150):
    age = int(rng.integers(18, 91))
    dose = rng.uniform(0, 10)
    smoker = "yes" if rng.random() < 0.3 else "no"
    ward = "ABC"[rng.integers(3)]
    risk = 0.03 * (age - 50) + 0.4 * (dose - 5) + (1.0 if smoker == "yes" else 0) + rng.normal()
    outcome = "bad" if risk > 0.8 else "good"
    cells = [str(age), f"{dose:.2f}", smoker, ward, outcome]
    if rng.random() < 0.05:
        cells[1] = "?"
    if rng.random() < 0.04:
        cells[2] = "<null>"
    lines.append(", ".join(cells))
open("src/rankwise/examples/data/clinic.dat", "w").write("\n".join(lines) + "\n")
