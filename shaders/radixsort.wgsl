// Stable LSD radix sort of (u32 key, u32 value) pairs, RADIX_BITS bits per pass (src/gpu/radixsort.ts
// drives it). A pass is three steps, all deterministic (no atomics, no order-dependent races):
//   1. radixHistogram: each workgroup counts the digits of its block of RADIX_BLOCK elements and
//      writes them digit-major, radixHist[digit * numBlocks + block];
//   2. an exclusive scan of radixHist (shaders/scan.wgsl) turns the counts into the output position
//      of each (digit, block): all digit-0 elements of every block, in block order, then digit 1...;
//   3. radixScatter: each workgroup ranks its elements within their digit, in input order, and
//      writes each to radixHist[digit * numBlocks + block] + rank.
// Ranks follow input order (invocation i handles elements i * RADIX_ITEMS .. + RADIX_ITEMS - 1 of
// the block, in order), so equal digits keep their relative order: each pass is stable, and so is
// the sort.
//
// Per-invocation digit counts are packed two to a u32 (16 bits each), 16 digits in two vec4u, so
// the workgroup sums move two vectors per invocation; RADIX_BLOCK < 65536 keeps the fields apart.
// The workgroup sums are plain loops over the workgroup's counts after one barrier (every lane
// reads the same word at a step): a raking scan's barriers and one-lane sections were most of what
// lavapipe's compiler spent on these kernels (docs/frame.md, *Cold start*).
//
// Needs RADIX_BITS (4), RADIX_BUCKETS (16), RADIX_WORKGROUP_SIZE, RADIX_ITEMS, RADIX_BLOCK and
// RADIX_NO_COUNT (the countWord of a sort of all n elements), prepended by the host. Rows of
// workgroups as in scan.wgsl; barriers only in workgroup-uniform control flow. The loops over an
// invocation's items run to a count known at run time: unrolled to RADIX_ITEMS copies,
// radixScatter was the frame's slowest kernel to compile (docs/frame.md), and each element's key
// is read again rather than held.

struct RadixParams {
  n: u32,                                              // elements (at most, with a count word)
  shift: u32,                                          // digit = (key >> shift) & (RADIX_BUCKETS - 1)
  numBlocks: u32,                                      // ceil(n / RADIX_BLOCK)
  countWord: u32,                                      // RADIX_NO_COUNT, or: sort the first min(n, radixCount[countWord]) elements
}

@group(0) @binding(0) var<storage, read> radixKeysIn: array<u32>;
@group(0) @binding(1) var<storage, read> radixValuesIn: array<u32>;
@group(0) @binding(2) var<storage, read_write> radixKeysOut: array<u32>;
@group(0) @binding(3) var<storage, read_write> radixValuesOut: array<u32>;
@group(0) @binding(4) var<storage, read_write> radixHist: array<u32>;
@group(0) @binding(5) var<uniform> radixParams: RadixParams;
// The element count when it is known on the GPU only (e.g. a contact list's written entries).
@group(0) @binding(6) var<storage, read> radixCount: array<u32>;

// Elements sorted: n, or fewer from radixCount (the blocks past them count nothing and move nothing).
fn radixElements() -> u32 {
  if (radixParams.countWord == RADIX_NO_COUNT) { return radixParams.n; }
  return min(radixParams.n, radixCount[radixParams.countWord]);
}

// Packed per-invocation digit counts: digit d is word d / 2 (lo: words 0..3, hi: 4..7), bits 16 * (d % 2).
struct RadixCounts {
  lo: vec4u,
  hi: vec4u,
}

var<workgroup> radixSharedLo: array<vec4u, RADIX_WORKGROUP_SIZE>;
var<workgroup> radixSharedHi: array<vec4u, RADIX_WORKGROUP_SIZE>;

fn radixDigit(key: u32) -> u32 {
  return (key >> radixParams.shift) & (RADIX_BUCKETS - 1u);
}

// The count of digit d in c.
fn radixField(c: RadixCounts, d: u32) -> u32 {
  let w = vec4u(d >> 1u);
  let lo = select(vec4u(0u), c.lo, w == vec4u(0u, 1u, 2u, 3u));
  let hi = select(vec4u(0u), c.hi, w == vec4u(4u, 5u, 6u, 7u));
  let v = lo + hi;
  return ((v.x + v.y + v.z + v.w) >> ((d & 1u) * 16u)) & 0xffffu;
}

// c with digit d counted once more.
fn radixIncrement(c: RadixCounts, d: u32) -> RadixCounts {
  let inc = vec4u(1u << ((d & 1u) * 16u));
  let w = vec4u(d >> 1u);
  return RadixCounts(c.lo + select(vec4u(0u), inc, w == vec4u(0u, 1u, 2u, 3u)),
                     c.hi + select(vec4u(0u), inc, w == vec4u(4u, 5u, 6u, 7u)));
}

fn radixBlockIndex(wid: vec3u, nwg: vec3u) -> u32 {
  return wid.x + wid.y * nwg.x;
}

// This invocation's exclusive prefix of the workgroup's packed counts, per digit: the counts of
// the invocations before it, summed. Every invocation must call it, once per dispatch.
fn radixWorkgroupExclusive(lid: u32, c: RadixCounts) -> RadixCounts {
  radixSharedLo[lid] = c.lo;
  radixSharedHi[lid] = c.hi;
  workgroupBarrier();
  var r = RadixCounts(vec4u(0u), vec4u(0u));
  for (var k = 0u; k < lid; k++) {
    r.lo += radixSharedLo[k];
    r.hi += radixSharedHi[k];
  }
  return r;
}

// This invocation's elements: RADIX_ITEMS consecutive ones from base, fewer past n.
fn radixItems(base: u32, n: u32) -> u32 {
  return select(0u, min(RADIX_ITEMS, n - base), base < n);
}

// Counts of this invocation's elements.
fn radixCountItems(base: u32, n: u32) -> RadixCounts {
  var c = RadixCounts(vec4u(0u), vec4u(0u));
  for (var k = 0u; k < radixItems(base, n); k++) {
    c = radixIncrement(c, radixDigit(radixKeysIn[base + k]));
  }
  return c;
}

@compute @workgroup_size(RADIX_WORKGROUP_SIZE)
fn radixHistogram(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
                  @builtin(local_invocation_index) lid: u32) {
  let block = radixBlockIndex(wid, nwg);
  let numBlocks = radixParams.numBlocks;
  if (block >= numBlocks) { return; }
  let c = radixCountItems(block * RADIX_BLOCK + lid * RADIX_ITEMS, radixElements());
  // Each of the first RADIX_BUCKETS invocations sums the workgroup's counts and keeps its digit's.
  radixSharedLo[lid] = c.lo;
  radixSharedHi[lid] = c.hi;
  workgroupBarrier();
  if (lid < RADIX_BUCKETS) {
    var sum = RadixCounts(vec4u(0u), vec4u(0u));
    for (var k = 0u; k < RADIX_WORKGROUP_SIZE; k++) {
      sum.lo += radixSharedLo[k];
      sum.hi += radixSharedHi[k];
    }
    radixHist[lid * numBlocks + block] = radixField(sum, lid);
  }
}

@compute @workgroup_size(RADIX_WORKGROUP_SIZE)
fn radixScatter(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
                @builtin(local_invocation_index) lid: u32) {
  let block = radixBlockIndex(wid, nwg);
  let numBlocks = radixParams.numBlocks;
  if (block >= numBlocks) { return; }
  let n = radixElements();
  let base = block * RADIX_BLOCK + lid * RADIX_ITEMS;
  // Rank of each element among the block's elements of its digit = elements of that digit held
  // by earlier invocations + those earlier among this invocation's own.
  var rank = radixWorkgroupExclusive(lid, radixCountItems(base, n));
  for (var k = 0u; k < radixItems(base, n); k++) {
    let i = base + k;
    let key = radixKeysIn[i];
    let d = radixDigit(key);
    let dst = radixHist[d * numBlocks + block] + radixField(rank, d);
    rank = radixIncrement(rank, d);
    radixKeysOut[dst] = key;
    radixValuesOut[dst] = radixValuesIn[i];
  }
}
