#!/usr/bin/env bash
# The race-mode benchmark table: every preset (and the GA) on the 11 "hardest" and on 20
# easy puzzles, one puzzle at a time on one core, same seed and time limit per puzzle.
# Prints a markdown table: solved/total, median and max seconds, median iterations
# (evaluations for the GA). Medians are the upper median, like kiln's own summary line.
#
# usage: scripts/race_table.sh [TIME_LIMIT_SECS=10] [SEED=1]
#        SETS="puzzles/sudoku/top95_first10.txt" scripts/race_table.sh   (other puzzle files)
# needs: cargo, jq
set -euo pipefail
cd "$(dirname "$0")/.."
limit=${1:-10}
seed=${2:-1}
read -ra sets <<<"${SETS:-puzzles/sudoku/hardest11.txt puzzles/sudoku/easy20.txt}"

cargo build --release --quiet
kiln=$(python3 scripts/kiln_binary.py)
presets=$("$kiln" presets | awk '{print $1}')

# One table cell group for a preset on a set: "k/n | median s | max s | median it".
cells() {
  jq -rs '
    def median: sort | .[length / 2 | floor];
    def secs: (. * 10000 | round) / 10000 | tostring + " s";
    "\(map(select(.solved)) | length)/\(length) | \(map(.seconds) | median | secs) | \(map(.seconds) | max | secs) | \(map(.iterations) | median)"'
}

header="| preset |"
rule="|---|"
for set in "${sets[@]}"; do
  name=$(basename "$set" .txt)
  header+=" $name solved | median | max | median iterations |"
  rule+="---|---|---|---|"
done
echo "Time limit ${limit} s per puzzle, seed ${seed}, $(nproc) cores, load: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "$header"
echo "$rule"
for preset in $presets; do
  row="| \`$preset\` |"
  for set in "${sets[@]}"; do
    # A failing exit only means some puzzle was not solved: the JSON says which.
    row+=" $({ "$kiln" sudoku "$set" --headless --preset "$preset" --time-limit "$limit" \
      --seed "$seed" 2>/dev/null || true; } | cells) |"
  done
  echo "$row"
done
