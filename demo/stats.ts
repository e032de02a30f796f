// The stats panel: bodies, pairs, contacts, per-stage GPU times, frame time and rate. Frame time is
// the host's wall time of a whole frame (step, collide, draw, and the readback of its counts),
// averaged over the last second; GPU times come from timestamp queries where the device has them.

import { demo } from './state.ts';
import type { FrameReport } from './scenes/scene.ts';

const ms = (x: number): string => (x < 10 ? x.toFixed(2) : x.toFixed(1));

export class Stats {
  private readonly frames: { at: number; ms: number }[] = [];

  constructor(
    private readonly el: HTMLElement,
    private readonly header: string,
  ) {}

  /** Records a finished frame that took `frameMs` and shows the panel. */
  update(report: FrameReport, frameMs: number, gpuMs: Record<string, number> | null): void {
    const now = performance.now();
    this.frames.push({ at: now, ms: frameMs });
    while (this.frames.length > 1 && now - this.frames[0]!.at > 1000) this.frames.shift();
    const mean = this.frames.reduce((s, f) => s + f.ms, 0) / this.frames.length;
    demo.frameMs = mean;
    const fps =
      this.frames.length > 1 ? (1000 * (this.frames.length - 1)) / (now - this.frames[0]!.at) : 0;
    const gpu = gpuMs
      ? Object.entries(gpuMs)
          .map(([k, v]) => `${k} ${ms(v)}`)
          .join(' · ')
      : 'n/a (no timestamp-query)';
    this.el.textContent = [
      this.header,
      `bodies ${demo.bodies} · pairs ${report.pairs} · contacts ${report.contacts} (touching manifolds) · frame ${demo.frames}`,
      `GPU ms: ${gpu}`,
      `frame ${ms(mean)} ms · ${fps.toFixed(1)} fps`,
    ].join('\n');
  }
}
