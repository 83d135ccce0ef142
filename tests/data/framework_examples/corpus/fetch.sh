#!/usr/bin/env bash
# Rebuilds this folder from git mirrors of the five repositories (the commits are those of ../SOURCES.md, "The whole
# examples folders"). Usage: MIRRORS=/path/to/mirrors bash fetch.sh   (each mirror at $MIRRORS/<owner>+<name>/repo,
# e.g. made with `git clone --mirror https://github.com/<owner>/<name> $MIRRORS/<owner>+<name>/repo`).
# Config files only (.yml, .yaml, .json; Unsloth's notebook scripts .py): no README, figures, images or notebooks.
set -euo pipefail
M=${MIRRORS:?set MIRRORS}
HERE=$(cd "$(dirname "$0")" && pwd)
copy() {  # repo rev dest-folder path-filter-regex path...   (paths matching $SKIP are left out)
  local repo=$1 rev=$2 dest=$3 keep=$4; shift 4
  git -C "$M/$repo/repo" ls-tree -r --name-only "$rev" -- "$@" | grep -E "$keep" | grep -vE "${SKIP:-^$}" | while IFS= read -r p; do
    mkdir -p "$HERE/$dest/$(dirname "$p")"
    git -C "$M/$repo/repo" show "$rev:$p" > "$HERE/$dest/$p"
  done
}
CFG='\.(ya?ml|json)$'
# Axolotl: not examples/cloud (Modal and Baseten deployment files, no training config)
SKIP='^examples/cloud/' copy axolotl-ai-cloud+axolotl 067b021c8b87a9e5e380b9173c704cf7340e30f5 axolotl "$CFG" examples deepspeed_configs
# LLaMA-Factory: not its inference, merge, predict and token-list files (no training run)
LF_SKIP='^examples/(inference|merge_lora|extras/nlg_eval|extras/multi_tokens)/|^examples/v1/train_lora/export_lora\.yaml$'
SKIP=$LF_SKIP copy hiyouga+LLaMA-Factory v0.9.5 llamafactory "$CFG" examples
SKIP=$LF_SKIP copy hiyouga+LLaMA-Factory ff6d4d12eeb035d6ce06805a5733dd7b29f2ac30 llamafactory-main "$CFG" examples/v1
copy huggingface+trl f2cd57710ae345ea6428ae95363267fcf38a3dc8 trl "$CFG" examples/accelerate_configs examples/cli_configs
# Unsloth Studio: its training YAMLs, not inference_defaults.json (chat sampling settings)
SKIP='/inference_defaults\.json$' copy unslothai+unsloth 015bdef0d94a241bcd94eec7a405b1700632180d unsloth "$CFG" studio/backend/assets/configs
# TRL 1.16.0's shipped accelerate configs (trl/accelerate_configs/*.yaml, in its wheel; the mirror's commit predates
# 1.16.0): pip download trl==1.16.0 --no-deps, unzipped
W=$(mktemp -d); pip download --quiet --no-deps --dest "$W" trl==1.16.0
mkdir -p "$HERE/trl-1.16.0/trl/accelerate_configs"
unzip -q -o -j "$W"/trl-1.16.0-*.whl 'trl/accelerate_configs/*.yaml' -d "$HERE/trl-1.16.0/trl/accelerate_configs"
rm -rf "$W"
# Unsloth's text notebooks that train with SFT/DPO/ORPO/GRPO: python_scripts/*.py without a platform prefix
# (AMD-, HuggingFace Course-, Kaggle- are copies of the same notebooks), loading the model with
# FastLanguageModel.from_pretrained or FastModel.from_pretrained and never FastVisionModel.from_pretrained, and
# not speech or vision ones by name (audio, TTS, STT, vision, multimodal, Whisper, Orpheus, Sesame, Spark-TTS,
# Oute-TTS, Llasa, CSM).
N=unslothai+notebooks; NREV=bdda2efc7ad5ae129ea63cd2065d23c391406283
git -C "$M/$N/repo" ls-tree -r --name-only "$NREV" -- python_scripts | grep -vE '^python_scripts/(AMD-|HuggingFace Course-|Kaggle-)' \
  | grep -viE 'audio|tts|stt|vision|multimodal|whisper|orpheus|sesame|spark_tts|oute_tts|llasa|csm' \
  | while IFS= read -r p; do
    text=$(git -C "$M/$N/repo" show "$NREV:$p")
    grep -qE '(FastLanguageModel|FastModel)\.from_pretrained' <<<"$text" || continue
    grep -q 'FastVisionModel\.from_pretrained' <<<"$text" && continue
    grep -qE '(SFT|DPO|ORPO|GRPO)Trainer\(' <<<"$text" || continue
    mkdir -p "$HERE/unsloth-notebooks/python_scripts"
    git -C "$M/$N/repo" show "$NREV:$p" > "$HERE/unsloth-notebooks/$p"
  done
