// Compaction by bit masks (the contact list and its events: shaders/contact-list.wgsl and its CPU
// mirror): items go by blocks of MASK_BLOCK, each block with one mask word per kind of item it
// keeps and that mask's count. One scratch array holds the counts, kind after kind, then a 0
// closing them (scanned in place), then the masks.

import { MASK_BLOCK } from './constants.ts';

export interface MaskBlocks {
  /** Blocks over the items. */
  blocks: number;
  /** Where the masks start: after kinds × blocks counts and the 0 that closes them. */
  masksAt: number;
  /** Words of the whole scratch. */
  words: number;
}

/** The scratch of `items` items in blocks of MASK_BLOCK, with `kinds` masks per block. */
export function maskBlocks(items: number, kinds = 1): MaskBlocks {
  const blocks = Math.ceil(items / MASK_BLOCK);
  const masksAt = kinds * blocks + 1;
  return { blocks, masksAt, words: masksAt + kinds * blocks };
}
