import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from rankwise import load_example


@pytest.fixture
def demsar2():
    t = load_example("demsar2006_table2")
    return t.values[:, 0], t.values[:, 1]


@pytest.fixture
def rng():
    return np.random.default_rng(20061)


@pytest.fixture(scope="session")
def site(tmp_path_factory):
    """The built documentation site: docs/_build/html (the README's docs command), else a
    fresh build into a temporary folder where Sphinx is installed."""
    built = Path(__file__).parents[1] / "docs" / "_build" / "html"
    if (built / "index.html").exists():
        return built
    pytest.importorskip("sphinx", reason="install rankwise[docs] to build the site")
    out = tmp_path_factory.mktemp("site")
    result = subprocess.run([sys.executable, "-m", "sphinx", "-W", "-q", "-b", "html",
                             str(Path(__file__).parents[1] / "docs"), str(out)], capture_output=True, text=True,
                            cwd=Path(__file__).parents[1], timeout=1800)
    assert result.returncode == 0, result.stderr[-3000:]
    return out
