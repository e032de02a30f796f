// The dense contact list of the 2D pipeline on the GPU: the shared stage of src/gpu/contact-list.ts
// (shaders/contact-list.wgsl) on ContactManifold2D entries and ContactUserValues2D (a vec2f per point;
// shaders/contact-list2d-layout.wgsl). src/cpu/contact-list2d.ts is the same stage on the host, byte for
// byte.

import type { StoreMode } from './device.ts';
import { CONTACTS_GROWTH, CONTACTS_WORKGROUP_SIZE } from '../constants.ts';
import { CONTACT_NONE } from '../constants.ts';
import { CONTACTS_LAYOUT_2D } from '../contact-list-layout.ts';
import { ENTRIES_CONTACTS_2D } from '../reflection.generated.ts';
import { contactsWgsl2D } from './frame-wgsl.ts';
import {
  CONTACTS_STAGES,
  GpuContacts,
  contactsConstantsWgsl,
  type ContactsDimension,
  type ContactsOutputs,
} from './contact-list.ts';

export {
  CONTACT_NONE,
  CONTACTS_LAYOUT_2D,
  CONTACTS_WORKGROUP_SIZE,
  CONTACTS_GROWTH,
  contactsConstantsWgsl,
};
export const CONTACTS_STAGES_2D = CONTACTS_STAGES;
export type ContactsOutputs2D = ContactsOutputs;

export const CONTACTS_DIMENSION_2D: ContactsDimension = {
  label: 'contacts2d',
  wgsl: contactsWgsl2D,
  entries: ENTRIES_CONTACTS_2D,
  layout: CONTACTS_LAYOUT_2D,
};

export class GpuContacts2D extends GpuContacts {
  /**
   * Compiles the kernels for `device`; `timestamps` needs a device created with 'timestamp-query'.
   * `stores`: how ctScatter stores the entries (default: defaultStoreMode(device)).
   */
  static async create(
    device: GPUDevice,
    timestamps = device.features.has('timestamp-query'),
    stores?: StoreMode,
  ): Promise<GpuContacts2D> {
    return new GpuContacts2D(
      device,
      CONTACTS_DIMENSION_2D,
      await GpuContacts.compile(device, CONTACTS_DIMENSION_2D, stores),
      timestamps,
    );
  }
}
