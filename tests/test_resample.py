"""The one bootstrap primitive (stats/resample.py): each named draw order gives n draws per
resample, and each equals the draw it names, counted one resample at a time by brute force."""

import numpy as np
import pytest

from rankwise.stats.resample import (bootstrap_counts, multinomial_blocks, multinomial_counts,
                                     sorted_choice_counts)


@pytest.mark.parametrize("draws,n", [(1, 1), (5, 3), (40, 17)])
def test_uniform_counts_are_the_draws_counted_row_by_row(draws, n):
    got = bootstrap_counts(draws, n, np.random.default_rng(7))
    picks = np.random.default_rng(7).integers(0, n, size=(draws, n))
    want = np.array([np.bincount(row, minlength=n) for row in picks])
    assert got.shape == (draws, n) and (got == want).all()
    assert (got.sum(axis=1) == n).all()


def test_multinomial_blocks_do_not_change_the_draws():
    whole = multinomial_counts(9, 23, seed=3)
    blocks = np.vstack(list(multinomial_blocks(9, 23, 3, block=5)))
    assert (whole == blocks).all() and (whole.sum(axis=1) == 9).all()


def test_sorted_choice_counts_place_each_draw_at_its_unit():
    order = np.array([2, 0, 1])   # the units in sorted-name order
    got = sorted_choice_counts(3, order, 4, seed=0)
    rng = np.random.default_rng(0)
    for row in got:
        drawn = np.bincount(rng.choice(3, size=3, replace=True), minlength=3)
        assert (row[order] == drawn).all()
    assert (got.sum(axis=1) == 3).all()


def test_the_orders_draw_the_same_distribution():
    """Each unit's mean count is 1 and its variance (n - 1)/n, whatever the order."""
    n, rounds = 6, 20_000
    for counts in (bootstrap_counts(rounds, n, np.random.default_rng(1)),
                   multinomial_counts(n, rounds, 1),
                   sorted_choice_counts(n, np.arange(n), rounds, 1)):
        assert np.allclose(counts.mean(axis=0), 1.0, atol=0.03)
        assert np.allclose(counts.var(axis=0), (n - 1) / n, atol=0.04)
