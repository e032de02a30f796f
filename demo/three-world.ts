// three.js's WebGPURenderer drawing a GpuWorld3D on one GPUDevice: instanced meshes whose vertex
// shader (a TSL node) reads each body's position and rotation straight from the world's Body3D
// buffer, with no readback. The README's "Embedding in three.js" shows this file as it is (the
// import from '../src/solver/index.ts' written as 'webgpu-narrowphase/solver'); test/readme-three
// checks they agree, and test/browser-pages.test.ts runs it (three.html) in Chromium and Firefox.
import * as THREE from 'three/webgpu';
import { cross, instanceIndex, positionGeometry, storage, uint } from 'three/tsl';
import { ConvexGeometry } from 'three/addons/geometries/ConvexGeometry.js';
import { GpuWorld3D, type WorldBody3D } from '../src/solver/index.ts';
import type { Shape3DInput } from '../src/index.ts';

export interface ThreeWorld {
  renderer: THREE.WebGPURenderer;
  world: GpuWorld3D;
  scene: THREE.Scene;
  camera: THREE.PerspectiveCamera;
  /** Steps the world by `dt`, draws it, and resolves to the frame's touching contacts. */
  frame(dt: number): Promise<number>;
}

/** `bodies` must list the bodies of each shape together (one instanced draw per shape). */
export async function createThreeWorld(
  canvas: HTMLCanvasElement,
  device: GPUDevice,
  shapes: Shape3DInput[],
  bodies: WorldBody3D[],
): Promise<ThreeWorld> {
  // One device for both: three.js takes ours (WebGPURenderer's `device` parameter).
  const renderer = new THREE.WebGPURenderer({ canvas, device, antialias: true });
  await renderer.init();
  const world = await GpuWorld3D.create(device, shapes, bodies);

  // Body3D is 32 bytes: position vec3f, shape u32, rotation vec4f, i.e. two vec4 per body. Three.js
  // binds the GPUBuffer its backend holds for an attribute, and creates one only where none is
  // held: handing it the world's buffer makes the vertex shader read the world's bodies.
  const attribute = new THREE.StorageInstancedBufferAttribute(
    new Float32Array(8 * bodies.length),
    4,
  );
  (renderer.backend as unknown as { get(o: object): { buffer?: GPUBuffer } }).get(
    attribute,
  ).buffer = world.bodies;
  const body = storage(attribute, 'vec4', 2 * bodies.length).toReadOnly();

  const scene = new THREE.Scene();
  scene.background = new THREE.Color(0x0f1115);
  scene.add(new THREE.HemisphereLight(0xdde6ff, 0x202020, 1.2));
  const sun = new THREE.DirectionalLight(0xffffff, 2.2);
  sun.position.set(4, 10, 6);
  scene.add(sun);
  const camera = new THREE.PerspectiveCamera(
    45,
    canvas.clientWidth / canvas.clientHeight,
    0.1,
    200,
  );
  camera.position.set(7, 13, 12);
  camera.lookAt(0, 0.5, 0);

  // One mesh per shape, instanced over that shape's bodies (first = index of its first body).
  shapes.forEach((shape, s) => {
    const first = bodies.findIndex((b) => b.shape === s);
    const count = bodies.filter((b) => b.shape === s).length;
    if (count === 0) return;
    const geometry =
      shape.type === 'box'
        ? new THREE.BoxGeometry(
            2 * shape.halfExtents[0],
            2 * shape.halfExtents[1],
            2 * shape.halfExtents[2],
          )
        : new ConvexGeometry(
            shape.type === 'hull'
              ? shape.vertices.map(([x, y, z]) => new THREE.Vector3(x, y, z))
              : [],
          );
    const material = new THREE.MeshStandardNodeMaterial({
      color:
        bodies[first]!.density === 0
          ? 0x566074
          : new THREE.Color().setHSL(s / shapes.length, 0.55, 0.55),
      flatShading: true,
    });
    const i = instanceIndex.add(uint(first)).mul(2);
    const q = body.element(i.add(1));
    const p = positionGeometry; // the mesh's own vertex (positionLocal is what this node defines)
    // The body's rotation (a unit quaternion) applied to the vertex, then its position added.
    const t = cross(q.xyz, p).mul(2);
    material.positionNode = p.add(t.mul(q.w)).add(cross(q.xyz, t)).add(body.element(i).xyz);
    const mesh = new THREE.Mesh(geometry, material);
    mesh.count = count;
    mesh.frustumCulled = false;
    scene.add(mesh);
  });

  async function frame(dt: number): Promise<number> {
    const encoder = device.createCommandEncoder();
    world.encodeStep(encoder, dt);
    device.queue.submit([encoder.finish()]);
    // Three.js submits its render pass after the step, on the same queue.
    renderer.render(scene, camera);
    const counts = await world.readCounts();
    world.grow(counts); // a frame that overflowed its buffers gets bigger ones next time
    return counts.contacts;
  }

  return { renderer, world, scene, camera, frame };
}
