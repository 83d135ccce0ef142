"""The repository's own tools, run by hand or by ``make``, never by the site build:

* ``docs``     every generated block of the repository's documents (``python -m tools.docs``, ``make docs``), from
  the estimator's tables and the benchmarks' outputs

The rooms depend one way: ``tools`` -> ``benchmarks`` -> ``sitebuild`` -> ``calculator`` (tests/unit/test_rooms.py).
"""
