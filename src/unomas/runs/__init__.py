"""The run layer: many matches played, on a backend, and summed up.

``selfplay``
    Every seat played by one baseline policy (``playfirst``, ``random``) through the
    conductor: ``unomas simulate``'s players (compiled).
``simulation``
    A run of self-play matches on a backend, and its totals.
``tournament``
    Matches between bots on a backend: seats rotated, per-entrant figures, records.
``statistics``
    Wilson score intervals and openskill ratings.
``plot``
    A tournament's win rates as a chart (matplotlib, imported only to draw one).
``backends``
    Where a run's matches are played, in batches: this machine's processes, or Ray tasks.

Every match of a run is played by a :class:`~unomas.conductor.Conductor` and summed up by
its :class:`~unomas.conductor.MatchSummary`.
"""
