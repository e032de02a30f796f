// Misuse is refused, never guessed: each of these once ran on, silently, as something else (a
// backend 'GPU' ran the CPU and reported "GPU"; unpacking an empty frame's list gave a phantom
// contact; margin 1e39 is not even an f32; a pair [0.5, 1] "named a body that does not exist").
// Each is an InputError (or a plain Error for calls out of turn) naming the item and the reason.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unpackContacts2D, CONTACTS_LAYOUT_2D, CpuContacts2D } from '../src/cpu/contact-list2d.ts';
import { unpackContacts3D, CONTACTS_LAYOUT_3D } from '../src/cpu/contact-list3d.ts';
import { CpuFrame2D } from '../src/cpu/frame.ts';
import { InputError } from '../src/errors.ts';
import { GpuContacts2D } from '../src/gpu/contact-list2d.ts';
import { acquireDevice, getGpu } from '../src/gpu/device.ts';
import { GpuFrame2D, type FrameInputs2D } from '../src/gpu/frame2d.ts';
import { GpuFrame3D } from '../src/gpu/frame3d.ts';
import { GpuNarrowphase3D } from '../src/gpu/narrowphase3d.ts';
import { packScene3D } from '../src/pack3d.ts';
import { createNarrowphase, type NarrowphaseOptions } from '../src/narrowphase.ts';
import { parseScene, parseScene2D, parseScene3D } from '../src/scene.ts';

let device: GPUDevice;
beforeAll(async () => {
  device = (await acquireDevice()).device;
});
afterAll(() => device?.destroy());

async function refused(
  p: Promise<unknown> | (() => unknown),
  path: string,
  reason: string | RegExp,
): Promise<void> {
  const err = await (typeof p === 'function' ? Promise.resolve().then(p) : p).then(
    () => null,
    (e: unknown) => e,
  );
  expect(err, `${path}: nothing was refused`).toBeInstanceOf(InputError);
  expect((err as InputError).path).toBe(path);
  if (typeof reason === 'string') expect((err as InputError).reason).toBe(reason);
  else expect((err as InputError).reason).toMatch(reason);
}

const SCENE = {
  dim: 2,
  shapes: [{ type: 'box', halfExtents: [0.5, 0.5] }],
  bodies: [
    { shape: 0, position: [0, 0] },
    { shape: 0, position: [0, 0.9] },
  ],
  pairs: [[0, 1]],
};

describe('createNarrowphase options', () => {
  it('a backend that is not "gpu" or "cpu"', async () => {
    for (const backend of ['GPU', 'webgpu', 'CPU', '', 1]) {
      await refused(
        createNarrowphase({ backend } as unknown as NarrowphaseOptions),
        'options.backend',
        `must be "gpu" or "cpu", got ${JSON.stringify(backend)}`,
      );
    }
  });

  it('a device that is not a GPUDevice, or one for the CPU backend', async () => {
    await refused(
      createNarrowphase({ device: {} as GPUDevice }),
      'options.device',
      'must be a GPUDevice (from adapter.requestDevice()), got {}',
    );
    await refused(
      createNarrowphase({ device: null as unknown as GPUDevice }),
      'options.device',
      /must be a GPUDevice/,
    );
    await refused(
      createNarrowphase({ backend: 'cpu', device }),
      'options.device',
      'is for the GPU backend; the CPU backend takes no device',
    );
  });

  it('unknown keys, a non-object, onDeviceLost that is not a function', async () => {
    await refused(
      createNarrowphase({ backnd: 'cpu' } as NarrowphaseOptions),
      'options',
      /^unknown key "backnd"; a narrowphase's options takes backend, device, onDeviceLost$/,
    );
    await refused(createNarrowphase([] as NarrowphaseOptions), 'options', /^must be an object/);
    await refused(
      createNarrowphase({ onDeviceLost: 'log' } as unknown as NarrowphaseOptions),
      'options.onDeviceLost',
      'must be a function, got "log"',
    );
  });

  it('rebuild() on the CPU backend, and rebuild() with something that is not a device', async () => {
    const cpu = await createNarrowphase({ backend: 'cpu' });
    await expect(cpu.rebuild()).rejects.toThrow(/^the CPU backend has no device to rebuild$/);
    const gpu = await createNarrowphase({ device });
    await refused(gpu.rebuild({} as GPUDevice), 'device', /must be a GPUDevice/);
    expect((await gpu.collide(SCENE)).manifolds[0]!.points.length).toBeGreaterThan(0);
    gpu.destroy();
  });
});

describe('scenes', () => {
  it('a margin beyond the coordinate range', async () => {
    await refused(
      () => parseScene({ ...SCENE, margin: 1e39 }),
      'margin',
      'the margin is 1e+39; magnitudes above 10000000 lose all precision in f32',
    );
    await refused(
      () => parseScene({ ...SCENE, margin: 2e7 }),
      'margin',
      /magnitudes above 10000000/,
    );
    expect(parseScene({ ...SCENE, margin: 1e7 }).margin).toBe(1e7);
  });

  it('a pair of non-integers', async () => {
    await refused(
      () => parseScene({ ...SCENE, pairs: [[0.5, 1]] }),
      'pairs[0]',
      '[0.5,1] must hold two body indices (integers)',
    );
    await refused(
      () => parseScene({ ...SCENE, pairs: [['0', 1]] }),
      'pairs[0]',
      '["0",1] must hold two body indices (integers)',
    );
    await refused(
      () => parseScene({ ...SCENE, pairs: [[0, 2]] }),
      'pairs[0]',
      '[0,2] names a body that does not exist (the scene has 2 bodies)',
    );
  });

  it('a top-level array or null, whichever parser', async () => {
    for (const parse of [parseScene, parseScene2D, parseScene3D]) {
      await refused(
        () => parse([SCENE]),
        'scene',
        'must be a JSON object { dim, shapes, bodies, pairs? }, got an array',
      );
      await refused(
        () => parse(null),
        'scene',
        'must be a JSON object { dim, shapes, bodies, pairs? }, got null',
      );
    }
  });

  it('a 2D shape thinner than f32 resolves says so, with its aspect ratio', async () => {
    const thin = { ...SCENE, shapes: [{ type: 'box', halfExtents: [4.5e6, 0.5] }] };
    await refused(
      () => parseScene(thin),
      'shapes[0] (box)',
      /^vertices 0 and 3 are 1 apart in a shape of size 4500000\.\d+: an aspect ratio of 4\.50e\+6, above the 10000 that f32 resolves/,
    );
    await refused(
      () =>
        parseScene({
          ...SCENE,
          shapes: [
            {
              type: 'polygon',
              vertices: [
                [0, 0],
                [1, 0],
                [1, 0],
                [0, 1],
              ],
            },
          ],
        }),
      'shapes[0] (polygon)',
      'vertices 1 and 2 coincide (duplicate vertex)',
    );
  });
});

/** A 2D frame for boxes and inputs of no bodies, for options refused before any work. */
async function emptyFrame2D(): Promise<{ frame: GpuFrame2D; inputs: FrameInputs2D }> {
  const frame = await GpuFrame2D.create(device, false, { kinds: ['box'] });
  const bytes = (n: number): GPUBuffer =>
    device.createBuffer({ size: n, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST });
  const inputs: FrameInputs2D = {
    shapes: bytes(256),
    bodies: bytes(256),
    bodyCount: 0,
    margin: 0.01,
    kinds: ['box'],
  };
  return { frame, inputs };
}

describe("unpacking a frame's dense list", () => {
  it('an empty list is no contacts; a buffer that is not whole entries is refused (no phantom contact)', async () => {
    expect(unpackContacts2D(new ArrayBuffer(0))).toEqual([]);
    expect(unpackContacts3D(new ArrayBuffer(0))).toEqual([]);
    await refused(
      () => unpackContacts2D(new ArrayBuffer(4)),
      'dense',
      `holds 4 bytes, not a whole number of ${CONTACTS_LAYOUT_2D.contact.bytes}-byte ContactManifold2D entries (read back exactly count × ${CONTACTS_LAYOUT_2D.contact.bytes} bytes)`,
    );
    await refused(
      () => unpackContacts3D(new ArrayBuffer(CONTACTS_LAYOUT_3D.contact.bytes + 4)),
      'dense',
      /not a whole number of \d+-byte ContactManifold3D entries/,
    );
    await refused(
      () =>
        unpackContacts2D(new ArrayBuffer(CONTACTS_LAYOUT_2D.contact.bytes), new Float32Array(1)),
      'userValues',
      /^holds 1 numbers; 1 entries need \d+$/,
    );
    // A view (step()'s kept results) is read in place; one off a word is refused.
    const bytes = new Uint8Array(CONTACTS_LAYOUT_2D.contact.bytes + 4);
    expect(unpackContacts2D(bytes.subarray(4))).toHaveLength(1);
    await refused(
      () => unpackContacts2D(bytes.subarray(2, 2 + CONTACTS_LAYOUT_2D.contact.bytes)),
      'dense',
      /^a view at byte 2 of \d+ bytes/,
    );
  });

  it("a frame's step() results option that is neither 'copies' nor 'kept'", async () => {
    const { frame, inputs } = await emptyFrame2D();
    await refused(
      frame.step(inputs, { results: 'views' } as unknown as { results: 'kept' }),
      'options.results',
      "must be 'copies' or 'kept', got views",
    );
    frame.destroy();
  });

  it("a frame's or contact run's on/off options that are not booleans, before any work", async () => {
    // The string 'false' or 0 once read as on: anything but a boolean (or nothing) is refused.
    const { frame, inputs } = await emptyFrame2D();
    const scene = parseScene2D(SCENE);
    const cpuFrame = new CpuFrame2D();
    const gpuContacts = await GpuContacts2D.create(device);
    const cpuContacts = new CpuContacts2D();
    const manifolds = new ArrayBuffer(0);
    const pairs = new Uint32Array(0);
    const bad: [string, unknown][] = [
      ['reuse', 'false'],
      ['events', 0],
      ['userValues', null],
    ];
    for (const [name, value] of bad) {
      const reason = `must be true or false, got ${JSON.stringify(value) ?? String(value)}`;
      await refused(frame.step({ ...inputs, [name]: value }), `inputs.${name}`, reason);
      await refused(() => cpuFrame.step(scene, { [name]: value }), `options.${name}`, reason);
      if (name === 'reuse') continue;
      await refused(
        gpuContacts.run(manifolds, pairs, { [name]: value }),
        `options.${name}`,
        reason,
      );
      await refused(
        () => cpuContacts.run(manifolds, pairs, { [name]: value }),
        `options.${name}`,
        reason,
      );
    }
    // Nothing was recorded: the GPU frame has no counts to read; the CPU frame's next step is its
    // first (it collides its one pair, reusing nothing).
    await expect(frame.readCounts()).rejects.toThrow('readCounts() before any encode()');
    expect(cpuFrame.step(scene).reuse).toEqual({ kept: 0, apart: 0, collide: 1 });
    frame.destroy();
    gpuContacts.destroy();
  });

  it("a frame's timestamps that are not true, false or 'span', or that the device cannot take", async () => {
    await refused(
      GpuFrame2D.create(device, 'stages' as unknown as boolean),
      'timestamps',
      "must be true, false or 'span', got stages",
    );
    // A device asked for no features has no timestamp queries: timing is refused, not left to fail.
    const adapter = await (await getGpu()).requestAdapter();
    const plain = await adapter!.requestDevice();
    try {
      expect(plain.features.has('timestamp-query')).toBe(false);
      for (const timestamps of [true, 'span'] as const)
        await refused(
          GpuFrame3D.create(plain, timestamps),
          'timestamps',
          `${timestamps} needs the device's 'timestamp-query' feature, which it was created without (pass false)`,
        );
    } finally {
      plain.destroy();
    }
  });

  it("a narrowphase's run() results option that is neither 'copies' nor 'kept', before any GPU work", async () => {
    const np = await GpuNarrowphase3D.create(device, false);
    const scene = parseScene3D({
      dim: 3,
      shapes: [{ type: 'box', halfExtents: [0.5, 0.5, 0.5] }],
      bodies: [
        { shape: 0, position: [0, 0, 0] },
        { shape: 0, position: [0, 0.9, 0] },
      ],
      pairs: [[0, 1]],
    });
    await refused(
      np.run(packScene3D(scene, scene.pairs!), { results: 'views' } as unknown as {
        results: 'kept';
      }),
      'options.results',
      "must be 'copies' or 'kept', got views",
    );
    // Nothing compiled: the run stopped before the box–box class's pipeline.
    expect(np.compileMs).toEqual({});
    np.destroy();
  });
});
