// Graph colouring of contact constraints on the GPU, shared by the 2D and 3D solvers: it needs
// only each constraint's body pair (the dense contact list's keys) and which bodies are dynamic.
// A colour is a set of constraints no two of which share a dynamic body, so one dispatch can solve
// a whole colour in parallel and the result is Gauss–Seidel's (and independent of thread order).
//
// Jones–Plassmann with smallest free colours. Round r (0..COLOR_ROUNDS-1), over the uncoloured
// constraints:
//   colorClaim  each writes its priority into the slot of each of its dynamic bodies (atomicMax);
//   colorCheck  each that holds the slots of all its dynamic bodies (a local maximum: this round's
//               winners share no dynamic body) takes the smallest colour that none of its dynamic
//               bodies has yet (per-body bitmask of COLOR_COUNT bits) and sets it there. Only the
//               winner touching a body reads or writes that body's mask in a round, so the colours
//               do not depend on the order in which invocations run: deterministic. A winner
//               whose bodies' masks are full takes COLOR_FULL and leaves the competition.
// The priority is (r + 1) << COLOR_INDEX_BITS | a bijective hash of the constraint's index, so
// priorities are unique, grow from round to round (the slots are cleared once per step). About
// max-degree + 1 colours. Static bodies never conflict. colorNext sizes the next round's indirect
// dispatch: none once a round left nothing uncoloured.
//
// Then the constraints are ordered by colour for the solver (colorOrder, see colorPlan): each
// winner took a rank within its colour (atomicAdd; the order inside a colour does not change the
// result), colorPlan turns the colour sizes into offsets and indirect dispatch arguments, and
// colorScatter writes each constraint at its colour's offset + rank. What is uncoloured after the
// last round (COLOR_NONE or COLOR_FULL) follows in index order (colorFlags + an exclusive scan,
// scan.wgsl): the solver runs those one after the other.

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
@group(0) @binding(5) var<storage, read_write> colorSlots: array<atomic<u32>>; // per body: priority slot, colour mask (cleared per step)
@group(0) @binding(6) var<storage, read_write> colorOffsets: array<u32>;       // capacity + 1: leftover flags, then their exclusive scan
@group(0) @binding(7) var<storage, read_write> colorOrder: array<u32>;         // COLOR_ORDER_HEADER offsets, then constraints by colour
@group(0) @binding(8) var<storage, read_write> colorRanks: array<u32>;         // per constraint: its place within its colour
@group(0) @binding(9) var<storage, read_write> colorSizes: array<atomic<u32>>; // COLOR_COUNT: constraints per colour, then per round: 1 if some stayed uncoloured (cleared per step)
@group(0) @binding(10) var<storage, read_write> colorDispatch: array<u32>;     // 3 per colour: indirect dispatch arguments
@group(0) @binding(11) var<storage, read_write> colorRoundArgs: array<u32>;    // 3 per round: its indirect dispatch arguments

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
  if (dynamicBodies[pair.x] != 0u) { atomicMax(&colorSlots[2u * pair.x], p); }
  if (dynamicBodies[pair.y] != 0u) { atomicMax(&colorSlots[2u * pair.y], p); }
}

@compute @workgroup_size(SOLVER_WORKGROUP_SIZE)
fn colorCheck(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) groups: vec3u) {
  let c = colorIndex(gid, groups);
  if (c >= colorCounts[colorParams.countWord]) { return; }
  if (colorParams.round > 0u && colors[c] != COLOR_NONE) { return; }
  let pair = colorPairs[c];
  let p = colorPriority(c, colorParams.round);
  let dynA = dynamicBodies[pair.x] != 0u;
  let dynB = dynamicBodies[pair.y] != 0u;
  let winsA = !dynA || atomicLoad(&colorSlots[2u * pair.x]) == p;
  let winsB = !dynB || atomicLoad(&colorSlots[2u * pair.y]) == p;
  if (!(winsA && winsB)) {
    colors[c] = COLOR_NONE;
    atomicStore(&colorSizes[COLOR_COUNT + colorParams.round], 1u);
    return;
  }
  var used = 0u;
  if (dynA) { used |= atomicLoad(&colorSlots[2u * pair.x + 1u]); }
  if (dynB) { used |= atomicLoad(&colorSlots[2u * pair.y + 1u]); }
  let free = ~used;
  if (free == 0u) {
    colors[c] = COLOR_FULL;
    return;
  }
  let k = firstTrailingBit(free);
  if (dynA) { atomicOr(&colorSlots[2u * pair.x + 1u], 1u << k); }
  if (dynB) { atomicOr(&colorSlots[2u * pair.y + 1u], 1u << k); }
  colors[c] = k;
  colorRanks[c] = atomicAdd(&colorSizes[k], 1u);
}

// One invocation, after round r's colorCheck: round r + 1 covers the constraints when some stayed
// uncoloured, else dispatches nothing (so rounds past convergence cost next to nothing).
@compute @workgroup_size(1)
fn colorNext() {
  let r = colorParams.round;
  let g = (colorParams.capacity + SOLVER_WORKGROUP_SIZE - 1u) / SOLVER_WORKGROUP_SIZE;
  let rows = (g + 65534u) / 65535u;
  let more = atomicLoad(&colorSizes[COLOR_COUNT + r]) != 0u;
  colorRoundArgs[3u * (r + 1u)] = select(0u, select(g, 65535u, rows > 1u), more);
  colorRoundArgs[3u * (r + 1u) + 1u] = select(0u, rows, more);
  colorRoundArgs[3u * (r + 1u) + 2u] = 1u;
}

// One invocation: the colours' offsets (colorOrder's header; entry COLOR_COUNT is where the
// leftovers start) and their indirect dispatch arguments (rows of at most 65535 workgroups, as
// dispatchRows lays them out).
@compute @workgroup_size(1)
fn colorPlan() {
  var offset = 0u;
  for (var k = 0u; k < COLOR_COUNT; k++) {
    let n = atomicLoad(&colorSizes[k]);
    colorOrder[k] = offset;
    offset += n;
    let g = (n + SOLVER_WORKGROUP_SIZE - 1u) / SOLVER_WORKGROUP_SIZE;
    let rows = (g + 65534u) / 65535u;
    colorDispatch[3u * k] = select(g, 65535u, rows > 1u);
    colorDispatch[3u * k + 1u] = rows;
    colorDispatch[3u * k + 2u] = 1u;
  }
  colorOrder[COLOR_COUNT] = offset;
}

// 1 per uncoloured constraint, for capacity + 1 slots (the last stays 0: the scan's total lands there).
@compute @workgroup_size(SOLVER_WORKGROUP_SIZE)
fn colorFlags(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) groups: vec3u) {
  let c = colorIndex(gid, groups);
  if (c > colorParams.capacity) { return; }
  colorOffsets[c] = select(0u, 1u, c < colorCounts[colorParams.countWord] && colors[c] >= COLOR_COUNT);
}

// After the scan: each constraint writes its index at its place in colorOrder.
@compute @workgroup_size(SOLVER_WORKGROUP_SIZE)
fn colorScatter(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) groups: vec3u) {
  let c = colorIndex(gid, groups);
  if (c >= colorCounts[colorParams.countWord]) { return; }
  let k = colors[c];
  let at = select(colorOrder[COLOR_COUNT] + colorOffsets[c], colorOrder[min(k, COLOR_COUNT)] + colorRanks[c], k < COLOR_COUNT);
  colorOrder[COLOR_ORDER_HEADER + at] = c;
}
