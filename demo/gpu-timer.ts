// Timestamp queries over spans of a frame that may cover several passes recorded by others (the
// library's whole collision frame): an empty compute pass marks a span's start or end, a pass of
// our own (the render pass) can carry both. Disabled without 'timestamp-query' (read() gives null).

export class GpuTimer {
  private readonly querySet: GPUQuerySet | null;
  private readonly resolveBuf: GPUBuffer | null;
  private readonly readBuf: GPUBuffer | null;

  constructor(
    private readonly device: GPUDevice,
    private readonly spans: readonly string[],
  ) {
    const on = device.features.has('timestamp-query');
    const n = 2 * spans.length;
    this.querySet = on ? device.createQuerySet({ type: 'timestamp', count: n }) : null;
    this.resolveBuf = on
      ? device.createBuffer({
          size: 8 * n,
          usage: GPUBufferUsage.QUERY_RESOLVE | GPUBufferUsage.COPY_SRC,
        })
      : null;
    this.readBuf = on
      ? device.createBuffer({
          size: 8 * n,
          usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST,
        })
      : null;
  }

  private index(span: string): number {
    const i = this.spans.indexOf(span);
    if (i < 0) throw new Error(`no timed span ${span}`);
    return 2 * i;
  }

  /** Marks the start (or end) of `span` with an empty compute pass. */
  mark(encoder: GPUCommandEncoder, span: string, at: 'start' | 'end'): void {
    if (!this.querySet) return;
    const i = this.index(span) + (at === 'end' ? 1 : 0);
    const writes =
      at === 'start'
        ? { querySet: this.querySet, beginningOfPassWriteIndex: i }
        : { querySet: this.querySet, endOfPassWriteIndex: i };
    encoder.beginComputePass({ label: `timer-${span}-${at}`, timestampWrites: writes }).end();
  }

  /** Timestamp writes for a pass that is the whole of `span`. */
  whole(span: string): GPURenderPassTimestampWrites | undefined {
    if (!this.querySet) return undefined;
    const i = this.index(span);
    return { querySet: this.querySet, beginningOfPassWriteIndex: i, endOfPassWriteIndex: i + 1 };
  }

  resolve(encoder: GPUCommandEncoder): void {
    if (!this.querySet || !this.resolveBuf || !this.readBuf) return;
    encoder.resolveQuerySet(this.querySet, 0, 2 * this.spans.length, this.resolveBuf, 0);
    encoder.copyBufferToBuffer(this.resolveBuf, 0, this.readBuf, 0, 16 * this.spans.length);
  }

  /** Milliseconds per span of the last resolved frame, or null when disabled. */
  async read(): Promise<Record<string, number> | null> {
    if (!this.readBuf) return null;
    await this.readBuf.mapAsync(GPUMapMode.READ);
    const t = new BigUint64Array(this.readBuf.getMappedRange().slice(0));
    this.readBuf.unmap();
    const out: Record<string, number> = {};
    this.spans.forEach((s, i) => (out[s] = Math.max(0, Number(t[2 * i + 1]! - t[2 * i]!) / 1e6)));
    return out;
  }

  destroy(): void {
    this.querySet?.destroy();
    this.resolveBuf?.destroy();
    this.readBuf?.destroy();
    void this.device;
  }
}
