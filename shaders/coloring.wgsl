// Graph colouring of contact constraints on the GPU, shared by the 2D and 3D solvers: it needs
// only each constraint's body pair (the dense contact list's keys) and which bodies are dynamic.
// A colour is a set of constraints no two of which share a dynamic body, so one dispatch can solve
// a whole colour in parallel and the result is Gauss–Seidel's (and independent of thread order).
//
// Round r (0..COLOR_ROUNDS-1), over the uncoloured constraints:
//   colorClaim  each writes its priority into the slot of each of its dynamic bodies (atomicMax);
//   colorCheck  each that holds the slots of all its dynamic bodies takes colour r.
// The priority is (r + 1) << COLOR_INDEX_BITS | a bijective hash of the constraint's index, so
// priorities are unique, grow from round to round (the slots are cleared once per step), and the
// winners do not depend on the order in which invocations run: deterministic. Static bodies never
// conflict. What is still uncoloured after the last round keeps COLOR_NONE: the solver runs those
// constraints one after the other in index order, from a list made by colorFlags, an exclusive
// scan (scan.wgsl) and colorScatter: leftovers[0] is their count, leftovers[1..] their indices.

struct ColorParams {
  round: u32,                                          // this dispatch's round
  countWord: u32,                                      // where the constraint count is in `counts` (u32 index)
  capacity: u32,                                       // constraint slots (the dispatches cover them)
  _pad0: u32,
}

@group(0) @binding(0) var<uniform> colorParams: ColorParams;
@group(0) @binding(1) var<storage, read> colorPairs: array<vec2u>;      // (bodyA, bodyB) per constraint
@group(0) @binding(2) var<storage, read> colorCounts: array<u32>;
@group(0) @binding(3) var<storage, read> dynamicBodies: array<u32>;    // 1: dynamic, 0: static
@group(0) @binding(4) var<storage, read_write> colors: array<u32>;
@group(0) @binding(5) var<storage, read_write> colorSlots: array<atomic<u32>>; // per body, cleared per step
@group(0) @binding(6) var<storage, read_write> colorOffsets: array<u32>;       // capacity + 1: flags, then their exclusive scan
@group(0) @binding(7) var<storage, read_write> leftovers: array<u32>;          // count, then the uncoloured constraints in index order

// A bijection of [0, 2^COLOR_INDEX_BITS) that differs from round to round (xor, odd multiply and
// xorshift each keep it one-to-one).
fn colorPriority(c: u32, round: u32) -> u32 {
  let mask = (1u << COLOR_INDEX_BITS) - 1u;
  var x = (c ^ (round * 0x2545f491u)) & mask;
  x = (x * 0x9e3779b1u) & mask;
  x = x ^ (x >> 13u);
  x = (x * 0x85ebca6bu) & mask;
  x = x ^ (x >> 11u);
  return ((round + 1u) << COLOR_INDEX_BITS) | x;
}

fn colorIndex(gid: vec3u, groups: vec3u) -> u32 {
  return gid.x + gid.y * groups.x * SOLVER_WORKGROUP_SIZE;
}

@compute @workgroup_size(SOLVER_WORKGROUP_SIZE)
fn colorClaim(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) groups: vec3u) {
  let c = colorIndex(gid, groups);
  if (c >= colorCounts[colorParams.countWord]) { return; }
  // Round 0 starts over: last step's colours are stale.
  if (colorParams.round > 0u && colors[c] != COLOR_NONE) { return; }
  let pair = colorPairs[c];
  let p = colorPriority(c, colorParams.round);
  if (dynamicBodies[pair.x] != 0u) { atomicMax(&colorSlots[pair.x], p); }
  if (dynamicBodies[pair.y] != 0u) { atomicMax(&colorSlots[pair.y], p); }
}

@compute @workgroup_size(SOLVER_WORKGROUP_SIZE)
fn colorCheck(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) groups: vec3u) {
  let c = colorIndex(gid, groups);
  if (c >= colorCounts[colorParams.countWord]) { return; }
  if (colorParams.round > 0u && colors[c] != COLOR_NONE) { return; }
  let pair = colorPairs[c];
  let p = colorPriority(c, colorParams.round);
  let winsA = dynamicBodies[pair.x] == 0u || atomicLoad(&colorSlots[pair.x]) == p;
  let winsB = dynamicBodies[pair.y] == 0u || atomicLoad(&colorSlots[pair.y]) == p;
  colors[c] = select(COLOR_NONE, colorParams.round, winsA && winsB);
}

// 1 per uncoloured constraint, for capacity + 1 slots (the last stays 0: the scan's total lands there).
@compute @workgroup_size(SOLVER_WORKGROUP_SIZE)
fn colorFlags(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) groups: vec3u) {
  let c = colorIndex(gid, groups);
  if (c > colorParams.capacity) { return; }
  colorOffsets[c] = select(0u, 1u, c < colorCounts[colorParams.countWord] && colors[c] == COLOR_NONE);
}

// After the scan: each uncoloured constraint writes its index at its offset.
@compute @workgroup_size(SOLVER_WORKGROUP_SIZE)
fn colorScatter(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) groups: vec3u) {
  let c = colorIndex(gid, groups);
  if (c == 0u) { leftovers[0] = colorOffsets[colorParams.capacity]; }
  if (c >= colorCounts[colorParams.countWord] || colors[c] != COLOR_NONE) { return; }
  leftovers[1u + colorOffsets[c]] = c;
}
