// The page's controls: scene, body count, margin, seed and motion come from the URL
// (?scene=2d&bodies=2000&margin=0.02&seed=7&motion=kinematic; "load" reloads with the form's
// values; motion=kinematic turns the solver off), pause, step,
// contacts and validate act on the running scene; mouse drag orbits the 3D camera and the wheel
// zooms. The browser tests open scenes at small sizes through the same URL parameters.

import { isSceneName, SCENES } from './scenes/registry.ts';
import type { DrawView, SceneOptions } from './scenes/scene.ts';
import { element, type SceneName } from './state.ts';

export interface Settings extends SceneOptions {
  scene: SceneName;
  /** Contacts drawn from the start (?contacts=1). */
  contacts: boolean;
}

function numberParam(
  params: URLSearchParams,
  name: string,
  fallback: number,
  ok: (x: number) => boolean,
): number {
  const raw = params.get(name);
  if (raw === null || raw === '') return fallback;
  const x = Number(raw);
  if (!ok(x)) throw new Error(`URL parameter ${name}=${raw} is not valid`);
  return x;
}

function motionParam(raw: string | null): 'kinematic' | 'solver' {
  if (raw === null || raw === '' || raw === 'solver') return 'solver';
  if (raw === 'kinematic') return 'kinematic';
  throw new Error(`URL parameter motion=${raw} is not solver or kinematic`);
}

/** The settings the URL asks for (defaults: the sizes). Bad values are an error, not ignored. */
export function readSettings(search: string = location.search): Settings {
  const params = new URLSearchParams(search);
  const name = params.get('scene') ?? '2d';
  if (!isSceneName(name))
    throw new Error(`URL parameter scene=${name} is not one of ${Object.keys(SCENES).join(', ')}`);
  const entry = SCENES[name];
  return {
    scene: name,
    bodies: numberParam(
      params,
      'bodies',
      entry.defaultBodies,
      (x) => Number.isInteger(x) && x >= 1 && x <= 2_000_000,
    ),
    margin: numberParam(
      params,
      'margin',
      entry.defaultMargin,
      (x) => Number.isFinite(x) && x >= 0 && x <= 1,
    ),
    seed: numberParam(params, 'seed', 1, (x) => Number.isInteger(x) && x >= 0),
    contacts: params.get('contacts') === '1',
    motion: motionParam(params.get('motion')),
  };
}

export interface Controls {
  readonly paused: boolean;
  /** Takes a pending "step" press (true once per press). */
  takeStep(): boolean;
  /** Whether "validate" was pressed and not yet answered (setValidation answers it). */
  readonly validateRequested: boolean;
  view(width: number, height: number): DrawView;
  setValidation(text: string, state: 'busy' | 'ok' | 'bad', title?: string): void;
  disable(): void;
}

export function setupControls(settings: Settings, canvas: HTMLCanvasElement): Controls {
  const sceneSelect = element<HTMLSelectElement>('scene');
  const bodiesInput = element<HTMLInputElement>('bodies');
  const marginInput = element<HTMLInputElement>('margin');
  const pauseBox = element<HTMLInputElement>('pause');
  const contactsBox = element<HTMLInputElement>('contacts');
  const stepButton = element<HTMLButtonElement>('step');
  const validateButton = element<HTMLButtonElement>('validate');
  const validationEl = element<HTMLSpanElement>('validation');
  for (const [name, entry] of Object.entries(SCENES))
    sceneSelect.add(new Option(entry.title, name, false, name === settings.scene));
  bodiesInput.value = String(settings.bodies);
  marginInput.value = String(settings.margin);
  contactsBox.checked = settings.contacts;
  // A new scene starts with its own default size and margin.
  sceneSelect.addEventListener('change', () => {
    const entry = SCENES[sceneSelect.value as SceneName];
    bodiesInput.value = String(entry.defaultBodies);
    marginInput.value = String(entry.defaultMargin);
  });
  element<HTMLFormElement>('controls').addEventListener('submit', (ev) => {
    ev.preventDefault();
    const params = new URLSearchParams({
      scene: sceneSelect.value,
      bodies: bodiesInput.value,
      margin: marginInput.value,
    });
    if (settings.seed !== 1) params.set('seed', String(settings.seed));
    if (settings.motion !== 'solver') params.set('motion', settings.motion);
    if (contactsBox.checked) params.set('contacts', '1');
    location.search = params.toString();
  });

  let steps = 0;
  let validations = 0;
  stepButton.addEventListener('click', () => {
    pauseBox.checked = true;
    steps++;
  });
  validateButton.addEventListener('click', () => {
    validations++;
    validateButton.disabled = true;
  });

  const orbit = { yaw: 0.6, pitch: 0.45, zoom: 1 };
  let drag: { x: number; y: number } | null = null;
  canvas.addEventListener('pointerdown', (ev) => {
    drag = { x: ev.clientX, y: ev.clientY };
    canvas.setPointerCapture(ev.pointerId);
  });
  canvas.addEventListener('pointerup', () => (drag = null));
  canvas.addEventListener('pointermove', (ev) => {
    if (!drag) return;
    orbit.yaw -= (ev.clientX - drag.x) * 0.01;
    orbit.pitch = Math.min(1.5, Math.max(-0.2, orbit.pitch + (ev.clientY - drag.y) * 0.01));
    drag = { x: ev.clientX, y: ev.clientY };
  });
  canvas.addEventListener(
    'wheel',
    (ev) => {
      ev.preventDefault();
      orbit.zoom = Math.min(50, Math.max(0.5, orbit.zoom * Math.exp(-ev.deltaY * 0.001)));
    },
    { passive: false },
  );

  return {
    get paused() {
      return pauseBox.checked;
    },
    takeStep() {
      if (steps === 0) return false;
      steps--;
      return true;
    },
    get validateRequested() {
      return validations > 0;
    },
    view(width, height) {
      return { width, height, showContacts: contactsBox.checked, ...orbit };
    },
    setValidation(text, state, title) {
      validationEl.className = `validation ${state === 'busy' ? '' : state}`;
      validationEl.textContent = text;
      validationEl.title = title ?? '';
      if (state !== 'busy') {
        validations = 0;
        validateButton.disabled = false;
      }
    },
    disable() {
      for (const el of [stepButton, validateButton, pauseBox, contactsBox]) el.disabled = true;
    },
  };
}
