"""Benchmark rows printed as a Markdown table (for the README and LEVERS.md)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence


def print_markdown(rows: Sequence[Mapping[str, object]]) -> None:
    """One table: the first row's keys as columns, shares to three decimals."""
    columns = list(rows[0])
    print("| " + " | ".join(columns) + " |")
    print("|" + "---|" * len(columns))
    for row in rows:
        print("| " + " | ".join(f"{value:.3f}" if isinstance(value, float) else str(value)
                                for value in row.values()) + " |")
