"""Training: reward functions, SFT, GRPO, LoRA and self-play with TRL and PEFT (`nbs/11_rewards.ipynb` to `nbs/15_selfplay.ipynb`)."""
