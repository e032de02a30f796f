// Graph colouring of contact constraints on the GPU, shared by the 2D and 3D solvers: it needs
// only each constraint's body pair (the dense contact list's keys) and which bodies are dynamic.
// A colour is a set of constraints no two of which share a dynamic body, so one dispatch can solve
// a whole colour in parallel and the result is Gauss–Seidel's (and independent of thread order).
//
// Speculative randomised colouring with a Jones–Plassmann tie-break. Per body (COLOR_BODY_WORDS):
// a priority slot, the mask of colours committed there (COLOR_COUNT bits), and two halves of
// "seen"/"twice" masks of tentative colours and a degree (round r uses half r % 2). Round r (0..COLOR_ROUNDS-1), over the uncoloured:
//   colorCount  each writes its priority into its bodies' slots (atomicMax) and counts itself
//               there (the degrees);
//   colorClaim  each takes as tentative colour a random one of the lowest colours committed at
//               none of its dynamic bodies (a palette sized by its degree) and marks it seen there
//               (a second mark sets "twice");
//   colorCheck  each commits its tentative colour when at each of its dynamic bodies either no
//               other constraint tried it (no "twice" bit) or it holds the body's slot (the
//               local maxima, which hold all their slots, always commit: every round makes
//               progress); it then sets the colour in its bodies' masks. A constraint whose
//               bodies hold all COLOR_COUNT colours takes COLOR_FULL and leaves the competition.
//               The uncoloured clear their bodies' other half for the next round.
// No two constraints that share a dynamic body commit one colour: two that tried it there both
// see "twice" there, and at most one of them holds that body's slot. Everything read is an
// order-independent atomic max/or/add of this round's claims, so the colours do not depend on the
// order in which invocations run: deterministic. Most constraints commit in the first rounds
// (at most about max-degree / 2 + 1 colours); the maxima guarantee the rest progress.
// The priority is (r + 1) << COLOR_INDEX_BITS | a bijective hash of the constraint's index, so
// priorities are unique, grow from round to round (the slots are cleared once per step). Static
// bodies never conflict. colorNext sizes the next round's indirect dispatch: none once a round
// left nothing uncoloured.
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
@group(0) @binding(5) var<storage, read_write> colorSlots: array<atomic<u32>>; // per body COLOR_BODY_WORDS: priority slot, committed mask, seen/twice × 2 (cleared per step)
@group(0) @binding(6) var<storage, read_write> colorOffsets: array<u32>;       // capacity + 1: leftover flags, then their exclusive scan
@group(0) @binding(7) var<storage, read_write> colorOrder: array<u32>;         // COLOR_ORDER_HEADER offsets, then constraints by colour
@group(0) @binding(8) var<storage, read_write> colorRanks: array<u32>;         // per constraint: its tentative colour, then its place within its colour
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

// Per-body words in colorSlots.
const COLOR_BODY_WORDS: u32 = 8u;
const SLOT_PRIORITY: u32 = 0u;
const SLOT_MASK: u32 = 1u;
const SLOT_SEEN: u32 = 2u;    // + 3 × (round % 2)
const SLOT_TWICE: u32 = 3u;   // + 3 × (round % 2)
const SLOT_DEGREE: u32 = 4u;  // + 3 × (round % 2)

// Round r's half of the per-body seen/twice/degree words.
fn roundHalf(r: u32) -> u32 {
  return 3u * (r % 2u);
}

// The mask of colours committed at the pair's dynamic bodies.
fn usedColors(dynA: bool, dynB: bool, pair: vec2u) -> u32 {
  var used = 0u;
  if (dynA) { used |= atomicLoad(&colorSlots[COLOR_BODY_WORDS * pair.x + SLOT_MASK]); }
  if (dynB) { used |= atomicLoad(&colorSlots[COLOR_BODY_WORDS * pair.y + SLOT_MASK]); }
  return used;
}

// Marks colour bit `bit` as tried at body b this round (twice when already seen).
fn markTried(b: u32, bit: u32, half: u32) {
  let old = atomicOr(&colorSlots[COLOR_BODY_WORDS * b + SLOT_SEEN + half], bit);
  if ((old & bit) != 0u) { atomicOr(&colorSlots[COLOR_BODY_WORDS * b + SLOT_TWICE + half], bit); }
}

// First kernel of a round: the uncoloured write their priority into their bodies' slots and count
// themselves there (the degrees the palettes follow).
@compute @workgroup_size(SOLVER_WORKGROUP_SIZE)
fn colorCount(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) groups: vec3u) {
  let c = colorIndex(gid, groups);
  if (c >= colorCounts[colorParams.countWord]) { return; }
  // Round 0 starts over: last step's colours are stale.
  if (colorParams.round == 0u) {
    colors[c] = COLOR_NONE;
  } else if (colors[c] != COLOR_NONE) {
    return;
  }
  let pair = colorPairs[c];
  let p = colorPriority(c, colorParams.round);
  let half = roundHalf(colorParams.round);
  if (dynamicBodies[pair.x] != 0u) {
    atomicMax(&colorSlots[COLOR_BODY_WORDS * pair.x + SLOT_PRIORITY], p);
    atomicAdd(&colorSlots[COLOR_BODY_WORDS * pair.x + SLOT_DEGREE + half], 1u);
  }
  if (dynamicBodies[pair.y] != 0u) {
    atomicMax(&colorSlots[COLOR_BODY_WORDS * pair.y + SLOT_PRIORITY], p);
    atomicAdd(&colorSlots[COLOR_BODY_WORDS * pair.y + SLOT_DEGREE + half], 1u);
  }
}

// Second: each uncoloured picks a tentative colour at random (hash of index and round) among the
// lowest d / 2 + 1 colours free at its bodies, d its uncoloured neighbours, and marks it tried
// there. Half of randomised (Δ+1)-colouring's palette: measured 11 colours instead of 14 on the
// 2D bench pile (13 instead of 15 in 3D) for one or two more rounds (7 and 8).
@compute @workgroup_size(SOLVER_WORKGROUP_SIZE)
fn colorClaim(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) groups: vec3u) {
  let c = colorIndex(gid, groups);
  if (c >= colorCounts[colorParams.countWord]) { return; }
  if (colors[c] != COLOR_NONE) { return; }
  let pair = colorPairs[c];
  let dynA = dynamicBodies[pair.x] != 0u;
  let dynB = dynamicBodies[pair.y] != 0u;
  let free = ~usedColors(dynA, dynB, pair);
  if (free == 0u) {
    colors[c] = COLOR_FULL;
    return;
  }
  let half = roundHalf(colorParams.round);
  var d = 0u;
  if (dynA) { d += atomicLoad(&colorSlots[COLOR_BODY_WORDS * pair.x + SLOT_DEGREE + half]) - 1u; }
  if (dynB) { d += atomicLoad(&colorSlots[COLOR_BODY_WORDS * pair.y + SLOT_DEGREE + half]) - 1u; }
  // The j-th free colour, j uniform in [0, min(d / 2 + 1, free colours)).
  let j = (colorPriority(c, colorParams.round) & 0xffffu) % min(d / 2u + 1u, countOneBits(free));
  var k = 0u;
  var seen = 0u;
  for (var bit = 0u; bit < 32u; bit++) {
    if ((free & (1u << bit)) != 0u) {
      if (seen == j) { k = bit; }
      seen++;
    }
  }
  colorRanks[c] = k;
  if (dynA) { markTried(pair.x, 1u << k, half); }
  if (dynB) { markTried(pair.y, 1u << k, half); }
}

// Whether body b lets constraint c (priority p) commit colour bit `bit`: static, or nobody else
// tried that colour there, or c is the body's highest priority.
fn bodyAllows(b: u32, dynamic: bool, bit: u32, half: u32, p: u32) -> bool {
  if (!dynamic) { return true; }
  let alone = (atomicLoad(&colorSlots[COLOR_BODY_WORDS * b + SLOT_TWICE + half]) & bit) == 0u;
  return alone || atomicLoad(&colorSlots[COLOR_BODY_WORDS * b + SLOT_PRIORITY]) == p;
}

@compute @workgroup_size(SOLVER_WORKGROUP_SIZE)
fn colorCheck(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) groups: vec3u) {
  let c = colorIndex(gid, groups);
  if (c >= colorCounts[colorParams.countWord]) { return; }
  if (colors[c] != COLOR_NONE) { return; }
  let pair = colorPairs[c];
  let dynA = dynamicBodies[pair.x] != 0u;
  let dynB = dynamicBodies[pair.y] != 0u;
  let k = colorRanks[c];
  let bit = 1u << k;
  let half = roundHalf(colorParams.round);
  let p = colorPriority(c, colorParams.round);
  if (!(bodyAllows(pair.x, dynA, bit, half, p) && bodyAllows(pair.y, dynB, bit, half, p))) {
    // Still uncoloured: clear the other half of its bodies' seen/twice/degree words for the next
    // round (no one reads that half in this round).
    let next = roundHalf(colorParams.round + 1u);
    for (var w = 0u; w < 3u; w++) {
      if (dynA) { atomicStore(&colorSlots[COLOR_BODY_WORDS * pair.x + SLOT_SEEN + next + w], 0u); }
      if (dynB) { atomicStore(&colorSlots[COLOR_BODY_WORDS * pair.y + SLOT_SEEN + next + w], 0u); }
    }
    atomicStore(&colorSizes[COLOR_COUNT + colorParams.round], 1u);
    return;
  }
  if (dynA) { atomicOr(&colorSlots[COLOR_BODY_WORDS * pair.x + SLOT_MASK], bit); }
  if (dynB) { atomicOr(&colorSlots[COLOR_BODY_WORDS * pair.y + SLOT_MASK], bit); }
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
// leftovers start, COLOR_COUNT + 1 the constraint count) and their indirect dispatch arguments (rows of at most 65535 workgroups, as
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
  // The constraint count, for the solver (which then needs no `counts` binding).
  colorOrder[COLOR_COUNT + 1u] = colorCounts[colorParams.countWord];
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
