"""Every kind of widget, by name: the one registry that markers, the build, the worker and the string check read.
A new kind is one module here (its constants, requests, results and ``KIND``), one line below, and its title in both
string tables (``calc.title.<kind>``)."""
from __future__ import annotations

from . import compare, estimator, fits, seqlen
from .base import WidgetKind

__all__ = ["WIDGET_KINDS", "WidgetKind"]

WIDGET_KINDS: dict[str, WidgetKind] = {k.name: k for k in (estimator.KIND, compare.KIND, fits.KIND, seqlen.KIND)}
