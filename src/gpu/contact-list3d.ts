// The dense contact list of the 3D pipeline on the GPU: the shared stage of src/gpu/contact-list.ts
// (shaders/contact-list.wgsl) on ContactManifold3D entries and ContactUserValues3D (a vec4f per point:
// x normal impulse, y/z tangent impulses, w free; shaders/contact-list3d-layout.wgsl).
// src/cpu/contact-list3d.ts is the same stage on the host, byte for byte.

import type { StoreMode } from './device.ts';
import { CONTACTS_LAYOUT_3D } from '../contact-list-layout.ts';
import { ENTRIES_CONTACTS_3D } from '../reflection.generated.ts';
import { contactsWgsl3D } from './frame-wgsl.ts';
import {
  CONTACTS_STAGES,
  GpuContacts,
  type ContactsDimension,
  type ContactsOutputs,
} from './contact-list.ts';

export { CONTACTS_LAYOUT_3D };
export const CONTACTS_STAGES_3D = CONTACTS_STAGES;
export type ContactsOutputs3D = ContactsOutputs;

export const CONTACTS_DIMENSION_3D: ContactsDimension = {
  label: 'contacts3d',
  wgsl: contactsWgsl3D,
  entries: ENTRIES_CONTACTS_3D,
  layout: CONTACTS_LAYOUT_3D,
};

export class GpuContacts3D extends GpuContacts {
  /**
   * Compiles the kernels for `device`; `timestamps` needs a device created with 'timestamp-query'.
   * `stores`: how ctScatter stores the entries (default: defaultStoreMode(device)).
   */
  static async create(
    device: GPUDevice,
    timestamps = device.features.has('timestamp-query'),
    stores?: StoreMode,
  ): Promise<GpuContacts3D> {
    return new GpuContacts3D(
      device,
      CONTACTS_DIMENSION_3D,
      await GpuContacts.compile(device, CONTACTS_DIMENSION_3D, stores),
      timestamps,
    );
  }
}
