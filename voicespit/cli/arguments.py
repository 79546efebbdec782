"""Argument types shared by the subcommands: each rejects a bad value in words."""

from __future__ import annotations

import argparse


def non_negative_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"{value} is negative; give 0 or more")
    return value


def positive_int(text: str) -> int:
    value = non_negative_int(text)
    if value == 0:
        raise argparse.ArgumentTypeError("0 is not allowed; give 1 or more")
    return value


def seed_value(text: str) -> int:
    """A seed is any whole number from 0 to 2**63 - 1."""
    value = non_negative_int(text)
    if value >= 2**63:
        raise argparse.ArgumentTypeError(f"{value} is too large for a seed (below 2**63)")
    return value


def _number(text: str) -> float:
    try:
        return float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None


def positive_float(text: str) -> float:
    value = _number(text)
    if not value > 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(f"{text} must be a number above 0")
    return value


def fraction(text: str) -> float:
    """A share strictly between 0 and 1, such as a win rate."""
    value = _number(text)
    if not 0 < value < 1:
        raise argparse.ArgumentTypeError(f"{text} must be between 0 and 1 (e.g. 0.5)")
    return value
