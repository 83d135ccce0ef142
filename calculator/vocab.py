"""The estimator's small vocabularies, one list each: the memory components of a breakdown, the remedies, the notes,
the phases of a step, the codes of a refused time, the verdicts and the page's runtime stages.

The estimator produces these codes; the page (``calculator/page/``) and the CLI show them in the words of the string
tables (``calculator/strings/<lang>.json``: ``components.<c>``, ``remedies.<r>``, ``notes.<n>``,
``out.time_error.<e>``, ``verdict.<v>``, ``status.<stage>``); ``sitebuild/strings.py`` requires a text for every
entry in both languages, and the tests tie each list to its other readers (a colour per component and a style per
verdict in ``docs/assets/calc/calc.css``, the stages of ``docs/assets/calc/protocol.mjs``). Every reader looks the
lists up here when it runs, so a new entry is one line here plus its texts (and, for a component, its formula in
``memory.py`` and its colour). Standard library only.
"""
from __future__ import annotations

from dataclasses import dataclass

__all__ = ["COMPONENTS", "OUTSIDE_ALLOCATOR", "PHASES", "REMEDIES", "Remedy", "remedy", "NOTES", "UNSUPPORTED_REASONS",
           "MODEL_ID_REASONS", "CAPABILITY_REASONS", "TARGET_REASONS", "ADJUSTMENTS", "CARD_NOTES", "TIME_ERRORS", "VERDICTS", "STAGES"]

#: The components of a per-GPU peak, in the order a breakdown lists them (``breakdown_bytes``, the page's bar and
#: legend, the CLI). They sum to the peak.
COMPONENTS: tuple[str, ...] = (
    "weights", "kbit_upcast", "master_copy", "gradients", "optimizer_states", "optimizer_temp", "activations", "logits_loss",
    "lora_adapter", "dequant_transient", "reference_model", "allocator_reserve", "cuda_context",
)
#: Components outside PyTorch's allocated memory, added on top of the peak phase (memory.estimate): the caching
#: allocator's reserve and the CUDA context.
OUTSIDE_ALLOCATOR: tuple[str, ...] = ("allocator_reserve", "cuda_context")
#: The phases of one training step, in the order they happen (``phase`` of a result is the one of the peak;
#: ``phases_allocated_bytes`` has each phase the setup goes through): the values of ``models.Phase``. The page says
#: when the peak occurs (``phases.<p>``, ``phase_at.<p>``).
PHASES: tuple[str, ...] = ("reference_forward", "forward", "backward_start", "backward_end", "optimizer_step")


@dataclass(frozen=True)
class Remedy:
    """One remedy of the guide (recommend.remedies): its code and, when its name shows a number, which of its
    ``changes`` that is and the unit noun it is counted in (``calc.units.<noun>``)."""

    name: str
    amount: str | None = None
    noun: str | None = None


#: The remedies recommend.remedies offers: its chain ranks them by what they save; sharding and shorter sequences,
#: the alternatives, come last in this order.
REMEDIES: tuple[Remedy, ...] = (
    Remedy("smaller_micro_batch"),
    Remedy("gradient_checkpointing"),
    Remedy("fused_loss"),
    Remedy("8bit_optimizer"),
    Remedy("lora"),
    Remedy("qlora"),
    Remedy("activation_offloading"),
    Remedy("sharding", amount="num_gpus", noun="cards"),
    Remedy("shorter_sequences", amount="seq_len", noun="tokens"),
)


def remedy(name: str) -> Remedy:
    """The remedy of that code (KeyError for a code the list does not have)."""
    for r in REMEDIES:
        if r.name == name:
            return r
    raise KeyError(name)


#: Codes of the assumptions an estimate states (``notes``).
NOTES: tuple[str, ...] = ("paged_states_excluded", "vision_tower_frozen", "weights_fp8", "weights_dequantized",
                          "weights_bnb_4bit", "experts_not_quantized", "experts_not_adapted", "model_type_unknown")
#: Why a model is refused (``unsupported_model``'s ``reason``: configs.UNSUPPORTED_TYPES and the refused repos).
UNSUPPORTED_REASONS: tuple[str, ...] = ("encoder_decoder", "encoder_only", "vision_or_audio", "not_attention",
                                        "moe_layout", "vision_tower", "per_layer_embeddings", "prequantized_weights",
                                        "gguf_weights")
#: Why a model id is refused beyond "not in the catalogue" (``unknown_model``'s ``reason``): it is not even shaped
#: like a Hugging Face id (catalog.is_hub_id).
MODEL_ID_REASONS: tuple[str, ...] = ("not_a_hub_id",)
#: Why a setup is refused on the chosen card (``unsupported_on_gpu``'s ``reason``: recommend.runnable; api's check of
#: a colocated vLLM's KV pool, calculator/rl.py).
CAPABILITY_REASONS: tuple[str, ...] = ("flash_needs_ampere", "vllm_pool_below_one_sequence")
#: Why the chosen LoRA targets wrap nothing in this model (``contradiction`` on ``lora_targets``): a model with
#: multi-head latent attention (DeepSeek-V2/V3, Kimi K2) has no k_proj/v_proj (nor q_proj with a q_lora_rank).
TARGET_REASONS: tuple[str, ...] = ("mla_attention",)
#: How a setup was changed to run on the chosen card (``adjusted``: the figures are the changed setup's).
ADJUSTMENTS: tuple[str, ...] = ("bf16_to_fp16_mixed", "autocast_fp16", "adapters_fp32")
#: What the answer says about a card that runs the setup with a caveat (``card_notes``).
CARD_NOTES: tuple[str, ...] = ("fp16_overflow_family", "flash_sm120_build", "flash_rocm", "bitsandbytes_rocm",
                               "legacy_pytorch")
#: Why a time is refused (``time_error``): fp32 training (the model counts 16-bit tensor throughput), a card whose
#: datasheet gives no peak.
TIME_ERRORS: tuple[str, ...] = ("fp32_not_modelled", "no_peak")
#: Whether a setup fits a card (recommend.verdict), from the most room to none: ``fits_by_paging`` trains only because
#: the driver moves a paged optimizer's states between host RAM and the card every step.
#: ``at_edge``: the card's memory lies inside the peak's likely range (memory.likely_range): measure.
VERDICTS: tuple[str, ...] = ("comfortable", "tight", "at_edge", "fits_by_paging", "does_not_fit")
#: The page's runtime stages, in order (``failed`` can follow any): the values of ``STATUS`` in protocol.mjs.
STAGES: tuple[str, ...] = ("idle", "downloading", "starting", "loading", "ready", "failed")
