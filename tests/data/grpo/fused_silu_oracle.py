"""The oracle's step with SiLU's backward allocating what a CUDA build allocates: one output (aten::silu_backward).

Autograd's formula for silu (torch 2.13 derivatives.yaml) calls ``silu_backward``, whose dispatch table has a CUDA
kernel and a CompositeImplicitAutograd fallback (``math_silu_backward``: sigmoid, 1 - sigmoid, x * (.), 1 + (.),
grad * sigmoid, the product). The oracle's FakeTensors sit on device ``cuda`` in a CPU-only build, where no CUDA
kernel is registered, so the dispatcher takes the composite: five ``[T, i]`` temporaries a GPU never allocates. A
real backward profiles as the one fused op (``torch.profiler`` on CPU tensors lists ``aten::silu_backward`` and no
``aten::sigmoid``); under ``FakeTensorMode`` on ``cuda`` the same backward dispatches sigmoid, empty_like, fill_,
sub_, mul, add, mul, mul. Here SiLU is an autograd function whose backward allocates ``empty_like(grad)``, the
fused kernel's output (the values do not matter to FakeTensors); everything else is the oracle as it is.
Usage (``ORACLE_DIR``: the oracle's folder): fused_silu_oracle.py <oracle.py arguments>
``DUMP_LIVE=1`` lists every live storage at the peak instead of the oracle's grouped ``top_live_at_peak``."""
import os
import sys
sys.path.insert(0, os.environ.get("ORACLE_DIR", "."))   # the oracle folder (benchmarks/traces.py)
import fakecuda
fakecuda.preload()
import torch
import torch.nn.functional as F


class _SiLU(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return torch.ops.aten.silu(x)

    @staticmethod
    def backward(ctx, g):
        return torch.empty_like(g)


def silu(x, inplace=False):
    return _SiLU.apply(x)


F.silu = silu
import oracle
if os.environ.get("DUMP_LIVE"):
    _make = oracle.make_tracker_cls

    def make_tracker_cls():
        cls = _make()

        def live_at_peak(self, top=12):
            live = self.live_storages(self.peak_trace_idx)
            rows = sorted(((v[0], v[1], v[2], v[3]) for v in live.values()), reverse=True)
            return [{"category": lab, "created_by": d, "region": reg, "count": 1, "bytes": b, "gib": b / 2**30}
                    for b, lab, d, reg in rows[:top]]
        cls.live_at_peak = live_at_peak
        return cls
    oracle.make_tracker_cls = make_tracker_cls
oracle.main(sys.argv[1:])
