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
// The priority is (r + 1) << (COLOR_INDEX_BITS + 1) | grounded << COLOR_INDEX_BITS | a bijective
// hash of the constraint's index, so priorities are unique, grow from round to round (the slots
// are cleared once per step), and within a round a constraint with a static body (grounded) wins
// its body over those between two dynamic bodies: at a body with more constraints than colours,
// those that carry the weight to the ground are coloured first, and the overflow's mass splitting
// (overflow.wgsl), which converges slowest against a static body, gets the others. Static bodies
// never conflict. colorNext sizes the next round's indirect dispatch: none once a round
// left nothing uncoloured.
//
// Then the constraints are ordered by colour for the solver (colorOrder): a counting sort by
// bucket (the colours, then the overflow: COLOR_NONE and COLOR_FULL), stable, so each bucket
// holds its constraints in increasing index order and the list is the same on every run whatever
// order the invocations ran in. colorRank takes each constraint's rank within its workgroup's share
// of its bucket (bit masks in workgroup memory) and writes the shares per bucket and workgroup,
// bucket-major; an exclusive scan of those (scan.wgsl) gives each workgroup's start in each
// bucket; colorPlan reads the buckets' offsets and sizes from it and writes the indirect dispatch
// arguments; colorScatter writes each constraint at its workgroup's start + its rank.
// colorRank also counts each body's overflow constraints (colorSplits): the solver splits a
// body's mass among them (overflow.wgsl).

struct ColorParams {
  round: u32,                                          // this dispatch's round
  countWord: u32,                                      // where the constraint count is in `counts` (u32 index)
  capacity: u32,                                       // constraint slots (the dispatches cover them)
  bodyCount: u32,
  buckets: u32,                                        // COLOR_BUCKETS, as colorPlan's loop bound
}

@group(0) @binding(0) var<uniform> colorParams: ColorParams;
@group(0) @binding(1) var<storage, read> colorPairs: array<vec2u>;      // (bodyA, bodyB) per constraint
@group(0) @binding(2) var<storage, read> colorCounts: array<u32>;
@group(0) @binding(3) var<storage, read> dynamicBodies: array<u32>;    // 1: dynamic, 0: static
@group(0) @binding(4) var<storage, read_write> colors: array<u32>;
@group(0) @binding(5) var<storage, read_write> colorSlots: array<atomic<u32>>; // per body COLOR_BODY_WORDS: priority slot, committed mask, seen/twice × 2 (cleared per step)
@group(0) @binding(6) var<storage, read_write> colorOffsets: array<u32>;       // COLOR_BUCKETS × workgroups + 1: shares per bucket and workgroup, then their exclusive scan
@group(0) @binding(7) var<storage, read_write> colorOrder: array<u32>;         // COLOR_ORDER_HEADER offsets, then constraints by bucket
@group(0) @binding(8) var<storage, read_write> colorRanks: array<u32>;         // per constraint: its tentative colour, then its rank within its workgroup's share of its bucket
@group(0) @binding(9) var<storage, read_write> colorSizes: array<atomic<u32>>; // COLOR_COUNT: constraints per colour, then per round: 1 if some stayed uncoloured (cleared per step)
@group(0) @binding(10) var<storage, read_write> colorDispatch: array<u32>;     // 3 × COLOR_DISPATCHES: indirect dispatch arguments (colours, overflow, its bodies)
@group(0) @binding(11) var<storage, read_write> colorRoundArgs: array<u32>;    // 3 per round: its indirect dispatch arguments
@group(0) @binding(12) var<storage, read_write> colorSplits: array<atomic<u32>>; // per body: its overflow constraints (cleared per step)

// A bijection of [0, 2^COLOR_INDEX_BITS) that differs from round to round (xor, odd multiply and
// xorshift each keep it one-to-one).
fn colorPriority(c: u32, round: u32, grounded: bool) -> u32 {
  let mask = (1u << COLOR_INDEX_BITS) - 1u;
  var x = (c ^ (round * 0x2545f491u)) & mask;
  x = (x * 0x9e3779b1u) & mask;
  x = x ^ (x >> 13u);
  x = (x * 0x85ebca6bu) & mask;
  x = x ^ (x >> 11u);
  return ((round + 1u) << (COLOR_INDEX_BITS + 1u)) | (select(0u, 1u, grounded) << COLOR_INDEX_BITS) | x;
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
  let dynA = dynamicBodies[pair.x] != 0u;
  let dynB = dynamicBodies[pair.y] != 0u;
  let p = colorPriority(c, colorParams.round, !(dynA && dynB));
  let half = roundHalf(colorParams.round);
  if (dynA) {
    atomicMax(&colorSlots[COLOR_BODY_WORDS * pair.x + SLOT_PRIORITY], p);
    atomicAdd(&colorSlots[COLOR_BODY_WORDS * pair.x + SLOT_DEGREE + half], 1u);
  }
  if (dynB) {
    atomicMax(&colorSlots[COLOR_BODY_WORDS * pair.y + SLOT_PRIORITY], p);
    atomicAdd(&colorSlots[COLOR_BODY_WORDS * pair.y + SLOT_DEGREE + half], 1u);
  }
}

// Second: each uncoloured picks a tentative colour at random (hash of index and round) among the
// lowest d / 2 + 1 colours free at its bodies, d its uncoloured neighbours, and marks it tried
// there. Half of randomised (Δ+1)-colouring's palette: fewer colours (fewer passes) for a round
// or two more (docs/tuning.md).
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
  let j = (colorPriority(c, colorParams.round, false) & 0xffffu) % min(d / 2u + 1u, countOneBits(free));
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
  let p = colorPriority(c, colorParams.round, !(dynA && dynB));
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

// Buckets of the order list: the colours, then the overflow.
const COLOR_BUCKETS: u32 = COLOR_COUNT + 1u;
// Words of a bit mask over one workgroup's invocations.
const RANK_WORDS: u32 = (SOLVER_WORKGROUP_SIZE + 31u) / 32u;
// Per bucket, which of this workgroup's invocations hold a constraint of it.
var<workgroup> bucketBits: array<atomic<u32>, COLOR_BUCKETS * RANK_WORDS>;

// Workgroups covering the capacity: the stride of colorOffsets' buckets.
fn rankGroups() -> u32 {
  return (colorParams.capacity + SOLVER_WORKGROUP_SIZE - 1u) / SOLVER_WORKGROUP_SIZE;
}

// After the rounds, per workgroup: each constraint's rank among the workgroup's constraints of its
// bucket (those of lower index: bits below its own), and the workgroup's share of each bucket.
// Overflow constraints count themselves at their dynamic bodies.
@compute @workgroup_size(SOLVER_WORKGROUP_SIZE)
fn colorRank(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) groups: vec3u) {
  for (var w = lid; w < COLOR_BUCKETS * RANK_WORDS; w += SOLVER_WORKGROUP_SIZE) {
    atomicStore(&bucketBits[w], 0u);
  }
  workgroupBarrier();
  let g = wid.x + wid.y * groups.x;
  let c = g * SOLVER_WORKGROUP_SIZE + lid;
  let word = lid / 32u;
  let bit = 1u << (lid % 32u);
  var bucket = COLOR_BUCKETS;                          // none: past the count
  if (c < colorCounts[colorParams.countWord]) {
    bucket = min(colors[c], COLOR_COUNT);
    atomicOr(&bucketBits[bucket * RANK_WORDS + word], bit);
  }
  workgroupBarrier();
  if (bucket < COLOR_BUCKETS) {
    var rank = countOneBits(atomicLoad(&bucketBits[bucket * RANK_WORDS + word]) & (bit - 1u));
    for (var w = 0u; w < word; w++) {
      rank += countOneBits(atomicLoad(&bucketBits[bucket * RANK_WORDS + w]));
    }
    colorRanks[c] = rank;
    if (bucket == COLOR_COUNT) {
      let pair = colorPairs[c];
      if (dynamicBodies[pair.x] != 0u) { atomicAdd(&colorSplits[pair.x], 1u); }
      if (dynamicBodies[pair.y] != 0u) { atomicAdd(&colorSplits[pair.y], 1u); }
    }
  }
  let stride = rankGroups();
  if (g >= stride) { return; }
  for (var k = lid; k < COLOR_BUCKETS; k += SOLVER_WORKGROUP_SIZE) {
    var share = 0u;
    for (var w = 0u; w < RANK_WORDS; w++) {
      share += countOneBits(atomicLoad(&bucketBits[k * RANK_WORDS + w]));
    }
    colorOffsets[k * stride + g] = share;
  }
  // The slot past the shares, where the scan leaves the total.
  if (g == 0u && lid == 0u) { colorOffsets[COLOR_BUCKETS * stride] = 0u; }
}

// Indirect dispatch arguments for n invocations (rows of at most 65535 workgroups, as
// dispatchRows lays them out).
fn writeDispatch(entry: u32, n: u32) {
  let g = (n + SOLVER_WORKGROUP_SIZE - 1u) / SOLVER_WORKGROUP_SIZE;
  let rows = (g + 65534u) / 65535u;
  colorDispatch[3u * entry] = select(g, 65535u, rows > 1u);
  colorDispatch[3u * entry + 1u] = rows;
  colorDispatch[3u * entry + 2u] = 1u;
}

// One invocation, after the scan: the buckets' offsets (colorOrder's header: entry COLOR_COUNT is
// where the overflow starts, COLOR_COUNT + 1 the constraint count), the colours' sizes (for the
// host's readback) and the indirect dispatch arguments: one per colour, the overflow's
// constraints, and all bodies when there is an overflow (none otherwise).
@compute @workgroup_size(1)
fn colorPlan() {
  let stride = rankGroups();
  let count = colorCounts[colorParams.countWord];
  // Loops to a bound read at run time: to a constant one the compiler unrolls them, a copy of
  // every access per colour (slow to compile, for a kernel that runs once a step).
  let buckets = colorParams.buckets;
  for (var k = 0u; k < buckets; k++) {
    colorOrder[k] = colorOffsets[k * stride];
  }
  colorOrder[COLOR_COUNT + 1u] = count;
  for (var k = 0u; k + 1u < buckets; k++) {
    let n = colorOrder[k + 1u] - colorOrder[k];
    atomicStore(&colorSizes[k], n);
    writeDispatch(k, n);
  }
  let overflow = count - colorOrder[COLOR_COUNT];
  writeDispatch(COLOR_COUNT, overflow);
  writeDispatch(COLOR_COUNT + 1u, select(0u, colorParams.bodyCount, overflow > 0u));
}

// After the scan: each constraint writes its index at its workgroup's start in its bucket + rank.
@compute @workgroup_size(SOLVER_WORKGROUP_SIZE)
fn colorScatter(@builtin(global_invocation_id) gid: vec3u, @builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) groups: vec3u) {
  let c = colorIndex(gid, groups);
  if (c >= colorCounts[colorParams.countWord]) { return; }
  let bucket = min(colors[c], COLOR_COUNT);
  let at = colorOffsets[bucket * rankGroups() + wid.x + wid.y * groups.x] + colorRanks[c];
  colorOrder[COLOR_ORDER_HEADER + at] = c;
}
