// Draws a 3D scene with WebGPU: each shape's triangle mesh instanced over the bodies of that shape,
// read straight from an array<Body3D> buffer (shaders/layout3d.wgsl), lit by one directional light
// under an orbit camera (demo/camera.ts); contact points and normals as lines, straight from the
// collision frame's dense contact list (contact-list3d-layout.wgsl). Nothing is read back.

import { MAX_MANIFOLD_POINTS_3D } from '../src/constants3d.ts';
import { assembleWgsl3D } from '../src/gpu/shaders.ts';
import type { Shape3D } from '../src/shapes3d.ts';
import { orbitCamera } from './camera.ts';
import { ContactDraws } from './contact-draws.ts';
import type { DrawView, SceneBounds } from './scenes/scene.ts';
import source from './render3d.wgsl?raw';

const CAMERA_BYTES = 96;

export interface ContactBuffers3D {
  /** array<ContactManifold3D>. */
  contacts: GPUBuffer;
  /** ContactCounts. */
  counts: GPUBuffer;
}
const FLOATS_PER_VERTEX = 6;
const LIGHT = (() => {
  const l = [0.35, 1, 0.55];
  const n = Math.hypot(...l);
  return l.map((x) => x / n);
})();

/** Triangles (position, normal) of a hull or box in its body frame; spheres and capsules have none yet. */
export function shapeMesh3D(s: Shape3D): number[] {
  const out: number[] = [];
  const vertex = (v: number): number[] => [
    s.center[0] + s.vertices[3 * v]!,
    s.center[1] + s.vertices[3 * v + 1]!,
    s.center[2] + s.vertices[3 * v + 2]!,
  ];
  for (let f = 0; f < s.faceCount; f++) {
    const first = s.faceFirst[f]!;
    const n = [s.planes[4 * f]!, s.planes[4 * f + 1]!, s.planes[4 * f + 2]!];
    const v0 = vertex(s.faceVertices[first]!);
    for (let k = 1; k + 1 < s.faceSize[f]!; k++) {
      for (const p of [
        v0,
        vertex(s.faceVertices[first + k]!),
        vertex(s.faceVertices[first + k + 1]!),
      ])
        out.push(...p, ...n);
    }
  }
  return out;
}

/** A colour for shape `i`: hues spread by the golden ratio, soft saturation. */
function paletteColour(i: number): [number, number, number] {
  const h = (i * 0.618034) % 1;
  return [0, 0.33, 0.67].map((o) => 0.55 + 0.35 * Math.cos(2 * Math.PI * (h + o))) as [
    number,
    number,
    number,
  ];
}

/** Runs of bodies with the same shape: one instanced draw each. */
function shapeRuns(bodyShape: Uint32Array): { shape: number; first: number; count: number }[] {
  const runs: { shape: number; first: number; count: number }[] = [];
  for (let i = 0; i < bodyShape.length; i++) {
    const last = runs[runs.length - 1];
    if (last && last.shape === bodyShape[i]) last.count++;
    else runs.push({ shape: bodyShape[i]!, first: i, count: 1 });
  }
  return runs;
}

export class Renderer3D {
  private readonly bodyPipeline: GPURenderPipeline;
  private readonly contactPipeline: GPURenderPipeline;
  private readonly cameraBuffer: GPUBuffer;
  private readonly meshBuffer: GPUBuffer;
  private readonly colourBuffer: GPUBuffer;
  private readonly contactDraws: ContactDraws;
  /** First vertex and vertex count of each shape's mesh. */
  private readonly meshes: { first: number; count: number }[] = [];
  private readonly runs: { shape: number; first: number; count: number }[];
  private readonly bodyGroup: GPUBindGroup;
  private depth: GPUTexture | null = null;

  /** `staticShapes`: shapes of the floor and walls, drawn grey; `normalLength`: drawn contact normals, scene units. */
  constructor(
    private readonly device: GPUDevice,
    format: GPUTextureFormat,
    shapes: readonly Shape3D[],
    bodyShape: Uint32Array,
    readonly bodies: GPUBuffer,
    staticShapes: ReadonlySet<number>,
    private readonly normalLength: number,
  ) {
    const module = device.createShaderModule({
      label: 'render3d',
      code: assembleWgsl3D(['layout3d', 'contact-list-layout', 'contact-list3d-layout']) + source,
    });
    const attributes = (a: GPUVertexFormat, b: GPUVertexFormat): GPUVertexBufferLayout[] => [
      {
        arrayStride: 4 * FLOATS_PER_VERTEX,
        attributes: [
          { shaderLocation: 0, offset: 0, format: a },
          { shaderLocation: 1, offset: 12, format: b },
        ],
      },
    ];
    const depthStencil = (write: boolean): GPUDepthStencilState => ({
      format: 'depth24plus',
      depthWriteEnabled: write,
      depthCompare: 'less',
    });
    this.bodyPipeline = device.createRenderPipeline({
      label: 'render3d-bodies',
      layout: 'auto',
      vertex: { module, entryPoint: 'vsBody', buffers: attributes('float32x3', 'float32x3') },
      fragment: { module, entryPoint: 'fsBody', targets: [{ format }] },
      primitive: { topology: 'triangle-list', cullMode: 'back' },
      depthStencil: depthStencil(true),
    });
    this.contactPipeline = device.createRenderPipeline({
      label: 'render3d-contacts',
      layout: 'auto',
      vertex: { module, entryPoint: 'vsContact' },
      fragment: { module, entryPoint: 'fsContact', targets: [{ format }] },
      primitive: { topology: 'line-list' },
      depthStencil: depthStencil(false),
    });
    this.contactDraws = new ContactDraws(device, MAX_MANIFOLD_POINTS_3D, [8]);
    this.cameraBuffer = device.createBuffer({
      label: 'render3d-camera',
      size: CAMERA_BYTES,
      usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST,
    });
    const mesh: number[] = [];
    for (const s of shapes) {
      const m = shapeMesh3D(s);
      this.meshes.push({
        first: mesh.length / FLOATS_PER_VERTEX,
        count: m.length / FLOATS_PER_VERTEX,
      });
      for (const x of m) mesh.push(x);
    }
    this.meshBuffer = device.createBuffer({
      label: 'render3d-meshes',
      size: Math.max(16, 4 * mesh.length),
      usage: GPUBufferUsage.VERTEX | GPUBufferUsage.COPY_DST,
    });
    device.queue.writeBuffer(this.meshBuffer, 0, new Float32Array(mesh));
    this.runs = shapeRuns(bodyShape);
    this.colourBuffer = device.createBuffer({
      label: 'render3d-colours',
      size: Math.max(16, 16 * shapes.length),
      usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST,
    });
    device.queue.writeBuffer(
      this.colourBuffer,
      0,
      new Float32Array(
        shapes.flatMap((_, i) =>
          staticShapes.has(i) ? [0.42, 0.44, 0.48, 1] : [...paletteColour(i), 0],
        ),
      ),
    );
    this.bodyGroup = device.createBindGroup({
      layout: this.bodyPipeline.getBindGroupLayout(0),
      entries: [
        { binding: 0, resource: { buffer: bodies } },
        { binding: 1, resource: { buffer: this.cameraBuffer } },
        { binding: 2, resource: { buffer: this.colourBuffer } },
      ],
    });
  }

  /** The scene's render pass: bodies, then the contact list's points when `contacts` is given. */
  draw(
    encoder: GPUCommandEncoder,
    target: GPUTextureView,
    clear: GPUColor,
    bounds: SceneBounds,
    view: DrawView,
    contacts: ContactBuffers3D | null,
    timestampWrites?: GPURenderPassTimestampWrites,
  ): void {
    if (!this.depth || this.depth.width !== view.width || this.depth.height !== view.height) {
      this.depth?.destroy();
      this.depth = this.device.createTexture({
        size: [view.width, view.height],
        format: 'depth24plus',
        usage: GPUTextureUsage.RENDER_ATTACHMENT,
      });
    }
    const { viewProj, eye } = orbitCamera(bounds, view);
    const camera = new Float32Array(CAMERA_BYTES / 4);
    camera.set(viewProj, 0);
    camera.set([eye[0]!, eye[1]!, eye[2]!, 1], 16);
    camera.set([LIGHT[0]!, LIGHT[1]!, LIGHT[2]!, this.normalLength], 20);
    this.device.queue.writeBuffer(this.cameraBuffer, 0, camera);
    if (contacts) this.contactDraws.encode(encoder, contacts.counts);
    const pass = encoder.beginRenderPass({
      label: 'demo-3d',
      colorAttachments: [{ view: target, clearValue: clear, loadOp: 'clear', storeOp: 'store' }],
      depthStencilAttachment: {
        view: this.depth.createView(),
        depthClearValue: 1,
        depthLoadOp: 'clear',
        depthStoreOp: 'discard',
      },
      ...(timestampWrites ? { timestampWrites } : {}),
    });
    pass.setPipeline(this.bodyPipeline);
    pass.setBindGroup(0, this.bodyGroup);
    pass.setVertexBuffer(0, this.meshBuffer);
    for (const run of this.runs) {
      const mesh = this.meshes[run.shape]!;
      if (mesh.count > 0) pass.draw(mesh.count, run.count, mesh.first, run.first);
    }
    if (contacts) {
      pass.setPipeline(this.contactPipeline);
      pass.setBindGroup(
        0,
        this.device.createBindGroup({
          layout: this.contactPipeline.getBindGroupLayout(0),
          entries: [
            { binding: 1, resource: { buffer: this.cameraBuffer } },
            { binding: 3, resource: { buffer: contacts.contacts } },
            { binding: 4, resource: { buffer: contacts.counts } },
          ],
        }),
      );
      pass.drawIndirect(this.contactDraws.args, 0);
    }
    pass.end();
  }

  destroy(): void {
    this.cameraBuffer.destroy();
    this.meshBuffer.destroy();
    this.colourBuffer.destroy();
    this.contactDraws.destroy();
    this.depth?.destroy();
  }
}
