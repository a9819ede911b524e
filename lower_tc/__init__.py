"""lower-tc: shared-memory tile layouts and tensor-core descriptors, exact and checked.

Subpackages: ``lower_tc.layout`` (pure math, no xDSL, no CUDA),
``lower_tc.dialects``, ``lower_tc.passes`` and ``lower_tc.lowering``.
"""

__version__ = "0.1.0"
