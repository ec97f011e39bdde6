"""The profile's models under the module they were defined in before `bunseki.domain.profiles`.

Checkpoints of EDA runs paused before the move name them here (`bunseki.agents.eda.FORMER_HOMES`),
so this module keeps giving each under its name.
"""

from bunseki.domain.profiles import ColumnProfile, Correlation, TableProfile, TopValue

__all__ = ["ColumnProfile", "Correlation", "TableProfile", "TopValue"]
