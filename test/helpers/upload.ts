// Test data into GPU buffers: each upload a buffer of its own (16-byte multiple, at least 16),
// remembered in `made` for the test to destroy.

export type Upload = (data: ArrayBuffer | ArrayBufferView, usage?: number) => GPUBuffer;

/** An upload function over `device` (STORAGE by default; COPY_DST is always added). */
export function uploader(device: GPUDevice, made: GPUBuffer[]): Upload {
  return (data, usage = GPUBufferUsage.STORAGE) => {
    const b = device.createBuffer({
      size: Math.max(16, Math.ceil(data.byteLength / 16) * 16),
      usage: usage | GPUBufferUsage.COPY_DST,
    });
    if (ArrayBuffer.isView(data))
      device.queue.writeBuffer(b, 0, data.buffer, data.byteOffset, data.byteLength);
    else device.queue.writeBuffer(b, 0, data);
    made.push(b);
    return b;
  };
}
