/**
 * Last frame's anchors a batch binds when they do not all fit one binding (in anchors, not bytes):
 * at most `reach` of them, starting at a multiple of `align` (the binding offset's alignment),
 * around the batch's own slots [first, first + slots), where a pile's pairs mostly were last frame
 * (the pair list keeps its order by construction), and within last frame's `anchors`.
 */
export function anchorWindow(
  first: number,
  slots: number,
  anchors: number,
  reach: number,
  align: number,
): { first: number; count: number } {
  if (anchors <= reach) return { first: 0, count: anchors };
  // Room left beside the batch's slots goes half before them, half after.
  const before = Math.floor(Math.max(0, reach - slots) / 2);
  const start = Math.max(0, first - before);
  if (start + reach <= anchors) return { first: start - (start % align), count: reach };
  // At the list's end the start rounds up, so that the window keeps the last anchors.
  const end = Math.ceil((anchors - reach) / align) * align;
  return { first: end, count: anchors - end };
}

/** Anchors between two binding offsets a buffer of `anchorBytes`-byte anchors allows. */
export function anchorAlignment(anchorBytes: number, offsetAlignment: number): number {
  let a = anchorBytes;
  let b = offsetAlignment;
  while (b !== 0) [a, b] = [b, a % b];
  return offsetAlignment / a;
}
