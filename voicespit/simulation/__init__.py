"""Computer-versus-computer games, for `voicespit simulate`, benchmarks and tests.

`full_speed`: whole games through the engine alone with no delays (throughput and
a randomized referee check). `realtime`: sessions through the real referee and
the paced opponent on a fake clock (the pace targets).

May import: `opponent`, `match`, `engine`, and the cross-cutting modules.
"""
