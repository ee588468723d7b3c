#!/bin/bash
# One big raven grid as a Slurm job array: task K of the array runs shard K/N of the grid,
# and a job that waits for all of them merges the shards into the CSV one machine would
# have written, byte for byte (docs/cluster.md).
#
#   jobid=$(sbatch --parsable docs/slurm-sweep.sh)
#   sbatch --dependency=afterok:$jobid --wrap "raven merge raven-$jobid/*.csv --out sweep.csv"
#
# N is the array's size: change `--array=1-16` to split the grid into another number of
# shards. Any sharded command works the same way: `raven explore --param ... --shard K/N`,
# `raven simulate --games ... --shard K/N`. `raven` must be on the PATH of every node
# (`cargo install --path .`), and the working directory shared by the nodes.
#SBATCH --job-name=raven-sweep
#SBATCH --array=1-16
#SBATCH --cpus-per-task=8
#SBATCH --mem=4G
#SBATCH --time=01:00:00
#SBATCH --output=raven-sweep-%A_%a.log
set -euo pipefail

K=$SLURM_ARRAY_TASK_ID
N=$SLURM_ARRAY_TASK_MAX # the array runs 1..=N
mkdir -p "raven-$SLURM_ARRAY_JOB_ID"

raven sweep --strategy cautious \
    --param recruit.stealth_floor=0..8 --param side.max_attempts=1..5 \
    --stealth 8,10,12 --games 1000000 \
    --threads "$SLURM_CPUS_PER_TASK" --quiet \
    --shard "$K/$N" --out "raven-$SLURM_ARRAY_JOB_ID/shard-$K-of-$N.csv"
