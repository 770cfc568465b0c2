"""Backtests: what a policy change would have done to past traffic (`redline backtest`)."""

from redline.backtest.run import BacktestResult, run_backtest

__all__ = ["BacktestResult", "run_backtest"]
