// The solver's overflow (shared by 2D and 3D; solver-passes.wgsl): the constraints the colouring
// left without a colour (a body with more than COLOR_COUNT contacts, or the few uncoloured after
// COLOR_ROUNDS rounds) are solved all at once, in parallel, by mass splitting (Tonge, Benevolenski
// and Voroshilov, "Mass splitting for jitter-free parallel rigid body simulation", 2012): a body
// with n overflow constraints is split into n copies of n times its inverse mass and inertia, one
// per constraint; each constraint is solved against its copies, starting from the body's
// velocity, and the body then takes the copies' mean velocity. That is a Jacobi iteration that
// converges where a plain Jacobi step (the whole mass to every constraint) overshoots.
//
// The mean is a sum over the constraints, added in whatever order the invocations run: each
// contribution is added as a 64-bit fixed-point integer (two u32 atomics with carry), whose sum
// does not depend on the order, so the bodies stay the same from run to run. Units of 2^-32 m/s
// (rad/s); a sum must stay below 2^31 in size.

@group(0) @binding(7) var<storage, read> splits: array<u32>;                   // per body: its overflow constraints (coloring.wgsl)
@group(0) @binding(11) var<storage, read_write> overflowSums: array<atomic<u32>>; // per body: velocity sums, (low, high) word pairs

// How many copies a body is split into: its overflow constraints (1 for a body with none).
fn overflowSplit(body: u32) -> f32 {
  return f32(max(splits[body], 1u));
}

// Adds x to the fixed-point sum at words (w, w + 1): low 32 bits, then the high 32 (signed).
fn overflowAdd(w: u32, x: f32) {
  let f = x * 4294967296.0;
  var lo: u32;
  var hi: u32;
  if (abs(f) < 2147483648.0) {
    let q = i32(round(f));
    lo = bitcast<u32>(q);
    hi = select(0u, 0xffffffffu, q < 0);
  } else {
    // |f| >= 2^31: f is a multiple of 2^8, so its part below 2^32 is exact in f32.
    let h = floor(f * (1.0 / 4294967296.0));
    lo = u32(f - h * 4294967296.0);
    hi = bitcast<u32>(i32(h));
  }
  let old = atomicAdd(&overflowSums[w], lo);
  // The low words wrapped past 2^32: carry one into the high word.
  let carry = select(0u, 1u, old + lo < old);
  atomicAdd(&overflowSums[w + 1u], hi + carry);
}

// The fixed-point sum at words (w, w + 1), cleared for the next pass.
fn overflowTake(w: u32) -> f32 {
  let lo = atomicExchange(&overflowSums[w], 0u);
  let hi = atomicExchange(&overflowSums[w + 1u], 0u);
  return f32(bitcast<i32>(hi)) + f32(lo) * (1.0 / 4294967296.0);
}

