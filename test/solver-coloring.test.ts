// The GPU graph colouring shared by the 2D and 3D solvers (src/solver/coloring.ts,
// shaders/coloring.wgsl): no two constraints of one colour share a dynamic body (static bodies may
// be shared), the colours are the same from run to run, the rounds colour a pile-like graph
// entirely with few colours (smallest free colour), the order list is the stable sort of the
// constraints by colour (a function of the colours alone, so the same on every run whatever order
// the GPU runs invocations in), and what cannot be coloured (a body with more constraints than
// COLOR_COUNT) is listed last, in index order, as the overflow, with each body's count of it.

import { beforeAll, describe, expect, it } from 'vitest';
import { acquireDevice } from '../src/gpu/device.ts';
import { dispatchLimits, MAX_GROUPS_PER_DIMENSION, readBuffer } from '../src/gpu/buffers.ts';
import { rng } from '../src/random2d.ts';
import {
  COLOR_COUNT,
  COLOR_DISPATCHES,
  COLOR_ORDER_HEADER,
  GpuColoring,
} from '../src/solver/index.ts';

let device: GPUDevice;
let coloring: GpuColoring;
beforeAll(async () => {
  device = (await acquireDevice()).device;
  coloring = await GpuColoring.create(device);
});

function buffer(data: Uint32Array): GPUBuffer {
  const b = device.createBuffer({
    size: Math.max(16, data.byteLength),
    usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST,
  });
  device.queue.writeBuffer(b, 0, data);
  return b;
}

/** Colours `pairs` (a < b) over `dynamic` bodies; the count sits at word 1 of a counts buffer, as in the frames'. */
async function colorPairs(
  pairs: Uint32Array,
  dynamic: Uint32Array,
  capacity = pairs.length / 2,
): Promise<{ colors: Uint32Array; splits: Uint32Array }> {
  const m = pairs.length / 2;
  const pairBuf = buffer(pairs);
  const counts = buffer(new Uint32Array([0, m, 0, 0]));
  const dyn = buffer(dynamic);
  const encoder = device.createCommandEncoder();
  const out = coloring.encode(encoder, {
    pairs: pairBuf,
    counts,
    countWord: 1,
    capacity,
    dynamicBodies: dyn,
    bodyCount: dynamic.length,
  });
  device.queue.submit([encoder.finish()]);
  const colors = new Uint32Array(await readBuffer(device, out.colors, 4 * m));
  const order = new Uint32Array(await readBuffer(device, out.order, 4 * (COLOR_ORDER_HEADER + m)));
  const dispatch = new Uint32Array(await readBuffer(device, out.dispatch, 12 * COLOR_DISPATCHES));
  const splits = new Uint32Array(await readBuffer(device, out.splits, 4 * dynamic.length));
  for (const b of [pairBuf, counts, dyn]) b.destroy();
  // The order list: colour k's constraints at [order[k], order[k + 1]) in increasing order,
  // dispatched by enough workgroups of 64; then exactly the uncoloured (the overflow) in
  // increasing order, and its bodies dispatched when there is one.
  const list = order.subarray(COLOR_ORDER_HEADER);
  expect(order[COLOR_COUNT + 1]).toBe(m);
  const groupsFor = (entry: number, n: number): void => {
    expect(
      dispatch[3 * entry]! * dispatch[3 * entry + 1]! * 64,
      `dispatch ${entry}`,
    ).toBeGreaterThanOrEqual(n);
    expect(dispatch[3 * entry]! * 64, `dispatch ${entry}`).toBeLessThan(n + 64);
  };
  for (let k = 0; k < COLOR_COUNT; k++) {
    const of = Array.from(colors.keys()).filter((c) => colors[c] === k);
    expect(order[k + 1]! - order[k]!, `colour ${k} size`).toBe(of.length);
    expect(Array.from(list.slice(order[k]!, order[k + 1]!))).toEqual(of);
    groupsFor(k, of.length);
  }
  const uncoloured = Array.from(colors.keys()).filter((c) => colors[c]! >= COLOR_COUNT);
  expect(Array.from(list.slice(order[COLOR_COUNT]!, m))).toEqual(uncoloured);
  groupsFor(COLOR_COUNT, uncoloured.length);
  groupsFor(COLOR_COUNT + 1, uncoloured.length > 0 ? dynamic.length : 0);
  // Each dynamic body counts its overflow constraints.
  const expected = new Uint32Array(dynamic.length);
  for (const c of uncoloured)
    for (const b of [pairs[2 * c]!, pairs[2 * c + 1]!]) if (dynamic[b]) expected[b]!++;
  expect(Array.from(splits)).toEqual(Array.from(expected));
  return { colors, splits };
}

/** Every colour's dynamic bodies are distinct; returns the colour histogram and the leftovers. */
function checkColors(
  pairs: Uint32Array,
  dynamic: Uint32Array,
  colors: Uint32Array,
): { used: number; leftovers: number } {
  const seen = new Set<string>();
  let used = 0;
  let leftovers = 0;
  colors.forEach((c, k) => {
    if (c >= COLOR_COUNT) return void leftovers++;
    used = Math.max(used, c + 1);
    for (const body of [pairs[2 * k]!, pairs[2 * k + 1]!]) {
      if (!dynamic[body]) continue;
      const key = `${c}:${body}`;
      expect(seen.has(key), `colour ${c} holds body ${body} twice`).toBe(false);
      seen.add(key);
    }
  });
  return { used, leftovers };
}

describe('GPU constraint colouring', () => {
  it('colours a random contact graph validly and deterministically', async () => {
    const random = rng(7);
    const n = 300;
    const dynamic = Uint32Array.from({ length: n }, (_, i) => (i % 10 === 0 ? 0 : 1)); // every 10th body static
    const list: number[] = [];
    for (let k = 0; k < 900; k++) {
      // Neighbours in a band, like contacts in a pile: degrees of about 6.
      const a = Math.floor(random() * (n - 8));
      list.push(a, a + 1 + Math.floor(random() * 7));
    }
    const pairs = Uint32Array.from(list);
    const { colors } = await colorPairs(pairs, dynamic, 1000); // capacity beyond the count: the tail is ignored
    const { used, leftovers } = checkColors(pairs, dynamic, colors);
    console.log(`random graph: ${used} colours, ${leftovers} leftovers of ${pairs.length / 2}`);
    // Each constraint picks among d + 1 free colours (d: its neighbours sharing a dynamic body),
    // so no more colours than the largest d + 1; the rounds leave none uncoloured.
    const degree = new Map<number, number>();
    for (const b of pairs) if (dynamic[b]) degree.set(b, (degree.get(b) ?? 0) + 1);
    let palette = 0;
    for (let k = 0; k < pairs.length / 2; k++) {
      const d = [pairs[2 * k]!, pairs[2 * k + 1]!].reduce(
        (sum, b) => sum + (dynamic[b] ? degree.get(b)! - 1 : 0),
        0,
      );
      palette = Math.max(palette, d + 1);
    }
    expect(leftovers).toBe(0);
    expect(used).toBeLessThanOrEqual(palette);
    expect(Array.from((await colorPairs(pairs, dynamic, 1000)).colors)).toEqual(Array.from(colors));
    // In rows of 4 workgroups (as past 65535 workgroups): the same colours, the same order checks.
    dispatchLimits.maxGroupsPerDimension = 4;
    try {
      expect(Array.from((await colorPairs(pairs, dynamic, 1000)).colors)).toEqual(
        Array.from(colors),
      );
    } finally {
      dispatchLimits.maxGroupsPerDimension = MAX_GROUPS_PER_DIMENSION;
    }
  });

  it('shares static bodies freely and leaves a hub of more than COLOR_COUNT constraints to the overflow', async () => {
    // Body 0 static with 50 constraints (to bodies 1..50): all can take colour 0 (nothing else
    // shares their bodies, so each has a palette of one). Body 51 dynamic with 50 constraints (to
    // 52..101): they take distinct colours until all COLOR_COUNT are used; the rest overflow.
    const list: number[] = [];
    for (let k = 1; k <= 50; k++) list.push(0, k);
    for (let k = 52; k <= 101; k++) list.push(51, k);
    const pairs = Uint32Array.from(list);
    const dynamic = Uint32Array.from({ length: 102 }, (_, i) => (i === 0 ? 0 : 1));
    const { colors, splits } = await colorPairs(pairs, dynamic);
    const { leftovers } = checkColors(pairs, dynamic, colors);
    expect(Array.from(colors.slice(0, 50))).toEqual(new Array(50).fill(0));
    const hub = Array.from(colors.slice(50));
    expect(new Set(hub.filter((c) => c < COLOR_COUNT)).size).toBe(COLOR_COUNT);
    expect(leftovers).toBe(50 - COLOR_COUNT);
    expect(splits[51]).toBe(50 - COLOR_COUNT);
  });
});
