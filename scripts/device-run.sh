#!/usr/bin/env bash
# One call's worth of GPU measurements on a lent machine (docs/testing.md): carried `.device/`
# (Node, Dawn, the loaders) and `dist/` (node scripts/bundle-bench.mjs [--base REV]). Each step has
# its own time limit and writes its own file into OUT as it goes, so a call cut short keeps what it
# ran:
#   ab.txt     per dispatch on the 1M piles, base and working tree alternating (with --base only)
#   pile3.txt  3D piles, 10k and 1M (bricks, block): GPU frames, rapier3d at 10k, the 2 ms goal
#   pile2.txt  2D piles, 10k and 1M
#   cold.txt   cold start with the shader caches off
#   smi.csv    the SM clock every 250 ms (a GPU lowers it between sparse work)
# Usage there: bash scripts/device-run.sh OUT   (about 5 minutes; the A/B adds about 1.5)
set -u
out=${1:?usage: device-run.sh OUT}
start=$(date +%s)
elapsed() { echo $(($(date +%s) - start)); }

nvidia-smi --query-gpu=timestamp,clocks.sm,utilization.gpu --format=csv -lms 250 \
  >"$out/smi.csv" 2>&1 &
smi=$!

profile() { # build (base or head), then profile-dispatches' arguments
  local bundle=dist/profile-dispatches.mjs
  [ "$1" = base ] && bundle=dist/base/profile-dispatches.mjs
  echo "=== [$(elapsed) s] $*"
  shift
  timeout 90 bash .device/run.sh node "$bundle" "$@" --wobble 2>&1 | grep -v '^Warning'
}
if [ -f dist/base/profile-dispatches.mjs ]; then
  for scene in "3 1000000 5 bricks" "3 1000000 5 block" "2 1000000 5"; do
    # shellcheck disable=SC2086 # the scene's words are profile-dispatches' arguments
    for build in base head base head; do profile $build $scene; done
  done >"$out/ab.txt" 2>&1
fi
echo "[$(elapsed) s] pile 3D"
timeout 240 bash .device/run.sh node dist/bench.mjs --scene pile --dim 3 --sizes 10000,1000000 \
  --no-cannon --repeat 3 --out /tmp/pile3.json >"$out/pile3.txt" 2>&1
echo "[$(elapsed) s] pile 2D"
timeout 120 bash .device/run.sh node dist/bench.mjs --scene pile --dim 2 --sizes 10000,1000000 \
  --repeat 3 --out /tmp/pile2.json >"$out/pile2.txt" 2>&1
echo "[$(elapsed) s] cold start"
timeout 120 bash .device/run.sh node dist/cold-start.mjs >"$out/cold.txt" 2>&1
kill "$smi" 2>/dev/null
echo "[$(elapsed) s] done"
