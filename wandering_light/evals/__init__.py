"""Evaluation: runs of solvers on task files, their results, summaries and plots (`nbs/10_evals.ipynb`)."""
