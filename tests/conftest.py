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
