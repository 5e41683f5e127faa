"""
Leaderboard: Elo with intervals and the win-rate matrix
=======================================================

TabArena's own per-split results (78 methods, 51 data sets). Elo is the Bradley-Terry rating of
the battles on every split, anchored at RF (default) = 1000, with the 95 % interval of 100
bootstrap resamples of the data sets; a star marks the methods statistically tied with #1
(simultaneous rank confidence sets). On this complete table the Elo order is the mean-rank
order. The second figure is the win-rate matrix of all 78: the share of splits on which the
row's method beat the column's (``leaderboard(..., figure_top=30)`` draws the best 30).
"""

import rankwise
from rankwise.examples import example_path
from rankwise.report.board import board_figure, matrix_figure

board = rankwise.leaderboard(str(example_path("tabarena")), anchor="RF (default)")
b = board.board
print(f"#1: {b.learners[0]}, Elo {b.columns['elo'][0]:.1f}"
      f" [{b.columns['elo_low'][0]:.1f}, {b.columns['elo_high'][0]:.1f}]")
print("tied with #1:")
for name in b.tied_with_first:
    print("  " + name)
fig = board_figure(board)

# %%
fig = matrix_figure(board)
