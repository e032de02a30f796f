// Exclusive prefix sums of u32 arrays (src/gpu/scan.ts drives it). One level scans blocks of
// SCAN_BLOCK = SCAN_WORKGROUP_SIZE * SCAN_ITEMS elements, one workgroup per block, and writes each
// block's total to `scanSums`; the host scans those sums the same way (a level per factor of
// SCAN_BLOCK: 2 levels reach 4M elements, 3 levels 8G) and `scanAdd` adds them back. An array of
// a few blocks is scanned by one workgroup instead (`scanChunks`: the blocks in turn, a running
// total carried), one dispatch where the levels take three.
//
// Additions saturate at 0xffffffff instead of wrapping: saturating addition of non-negative
// numbers is associative, so the blocked scan equals the sequential one, and a total that does
// not fit in a u32 reads as 0xffffffff rather than as a small, wrong number.
//
// Needs SCAN_WORKGROUP_SIZE (= SCAN_RAKE²), SCAN_RAKE, SCAN_ITEMS and SCAN_BLOCK, prepended by the host.
// Large arrays dispatch rows of workgroups (at most 65535 per dimension): the block index is
// workgroup_id.x + workgroup_id.y * num_workgroups.x, and surplus workgroups return at once.
// Every barrier is in workgroup-uniform control flow; every loop is bounded.

struct ScanParams {
  n: u32,                                              // elements at this level
  limit: u32,                                          // level 0 of a GPU-sized scan: the most elements its buffers hold
  levels: u32,                                         // level 0 of a GPU-sized scan: its levels
  countWord: u32,                                      // level 0 of a GPU-sized scan: where scanCount holds its element count; else SCAN_UNCOUNTED
}

@group(0) @binding(0) var<storage, read_write> scanData: array<u32>;
@group(0) @binding(1) var<storage, read_write> scanSums: array<u32>;
@group(0) @binding(2) var<uniform> scanParams: ScanParams;
// A scan sized on the GPU (scanSizes; scanChunks reads the count too): the element count, and the
// levels' params.
@group(0) @binding(3) var<storage, read> scanCount: array<u32>;
@group(0) @binding(4) var<storage, read_write> scanLevels: array<ScanParams>;      // the params buffer, viewed whole

var<workgroup> scanShared: array<u32, SCAN_WORKGROUP_SIZE>;
var<workgroup> scanRakeShared: array<u32, SCAN_RAKE>;                   // the runs' totals
var<workgroup> scanPrefixShared: array<u32, SCAN_RAKE>;                 // the runs' exclusive prefixes
var<workgroup> scanTotalShared: u32;

fn scanSatAdd(a: u32, b: u32) -> u32 {
  let s = a + b;
  return select(s, 0xffffffffu, s < a);
}

// Work-efficient raking exclusive scan of one value per invocation (reduce, then scan): SCAN_RAKE
// invocations each scan a run of SCAN_RAKE values sequentially, and sum the totals of the runs
// before their own; every invocation adds its run's prefix. O(n) additions and 3 barriers (a tree
// scan needs 2 log2(SCAN_WORKGROUP_SIZE), which software rasterisers pay for dearly). The loops'
// bounds are not constants: a compiler unrolls a loop of constant trip count, and lavapipe
// compiles each unrolled step's shared-memory access per SIMD lane (docs/frame.md, *Cold start*).
// Returns (exclusive prefix of this invocation, workgroup total). Every invocation must call it.
fn scanWorkgroupExclusive(lid: u32, value: u32) -> vec2u {
  scanShared[lid] = value;
  workgroupBarrier();
  if (lid < SCAN_RAKE) {
    var sum = 0u;
    let first = lid * SCAN_RAKE;
    for (var i = first; i < first + SCAN_RAKE; i++) {
      let v = scanShared[i];
      scanShared[i] = sum;
      sum = scanSatAdd(sum, v);
    }
    scanRakeShared[lid] = sum;
  }
  workgroupBarrier();
  if (lid < SCAN_RAKE) {
    // The totals of the runs before this one, in order (the sequential scan's sums).
    var sum = 0u;
    for (var k = 0u; k < lid; k++) {
      sum = scanSatAdd(sum, scanRakeShared[k]);
    }
    scanPrefixShared[lid] = sum;
    if (lid == SCAN_RAKE - 1u) { scanTotalShared = scanSatAdd(sum, scanRakeShared[lid]); }
  }
  workgroupBarrier();
  let r = vec2u(scanSatAdd(scanPrefixShared[lid / SCAN_RAKE], scanShared[lid]), scanTotalShared);
  workgroupBarrier(); // the shared arrays may be reused right after
  return r;
}

fn scanBlockCount(n: u32) -> u32 {
  return n / SCAN_BLOCK + select(0u, 1u, n % SCAN_BLOCK != 0u);
}

// Block `block` of scanData becomes its exclusive prefix sums plus `carry`; returns the block's
// total. Each invocation scans SCAN_ITEMS consecutive elements, then the workgroup scans the
// invocations. Every invocation must call it (workgroup-uniform control flow).
fn scanBlock(block: u32, lid: u32, n: u32, carry: u32) -> u32 {
  let base = block * SCAN_BLOCK + lid * SCAN_ITEMS;
  var local: array<u32, SCAN_ITEMS>;
  var sum = 0u;
  for (var k = 0u; k < SCAN_ITEMS; k++) {
    let i = base + k;
    var v = 0u;
    if (i < n) { v = scanData[i]; }
    local[k] = sum;
    sum = scanSatAdd(sum, v);
  }
  let r = scanWorkgroupExclusive(lid, sum);
  let first = scanSatAdd(carry, r.x);
  for (var k = 0u; k < SCAN_ITEMS; k++) {
    let i = base + k;
    if (i < n) { scanData[i] = scanSatAdd(first, local[k]); }
  }
  return r.y;
}

// scanData[block] becomes its exclusive prefix sums; scanSums[block] the block's total.
@compute @workgroup_size(SCAN_WORKGROUP_SIZE)
fn scanBlocks(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
              @builtin(local_invocation_index) lid: u32) {
  let n = scanParams.n;
  let block = wid.x + wid.y * nwg.x;
  // Block 0 always runs, so an empty level still writes its total (0).
  if (block >= max(scanBlockCount(n), 1u)) { return; }
  let total = scanBlock(block, lid, n, 0u);
  if (lid == 0u) {
    scanSums[block] = total;
  }
}

// One workgroup: every block of scanData in turn, each offset by the totals of the blocks before
// it; scanSums[0] the grand total. For arrays of a few blocks (ScanPlan decides), where the
// levels' three dispatches cost more than one workgroup's walk. A GPU-sized scan reads its count
// here (no scanSizes before it).
@compute @workgroup_size(SCAN_WORKGROUP_SIZE)
fn scanChunks(@builtin(local_invocation_index) lid: u32) {
  var n = scanParams.n;
  if (scanParams.countWord != SCAN_UNCOUNTED) { n = min(scanCount[scanParams.countWord], scanParams.limit); }
  var carry = 0u;
  for (var block = 0u; block < scanBlockCount(n); block++) {
    carry = scanSatAdd(carry, scanBlock(block, lid, n, carry));
  }
  if (lid == 0u) {
    scanSums[0] = carry;
  }
}

// Adds the scanned block sums back: scanData[i] += scanSums[block of i] (block 0 adds nothing).
@compute @workgroup_size(SCAN_WORKGROUP_SIZE)
fn scanAdd(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
           @builtin(local_invocation_index) lid: u32) {
  let n = scanParams.n;
  let block = wid.x + wid.y * nwg.x;
  if (block == 0u || block >= scanBlockCount(n)) { return; }
  let add = scanSums[block];
  for (var k = 0u; k < SCAN_ITEMS; k++) {
    let i = block * SCAN_BLOCK + k * SCAN_WORKGROUP_SIZE + lid;
    if (i < n) { scanData[i] = scanSatAdd(scanData[i], add); }
  }
}

// The levels of a scan whose element count the GPU decides (GpuScan.plan with a count): level 0
// scans min(count, limit) elements, each next level the block sums of the one before. The host
// dispatches each level's planned blocks; those past the level's count return at once (block 0
// always runs, so an empty scan's total is 0). One invocation, before the levels; scanLevels is
// the params buffer, one ScanParams per 256 bytes.
@compute @workgroup_size(1)
fn scanSizes() {
  let first = scanLevels[0];
  var n = min(scanCount[first.countWord], first.limit);
  for (var k = 0u; k < SCAN_MAX_LEVELS; k++) {
    if (k >= first.levels) { break; }
    scanLevels[k * SCAN_PARAMS_STRIDE].n = n;
    n = scanBlockCount(n);
  }
}
