// The 3D camera: an orbit around the scene's centre (yaw, pitch, zoom from the page's controls),
// a perspective projection with WebGPU's 0..1 depth range. Matrices are column-major Float32Arrays,
// as WGSL's mat4x4f reads them.

import type { DrawView, SceneBounds } from './scenes/scene.ts';

type M4 = Float32Array;

function multiply(a: M4, b: M4): M4 {
  const out = new Float32Array(16);
  for (let c = 0; c < 4; c++) {
    for (let r = 0; r < 4; r++) {
      let s = 0;
      for (let k = 0; k < 4; k++) s += a[k * 4 + r]! * b[c * 4 + k]!;
      out[c * 4 + r] = s;
    }
  }
  return out;
}

function perspective(fovY: number, aspect: number, near: number, far: number): M4 {
  const f = 1 / Math.tan(fovY / 2);
  return new Float32Array([
    f / aspect,
    0,
    0,
    0,
    0,
    f,
    0,
    0,
    0,
    0,
    far / (near - far),
    -1,
    0,
    0,
    (near * far) / (near - far),
    0,
  ]);
}

function lookAt(eye: number[], target: number[]): M4 {
  const sub = (a: number[], b: number[]): number[] => a.map((x, i) => x - b[i]!);
  const norm = (a: number[]): number[] => {
    const l = Math.hypot(...a);
    return a.map((x) => x / l);
  };
  const cross = (a: number[], b: number[]): number[] => [
    a[1]! * b[2]! - a[2]! * b[1]!,
    a[2]! * b[0]! - a[0]! * b[2]!,
    a[0]! * b[1]! - a[1]! * b[0]!,
  ];
  const dot = (a: number[], b: number[]): number => a.reduce((s, x, i) => s + x * b[i]!, 0);
  const z = norm(sub(eye, target));
  const x = norm(cross([0, 1, 0], z));
  const y = cross(z, x);
  return new Float32Array([
    x[0]!,
    y[0]!,
    z[0]!,
    0,
    x[1]!,
    y[1]!,
    z[1]!,
    0,
    x[2]!,
    y[2]!,
    z[2]!,
    0,
    -dot(x, eye),
    -dot(y, eye),
    -dot(z, eye),
    1,
  ]);
}

/** View-projection matrix and eye position for `bounds` seen as `view` asks. */
export function orbitCamera(bounds: SceneBounds, view: DrawView): { viewProj: M4; eye: number[] } {
  const centre = bounds.min.map((lo, k) => (lo + bounds.max[k]!) / 2);
  const radius = Math.hypot(...bounds.min.map((lo, k) => bounds.max[k]! - lo)) / 2;
  const fov = Math.PI / 4;
  const distance = radius / Math.sin(fov / 2) / view.zoom;
  const cp = Math.cos(view.pitch);
  const eye = [
    centre[0]! + distance * cp * Math.sin(view.yaw),
    centre[1]! + distance * Math.sin(view.pitch),
    centre[2]! + distance * cp * Math.cos(view.yaw),
  ];
  const proj = perspective(
    fov,
    view.width / Math.max(1, view.height),
    Math.max(0.01, distance - 2 * radius),
    distance + 2 * radius,
  );
  return { viewProj: multiply(proj, lookAt(eye, centre)), eye };
}
